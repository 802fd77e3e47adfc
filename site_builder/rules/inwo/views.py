"""INWO results turned into the plain objects pages and JSON twins are made from."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import PlayerRef
from ...core.numbers import ordinal, percent_text
from ..views import Column, PlayerGame, Standings, StandingRow
from ..elimination import bracket_size, finish_label, round_label
from ..grid import Grid, GridBox, GridEntry, GridRound
from ..tiebreaks import decided_by
from . import headtohead
from .rows import SHARED, TIME, WIN
from .tables import BY_REFEREE, REASON_TEXT, Entry, Placed, Ranked, TableResult

Ref = Callable[[str], PlayerRef]

COLUMNS = (
    Column("finish", "Finish", "text", numeric=False),
    Column("reached", "Round", title="the last round played"),
    Column("pog", "PoG", "pct", "Percentage of Goal in that round's game", deciding=True),
    Column("groups", "Groups", title="groups controlled when that game ended"),
)
TIEBREAK_LABELS = {"pog": "PoG", "groups": "groups"}
RESULT_LABELS = {WIN: "Win", SHARED: "Shared victory", TIME: "Time", "": ""}
PLACES = {1: "Winner", 2: "2nd", 3: "3rd"}
MARK_LABELS = {"W": "Win", "L": "Loss", "bye": "Bye"}
"""Head-to-head: the bracket's short marks spelled out on round and player pages."""


def table_anchor(round_number: int, table: int) -> str:
    return f"r{round_number}-t{table}"


def multiplayer_explanation(goal_groups: int) -> str:
    return ("Players are ordered by the round they reached, those who went on first; then by "
            "Percentage of Goal in that round's game (the best of groups controlled ÷ "
            f"{goal_groups} and the special goal achieved, exact), then by groups. At the final "
            "the winner comes first and places 2 and 3 go by Percentage of Goal when the winner "
            "met the goal. Players the rules cannot separate share a place.")


# ---------------------------------------------------------------- multiplayer


def entry_finish(entry: Entry, complete: bool, shared_first: bool) -> str:
    r = entry.reached
    if entry.table.stage == "final":
        place = entry.last.place
        if place == 1:
            return "Winner (shared victory)" if shared_first else "Winner"
        tied = sum(1 for p in entry.table.placed if p.place == place) > 1
        return ("=" if tied else "") + PLACES.get(place, "Final table")
    if entry.still_in:
        if complete:
            return f"Advanced from round {r}"
        return "Through to the final" if entry.table.stage == "semi-final" else f"Through to round {r + 1}"
    if entry.missed_next:
        return f"Advanced from round {r}; did not play round {r + 1}"
    return f"Out in round {r}"


def multiplayer_standings(ranked: Sequence[Ranked], title: str, after_round: int, complete: bool,
                          goal_groups: int, ref: Ref) -> Standings:
    keys = [r.entry.key for r in ranked]
    labels = decided_by(keys, (None, None, None, "pog", "groups"))
    rows = []
    for item, label in zip(ranked, labels):
        e = item.entry
        shared_first = e.table.shared and e.last.place == 1
        values = {"finish": entry_finish(e, complete, shared_first), "reached": e.reached,
                  "advanced": e.last.advances, "result": e.last.seat.result,
                  "pog": e.last.percentage, "groups": e.last.seat.groups,
                  "special_pct": e.last.seat.special, "rounds_played": len(e.rounds)}
        notes = tuple(f"round {t.round}: {REASON_TEXT[BY_REFEREE]} ({'advanced' if p.advances else 'held back'})"
                      for t, p in e.rounds if p.reason == BY_REFEREE)
        rows.append(StandingRow(item.rank, ref(e.name), values, False, label, notes))
    return Standings(title, after_round, complete, COLUMNS, tuple(rows), TIEBREAK_LABELS,
                     multiplayer_explanation(goal_groups), phase="multiplayer")


@dataclass(frozen=True, slots=True)
class SeatView:
    player: PlayerRef
    place: str
    result: str
    groups: int | None
    special: str
    percentage: Fraction
    advances: bool
    why: str
    referee: bool


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    anchor: str
    note: str
    seats: tuple[SeatView, ...]


@dataclass(frozen=True, slots=True)
class InwoRound:
    stage: str
    tables: tuple[TableView, ...]
    goal_groups: int


def place_text(placed: Placed, table: TableResult) -> str:
    tied = sum(1 for p in table.placed if p.place == placed.place) > 1
    return ("=" if tied else "") + ordinal(placed.place)


def table_note(table: TableResult) -> str:
    if table.timed:
        return "Out of time: Percentage of Goal decides"
    if table.shared:
        return "Shared victory"
    return ""


def why_text(placed: Placed) -> str:
    if placed.reason == BY_REFEREE:
        return "referee: " + ("advanced" if placed.advances else "held back")
    return REASON_TEXT.get(placed.reason, "") if placed.advances else ""


def round_tables(results: Sequence[TableResult], goal_groups: int, ref: Ref) -> InwoRound:
    tables = []
    for table in results:
        seats = tuple(SeatView(ref(p.player), place_text(p, table), RESULT_LABELS[p.seat.result],
                               p.seat.groups,
                               percent_text(p.seat.special) if p.seat.special is not None else "",
                               p.percentage, p.advances, why_text(p), p.reason == BY_REFEREE)
                      for p in table.placed)
        tables.append(TableView(table.number, table_anchor(table.round, table.number),
                                table_note(table), seats))
    return InwoRound(results[0].stage if results else "table", tuple(tables), goal_groups)


def advancement_grid(played: Mapping[int, Sequence[TableResult]], complete: bool,
                     ref: Ref) -> Grid:
    next_table: dict[tuple[int, str], str] = {}
    for number, results in played.items():
        for table in results:
            for p in table.placed:
                next_table[(number, p.player)] = table_anchor(number, table.number)
    numbers = sorted(played)
    rounds = []
    for index, number in enumerate(numbers):
        following = numbers[index + 1] if index + 1 < len(numbers) else None
        boxes = []
        for table in played[number]:
            entries = tuple(
                GridEntry(ref(p.player), place_text(p, table), why_text(p), percent_text(p.percentage),
                          next_table.get((following, p.player)) if p.advances else None,
                          "referee" if p.reason == BY_REFEREE else "")
                for p in table.placed)
            label = "Final" if table.stage == "final" else f"Table {table.number}"
            boxes.append(GridBox(table_anchor(number, table.number), label, entries))
        stage = played[number][0].stage if played[number] else "table"
        rounds.append(GridRound(number, "Final" if stage == "final" else f"Round {number}",
                                tuple(boxes)))
    champion = None
    last = played[numbers[-1]] if numbers else []
    if complete and len(last) == 1 and last[0].stage == "final":
        winners = [p for p in last[0].placed if p.place == 1]
        champion = ref(winners[0].player) if len(winners) == 1 else None
    return Grid(tuple(rounds), champion, box_noun="table")


def multiplayer_games(entry: Entry, ref: Ref) -> tuple[PlayerGame, ...]:
    lines = []
    for table, placed in entry.rounds:
        label = "Final" if table.stage == "final" else f"Round {table.round}"
        result = f"{place_text(placed, table)} at the table"
        if placed.seat.result:
            result += f" ({RESULT_LABELS[placed.seat.result].lower()})"
        why = why_text(placed)
        if why:
            result += f"; advanced: {why}" if placed.advances else f"; {why}"
        lines.append(PlayerGame(table.round, label, f"Table {table.number}",
                                tuple(ref(p.player) for p in table.placed if p is not placed),
                                result, percent_text(placed.percentage),
                                outcome=table_outcome(placed, table)))
    return tuple(lines)


def table_outcome(placed: Placed, table: TableResult) -> str:
    """A table as a match between decks: its winner wins, and so does each player of a shared
    victory; everyone else loses. A table that ran out of time has no winner (Percentage of
    Goal only decides who goes on): a draw for everyone at it."""
    if len(table.placed) < 2:
        return ""
    if placed.seat.result in (WIN, SHARED):
        return "win"
    return "draw" if table.timed else "loss"


# ---------------------------------------------------------------- head-to-head

HEAD_TO_HEAD_COLUMNS = COLUMNS[:3]
HEAD_TO_HEAD_EXPLANATION = (
    "Single elimination: the champion, the finalist, then the semi-finalists by Percentage of Goal "
    "in their semi-final (when their opponent met the goal), then everyone else by the round they "
    "went out in and their Percentage of Goal in that game. Players the rules cannot separate "
    "share a place.")


def h2h_finish(item: headtohead.Ranked, planned: int, complete: bool, shared: bool) -> str:
    where = item.standing.progress
    if where.won:
        if where.depth == planned:
            return "Champion"
        reached = bracket_size(planned, where.depth)
        return f"Won in the {round_label(reached)}" if complete else f"Through to the {round_label(reached)}"
    size = bracket_size(planned, where.depth - 1)
    if size == 4 and item.rank <= 4:
        return ("=" if shared else "") + ordinal(item.rank)
    return finish_label(size)


def h2h_standings(ranked: Sequence[headtohead.Ranked], title: str, after_round: int,
                  complete: bool, planned: int, ref: Ref) -> Standings:
    keys = [r.standing.key for r in ranked]
    labels = decided_by(keys, (None, "pog", "groups"))
    per_rank = Counter(r.rank for r in ranked)
    rows = []
    for item, label in zip(ranked, labels):
        s = item.standing
        shared = per_rank[item.rank] > 1
        pct = s.last.percentage if s.last else None
        values = {"finish": h2h_finish(item, planned, complete, shared),
                  "reached": s.games[-1].round if s.games else 0,
                  "pog": pct, "groups": s.last.seat.groups if s.last else None,
                  "games_won": sum(1 for g in s.games if g.match.winner == s.name),
                  "rounds_played": len(s.games)}
        rows.append(StandingRow(item.rank, ref(s.name), values, False, label))
    return Standings(title, after_round, complete, HEAD_TO_HEAD_COLUMNS, tuple(rows),
                     TIEBREAK_LABELS, HEAD_TO_HEAD_EXPLANATION, phase="elimination")


@dataclass(frozen=True, slots=True)
class GameSeatView:
    player: PlayerRef
    result: str
    won: bool
    groups: int | None
    percentage: Fraction | None


@dataclass(frozen=True, slots=True)
class GameView:
    number: int
    seats: tuple[GameSeatView, ...]


def game_views(matches: Sequence, seats: Mapping[str, headtohead.GameSeat], ref: Ref) -> tuple[GameView, ...]:
    return tuple(
        GameView(m.number, tuple(
            GameSeatView(ref(p), MARK_LABELS[m.marks[p]], m.winner == p,
                         seats[p].seat.groups, seats[p].percentage)
            for p in m.players))
        for m in matches)


def h2h_games(standing: headtohead.Standing, planned: int, ref: Ref) -> tuple[PlayerGame, ...]:
    lines = []
    for index, game in enumerate(standing.games):
        match = game.match
        result = MARK_LABELS[match.marks[standing.name]]
        lines.append(PlayerGame(game.round, round_label(bracket_size(planned, index)),
                                f"Table {match.number}",
                                tuple(ref(p) for p in match.players if p != standing.name), result,
                                percent_text(game.percentage) if game.percentage is not None else "",
                                outcome=match.outcome(standing.name)))
    return tuple(lines)

