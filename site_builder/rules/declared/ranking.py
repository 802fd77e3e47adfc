"""A declared game's Swiss standings: points, then the game's tiebreaks in its order, then the
seeded draw, so no two players ever share a rank (as the seed games' Swiss standings).

Every level is compared exactly (Fractions). `head-to-head` is the one level that depends on
who else is tied: it is worked out for each group still tied on every level before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..tiebreaks import decided_by
from .model import Declaration
from .tally import Record
from .tiebreaks import COMPUTED, ZERO, random_draw

HEAD_TO_HEAD = "head-to-head"
RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    record: Record
    values: dict[str, Fraction]
    """Each tiebreak of the chain by its vocabulary name (random not among them)."""
    tiebreak: str | None

    @property
    def name(self) -> str:
        return self.record.name


def rank(records: Mapping[str, Record], declaration: Declaration, seed: int) -> list[Ranked]:
    chain = [c for c in declaration.tiebreaks if c.name != RANDOM]
    values: dict[str, dict[str, Fraction]] = {}
    for choice in chain:
        if choice.name in COMPUTED:
            values[choice.name] = COMPUTED[choice.name](records, declaration, choice)
    draw = random_draw(records, seed)
    names = sorted(records)
    keys = {n: [records[n].points] for n in names}
    for choice in chain:
        if choice.name == HEAD_TO_HEAD:
            values[HEAD_TO_HEAD] = _head_to_head(records, keys)
        for n in names:
            keys[n].append(values[choice.name][n])
    order = sorted(names, key=lambda n: (*(-v for v in keys[n]), draw[n]))
    sort_keys = [(*keys[n], -draw[n]) for n in order]
    labels = decided_by(sort_keys, (None, *(c.name for c in chain), RANDOM), tied=RANDOM)
    return [Ranked(i + 1, records[n], {c.name: values[c.name][n] for c in chain}, labels[i])
            for i, n in enumerate(order)]


def _head_to_head(records: Mapping[str, Record], keys: Mapping[str, list]) -> dict[str, Fraction]:
    """Play! Pokémon (TRH 5.5.1.1): "If exactly two competitors are tied … and those competitors
    played each other …, then the winner of that match is ranked higher". So a pair still tied
    on every level before this one, who met, is ordered by the points each scored against the
    other; any other group (more than two, or two who never met) is left to the next level."""
    groups: dict[tuple, list[str]] = {}
    for name, key in keys.items():
        groups.setdefault(tuple(key), []).append(name)
    found = {name: ZERO for name in records}
    for group in groups.values():
        if len(group) != 2:
            continue
        a, b = group
        met = [r for r in records[a].results if r.opponent == b]
        if met:
            found[a] = sum((r.points for r in met), ZERO)
            found[b] = sum((r.points for r in records[b].results if r.opponent == a), ZERO)
    return found
