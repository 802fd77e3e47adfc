"""Kingdom round files (`table,player,houses[,result]`): typed rows and the checks of a round."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.model import Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number
from ..twoplayer import BYE, check_duplicates, check_pair, tables_of
from .options import MAX_HOUSES

COLUMNS = ColumnSpec(required=("table", "player", "houses"), optional=("result",))

GAME = ""
"""`result` of a row whose game the hero houses decide (the cell is empty)."""
EXPECTED_RESULTS = ("empty (more hero houses wins, equal houses are a cosmic struggle) or 'bye' "
                    "on a player's lone row")
HOUSES_HINT = f" (the hero houses the player made, 0 to {MAX_HOUSES})"


@dataclass(frozen=True, slots=True)
class Row:
    line: int
    table: int | None
    player: str
    houses: int | None
    """None when the cell is empty (a bye, or a lone row scored as an unpaired loss)."""
    result: str
    """BYE or GAME."""


def read_rows(table: CsvTable, shown: str, log: ProblemLog) -> tuple[Row, ...]:
    rows = []
    for csv_row in table.rows:
        line = csv_row.line
        player = csv_row.get("player")
        if not player:
            log.error(shown, line, "the player cell is empty: expected the player's name")
            continue
        cells = (
            _result(csv_row.get("result"), shown, line, log),
            whole_number(csv_row.get("table"), "table", 1, shown, line, log,
                         " (leave it empty for a bye)"),
            _houses(csv_row.get("houses"), shown, line, log),
        )
        if any(cell is INVALID for cell in cells):
            continue
        result, number, houses = cells
        rows.append(Row(line, number, player, houses, result))
    return tuple(rows)


def _result(text: str, shown: str, line: int, log: ProblemLog) -> str | object:
    word = " ".join(text.lower().split())
    if word in (GAME, BYE):
        return word
    log.error(shown, line, f"result '{text}' is not a Kingdom result: expected {EXPECTED_RESULTS}")
    return INVALID


def _houses(text: str, shown: str, line: int, log: ProblemLog) -> int | None | object:
    houses = whole_number(text, "houses", 0, shown, line, log, HOUSES_HINT)
    if isinstance(houses, int) and houses > MAX_HOUSES:
        log.error(shown, line, f"houses '{text}' is more than {MAX_HOUSES}: a Hero House deck "
                               f"makes at most {MAX_HOUSES} hero houses")
        return INVALID
    return houses


# ---------------------------------------------------------------- checks


def check_round(round_: Round, log: ProblemLog) -> None:
    check_duplicates(round_, log)
    tables, loose = tables_of(round_)
    for number, rows in tables.items():
        if round_.table_rejected(number) or not check_pair(round_.path, number, rows,
                                                           "a Kingdom game", log):
            continue
        if len(rows) == 2:
            _check_game(round_.path, number, rows, log)
        else:
            _check_lone(round_.path, rows[0], log)
    for row in loose:
        _check_lone(round_.path, row, log)


def pending_rows(round_: Round) -> list[Row]:
    """Rows of games still being played: at a table of two with the hero houses not written yet
    (the newest round may be in progress, see rules.pairings; a lone row's empty houses is a bye
    or an unpaired loss)."""
    tables, _ = tables_of(round_)
    return [row for rows in tables.values() if len(rows) == 2
            for row in rows if row.houses is None and row.result == GAME]


def _check_game(path: str, number: int, rows: list[Row], log: ProblemLog) -> None:
    if any(row.houses is None and row.result == GAME for row in rows):
        return  # still being played: checked once both players' hero houses are in
    a, b = rows
    if a.houses is not None and b.houses is not None and a.houses + b.houses > MAX_HOUSES:
        log.error(path, b.line, f"table {number}: {a.player} {a.houses} + {b.player} {b.houses} = "
                                f"{a.houses + b.houses} hero houses; a Hero House deck makes at "
                                f"most {MAX_HOUSES}")


def _check_lone(path: str, row: Row, log: ProblemLog) -> None:
    """A lone row is a bye or an unpaired loss; hero houses written there count for nothing."""
    if row.result == BYE:
        if row.houses is not None:
            log.warning(path, row.line, f"{row.player} has a bye: the {row.houses} hero houses "
                                        "written are not counted (a bye is not a game)")
        return
    where = f"is alone at table {row.table}" if row.table is not None else "has no table"
    counted = f"; the {row.houses} hero houses written are not counted" if row.houses else ""
    log.warning(path, row.line, f"{row.player} {where} and no 'bye': scored as an unpaired loss "
                                f"(0 points{counted}) — write bye in the result column if it was a "
                                "bye, or add the opponent's row")
