"""INWO round files (seed 003; data contract §3).

Multiplayer: `table,player,result,groups` plus optional `special_pct` (the best special-goal
percentage; `goal_pct` is read as the same column, as the contract names it) and `advanced` (the
referee's decision where it differs from the rules). `result` is `win`, `shared` (on every player of
a shared victory), `time` (on every row of a table that ran out of time) or empty.

Head-to-head: `table,player,result` with `win` / `loss` / `bye`, plus optional `groups` and
`special_pct` for the Percentage of Goal that places the semi-finalists.

The newest round may be in progress (rules.pairings): a multiplayer row whose `groups` is still
empty (a non-winner's `result` is empty for good, so the groups say whether the game is over),
or a head-to-head row whose `result` is still empty, is a game being played.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Event, Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvRow, CsvTable
from ..cells import INVALID, whole_number
from ..seating import check_one_seat_each, check_time_on_every_row, tables_of
from ..twoplayer import check_pair
from .percentage import HUNDRED, parse_percentage

MULTIPLAYER_COLUMNS = ColumnSpec(required=("table", "player", "result", "groups"),
                                 optional=("special_pct", "goal_pct", "advanced"))
HEAD_TO_HEAD_COLUMNS = ColumnSpec(required=("table", "player", "result"),
                                  optional=("groups", "special_pct", "goal_pct"))

WIN, SHARED, TIME, LOSS, BYE = "win", "shared", "time", "loss", "bye"
MULTIPLAYER_RESULTS = (WIN, SHARED, TIME, "")
HEAD_TO_HEAD_RESULTS = (WIN, LOSS, BYE, "")
YES = {"yes", "y", "true", "1", "advanced"}
NO = {"no", "n", "false", "0"}


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's row: their result at the table and what they held when the game ended."""

    line: int
    table: int | None
    player: str
    result: str
    groups: int | None
    special: Fraction | None
    """The best special-goal percentage, or None."""
    advanced: bool | None = None
    """The referee's decision, when written; None lets the rules decide."""
    pending: bool = False
    """The game is still being played: no groups yet (multiplayer), no result yet (head-to-head)."""


def read_rows(table: CsvTable, shown: str, multiplayer: bool, log: ProblemLog) -> tuple[Seat, ...]:
    seats = []
    for row in table.rows:
        seat = _read_row(row, shown, multiplayer, log)
        if seat is not None:
            seats.append(seat)
    return tuple(seats)


def _read_row(row: CsvRow, shown: str, multiplayer: bool, log: ProblemLog) -> Seat | None:
    line = row.line
    player = row.get("player")
    result = " ".join(row.get("result").lower().split())
    ok = True
    if not player:
        log.error(shown, line, "the player cell is empty: expected the player's name")
        ok = False
    allowed = MULTIPLAYER_RESULTS if multiplayer else HEAD_TO_HEAD_RESULTS
    if result not in allowed:
        shown_text = f"'{row.get('result')}'" if row.get("result") else "empty"
        expected = ("'win' for the table's winner, 'shared' on each player of a shared victory, "
                    "'time' on every row of a table that ran out of time, or empty"
                    if multiplayer else "'win', 'loss' or 'bye' (empty while the game is "
                                        "being played)")
        log.error(shown, line, f"result {shown_text} is not an INWO result: expected {expected}")
        ok = False
    number = whole_number(row.get("table"), "table", 1, shown, line, log,
                          "" if multiplayer else " (leave it empty for a bye)")
    groups = whole_number(row.get("groups"), "groups", 0, shown, line, log,
                          " (the groups controlled at the end, bonuses included; never negative)")
    special = _special(row, shown, log)
    advanced = _advanced(row.get("advanced"), shown, line, log)
    if INVALID in (number, groups, special, advanced) or not ok:
        return None
    if number is None and (multiplayer or result != BYE):
        log.error(shown, line, "the table cell is empty: expected the table's number"
                               + ("" if multiplayer else " (only a bye may leave it empty)"))
        return None
    pending = groups is None if multiplayer else result == ""
    return Seat(line, number, player, result, groups, special, advanced, pending)


def _special(row: CsvRow, shown: str, log: ProblemLog) -> Fraction | None | object:
    found = INVALID
    for column in ("special_pct", "goal_pct"):
        text = row.get(column)
        if not text:
            continue
        value = parse_percentage(text)
        if value is None:
            log.error(shown, row.line, f"{column} '{text}' is not a percentage: expected a number "
                                       "from 0 to 100 such as 87.14, or empty")
            return INVALID
        if value > HUNDRED:
            log.error(shown, row.line, f"{column} {text} is over 100: a special goal's percentage "
                                       "is at most 100 (each part of a two-part goal is capped at "
                                       "100 before the parts are averaged)")
            return INVALID
        if found is not INVALID and found != value:
            log.error(shown, row.line, f"special_pct and goal_pct differ ({text} and "
                                       f"{row.get('special_pct')}): fill in one of them")
            return INVALID
        found = value
    return None if found is INVALID else found


def _advanced(text: str, shown: str, line: int, log: ProblemLog) -> bool | None | object:
    word = text.strip().lower()
    if not word:
        return None
    if word in YES or word in NO:
        return word in YES
    log.error(shown, line, f"advanced '{text}' is not a decision: expected 'yes' (the referee "
                           "advanced this player), 'no' (the referee held them back) or empty")
    return INVALID


def pending_rows(round_: Round) -> list[Seat]:
    """The rows of games still being played."""
    return [seat for seat in round_.rows if seat.pending]


# ---------------------------------------------------------------- checks within a round


def check_rounds_in_progress(event: Event, multiplayer: bool, log: ProblemLog) -> None:
    """Only the newest round may wait for results, and not in an event that says it is final.
    (rules.pairings.check_in_progress says "write the result"; a multiplayer row that waits
    lacks its groups, and a non-winner's result stays empty, so INWO says what to write.)"""
    missing, write = (("groups", "write the groups they controlled when the game ended")
                      if multiplayer else ("result", "write win or loss"))
    newest = event.rounds[-1] if event.rounds else None
    for round_ in event.rounds[:-1]:
        for seat in pending_rows(round_):
            log.error(round_.path, seat.line,
                      f"{seat.player} has no {missing} in round {round_.number}: only the newest "
                      f"round (round {newest.number}) may still be in progress; {write}")
    waiting = pending_rows(newest) if newest else []
    if waiting and event.info.status == "final":
        log.error(newest.path, waiting[0].line,
                  f"{waiting[0].player} has no {missing}, but event.toml says status = \"final\": "
                  f"write the results of round {newest.number}, or remove the status until they "
                  "are in")


def check_multiplayer_round(round_: Round, log: ProblemLog) -> None:
    check_one_seat_each(round_, log)
    tables, _ = tables_of(round_)
    for number, seats in tables.items():
        if not round_.table_rejected(number):
            _check_multiplayer_table(round_.path, number, seats, log)


def _check_multiplayer_table(path: str, number: int, seats: list[Seat], log: ProblemLog) -> None:
    last = seats[-1].line
    if len(seats) < 2:
        log.error(path, last, f"table {number} has only {seats[0].player}: an INWO table seats "
                              "several players (five in the seed's multi-player tournament)")
        return
    if any(s.pending for s in seats):
        return  # still being played (a round in progress): checked once every groups cell is in
    winners = [s for s in seats if s.result == WIN]
    shared = [s for s in seats if s.result == SHARED]
    timed = [s for s in seats if s.result == TIME]
    if len(winners) > 1:
        log.error(path, winners[1].line, f"table {number} has two wins ({winners[0].player} and "
                                         f"{winners[1].player}): one player wins, or write "
                                         "'shared' on every player of a shared victory")
    elif winners and shared:
        log.error(path, shared[0].line, f"table {number} has a win ({winners[0].player}) and a "
                                        f"shared victory ({shared[0].player}): write 'shared' on "
                                        "every player of a shared victory, 'win' for a sole winner")
    elif len(shared) == 1:
        log.error(path, shared[0].line, f"table {number} has 'shared' on {shared[0].player} only: "
                                        "a shared victory needs 'shared' on each player who shares it")
    elif timed and (winners or shared):
        other = (winners or shared)[0]
        log.error(path, other.line, f"table {number} has '{other.result}' ({other.player}) and "
                                    "'time': a table that ran out of time has no winner yet "
                                    "(Percentage of Goal decides it)")
    elif timed:
        check_time_on_every_row(path, number, seats, TIME, log)
    elif not (winners or shared):
        log.error(path, last, f"table {number} has no winner: write 'win' for the winner, "
                              "'shared' on each player of a shared victory, or 'time' on every "
                              "row if the game ran out of time")


def check_head_to_head_round(round_: Round, log: ProblemLog) -> None:
    check_one_seat_each(round_, log)
    tables, _ = tables_of(round_)  # the reader lets only a bye leave the table empty
    for number, seats in tables.items():
        if not round_.table_rejected(number):
            _check_game(round_.path, number, seats, log)


def _check_game(path: str, number: int, seats: list[Seat], log: ProblemLog) -> None:
    if not check_pair(path, number, seats, "a head-to-head game", log):
        return
    if len(seats) == 1:
        seat = seats[0]
        if seat.pending:
            log.error(path, seat.line, f"{seat.player} is alone at table {number} with no result: "
                                       "add the opponent's row, or write bye if it is a bye")
        elif seat.result != BYE:
            log.error(path, seat.line, f"table {number} has only {seat.player}, with a "
                                       f"{seat.result}: a game needs an opponent at the same table "
                                       "(write 'bye' for a player who goes through without playing)")
        return
    if any(s.pending for s in seats):
        return  # still being played: checked once both results are in
    results = sorted(s.result for s in seats)
    names = " and ".join(s.player for s in seats)
    if results == [LOSS, LOSS]:
        log.error(path, seats[-1].line, f"table {number} has no winner ({names} both lost): one "
                                        "of them needs 'win'")
    elif results == [WIN, WIN]:
        log.error(path, seats[-1].line, f"table {number} has two winners ({names}): one player "
                                        "wins, the other gets a loss")
