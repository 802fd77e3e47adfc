"""Percentage of Goal (seed 003, "Percentage of Goal Scoring System"), exactly.

A player's percentage is the best of: groups controlled as a percentage of the goal, and the
percentage of a special goal achieved. A two-part special goal averages its parts, each capped at
100. The seed takes the percentage "to as many decimals as needed to determine a winner", so it is
kept as an exact fraction and only pages round it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

HUNDRED = Fraction(100)
PERCENT = re.compile(r"[0-9]{1,3}(\.[0-9]{1,12})?")


def groups_percentage(groups: int, goal_groups: int) -> Fraction:
    """Groups controlled (bonuses included) as a percentage of the goal: 8 of 11 → 72.72…%."""
    return Fraction(groups * 100, goal_groups)


def part_percentage(achieved: int | Fraction, needed: int | Fraction) -> Fraction:
    """One part of a special goal, capped at 100 (the seed: no bonus for "extra" Power)."""
    return min(Fraction(achieved) * 100 / Fraction(needed), HUNDRED)


def special_goal_percentage(parts: Sequence[tuple[int | Fraction, int | Fraction]]) -> Fraction:
    """A special goal's percentage: the mean of its parts, each capped at 100.

    Bermuda Triangle with 8 of 10 alignments and 33 of 35 Power: (80 + 94.29) / 2 = 87.14%.
    """
    values = [part_percentage(achieved, needed) for achieved, needed in parts]
    return sum(values, Fraction(0)) / len(values)


def percentage_of_goal(groups: int, goal_groups: int, special: Fraction | None) -> Fraction:
    """The best of the groups percentage and the special goal's."""
    by_groups = groups_percentage(groups, goal_groups)
    return by_groups if special is None else max(by_groups, special)


def parse_percentage(text: str) -> Fraction | None:
    """'87.142857' (or '87.142857 %') → that exact decimal as a Fraction; None when the text is
    not a decimal number of up to three digits before the point."""
    cleaned = text.strip().removesuffix("%").strip()
    return Fraction(cleaned) if PERCENT.fullmatch(cleaned) else None
