"""The Buchholz family and Sonneborn-Berger, with unplayed rounds as FIDE's Tie-Break
Regulations C.07 (2023) manage them (Art. 16), for a Swiss.

There is no "virtual opponent" since 2023. What the 2023 rules say, as the three open
implementations that reproduce every answer of Mario Held's "Exercises in Tie-Breaking" read them
(TieBreakServer, Sharly-Chess, marceljuenemann/tiebreak; tests/games/declared/test_fide_held.py
checks Held's 48 Swiss values of Buchholz, Buchholz Cut-1 and Sonneborn-Berger):

* A round a player did not play over the board (a bye of any kind, a forfeit either way, an
  absence) counts in their own Buchholz as a game against a "dummy" opponent with the player's
  own score.
* An opponent's score, as it counts for others, is their points, except that the rounds with no
  opponent after their last round that was not voluntarily unplayed (a withdrawal, requested
  byes at the end) count as draws.
* The voluntarily unplayed rounds (VUR: a forfeit loss, a requested bye of half or zero points,
  an absence; not the pairing-allocated bye nor a forfeit win) are cut first where a Cut-1
  cuts the least significant value.

The 2026 amendment (FIDE Council, 2 February 2026, for tournaments from 1 March 2026) caps the
dummy at half the rounds; the issue asked for the 2023 regulations, which these are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from .model import Declaration, TiebreakChoice
from .tally import UNPAIRED, Record, Result
from .vocabulary import ABSENT, FORFEIT_LOSS, HALF_BYE, ZERO_BYE

VOLUNTARY = (FORFEIT_LOSS, HALF_BYE, ZERO_BYE, ABSENT, UNPAIRED)
ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one round adds to a player's Buchholz (`score`: the opponent's, or the dummy's)
    and to their Sonneborn-Berger (`value`: that score times the points of the round)."""

    score: Fraction
    value: Fraction
    voluntary: bool


def _rounds(record: Record, after: int, absent: Fraction) -> list[Result]:
    """Every round up to `after`: a player who dropped has the rest as absences."""
    rounds = list(record.results)
    rounds += [Result(r, ABSENT, "loss", absent) for r in range(record.last_round + 1, after + 1)]
    return rounds


def adjusted_score(rounds: list[Result], draw: Fraction) -> Fraction:
    """A player's score as their opponents' tiebreaks count it (see the module's docstring)."""
    last = max((i for i, r in enumerate(rounds) if r.kind not in VOLUNTARY), default=-1)
    return sum((draw if i > last and r.against is None else r.points
                for i, r in enumerate(rounds)), ZERO)


def contributions(records: Mapping[str, Record], declaration: Declaration
                  ) -> dict[str, list[Contribution]]:
    after = max((r.last_round for r in records.values()), default=0)
    absent = declaration.points_of(ABSENT)
    draw = next((r.points for r in declaration.results if r.outcome == "draw"),
                declaration.win_points / 2)
    rounds = {name: _rounds(record, after, absent) for name, record in records.items()}
    adjusted = {name: adjusted_score(played, draw) for name, played in rounds.items()}
    found = {}
    for name, played in rounds.items():
        own = records[name].points
        found[name] = [Contribution(adjusted[r.opponent] if r.opponent else own,
                                    (adjusted[r.opponent] if r.opponent else own) * r.points,
                                    r.kind in VOLUNTARY)
                       for r in played]
    return found


def cut(games: list[Contribution], low: int, high: int, sonneborn: bool = False) -> Fraction:
    """The sum of the values left after cutting the `low` least significant and `high` most
    significant rounds. The least significant is the one with the lowest score; when a
    voluntarily unplayed round would add more than it, the one of those adding least is cut
    instead (for Buchholz a voluntarily unplayed round is so always cut first)."""
    left = list(games)
    for _ in range(min(low, len(left))):
        least = min(left, key=lambda g: (g.score, g.value))
        voluntary = [g for g in left if g.voluntary]
        chosen = least
        if voluntary:
            smallest = min(voluntary, key=lambda g: (g.value, g.score))
            if least.value <= smallest.value:
                chosen = smallest
        left.remove(chosen)
    for _ in range(min(high, len(left))):
        left.remove(max(left, key=lambda g: (g.score, g.value)))
    return sum((g.value for g in left), ZERO)


def _buchholz(low: int, high: int):
    def compute(records: Mapping[str, Record], declaration: Declaration,
                choice: TiebreakChoice) -> dict[str, Fraction]:
        found = contributions(records, declaration)
        return {name: cut([Contribution(g.score, g.score, g.voluntary) for g in games], low, high)
                for name, games in found.items()}
    return compute


def _sonneborn_berger(records: Mapping[str, Record], declaration: Declaration,
                      choice: TiebreakChoice) -> dict[str, Fraction]:
    return {name: sum((g.value for g in games), ZERO)
            for name, games in contributions(records, declaration).items()}


CHESS = {
    "buchholz": _buchholz(0, 0),
    "buchholz-cut1": _buchholz(1, 0),
    "median-buchholz": _buchholz(1, 1),
    "sonneborn-berger": _sonneborn_berger,
}
