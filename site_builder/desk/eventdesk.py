"""One event at the desk: its round being played, table by table, and a table's result saved.

Read fresh from its files at every request (an event is a few files; the organizer may have
edited one by hand a moment ago), checked by the loader and the game's ruleset exactly as
`check` checks it. A result is saved only when the event, with the round file as it would be
written, passes those checks; it is journalled before the round file is replaced (store.py).
All writes of one desk go through one lock, so two results saved at once (two phones, the desk
and a phone) are applied one after the other, each over the file as the other left it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.model import Event
from ..core.problems import DataError, Problem, ProblemLog, sorted_problems
from ..league.load import EVENTS_DIR, assign_event_ids, load_event
from ..league.people import load_directory
from ..organizer.pairtrust import refuse_what_the_build_skips
from ..rules.base import Ruleset
from ..rules.entry import Cell, Entry
from . import roundfile
from .roundfile import NotEditable, RoundText, TableRows
from .store import Journal, is_round_file, read_text, write_atomically

WRITE_LOCK = threading.RLock()
"""Every write of the desk to any event (results, journals, new rounds): one at a time."""
NUMBER = re.compile(r"[0-9 .+-]*")
Games = list[list[dict[str, str]]]
"""A table's result as the desk holds it: per game, per seat, column → value."""


@dataclass(slots=True)
class DeskTable:
    rows: TableRows
    waiting: bool
    """No result yet (the game's `pending` says so)."""

    @property
    def number(self) -> str:
        return self.rows.table


@dataclass(slots=True)
class Loaded:
    """An event as the desk shows it."""

    slug: str
    folder: Path
    event: Event | None
    ruleset: Ruleset | None
    entry: Entry | None
    problems: list[Problem]
    """The event's errors (it cannot be scored until they are fixed) and warnings."""
    round_number: int = 0
    round_file: str = ""
    text: RoundText | None = None
    tables: list[DeskTable] = field(default_factory=list)
    lone: list[tuple[str, str]] = field(default_factory=list)
    """Rows of no table (byes, unpaired losses): (player, result)."""
    not_editable: str = ""
    complete: bool = False
    """Every planned round is in (or status = "final"): there is no next round to form."""

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def to_go(self) -> list[DeskTable]:
        return [table for table in self.tables if table.waiting]

    def table(self, number: str) -> DeskTable | None:
        return next((t for t in self.tables if t.number == number), None)

    @property
    def final(self) -> bool:
        return self.complete or (self.event is not None and self.event.info.status == "final")


def load(source: Path, slug: str) -> Loaded:
    folder = source / EVENTS_DIR / slug
    log = ProblemLog()
    try:
        refuse_what_the_build_skips(source, folder)
    except DataError as exc:
        return Loaded(slug, folder, None, None, None, exc.problems)
    event = load_event(source, folder, log)
    if event is not None:
        assign_event_ids(event, load_directory(source, ProblemLog()), log)
    if event is None or not event.info.game:
        return Loaded(slug, folder, event, None, None, sorted_problems(log.problems))
    ruleset = event.ruleset
    loaded = Loaded(slug, folder, event, ruleset, ruleset.entry(event.options),
                    sorted_problems(log.problems))
    if event.rounds:
        _read_round(loaded, event, ruleset)
        if not loaded.errors and not loaded.to_go:
            loaded.complete = ruleset.score(event).complete
    return loaded


def _read_round(loaded: Loaded, event: Event, ruleset: Ruleset) -> None:
    latest = event.rounds[-1]
    loaded.round_number, loaded.round_file = latest.number, Path(latest.path).name
    waiting = {str(row.table) for row in ruleset.pending(latest)
               if row.table is not None}
    try:
        text = roundfile.parse(read_text(loaded.folder / loaded.round_file))
    except (OSError, UnicodeDecodeError, NotEditable) as exc:
        loaded.not_editable = f"{loaded.round_file} cannot be edited at the desk: {exc}"
        return
    loaded.text = text
    entry = loaded.entry or Entry(cells=())
    loaded.tables = [DeskTable(roundfile.read_table(text, table, entry), table in waiting)
                     for table in text.tables()]
    loaded.lone = [(text.get(i, "player"), text.get(i, "result"))
                   for i, row in enumerate(text.cells) if row is not None
                   and not text.get(i, "table")]


# ------------------------------------------------------------------ saving a table


class Refused(Exception):
    """Nothing was written; `problems` say why, for the person who sent the result."""

    def __init__(self, problems: list[Problem], conflict: bool = False):
        super().__init__(problems[0].message if problems else "refused")
        self.problems = problems
        self.conflict = conflict


def games_from_form(entry: Entry, seats: list[str], form: dict[str, str]) -> Games:
    """The games of a table as a form sent them: `g<game>.s<seat>.<column>` fields, games
    numbered from 1 in the order shown; a quick result (`quick` = "<seat>:<index>") sets the
    result column of every seat."""
    count = max([int(m[1]) for key in form
                 if (m := re.fullmatch(r"g([0-9]{1,2})\.s[0-9]+\..+", key))] + [1])
    count = min(count, max(entry.max_games, 1))
    games = [[{cell.column: form.get(f"g{g}.s{s}.{cell.column}", "").strip() for cell in entry.cells}
              for s in range(len(seats))] for g in range(1, count + 1)]
    quick = form.get("quick", "")
    if quick and entry.quick and (m := re.fullmatch(r"([0-9]+):([0-9]+)", quick)):
        seat, index = int(m[1]), int(m[2])
        if seat < len(seats) and index < len(entry.quick):
            choice = entry.quick[index]
            for s, values in enumerate(games[0]):
                values["result"] = choice.mine if s == seat else choice.theirs
    return games


def check_values(entry: Entry, seats: list[str], games: list[list[dict[str, str]]],
                 shown: str) -> list[Problem]:
    """What the desk itself refuses before the game's checks see a value: a pick that is not
    one of the choices, a number field holding something no number has (HTML, a comma, a line
    break: it would change the file's shape, not only the cell)."""
    problems = []
    for g, game in enumerate(games, start=1):
        for seat, values in zip(seats, game):
            for cell in entry.cells:
                value = values.get(cell.column, "")
                if value and not _fits(cell, value):
                    where = f"game {g}, " if entry.games else ""
                    problems.append(Problem(shown, None, f"{where}{cell.label} of {seat}: "
                                            f"{value[:40]!r} is not {_expected(cell)}"))
    return problems


def _fits(cell: Cell, value: str) -> bool:
    if cell.choices:
        return value in cell.values
    return len(value) <= 12 and NUMBER.fullmatch(value) is not None


def _expected(cell: Cell) -> str:
    if cell.choices:
        return "one of " + ", ".join(c.label for c in cell.choices if c.value)
    kind = "a number" if cell.decimals else "a whole number"
    if cell.low is not None and cell.high is not None:
        return f"{kind} from {cell.low} to {cell.high}"
    return kind


def save_table(source: Path, slug: str, round_number: int, table: str, fingerprint: str | None,
               games_of: Callable[[Entry, list[str]], Games], by: str) -> str:
    """Write the games `games_of(entry, seats)` makes as `table`'s result in round
    `round_number`, read and written under WRITE_LOCK, or raise Refused. `fingerprint`: the
    table's lines as the form saw them (a conflict when they changed since); None takes them
    as they are (a phones' agreed result). Returns the round file's name."""
    with WRITE_LOCK:
        loaded = load(source, slug)
        shown = f"{EVENTS_DIR}/{slug}/{loaded.round_file or 'round file'}"
        if loaded.event is None or loaded.entry is None or loaded.text is None:
            raise Refused(loaded.errors or [Problem(shown, None, loaded.not_editable
                                                    or "this event has no round being played")])
        if round_number != loaded.round_number:
            raise Refused([Problem(shown, None, f"this result is for round {round_number}, but "
                                   f"round {loaded.round_number} is being played: nothing was "
                                   "written (an earlier round is corrected from its own page)")])
        current = loaded.table(table)
        if current is None:
            raise Refused([Problem(shown, None, f"round {round_number} has no table {table}")])
        if fingerprint is not None and fingerprint != current.rows.fingerprint:
            raise Refused([Problem(shown, None, f"table {table} was changed in {loaded.round_file} "
                                   "since this form was opened (by hand, or at another desk or "
                                   "phone): nothing was written; here is what it says now")],
                          conflict=True)
        games = games_of(loaded.entry, current.rows.seats)
        problems = check_values(loaded.entry, current.rows.seats, games, shown)
        if problems:
            raise Refused(problems)
        lines = roundfile.table_lines(loaded.text, current.rows, loaded.entry, games)
        write_lines(source, loaded, table, lines, by)
        return loaded.round_file


def write_lines(source: Path, loaded: Loaded, table: str, lines: list[str], by: str) -> None:
    """Check the event with `table`'s lines replaced as `check` would, then journal and write.
    Under WRITE_LOCK, with `loaded` read under it."""
    assert loaded.text is not None
    text = loaded.text.with_table(table, lines)
    errors = new_errors(source, loaded, {loaded.round_file: text})
    if errors:
        raise Refused(errors)
    journal = Journal(loaded.folder)
    record = {"kind": "result", "file": loaded.round_file, "table": table,
              "before": loaded.text.fingerprint(table), "lines": lines, "by": by,
              "after": roundfile.parse(text).fingerprint(table)}
    journal.append(record)
    write_atomically(loaded.folder / loaded.round_file, text)
    journal.append({"kind": "done", "file": loaded.round_file, "table": table,
                    "after": record["after"]})


def new_errors(source: Path, loaded: Loaded, held: dict[str, str]) -> list[Problem]:
    """check's errors once `held` is written that the event does not have already: only what
    a write would break stops it, and an error already in the event (another round's, to be
    fixed by hand) does not hold back a result here. Compared without line numbers, which a
    table's added games move."""
    standing = {(p.path, p.message) for p in loaded.errors}
    return [p for p in check_with(source, loaded, held) if (p.path, p.message) not in standing]


def check_with(source: Path, loaded: Loaded, held: dict[str, str]) -> list[Problem]:
    """check's errors for the event once `held` (file name → text) is written."""
    log = ProblemLog()
    event = load_event(source, loaded.folder, log, {k: v.encode("utf-8") for k, v in held.items()})
    if event is not None:
        assign_event_ids(event, load_directory(source, ProblemLog()), log)
    return sorted_problems([p for p in log.problems if p.is_error])


# ------------------------------------------------------------------ after a kill


def replay(source: Path, slug: str) -> list[str]:
    """Apply each journalled result whose write did not finish (no `done` after it): the desk
    was killed between the two. Returns what the organizer is told of it."""
    folder = source / EVENTS_DIR / slug
    records = Journal(folder).records()
    done = {_key(r) for r in records if r.get("kind") == "done"}
    said = []
    with WRITE_LOCK:
        for record in records:
            key = _key(record)
            if record.get("kind") != "result" or key is None or key in done \
                    or not _well_formed(record):
                continue
            said.append(_replay_one(source, slug, record))
            done.add(key)
    return [line for line in said if line]


def _key(record: dict[str, Any]) -> tuple[str, str, str] | None:
    """(file, table, after) of a journal record, when all three are text (the journal is read
    back as data: anything else is passed over)."""
    key = (record.get("file"), record.get("table"), record.get("after"))
    return key if all(isinstance(part, str) for part in key) else None


def _well_formed(record: dict[str, Any]) -> bool:
    lines = record.get("lines")
    return (is_round_file(record.get("file")) and isinstance(record.get("table"), str)
            and isinstance(record.get("before"), str) and isinstance(record.get("after"), str)
            and isinstance(lines, list) and all(isinstance(line, str) and "\n" not in line
                                                and "\r" not in line for line in lines))


def _replay_one(source: Path, slug: str, record: dict[str, Any]) -> str:
    loaded = load(source, slug)
    table, where = record["table"], f"{EVENTS_DIR}/{slug}/{record['file']}"
    if loaded.text is None or loaded.round_file != record["file"]:
        return f"{where}: a result for table {table} in the journal was not applied: the round is over"
    now = loaded.text.fingerprint(table)
    if now != record["after"] and now == record["before"]:
        try:
            write_lines(source, loaded, table, record["lines"], "replay")
        except Refused as exc:
            return f"{where}: table {table}'s journalled result was not applied: {exc}"
        return f"{where}: table {table}'s result, accepted before the desk stopped, is written"
    if now != record["after"]:
        return (f"{where}: table {table} was edited by hand after its result was accepted; "
                "the hand edit stands")
    Journal(loaded.folder).append({"kind": "done", "file": record["file"], "table": table,
                                   "after": record["after"]})
    return ""


def shown_games(entry: Entry, rows: TableRows, draft: dict[str, str] | None,
                blocks: int = 0, grow: bool = False) -> list[list[dict[str, str]]]:
    """What a table's form shows: the values sent (a form coming back with a problem), else
    the round file's; with at least `blocks` games (the "Add a game" button). `grow`: a table
    still being played whose games are entered gets the next game's empty block at once."""
    games = games_from_form(entry, rows.seats, draft) if draft else [
        [dict(seat) for seat in game] for game in rows.games]
    if grow and entry.games and not draft and any(v for seat in games[-1] for v in seat.values()):
        blocks = max(blocks, len(games) + 1)
    while len(games) < min(blocks, entry.max_games):
        games.append([{} for _ in rows.seats])
    return games
