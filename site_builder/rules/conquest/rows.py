"""Conquest round files: typed rows, and the checks that need the whole round or event."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.model import Event, Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number
from ..twoplayer import BYE, check_duplicates, check_pair, check_round_numbers, tables_of
from .structure import Plan

COLUMNS = ColumnSpec(required=("table", "player", "result"))

WIN, MODIFIED_WIN, LOSS = "win", "modified-win", "loss"
RESULT_WORDS = {
    "win": WIN, "w": WIN,
    "modified-win": MODIFIED_WIN, "modified win": MODIFIED_WIN, "modified_win": MODIFIED_WIN,
    "mw": MODIFIED_WIN,
    "loss": LOSS, "l": LOSS,
    "bye": BYE,
}
EXPECTED_RESULTS = ("win (or w), modified-win (or mw, modified win), loss (or l) or bye, in "
                    "capitals or not")
"""Every spelling RESULT_WORDS takes, as the error for any other says it (and the docs)."""
PENDING = ""
"""An empty result: the game is still being played (a round in progress, see rules.pairings)."""


@dataclass(frozen=True, slots=True)
class Row:
    line: int
    table: int | None
    player: str
    result: str


def read_rows(table: CsvTable, shown: str, log: ProblemLog) -> tuple[Row, ...]:
    rows = []
    for csv_row in table.rows:
        player = csv_row.get("player")
        if not player:
            log.error(shown, csv_row.line, "the player cell is empty: expected the player's name")
            continue
        result = _result(csv_row.get("result"), shown, csv_row.line, log)
        number = whole_number(csv_row.get("table"), "table", 1, shown, csv_row.line, log,
                              " (leave it empty for a bye)")
        if result is None or number is INVALID:
            continue
        rows.append(Row(csv_row.line, number, player, result))
    return tuple(rows)


def _result(text: str, shown: str, line: int, log: ProblemLog) -> str | None:
    if not text:
        return PENDING
    word = RESULT_WORDS.get(" ".join(text.lower().split()))
    if word is None:
        log.error(shown, line, f"result '{text}' is not a Conquest result: expected {EXPECTED_RESULTS}")
    return word


def pending_rows(round_: Round) -> list[Row]:
    """The rows still waiting for their result."""
    return [row for row in round_.rows if row.result == PENDING]


# ---------------------------------------------------------------- checks


def check_round(round_: Round, elimination: bool, log: ProblemLog) -> None:
    check_duplicates(round_, log)
    tables, loose = tables_of(round_)
    for row in loose:
        if row.result == PENDING:
            log.error(round_.path, row.line,
                      f"{row.player} has no table and no result: seat them at a table with an "
                      "opponent, or write bye if they have a bye")
        elif row.result in (WIN, MODIFIED_WIN):
            log.error(round_.path, row.line,
                      f"{row.player} has a {row.result} but no table: a win needs an opponent at "
                      "the same table (a round without an opponent is a 'bye')")
        elif elimination and row.result == LOSS:
            log.error(round_.path, row.line,
                      f"{row.player} has a loss with no Game number: in elimination rounds each "
                      "game's number goes in the table column (and a player who drops gives the "
                      "opponent a 'bye')")
    for number, rows in tables.items():
        if not round_.table_rejected(number):
            _check_table(round_.path, number, rows, elimination, log)


def _check_table(path: str, number: int, rows: list[Row], elimination: bool, log: ProblemLog) -> None:
    if not check_pair(path, number, rows, "a Conquest game", log):
        return
    names = " and ".join(r.player for r in rows)
    line = rows[-1].line
    if len(rows) == 1:
        row = rows[0]
        if row.result == PENDING:
            log.error(path, line, f"{row.player} is alone at table {number} with no result: add "
                                  "the opponent's row, or write bye if it is a bye")
        elif row.result in (WIN, MODIFIED_WIN):
            log.error(path, line, f"table {number} has only {row.player}, with a {row.result}: "
                                  "a win needs an opponent at the same table (or write 'bye')")
        elif row.result == LOSS and elimination:
            log.error(path, line, f"{row.player} has a loss alone at Game {number}: in elimination "
                                  "rounds the opponent of a player who drops gets a 'bye'")
        return
    results = sorted(r.result for r in rows)
    if PENDING in results:
        return  # still being played (a round in progress): checked once both results are in
    if results == [LOSS, LOSS]:
        log.error(path, line, f"table {number} has no winner ({names} both lost): one of them needs "
                              "win or modified-win")
    elif LOSS not in results:
        log.error(path, line, f"table {number} has two winners ({names}): one player wins, the "
                              "other gets a loss")


def check_stages(event: Event, plan: Plan, log: ProblemLog) -> None:
    """Round count against the structure, and who may play each elimination round."""
    advice = ("raise swiss_rounds or cut in event.toml if it ran longer"
              if plan.structure == "custom" else
              "set structure = \"custom\" with swiss_rounds and cut in event.toml if it "
              "ran differently")
    check_round_numbers(event, plan.total_rounds, plan.describe(), advice, log)
    swiss_players = {r.player for round_ in event.rounds if round_.number <= plan.swiss_rounds
                     for r in round_.rows}
    alive: set[str] | None = None
    for round_ in event.rounds:
        if not plan.swiss_rounds < round_.number <= plan.total_rounds:
            continue
        for row in round_.rows:
            if plan.swiss_rounds and row.player not in swiss_players:
                log.error(round_.path, row.line,
                          f"{row.player} plays an elimination round without having played a Swiss round")
            elif alive is not None and row.player not in alive:
                log.error(round_.path, row.line,
                          f"{row.player} is out of the elimination rounds (lost or absent in round "
                          f"{round_.number - 1}) and cannot play round {round_.number}")
        alive = {r.player for r in round_.rows if r.result != LOSS}
