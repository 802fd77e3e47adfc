"""Reascension and Revelations round files: one row per player per table (seed 000, 3.2–3.3).

A seat whose result and tau are both empty is still being played: that is how `site-builder
pair` writes a round, and the newest round may be in progress (see rules.pairings). A table with
such a seat is checked for what is wrong whatever else is typed (its size, two winners, a winner
and 'time'), and in full once every seat is in.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ...core.model import Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number
from ..seating import check_one_seat_each, check_time_on_every_row

COLUMNS = ColumnSpec(required=("table", "player", "result", "tau"))
WIN, TIME = "win", "time"


@dataclass(frozen=True, slots=True)
class Seat:
    line: int
    table: int
    player: str
    result: str
    """"win", "time" or "" (played on, did not win)."""
    tau: int | None
    """Tau stored at the end of the game; may be left empty for the winner."""

    @property
    def waiting(self) -> bool:
        """Result and tau both empty: the game is still being played."""
        return self.result == "" and self.tau is None


def read_rows(table: CsvTable, shown: str, log: ProblemLog) -> tuple[Seat, ...]:
    seats = []
    for row in table.rows:
        player = row.get("player")
        number = whole_number(row.get("table"), "table", 1, shown, row.line, log)
        result = row.get("result").lower()
        tau = whole_number(row.get("tau"), "tau", 0, shown, row.line, log)
        ok = True
        if not player:
            log.error(shown, row.line, "the player cell is empty: expected the player's name")
            ok = False
        if result not in (WIN, TIME, ""):
            log.error(shown, row.line, f"result '{row.get('result')}' is not a Heresy result: expected "
                                       "'win' for the table's winner, 'time' on every row of a table "
                                       "that ran out of time, or empty")
            ok = False
        if number is INVALID or tau is INVALID or not ok:
            continue
        if number is None:
            log.error(shown, row.line, "the table cell is empty: expected the table's number")
            continue
        if tau is None and result == TIME:
            log.error(shown, row.line, f"{player} has no tau: expected the tau stored at the end "
                                       "of the game (a whole number, 0 or more)")
            continue
        seats.append(Seat(row.line, number, player, result, tau))
    return tuple(seats)


def tables_of(round_: Round) -> dict[int, list[Seat]]:
    tables: dict[int, list[Seat]] = defaultdict(list)
    for seat in round_.rows:
        tables[seat.table].append(seat)
    return dict(sorted(tables.items()))


def check_round(round_: Round, log: ProblemLog) -> None:
    check_one_seat_each(round_, log)
    for number, seats in tables_of(round_).items():
        if not round_.table_rejected(number):
            _check_table(round_.path, number, seats, log)


def _check_table(path: str, number: int, seats: list[Seat], log: ProblemLog) -> None:
    """The table's size and results; while a seat waits for its result only what typing the
    rest cannot put right is reported."""
    names = ", ".join(s.player for s in seats)
    last = seats[-1].line
    if len(seats) not in (3, 4):
        log.error(path, last, f"table {number} has {len(seats)} player{'s' if len(seats) != 1 else ''} "
                              f"({names}): Heresy tables seat 3 or 4 (seed 3.2.1)")
        return
    winners = [s for s in seats if s.result == WIN]
    timed = [s for s in seats if s.result == TIME]
    if len(winners) > 1:
        log.error(path, winners[1].line, f"table {number} has two winners "
                                         f"({winners[0].player} and {winners[1].player}): one "
                                         "player wins a game")
    elif winners and timed:
        log.error(path, winners[0].line, f"table {number} has a winner ({winners[0].player}) and "
                                         "'time': a game that ran out of time has no winner")
    elif any(seat.waiting for seat in seats):
        return  # still being played: checked in full once every seat is in
    elif timed:
        check_time_on_every_row(path, number, seats, TIME, log)
    elif not winners:
        log.error(path, last, f"table {number} has no winner: write 'win' for the player who won, "
                              "or 'time' on every row if the game ran out of time")
