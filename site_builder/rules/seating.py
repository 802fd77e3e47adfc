"""Rows of a round grouped by table, and the one-seat-per-round check: shared by every game whose
round files have a `table` column (two-player games and multi-player tables alike)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..core.model import Round
from ..core.problems import ProblemLog


def tables_of(round_: Round) -> tuple[dict[int, list[Any]], list[Any]]:
    """Rows grouped by table number, in table order, and the rows without a table."""
    tables: dict[int, list[Any]] = defaultdict(list)
    loose: list[Any] = []
    for row in round_.rows:
        (tables[row.table] if row.table is not None else loose).append(row)
    return dict(sorted(tables.items())), loose


def check_one_seat_each(round_: Round, log: ProblemLog) -> None:
    """A player sits at one table per round (multi-player tables)."""
    first: dict[str, Any] = {}
    for seat in round_.rows:
        if seat.player in first:
            other = first[seat.player]
            where = (f"at table {seat.table} and at table {other.table}" if seat.table != other.table
                     else f"twice at table {seat.table}")
            log.error(round_.path, seat.line, f"{seat.player} is {where} (line {other.line}): a "
                                              "player sits at one table per round")
        else:
            first[seat.player] = seat


def check_time_on_every_row(path: str, number: int, seats: list[Any], time: str,
                            log: ProblemLog) -> None:
    """A table that ran out of time says so on every row (Heresy, INWO)."""
    untimed = next((s for s in seats if s.result != time), None)
    if untimed is not None:
        log.error(path, untimed.line, f"table {number} ran out of time but {untimed.player}'s "
                                      f"row lacks '{time}': write '{time}' on every row of that "
                                      "table")


def first_rows(rows: list) -> list:
    """One row per player, the first of each: a player's seat where a row is written per game
    (SPELLFIRE brackets, Armageddon matches)."""
    seats: dict[str, object] = {}
    for row in rows:
        seats.setdefault(row.player, row)
    return list(seats.values())
