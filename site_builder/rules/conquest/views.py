"""Conquest scores turned into the plain objects pages and JSON twins are made from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...core.model import PlayerRef, Round
from ..base import SlipField
from ..elimination import Match, Progress, bracket_size, round_label
from ..elimination import finish_text as elimination_finish
from ..pairings import Pairings, pairings_of
from ..swiss import MISSED, SwissRecord, attendance_notes
from ..twoplayer import Absence, game_lines, record_line, result_counts, seating
from ..views import Column, PlayerGame, StandingRow, Standings
from .rows import BYE, LOSS, MODIFIED_WIN, WIN, pending_rows
from .scoring import POINTS, TIEBREAK_LABELS, UNPAIRED_LOSS, FinalRow, SwissRow
from .structure import Plan

Ref = Callable[[str], PlayerRef]

RESULT_LABELS = {WIN: "Win", MODIFIED_WIN: "Modified win", LOSS: "Loss", BYE: "Bye",
                 UNPAIRED_LOSS: "Unpaired loss", MISSED: "Unpaired loss (missed round)"}
SWISS_OUTCOMES = {WIN: "win", MODIFIED_WIN: "win", LOSS: "loss"}
"""A Swiss game as a match between decks: a modified win (decided by the Final Decree when
time is called) is still a win."""

RECORD = Column("record", "W–MW–L", "text",
                "wins (byes included) – modified wins – losses (unpaired losses included)")
SWISS_COLUMNS = (
    Column("points", "Points", deciding=True),
    RECORD,
    Column("sos", "SoS", "dec3", "Strength of Schedule"),
    Column("esos", "ESoS", "dec3", "Extended Strength of Schedule"),
)
FINAL_COLUMNS = (Column("finish", "Finish", "text", numeric=False, deciding=True),
                 Column("swiss_rank", "Swiss", "int", "rank after the Swiss rounds",
                        deciding=True),
                 Column("points", "Points")) + SWISS_COLUMNS[1:]
"""Once the cut is made, the finish decides the order (the champion first), then the Swiss
rank: the points are the Swiss rounds'."""


def round_pairings(round_: Round, elimination: bool, ref: Ref) -> Pairings:
    """The round's pairings, with each result once it is in (see rules.pairings)."""
    return pairings_of(round_, ref, "Game" if elimination else "Table", pending_rows,
                       _result_of, BYE, stage="elimination" if elimination else "swiss")


SLIP = tuple(SlipField(label, tick=True) for label in ("Win", "Modified win", "Loss"))
"""Each player of a table ticks how their game ended (Conquest.slip)."""


def _result_of(row, others) -> tuple[str, str]:
    if not others and row.result == LOSS:
        return LOSS, RESULT_LABELS[UNPAIRED_LOSS]
    return row.result, RESULT_LABELS[row.result]


def record_text(record: SwissRecord) -> str:
    return record_line(record, WIN, MODIFIED_WIN, LOSS)


def explanation(seed: int) -> str:
    return ("Win 5, modified win 4, loss 0, bye 5 points. Equal points are ordered by Strength of "
            "Schedule (SoS: the mean, over your opponents, of their points per round played), then "
            "Extended SoS (ESoS: the mean of your opponents' SoS), then by a random draw fixed by the "
            f"event's seed ({seed}), so every build gives the same order.")


COUNTED = {"wins": WIN, "modified_wins": MODIFIED_WIN, "losses": LOSS}


def swiss_values(row: SwissRow) -> dict:
    values = result_counts(row.record, COUNTED)
    values["sos"], values["esos"] = row.sos, row.esos
    return values


def swiss_standings_view(rows: Sequence[SwissRow], title: str, after_round: int, complete: bool,
                         seed: int, ref: Ref, cut: int = 0, cut_line: int = 0) -> Standings:
    """`cut` is the cut's size; `cut_line` the row below which the line is drawn (further down
    than `cut` when a qualified player dropped and the next one moved up)."""
    return Standings(
        title=title,
        after_round=after_round,
        complete=complete,
        columns=SWISS_COLUMNS,
        rows=tuple(
            StandingRow(row.rank, ref(row.name), swiss_values(row), row.record.dropped, row.tiebreak,
                        tuple(attendance_notes(row.record)), {"record": record_text(row.record)})
            for row in rows
        ),
        tiebreak_labels=TIEBREAK_LABELS,
        explanation=explanation(seed),
        phase="swiss",
        cut_after=cut_line,
        cut_label=f"Top {cut} cut" if cut else "",
    )


def finish_text(progress: Progress | None, plan: Plan, complete: bool) -> str:
    """The finish a player's elimination games give them (rules.elimination.finish_text)."""
    return elimination_finish(progress, plan.elimination_rounds, complete)


def final_standings_view(rows: Sequence[FinalRow], title: str, after_round: int, complete: bool,
                         seed: int, plan: Plan, swiss: Standings) -> Standings:
    """`swiss` is the view of the last Swiss standings, whose rows these rows extend."""
    swiss_row = {row.player.name: row for row in swiss.rows}

    def view(row: FinalRow) -> StandingRow:
        shown = swiss_row[row.swiss.name]
        finish = finish_text(row.progress, plan, complete)
        tiebreak = None if row.progress else shown.tiebreak
        values = {"finish": finish, "swiss_rank": row.swiss.rank, **shown.values}
        return StandingRow(row.rank, shown.player, values, shown.dropped, tiebreak, shown.notes,
                           shown.cells)

    return Standings(
        title=title,
        after_round=after_round,
        complete=complete,
        columns=FINAL_COLUMNS,
        rows=tuple(view(row) for row in rows),
        tiebreak_labels=TIEBREAK_LABELS,
        explanation=(f"The top {plan.cut} after the Swiss rounds played single elimination: the "
                     "champion comes first, then the finalist, then each earlier round's losers "
                     "by Swiss rank, then everyone else by Swiss rank; the tiebreak column shows "
                     "how the Swiss ranks of the rest were decided. " + explanation(seed)),
        phase="elimination",
    )


# ---------------------------------------------------------------- round pages


@dataclass(frozen=True, slots=True)
class Seat:
    player: PlayerRef
    result: str
    points: int | None
    won: bool
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class ConquestRound:
    elimination: bool
    tables: tuple[TableView, ...]
    byes: tuple[Seat, ...]
    unpaired: tuple[Seat, ...]
    absent: tuple[Absence, ...]


def round_tables(round_: Round, elimination: bool, ref: Ref, seeds: Mapping[str, int],
                 absent: Sequence[Absence] = ()) -> ConquestRound:
    def seat(row) -> Seat:
        kind = row.result
        return Seat(ref(row.player), RESULT_LABELS[kind], None if elimination else POINTS[kind],
                    kind in (WIN, MODIFIED_WIN, BYE), seeds.get(row.player))

    def unpaired_seat(row) -> Seat:
        return Seat(ref(row.player), RESULT_LABELS[UNPAIRED_LOSS], 0, False)

    games, byes, unpaired = seating(round_, keep_lone=elimination)
    views = tuple(TableView(number, tuple(seat(r) for r in rows)) for number, rows in games)
    return ConquestRound(elimination, views, tuple(seat(r) for r in byes),
                         tuple(unpaired_seat(r) for r in unpaired), tuple(absent))


# ---------------------------------------------------------------- player pages


def player_games(name: str, record: SwissRecord, elimination: Sequence[tuple[Round, Match]],
                 plan: Plan, ref: Ref) -> tuple[PlayerGame, ...]:
    """A player's Swiss games (missed rounds included), then their elimination games."""
    lines = game_lines(record, lambda game: RESULT_LABELS[game.kind], ref, SWISS_OUTCOMES)
    for round_, match in elimination:
        opponent = tuple(ref(p) for p in match.players if p != name)
        mark = match.marks[name]
        result = {"W": "Win", "MW": "Modified win", "L": "Loss", "bye": "Bye"}[mark]
        index = round_.number - plan.swiss_rounds - 1
        label = round_label(bracket_size(plan.elimination_rounds, index))
        lines.append(PlayerGame(round_.number, label, f"Game {match.number}", opponent, result, "",
                                outcome=match.outcome(name)))
    return tuple(lines)

