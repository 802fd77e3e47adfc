"""Conquest scoring (regulations, "Tournament Points" and "Tiebreakers"): pure functions.

Win 5, modified win 4, loss 0; a bye is a win. Players are ordered by points, then Strength of
Schedule, then Extended SoS, then a random order seeded by the event. After the cut, single
elimination decides the top of the final standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Round
from ..elimination import Match, Progress, progress
from ..swiss import Game, SwissRecord, records_after
from ..tiebreaks import decided_by, lottery
from ..twoplayer import UNPAIRED_LOSS, paired_games, schedule_of
from .rows import BYE, LOSS, MODIFIED_WIN, WIN, tables_of

POINTS = {WIN: 5, MODIFIED_WIN: 4, LOSS: 0, BYE: 5, UNPAIRED_LOSS: 0}
TIEBREAK_LABELS = {"sos": "SoS", "esos": "ESoS", "random": "random"}


def swiss_games(round_: Round) -> dict[str, Game]:
    """Each player's game in a Swiss round: against an opponent, a bye, or an unpaired loss."""
    return paired_games(round_, _own_result, POINTS)


def _own_result(row, opponent) -> str:
    return row.result


MARKS = {WIN: "W", MODIFIED_WIN: "MW", LOSS: "L", BYE: "bye"}


def elimination_matches(round_: Round, expected: Mapping[str, int]) -> list[Match]:
    """The round's games; a bye written without a Game number takes the one the bracket gives
    its player (`expected`), or else the first number no other game uses."""
    tables, loose = tables_of(round_)
    matches = [
        Match(number, tuple(r.player for r in rows),
              next((r.player for r in rows if r.result != LOSS), None),
              {r.player: MARKS[r.result] for r in rows})
        for number, rows in tables.items()
    ]
    taken = set(tables)
    for row in loose:  # only byes: validation rejects anything else without a Game number
        number = expected.get(row.player)
        if number is None or number in taken:
            number = next(n for n in range(1, len(round_.rows) + 2) if n not in taken)
        taken.add(number)
        matches.append(Match(number, (row.player,), row.player, {row.player: MARKS[BYE]}))
    return sorted(matches, key=lambda m: m.number)


@dataclass(frozen=True, slots=True)
class SwissRow:
    rank: int
    record: SwissRecord
    sos: Fraction
    esos: Fraction
    tiebreak: str | None

    @property
    def name(self) -> str:
        return self.record.name


def rank_swiss(records: Mapping[str, SwissRecord], seed: int) -> list[SwissRow]:
    """Swiss standings: points, SoS, ESoS, then the seeded draw; ranks are never shared."""
    strength = schedule_of(records)
    sos, esos = strength.sos, strength.esos
    draw = {name: lottery(seed, name) for name in records}
    # Best first: higher points, SoS, ESoS (exact integer keys), then the lower draw.
    keys_of = {n: (records[n].points, strength.sos_key[n], strength.esos_key[n], -draw[n])
               for n in records}
    order = sorted(records, key=keys_of.__getitem__, reverse=True)
    keys = [keys_of[n] for n in order]
    labels = decided_by(keys, (None, "sos", "esos", "random"), tied="random")
    return [SwissRow(i + 1, records[n], sos[n], esos[n], labels[i]) for i, n in enumerate(order)]


def swiss_standings(played: Mapping[int, Mapping[str, Game]], k: int, seed: int) -> list[SwissRow]:
    return rank_swiss(records_after(played, k), seed)


@dataclass(frozen=True, slots=True)
class FinalRow:
    """A player's place after elimination rounds: their Swiss row and how far they got."""

    rank: int
    swiss: SwissRow
    progress: Progress | None


def final_order(swiss: Sequence[SwissRow], elimination: Sequence[Sequence[Match]]) -> list[FinalRow]:
    """Champion, finalist, then each earlier round's losers by Swiss rank, then everyone else.

    (Regulations, "Single Elimination Rounds"; data contract §4.) Players still in the bracket of
    an unfinished event come before those already out, each group by Swiss rank.
    """
    reached = progress(elimination)
    order = sorted(swiss, key=lambda row: (-(reached[row.name].order if row.name in reached else 0),
                                           row.rank))
    return [FinalRow(i + 1, row, reached.get(row.name)) for i, row in enumerate(order)]


def cut_players(swiss: Sequence[SwissRow], cut: int) -> list[str]:
    """Who makes a top-`cut` cut: the best-ranked players still in the event.

    A player who dropped during the Swiss rounds keeps their standing but does not play on; as the
    regulations say for a qualified player who drops, the next-ranked player takes the place.
    """
    return [row.name for row in swiss if not row.record.dropped][:cut]
