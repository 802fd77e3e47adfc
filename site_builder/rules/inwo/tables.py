"""The multi-player tournament (seed 003): who advances from each table, and the final order.

"Winners, shared victories and ties all advance." A table that ran out of time is decided by
Percentage of Goal, equal percentages by total groups, and players still tied all advance. In the
round before the final (two tables) the top three of each table advance, placed by Percentage of
Goal at the moment the winner met the goal; the final's places 2 and 3 are decided the same way.
A referee's `advanced` decision overrides the rules for that player and is shown as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Round
from ..tiebreaks import shared_ranks
from .percentage import percentage_of_goal
from .rows import SHARED, TIME, WIN, Seat, tables_of

# Why a player advanced (or, for REFEREE, why the rules were overridden).
BY_WIN, BY_SHARED, BY_PERCENTAGE, BY_GROUPS, BY_TIE, BY_PLACE, BY_REFEREE = (
    "win", "shared", "percentage", "groups", "tie", "top three", "referee")
REASON_TEXT = {
    BY_WIN: "won", BY_SHARED: "shared victory", BY_PERCENTAGE: "highest Percentage of Goal",
    BY_GROUPS: "equal percentage, more groups", BY_TIE: "tied: all advance",
    BY_PLACE: "top three of the table", BY_REFEREE: "referee's decision",
}
TOP_OF_SEMI_FINAL = 3


@dataclass(frozen=True, slots=True)
class Placed:
    """A seat with its Percentage of Goal and its place at the table."""

    seat: Seat
    percentage: Fraction
    place: int
    """1-based; equal places for players the rules cannot separate."""
    advances: bool
    reason: str
    """Why they advance (a key of REASON_TEXT), REFEREE when the referee overrode the rules
    either way, or "" for a player who goes out by the rules."""

    @property
    def player(self) -> str:
        return self.seat.player

    @property
    def sort_key(self) -> tuple:
        return table_key(self.seat, self.percentage)


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    number: int
    placed: tuple[Placed, ...]
    """In place order."""
    stage: str
    """"table", "semi-final" (top three advance) or "final"."""

    @property
    def timed(self) -> bool:
        return any(p.seat.result == TIME for p in self.placed)

    @property
    def shared(self) -> bool:
        return any(p.seat.result == SHARED for p in self.placed)


def table_key(seat: Seat, percentage: Fraction) -> tuple:
    """Better first when sorted in reverse: the winner (all of a shared victory alike: they tie
    for first), then Percentage of Goal, then total groups (the seed's tiebreak)."""
    if seat.result in (WIN, SHARED):
        return (True, Fraction(0), 0)
    return (False, percentage, seat.groups or 0)


def stage_of(tables: int) -> str:
    """A round's stage by its number of tables, as the seed runs it: one table is the final; two
    tables are the round before it, where the top three of each go through."""
    return "final" if tables == 1 else "semi-final" if tables == 2 else "table"


def round_results(round_: Round, goal_groups: int) -> list[TableResult]:
    tables, _ = tables_of(round_)
    stage = stage_of(len(tables))
    return [table_result(round_.number, number, seats, goal_groups, stage)
            for number, seats in tables.items()]


def table_result(round_number: int, number: int, seats: Sequence[Seat], goal_groups: int,
                 stage: str) -> TableResult:
    scored = sorted(((seat, percentage_of_goal(seat.groups or 0, goal_groups, seat.special))
                     for seat in seats), key=lambda sp: sp[0].player.casefold())
    order = sorted(scored, key=lambda sp: table_key(*sp), reverse=True)  # stable: ties by name
    order_keys = [table_key(*sp) for sp in order]
    places = shared_ranks(order_keys)
    placed = []
    for index, ((seat, pct), place) in enumerate(zip(order, places)):
        by_rules, reason = _by_rules(index, place, order_keys, places, stage)
        advances = by_rules if seat.advanced is None or stage == "final" else seat.advanced
        if advances != by_rules:
            reason = BY_REFEREE
        placed.append(Placed(seat, pct, place, advances, reason))
    return TableResult(round_number, number, tuple(placed), stage)


def _by_rules(index: int, place: int, keys: Sequence[tuple], places: Sequence[int],
              stage: str) -> tuple[bool, str]:
    """Whether the rules advance the player at `index` (in place order), and why."""
    won, _, _ = keys[index]
    tied = places.count(place) > 1
    if stage == "final":
        return False, ""
    if won:
        return True, BY_SHARED if tied else BY_WIN
    if place == 1:
        if tied:
            return True, BY_TIE
        runner_up = keys[index + 1] if index + 1 < len(keys) else None
        return True, BY_GROUPS if runner_up and runner_up[1] == keys[index][1] else BY_PERCENTAGE
    if stage == "semi-final" and place <= TOP_OF_SEMI_FINAL:
        return True, BY_TIE if tied else BY_PLACE
    return False, ""


def advancing(results: Sequence[TableResult]) -> dict[str, TableResult]:
    """Players who go on from a round, with the table they came from."""
    return {p.player: table for table in results for p in table.placed if p.advances}


# ---------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class Entry:
    """A player after some round: their last table and how it left them."""

    name: str
    last: Placed
    table: TableResult
    rounds: tuple[tuple[TableResult, Placed], ...]
    still_in: bool
    """Advanced from their last table and the next round is not in yet."""
    missed_next: bool
    """Advanced, but did not play the next round (present in the data)."""

    @property
    def reached(self) -> int:
        return self.table.round

    @property
    def key(self) -> tuple:
        """Better first when sorted in reverse: later round, advanced from it, then the table's
        own order (winner, percentage, groups)."""
        return (self.reached, self.last.advances) + self.last.sort_key


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    entry: Entry


def entries_after(played: Mapping[int, Sequence[TableResult]], k: int) -> dict[str, Entry]:
    numbers = sorted(n for n in played if n <= k)
    history: dict[str, list[tuple[TableResult, Placed]]] = {}
    for number in numbers:
        for table in played[number]:
            for placed in table.placed:
                history.setdefault(placed.player, []).append((table, placed))
    entries = {}
    for name, rounds in history.items():
        table, last = rounds[-1]
        is_latest = table.round == numbers[-1]
        entries[name] = Entry(name, last, table, tuple(rounds),
                              still_in=last.advances and is_latest,
                              missed_next=last.advances and not is_latest)
    return entries


def rank(entries: Mapping[str, Entry]) -> list[Ranked]:
    """Best first; players the rules cannot separate share a rank (the seed: tied players share
    the prizes of the places they tie for)."""
    by_name = sorted(entries.values(), key=lambda e: (e.name.casefold(), e.name))
    order = sorted(by_name, key=lambda e: e.key, reverse=True)  # stable: ties stay alphabetical
    ranks = shared_ranks([e.key for e in order])
    return [Ranked(r, e) for r, e in zip(ranks, order)]
