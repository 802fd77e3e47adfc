"""Kingdom scores turned into the plain objects pages and JSON twins are made from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...core.model import PlayerRef, Round
from ..base import SlipField
from ..views import Column, PlayerGame, Standings, StandingRow
from ..swiss import MISSED, Game, SwissRecord, attendance_notes
from ..twoplayer import (BYE, UNPAIRED_LOSS, Absence, Ref, game_lines, record_line, result_counts,
                         seating)
from .options import KingdomOptions
from ..pairings import Pairings, pairings_of
from .rows import pending_rows
from .scoring import DRAW, LOSS, TIEBREAK_LABELS, WIN, Ranked, Scores, game_result

RESULT_LABELS = {WIN: "Win", DRAW: "Cosmic struggle (draw)", LOSS: "Loss", BYE: "Bye",
                 UNPAIRED_LOSS: "Unpaired loss", MISSED: "Unpaired loss (missed round)"}

COLUMNS = (
    Column("points", "Points", deciding=True),
    Column("record", "W–D–L", "text",
           "wins (byes included) – cosmic struggles (draws) – losses (unpaired losses included)"),
    Column("sos", "SoS", "dec3", "Strength of Schedule"),
    Column("houses", "Houses", "int", "hero houses made in all games"),
)


def record_text(record: SwissRecord) -> str:
    return record_line(record, WIN, DRAW, LOSS)


def explanation(options: KingdomOptions) -> str:
    return (f"Win {options.win_points}, cosmic struggle (a draw: equal hero houses) "
            f"{options.draw_points}, loss 0, bye {options.win_points} points. Equal points are "
            "ordered by Strength of Schedule (SoS: the mean, over your opponents, of their points "
            "per round played), then by the hero houses made in all games; players equal on all "
            "three share a rank.")


def values(row: Ranked) -> dict:
    counts = result_counts(row.record, {"wins": WIN, "draws": DRAW, "losses": LOSS})
    return {**counts, "sos": row.sos, "houses": row.houses}


def standings_view(rows: Sequence[Ranked], title: str, after_round: int, complete: bool,
                   options: KingdomOptions, ref: Ref) -> Standings:
    return Standings(
        title=title,
        after_round=after_round,
        complete=complete,
        columns=COLUMNS,
        rows=tuple(StandingRow(row.rank, ref(row.name), values(row), row.record.dropped,
                               row.tiebreak, tuple(attendance_notes(row.record)),
                               {"record": record_text(row.record)})
                   for row in rows),
        tiebreak_labels=TIEBREAK_LABELS,
        explanation=explanation(options),
    )


# ---------------------------------------------------------------- round pages


@dataclass(frozen=True, slots=True)
class Seat:
    player: PlayerRef
    houses: int | None
    result: str
    points: int
    won: bool


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[Seat, ...]
    draw: bool


@dataclass(frozen=True, slots=True)
class KingdomRound:
    tables: tuple[TableView, ...]
    byes: tuple[Seat, ...]
    unpaired: tuple[Seat, ...]
    absent: tuple[Absence, ...]


def round_view(round_: Round, games: Mapping[str, Game], ref: Ref,
               absent: Sequence[Absence]) -> KingdomRound:
    """The round's tables with both players' hero houses, then byes and unpaired losses."""
    def seat(row) -> Seat:
        game = games[row.player]
        return Seat(ref(row.player), row.houses if game.opponent else None,
                    RESULT_LABELS[game.kind], game.points, game.kind in (WIN, BYE))

    pairs, byes, unpaired = seating(round_)
    tables = tuple(TableView(number, tuple(seat(r) for r in rows),
                             games[rows[0].player].kind == DRAW)
                   for number, rows in pairs)
    return KingdomRound(tables, tuple(seat(r) for r in byes), tuple(seat(r) for r in unpaired),
                        tuple(absent))


def round_pairings(round_: Round, ref: Ref) -> Pairings:
    """The round's pairings, with each result and both players' hero houses once in."""
    return pairings_of(round_, ref, "Table", pending_rows, _result_of, BYE)


SLIP = (SlipField("Hero houses made"),)
"""Each player of a table writes the hero houses they made: the count decides the game
(Kingdom.slip)."""


def _result_of(row, others) -> tuple[str, str]:
    if not others:  # a lone row that is not a bye
        return LOSS, RESULT_LABELS[UNPAIRED_LOSS]
    opponent = others[0]
    kind = game_result(row, opponent)
    return kind, f"{RESULT_LABELS[kind]}, {row.houses}–{opponent.houses}"


# ---------------------------------------------------------------- player pages


def player_games(record: SwissRecord, scores: Scores, ref: Ref) -> tuple[PlayerGame, ...]:
    """Each round's result with the hero houses of both players ("Win, 12–8")."""
    def result(game: Game) -> str:
        label = RESULT_LABELS[game.kind]
        own, theirs = scores.get(game.round, {}).get(record.name, (None, None))
        return label if own is None or not game.opponent else f"{label}, {own}–{theirs}"

    return tuple(game_lines(record, result, ref))
