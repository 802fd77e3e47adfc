"""INWO rounds as pairings (rules.pairings): what a round in progress shows table by table and by
name, what its result slips ask, and every round's `round-<n>/pairings.json`.

Multiplayer tables are the stage "tables": a slip asks each player for the groups they control,
the special goal's percentage, and has a box for a win or a shared victory. Head-to-head games
are the stage "elimination": a box for the win and one for the loss, with the groups and the
special goal's percentage that place the players who go out (Percentage of Goal).
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.model import PlayerRef, Round
from ...core.numbers import percent_text
from ..base import SlipField
from ..pairings import Pairings, pairings_of
from .rows import BYE, SHARED, TIME, WIN, Seat, pending_rows
from .tables import BY_REFEREE, Placed, TableResult, round_results
from .views import MARK_LABELS, place_text, why_text

Ref = Callable[[str], PlayerRef]

GROUPS = SlipField("Groups controlled")
SPECIAL = SlipField("Special goal %")
MULTIPLAYER_SLIP = (SlipField("Win / shared victory", tick=True), GROUPS, SPECIAL)
HEAD_TO_HEAD_SLIP = (SlipField("Win", tick=True), SlipField("Loss", tick=True), GROUPS, SPECIAL)
"""What a result slip asks, by format (Inwo.slip)."""
TABLES, ELIMINATION = "tables", "elimination"
"""pairings.json's stage for each format."""
SEAT_RESULTS = {WIN: "win", SHARED: "shared victory", TIME: "out of time"}


def multiplayer_pairings(round_: Round, goal_groups: int, ref: Ref) -> Pairings:
    """The round's tables; a table whose groups are all in shows each player's place. The
    result word is the row's own (`win`, `shared`, `time`, or empty for the others)."""
    seated = {(table.number, p.player): (table, p)
              for table in round_results(round_, goal_groups) for p in table.placed}

    def result_of(row: Seat, others: list[Seat]) -> tuple[str, str]:
        return row.result, seat_text(*seated[(row.table, row.player)])

    return pairings_of(round_, ref, "Table", pending_rows, result_of, BYE, stage=TABLES)


def seat_text(table: TableResult, placed: Placed) -> str:
    """"1st: win, 11 groups" or "2nd: 8 groups, 72.73% of goal, top three of the table"."""
    seat = placed.seat
    parts = [SEAT_RESULTS.get(seat.result, ""), f"{seat.groups} groups"]
    if seat.result not in (WIN, SHARED):
        parts.append(f"{percent_text(placed.percentage)} of goal")
    if seat.result not in (WIN, SHARED) or placed.reason == BY_REFEREE:  # else "won" again
        parts.append(why_text(placed))
    return f"{place_text(placed, table)}: " + ", ".join(part for part in parts if part)


def head_to_head_pairings(round_: Round, ref: Ref) -> Pairings:
    """The round's games and byes, each result once both players' are in ("Win, 12 groups")."""
    def result_of(row: Seat, others: list[Seat]) -> tuple[str, str]:
        label = MARK_LABELS["W" if row.result == WIN else "L"]
        return row.result, label if row.groups is None else f"{label}, {row.groups} groups"

    return pairings_of(round_, ref, "Table", pending_rows, result_of, BYE, stage=ELIMINATION)
