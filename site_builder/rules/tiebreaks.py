"""Tiebreaks shared by the games: Strength of Schedule, its extension, seeded random order.

All values are exact (`Fraction`) and compared exactly; rounding is for display only. Rounding
before averaging is how other tools end up ranking a player above one with a higher true SoS.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def mean(values: Sequence[Fraction]) -> Fraction:
    """The exact mean, or 0 for no values (a player with no opponents has SoS 0: contract §4).

    Summed over one common denominator: adding Fractions one by one reduces by a gcd at every
    step, which made scoring a large archive take minutes. The denominators here are rounds
    played (small), so their lcm stays small and the result is exactly the same.
    """
    if not values:
        return Fraction(0)
    denominator = math.lcm(*(v.denominator for v in values))
    total = sum(v.numerator * (denominator // v.denominator) for v in values)
    return Fraction(total, denominator * len(values))


def strength_of_schedule(
    opponents: Mapping[P, Sequence[P]], points: Mapping[P, int], rounds_played: Mapping[P, int]
) -> dict[P, Fraction]:
    """Mean over a player's opponents of (opponent's points ÷ opponent's rounds played).

    An opponent met twice counts twice: the seed adds "the results of each opponent played" and
    divides by the number of opponents played, i.e. one term per game.
    """
    # Each opponent's average over one common denominator L: an integer sum per player, one
    # exact Fraction at the end (a Fraction per opponent made large archives slow to score).
    common = math.lcm(*(r for r in rounds_played.values() if r)) or 1
    scaled = {p: points[p] * (common // rounds_played[p]) for p in points if rounds_played[p]}
    return {p: Fraction(sum(scaled[o] for o in opps), common * len(opps)) if opps else Fraction(0)
            for p, opps in opponents.items()}


def extended_sos(opponents: Mapping[P, Sequence[P]], sos: Mapping[P, Fraction]) -> dict[P, Fraction]:
    """Mean of the opponents' Strength of Schedule."""
    return {p: mean([sos[o] for o in opponents[p]]) for p in opponents}


@dataclass(frozen=True, slots=True)
class Schedule:
    """SoS and ESoS of every player, exact, with integer keys that order them exactly."""

    sos: dict
    esos: dict
    sos_key: dict
    esos_key: dict


def schedule(opponents: Mapping[P, Sequence[P]], points: Mapping[P, int],
             rounds_played: Mapping[P, int]) -> Schedule:
    """Strength of Schedule and Extended SoS in one integer pass (same values as
    `strength_of_schedule` and `extended_sos`).

    With c = lcm(rounds played), an opponent's average is a[o] / c. A player's SoS is
    S[p] / (c · n[p]) for n[p] opponents; over m = lcm(n) it is s[p] / (c · m) with
    s[p] = S[p] · m / n[p]. ESoS is then E[p] / (c · m · n[p]) with E[p] = Σ s[o]. Fractions are
    made once per player at the end; s and E · m / n order players exactly as the values do.
    """
    common = math.lcm(*(r for r in rounds_played.values() if r)) or 1
    average = {p: points[p] * (common // played) for p, played in rounds_played.items() if played}
    m = math.lcm(*{len(opps) for opps in opponents.values() if opps}) or 1
    scaled_sos = {p: sum(map(average.__getitem__, opps)) * (m // len(opps)) if opps else 0
                  for p, opps in opponents.items()}
    sos, esos, esos_key = {}, {}, {}
    for p, opps in opponents.items():  # one pass for the rest: this runs after every round
        sos[p] = Fraction(scaled_sos[p], common * m)
        if opps:
            total = sum(map(scaled_sos.__getitem__, opps))
            esos[p] = Fraction(total, common * m * len(opps))
            esos_key[p] = total * (m // len(opps))
        else:
            esos[p], esos_key[p] = _ZERO, 0
    return Schedule(sos, esos, scaled_sos, esos_key)


_ZERO = Fraction(0)


def comparable(values: Mapping[P, Fraction]) -> dict[P, int]:
    """The same values as integers over their common denominator: ordered and equal exactly as
    the Fractions are, but compared without Fraction's slow generic arithmetic."""
    denominator = math.lcm(*(v.denominator for v in values.values())) if values else 1
    return {k: v.numerator * (denominator // v.denominator) for k, v in values.items()}


def lottery(seed: int, key: str) -> int:
    """A player's fixed draw in the seeded random tiebreak.

    Derived from the event seed and the player alone, so a tie between the same two players
    breaks the same way after every round and in every build, whoever else is in the event.
    """
    digest = hashlib.sha256(f"{seed}\x1f{key}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def default_seed(slug: str) -> int:
    """The seed of an event that sets none: stable per slug (data contract §2)."""
    return int.from_bytes(hashlib.sha256(slug.encode("utf-8")).digest()[:4], "big")


def decided_by(sort_keys: Sequence[tuple], labels: Sequence[str | None],
               tied: str | None = None) -> list[str | None]:
    """For rows already in order, the deepest tiebreak that placed each row among its neighbours.

    `sort_keys[i][level]` is row i's value at each level (primary score first); `labels[level]`
    names the level (None for the primary score). A row tied with a neighbour on the primary score
    gets the name of the first level where they differ; with ties on both sides, the deeper one.
    Rows equal on every level get `tied` (games whose ties share a rank).
    """
    def level_between(a: tuple, b: tuple) -> int:
        for level in range(len(a)):
            if a[level] != b[level]:
                return level
        return len(a)

    names = list(labels) + [tied]
    # The level between each pair of neighbours, and -1 beyond either end (no neighbour there).
    gaps = [-1, *map(level_between, sort_keys, sort_keys[1:]), -1]
    return [names[deepest] if deepest >= 0 else None
            for deepest in map(max, gaps, gaps[1:])][:len(sort_keys)]


def shared_ranks(sort_keys: Sequence[object]) -> list[int]:
    """1-based ranks where rows with equal keys share the better rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    for i, key in enumerate(sort_keys):
        ranks.append(ranks[-1] if i and key == sort_keys[i - 1] else i + 1)
    return ranks
