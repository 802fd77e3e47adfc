"""Kingdom scoring: pure functions from typed rounds to ranked rows.

More hero houses wins; equal counts are a cosmic struggle, a draw (seed 004, "Conclusion").
Points: `win_points` per win or bye, `draw_points` per cosmic struggle, 0 per loss or unpaired
loss. Order: points, then Strength of Schedule (the shared `tiebreaks.schedule`, as Conquest),
then total hero houses; players equal on all three share a rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Round
from ..swiss import Game, SwissRecord, records_after
from ..tiebreaks import decided_by, shared_ranks
from ..twoplayer import BYE, UNPAIRED_LOSS, paired_games, schedule_of, seating
from .options import KingdomOptions

WIN, DRAW, LOSS = "win", "draw", "loss"
TIEBREAK_LABELS = {"sos": "SoS", "houses": "hero houses", "shared": "shared"}

Scores = Mapping[int, Mapping[str, tuple[int, int]]]
"""By round, each paired player's (own hero houses, opponent's hero houses)."""


def points_of(options: KingdomOptions) -> dict[str, int]:
    return {WIN: options.win_points, DRAW: options.draw_points, LOSS: 0,
            BYE: options.win_points, UNPAIRED_LOSS: 0}


def game_result(row, opponent) -> str:
    """More hero houses wins; equal counts are a cosmic struggle (a draw)."""
    if row.houses == opponent.houses:
        return DRAW
    return WIN if row.houses > opponent.houses else LOSS


def swiss_games(round_: Round, options: KingdomOptions) -> dict[str, Game]:
    """Each player's game in a round: a win, draw or loss at a table of two, a bye, or an
    unpaired loss."""
    return paired_games(round_, game_result, points_of(options))


def round_scores(round_: Round) -> dict[str, tuple[int, int]]:
    """(own, opponent's) hero houses of every player who had an opponent in the round."""
    games, _, _ = seating(round_)
    return {row.player: (row.houses, other.houses)
            for _, (a, b) in games for row, other in ((a, b), (b, a))}


def houses_after(scores: Scores, k: int) -> dict[str, int]:
    """Each player's total hero houses over rounds 1..k (byes and unpaired losses add none)."""
    totals: dict[str, int] = {}
    for number, by_player in scores.items():
        if number <= k:
            for name, (own, _) in by_player.items():
                totals[name] = totals.get(name, 0) + own
    return totals


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    record: SwissRecord
    sos: Fraction
    houses: int
    tiebreak: str | None
    shared: bool
    """Another player holds the same rank."""

    @property
    def name(self) -> str:
        return self.record.name


def rank(records: Mapping[str, SwissRecord], houses: Mapping[str, int]) -> list[Ranked]:
    """Points, then SoS, then total hero houses; players equal on all three share a rank (and
    are listed by name)."""
    strength = schedule_of(records)
    keys_of = {n: (records[n].points, strength.sos_key[n], houses.get(n, 0)) for n in records}
    order = sorted(records, key=lambda n: (tuple(-v for v in keys_of[n]), n.casefold(), n))
    keys = [keys_of[n] for n in order]
    labels = decided_by(keys, (None, "sos", "houses"), tied="shared")
    ranks = shared_ranks(keys)
    holders = Counter(ranks)
    return [Ranked(r, records[n], strength.sos[n], houses.get(n, 0), label, holders[r] > 1)
            for r, n, label in zip(ranks, order, labels)]


def standings_after(played: Mapping[int, Mapping[str, Game]], scores: Scores,
                    k: int) -> list[Ranked]:
    return rank(records_after(played, k), houses_after(scores, k))
