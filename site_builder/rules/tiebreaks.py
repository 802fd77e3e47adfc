"""Tiebreaks shared by the games: Strength of Schedule, its extension, seeded random order.

All values are exact (`Fraction`) and compared exactly; rounding is for display only. Rounding
before averaging is how other tools end up ranking a player above one with a higher true SoS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def mean(values: Sequence[Fraction]) -> Fraction:
    """The mean, or 0 for no values (a player with no opponents has SoS 0: data contract §4)."""
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def strength_of_schedule(
    opponents: Mapping[P, Sequence[P]], points: Mapping[P, int], rounds_played: Mapping[P, int]
) -> dict[P, Fraction]:
    """Mean over a player's opponents of (opponent's points ÷ opponent's rounds played).

    An opponent met twice counts twice: the seed adds "the results of each opponent played" and
    divides by the number of opponents played, i.e. one term per game.
    """
    average = {p: Fraction(points[p], rounds_played[p]) for p in points if rounds_played[p]}
    return {p: mean([average[o] for o in opponents[p]]) for p in opponents}


def extended_sos(opponents: Mapping[P, Sequence[P]], sos: Mapping[P, Fraction]) -> dict[P, Fraction]:
    """Mean of the opponents' Strength of Schedule."""
    return {p: mean([sos[o] for o in opponents[p]]) for p in opponents}


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
        return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))

    names = list(labels) + [tied]
    gaps = [level_between(sort_keys[i], sort_keys[i + 1]) for i in range(len(sort_keys) - 1)]
    result: list[str | None] = []
    for i in range(len(sort_keys)):
        around = [g for g in (gaps[i - 1] if i > 0 else None, gaps[i] if i < len(gaps) else None)
                  if g is not None]
        result.append(names[max(around)] if around else None)
    return result


def shared_ranks(sort_keys: Sequence[tuple]) -> list[int]:
    """1-based ranks where rows with equal keys share the better rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    for i, key in enumerate(sort_keys):
        ranks.append(ranks[-1] if i and key == sort_keys[i - 1] else i + 1)
    return ranks
