"""Round files of a declared game: typed rows, and the checks of each table.

A row is `table, player, result` as for Conquest, where result is one of the game's own words or
an unplayed one (bye, forfeit-win, …). A game with `points_column` may give a row's points
instead (Netrunner's 6/3/0: the higher of a table wins); one with `game_records` may give the
games won and drawn of the match, for game-win percentages.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Event, Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number
from ..seating import tables_of
from ..twoplayer import check_duplicates, check_pair, check_round_numbers
from .model import Declaration
from .values import _exact, _shown
from .vocabulary import (BYE, FORFEIT_LOSS, FORFEIT_WIN, HALF_BYE, UNPLAYED_OUTCOME, WITH_OPPONENT,
                         ZERO_BYE)

PENDING = ""
BY_POINTS = "points"
"""The `result` of a row that gave only its points: its outcome is decided at its table."""
ALONE = (BYE, HALF_BYE, ZERO_BYE)
"""The unplayed words of a row without an opponent."""


@dataclass(frozen=True, slots=True)
class Row:
    line: int
    table: int | None
    player: str
    result: str
    """A result word of the game, an unplayed word, BY_POINTS, or PENDING."""
    points: Fraction | None = None
    """The points the row gives itself (points_column), None: the word's."""
    games_won: int | None = None
    games_drawn: int | None = None


def columns(declaration: Declaration) -> ColumnSpec:
    optional = (("points",) if declaration.points_column else ()) + \
        (("games_won", "games_drawn") if declaration.game_records else ())
    required = ("table", "player") + (() if declaration.points_column else ("result",))
    return ColumnSpec(required, optional + (("result",) if declaration.points_column else ()))


def expected_words(declaration: Declaration) -> str:
    words = [r.word + (f" (or {', '.join(r.spellings)})" if r.spellings else "")
             for r in declaration.results]
    words += [word for word, _ in declaration.unplayed if word != "absent"]
    return ", ".join(words)


def read_rows(table: CsvTable, shown: str, declaration: Declaration, log: ProblemLog
              ) -> tuple[Row, ...]:
    spellings = declaration.spellings
    rows = []
    for cells in table.rows:
        line = cells.line
        player = cells.get("player")
        if not player:
            log.error(shown, line, "the player cell is empty: expected the player's name")
            continue
        ok = True
        text = cells.get("result")
        result = spellings.get(" ".join(text.lower().split())) if text else PENDING
        if result is None:
            log.error(shown, line, f"result '{text}' is not a {declaration.name} result: expected "
                                   f"{expected_words(declaration)} ({declaration.shown} declares "
                                   "them)")
            ok = False
        points = None
        if declaration.points_column and cells.get("points"):
            points = _exact(cells.get("points"))
            if points is None or points < 0 or points > declaration.most_points:
                log.error(shown, line, f"points '{cells.get('points')}' is not a number of points "
                                       f"from 0 to {_shown(declaration.most_points)}")
                ok = False
            elif result == PENDING:
                result = BY_POINTS
        games = []
        for column in ("games_won", "games_drawn"):
            value = whole_number(cells.get(column), column, 0, shown, line, log) \
                if declaration.game_records else None
            ok = ok and value is not INVALID
            games.append(None if value is INVALID else value)
        number = whole_number(cells.get("table"), "table", 1, shown, line, log,
                              " (leave it empty for a bye)")
        if not ok or number is INVALID or result is None:
            continue
        rows.append(Row(line, number, player, result, points, *games))
    return tuple(rows)


def pending_rows(round_: Round) -> list[Row]:
    return [row for row in round_.rows if row.result == PENDING]


# ---------------------------------------------------------------- checks


def outcome_of(row: Row, other: Row | None, declaration: Declaration) -> str:
    """win, draw or loss: the word's, or (points given alone) by the table's points."""
    if row.result == BY_POINTS:
        if other is None or other.points is None:
            return "loss"  # points alone, no opponent's to beat: the checks reject it
        return "win" if row.points > other.points else "draw" if row.points == other.points \
            else "loss"
    for result in declaration.results:
        if result.word == row.result:
            return result.outcome
    return UNPLAYED_OUTCOME[row.result]


def check_round(round_: Round, declaration: Declaration, elimination: bool,
                log: ProblemLog) -> None:
    check_duplicates(round_, log)
    tables, loose = tables_of(round_)
    for row in loose:
        _check_alone(round_.path, row, None, elimination, declaration, log)
    for number, rows in tables.items():
        if round_.table_rejected(number) or not check_pair(round_.path, number, rows,
                                                           f"a {declaration.name} match", log):
            continue
        if len(rows) == 1:
            _check_alone(round_.path, rows[0], number, elimination, declaration, log)
        else:
            _check_table(round_.path, number, rows, declaration, elimination, log)


def _check_alone(path: str, row: Row, number: int | None, elimination: bool,
                 declaration: Declaration, log: ProblemLog) -> None:
    where = f"alone at table {number}" if number is not None else "without a table"
    if row.result == PENDING:
        log.error(path, row.line, f"{row.player} is {where} with no result: seat them with an "
                                  "opponent, or write bye if they have a bye")
    elif elimination and row.result != BYE:
        log.error(path, row.line, f"{row.player} is {where} with '{row.result}': in an "
                                  "elimination round a player without an opponent has a bye")
    elif row.result not in ALONE and not (_is_loss_word(row.result, declaration)
                                          and not elimination):
        log.error(path, row.line, f"{row.player} is {where} with '{row.result}': a result "
                                  "without an opponent is bye, half-point-bye or zero-point-bye "
                                  "(or a loss: the player was not paired)")


def _is_loss_word(result: str, declaration: Declaration) -> bool:
    """One of the game's own words that is a loss (Conquest's "loss", another game's "l")."""
    return any(r.word == result and r.outcome == "loss" for r in declaration.results)


def _check_table(path: str, number: int, rows: list[Row], declaration: Declaration,
                 elimination: bool, log: ProblemLog) -> None:
    a, b = rows
    names, line = f"{a.player} and {b.player}", b.line
    if PENDING in (a.result, b.result):
        return  # still being played: checked once both results are in
    for row in rows:
        if row.result in ALONE:
            log.error(path, row.line, f"{row.player} has a {row.result} but plays {names} at table "
                                      f"{number}: a bye has no opponent")
            return
    forfeits = {a.result, b.result} & set(WITH_OPPONENT)
    if forfeits and {a.result, b.result} != set(WITH_OPPONENT):
        log.error(path, line, f"table {number} ({names}) has {a.result} and {b.result}: a "
                              f"forfeit is written {FORFEIT_WIN} on one row and {FORFEIT_LOSS} "
                              "on the other")
        return
    if (a.result == BY_POINTS) != (b.result == BY_POINTS):
        log.error(path, line, f"table {number} ({names}): one row gives points and the other a "
                              "result: give both the points (or both a result)")
        return
    first, second = outcome_of(a, b, declaration), outcome_of(b, a, declaration)
    if {first, second} not in ({"win", "loss"}, {"draw"}):
        log.error(path, line, f"table {number} ({names}) has {a.result} and {b.result}: one row "
                              "wins and the other loses, or both draw")
    elif elimination and first == "draw":
        log.error(path, line, f"table {number} ({names}) is drawn in an elimination round: "
                              "write who goes on (win on one row, loss on the other)")
    if declaration.game_records and not forfeits:
        _check_games(path, number, rows, first, log)


def _check_games(path: str, number: int, rows: list[Row], outcome: str, log: ProblemLog) -> None:
    a, b = rows
    if a.games_won is None and b.games_won is None:
        return
    if a.games_won is None or b.games_won is None:
        row = a if a.games_won is None else b
        log.error(path, row.line, f"{row.player}'s games_won is empty but the other row's is "
                                  f"not: give both rows of table {number} their games")
        return
    if (a.games_drawn or 0) != (b.games_drawn or 0):
        log.error(path, b.line, f"table {number}: games_drawn is {a.games_drawn or 0} on one row "
                                f"and {b.games_drawn or 0} on the other: a drawn game is drawn "
                                "for both")
    elif (outcome == "win") != (a.games_won > b.games_won) or \
            (outcome == "draw") != (a.games_won == b.games_won):
        log.error(path, b.line, f"table {number}: the games ({a.games_won}–{b.games_won}) do not "
                                f"give the result written ({a.result} for {a.player})")


def check_stages(event: Event, planned: int, swiss_rounds: int, described: str,
                 declaration: Declaration, log: ProblemLog) -> None:
    check_round_numbers(event, planned, described,
                        "set swiss_rounds or cut in event.toml if it ran longer", log)
    swiss_players = {r.player for round_ in event.rounds if round_.number <= swiss_rounds
                     for r in round_.rows}
    alive: set[str] | None = None
    for round_ in event.rounds:
        if round_.number <= swiss_rounds:
            continue
        for row in round_.rows:
            if row.player not in swiss_players:
                log.error(round_.path, row.line, f"{row.player} plays an elimination round "
                                                 "without having played a Swiss round")
            elif alive is not None and row.player not in alive:
                log.error(round_.path, row.line,
                          f"{row.player} is out of the elimination rounds (lost or absent in "
                          f"round {round_.number - 1}) and cannot play round {round_.number}")
        alive = {r.player for r in round_.rows if r.result != FORFEIT_LOSS
                 and not _is_loss_word(r.result, declaration)
                 and not _lost_by_points(r, round_)}


def _lost_by_points(row: Row, round_: Round) -> bool:
    if row.result != BY_POINTS:
        return False
    other = next((r for r in round_.rows if r.table == row.table and r is not row), None)
    return other is not None and other.points is not None and other.points > row.points
