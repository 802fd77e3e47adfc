"""An event's drops.csv: the players who left the event, each with the last round they played.

    player,after_round
    Mateus Costa,4

A player who stops appearing in the rounds is scored as dropped with or without this file (data
contract, section 3). The file says the organizer knows: `check` then does not ask whether their
row in the next round was forgotten (namechecks.check_absences), and `pair` does not pair them.
`site-builder pair --drop NAME` writes its lines (drops_text).
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from pathlib import Path

from ..core.model import Round
from ..core.problems import ProblemLog
from ..files.sources import FILE
from ..files.textfiles import BOM, ColumnSpec, read_csv

DROPS_FILE = "drops.csv"
HEADER = ("player", "after_round")
_SPEC = ColumnSpec(required=HEADER)


def read_drops(files: dict[str, tuple[Path, str]], shown_folder: str, rounds: tuple[Round, ...],
               log: ProblemLog, raw: bytes | None = None) -> dict[str, tuple[int, int]]:
    """Name → (after_round, line) of the event's drops.csv, each row checked against the
    rounds; {} without the file. A row with an error is left out. `raw`: the file's bytes
    when they are not read from it (pair checks drops.csv as it will be)."""
    if DROPS_FILE not in files:
        return {}
    path, found = files[DROPS_FILE]
    shown = f"{shown_folder}/{DROPS_FILE}"
    if found != FILE:
        log.error(shown, None, "is a folder: the drops are a file, one line 'player,after_round' "
                               "per player who left the event")
        return {}
    table = read_csv(path, shown, _SPEC, log, raw)
    if table is None:
        return {}
    check = _Rows(shown, rounds, log)
    drops: dict[str, tuple[int, int]] = {}
    for row in table.rows:
        after = check.row(row.get("player"), row.get("after_round"), row.line)
        if after is not None:
            drops[row.get("player")] = (after, row.line)
    return drops


class _Rows:
    """drops.csv's rows checked one by one against the event's rounds."""

    def __init__(self, shown: str, rounds: tuple[Round, ...], log: ProblemLog):
        self.shown, self.log = shown, log
        self.played = _rounds_played(rounds)
        # A round that lost a row to an error would make its player look absent, or unknown.
        self.whole = not any(round_.partial for round_ in rounds)
        self.last_round = rounds[-1].number if rounds else 0
        self.seen: dict[str, int] = {}

    def row(self, name: str | None, text: str | None, line: int) -> int | None:
        """The round the row's player left after, or None with an error logged."""
        if not self._names_a_player(name, line):
            return None
        last = self.played[name][-1] if name in self.played else None
        last_text = f" ({name} last plays round {last})" if last else ""
        after = _round_number(text)
        if after is None:
            self.log.error(self.shown, line, f"after_round {_not_a_round(text)}: expected the "
                                             f"last round {name} played, a whole number from "
                                             f"1{last_text}")
            return None
        if after > self.last_round:
            rounds_text = (f"has only {self.last_round} round"
                           f"{'s' if self.last_round != 1 else ''}" if self.last_round
                           else "has no rounds yet")
            self.log.error(self.shown, line, f"after_round {after} is past the event's rounds "
                                             f"(it {rounds_text}): expected the last round "
                                             f"{name} played{last_text}")
            return None
        if self.whole and last is not None:
            self._warn_if_still_playing(name, after, last, line)
        return after

    def _names_a_player(self, name: str | None, line: int) -> bool:
        if not name:
            self.log.error(self.shown, line, "the player cell is empty: expected the name of a "
                                             "player who left the event, as the round files "
                                             "write it")
            return False
        if name in self.seen:
            self.log.error(self.shown, line, f"{name} is listed twice (also on line "
                                             f"{self.seen[name]}): one line per player, with "
                                             "the last round they played")
            return False
        self.seen[name] = line
        if self.whole and name not in self.played:
            close = difflib.get_close_matches(name, list(self.played), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            self.log.error(self.shown, line, f"{name} does not play in this event{hint}: "
                                             "drops.csv names players as the round files "
                                             "write them")
            return False
        return True

    def _warn_if_still_playing(self, name: str, after: int, last: int, line: int) -> None:
        """A drop that the rounds contradict: a warning, as the organizer may be mid-way."""
        if last > after:
            back = next(number for number in self.played[name] if number > after)
            self.log.warning(self.shown, line, f"{name} is listed as dropped after round "
                                               f"{after}, but plays round {back}: remove the line "
                                               "if they came back (or write the last round they "
                                               f"played, {last})")
        elif last < after:
            self.log.warning(self.shown, line, f"{name} is listed as dropped after round "
                                               f"{after}, but their last round is {last}: write "
                                               f"{last}, the last round they played")


def _rounds_played(rounds: tuple[Round, ...]) -> dict[str, list[int]]:
    """Each name of the rounds → the rounds it plays, in order."""
    played: dict[str, list[int]] = {}
    for round_ in rounds:
        for row in round_.rows:
            rounds_of = played.setdefault(row.player, [])
            if not rounds_of or rounds_of[-1] != round_.number:
                rounds_of.append(round_.number)
    return played


LONGEST_ROUND = 18
"""Digits of the longest after_round read as a number (shorter ones past the event's rounds are
said to be so): int() refuses a text of over 4,300 digits with a ValueError, where the organizer
needs a message at the line."""


def _round_number(text: str) -> int | None:
    """The cell as a round number from 1, or None."""
    digits = text.lstrip("0")
    if not re.fullmatch(r"[0-9]+", text) or not digits or len(digits) > LONGEST_ROUND:
        return None
    return int(digits)


def _not_a_round(text: str) -> str:
    if not text:
        return "is empty"
    if re.fullmatch(r"[0-9]+", text) and len(text.lstrip("0")) > LONGEST_ROUND:
        return f"is a whole number of {len(text.lstrip('0')):,} digits"
    return f"'{text}' is not a round number"


Drop = tuple[str, int, int | None]
"""(name, after_round, the line that lists them already or None): one line drops.csv will hold."""


def record_drop(folder: Path, name: str, after_round: int, line: int | None = None) -> Path:
    """Write `name,after_round` into the event's drops.csv (see drops_text). Returns the file."""
    path = folder / DROPS_FILE
    text = drops_text(current_text(folder), [(name, after_round, line)])
    path.write_text(text, encoding="utf-8", newline="")
    return path


def current_text(folder: Path) -> str:
    """The event's drops.csv as it is, line breaks kept ("" without the file)."""
    path = folder / DROPS_FILE
    if not path.exists():
        return ""
    with path.open(encoding="utf-8", newline="") as handle:
        return handle.read()


def drops_text(text: str, drops: list[Drop]) -> str:
    """drops.csv's text with each drop written in: in place of the record that starts at its
    line when the player is listed already (they came back, and left again), every physical
    line of that record (a quoted name may hold line breaks), else at the end; the header
    added to a file without one. The file's own line breaks and column order are kept."""
    if not text.strip():
        text = ",".join(HEADER) + "\n"
    end = "\r\n" if "\r\n" in text else "\n"  # the file's own line breaks (a spreadsheet's)
    lines = io.StringIO(text, newline="").readlines()  # at \n, \r, \r\n only, as csv reads
    spans = _record_spans(lines)
    columns = _columns(lines)
    replaced: dict[int, str] = {}
    appended: list[str] = []
    for name, after_round, line in drops:
        cells = {"player": name, "after_round": str(after_round)}
        if line is not None and line > 1 and line in spans:
            # The record's other cells (a note) stay as they were.
            old = next(csv.reader(lines[line - 1:spans[line]]), [])
            cells = {**dict(zip(columns, old)), **cells}
        written = ",".join(csv_cell(cells.get(column, "")) for column in columns) + end
        if line is not None and line > 1 and line in spans:
            replaced[line] = written
        else:
            appended.append(written)
    kept, skip_to = [], 0
    for number, physical in enumerate(lines, start=1):
        if number in replaced:
            kept.append(replaced[number])
            skip_to = spans[number]
        elif number > skip_to:
            kept.append(physical)
    if appended and not kept[-1].endswith(("\n", "\r")):
        kept[-1] += end  # the last line typed without its line break
    return "".join(kept + appended)


def _record_spans(lines: list[str]) -> dict[int, int]:
    """First physical line → last physical line of each record, as the csv module reads them."""
    reader = csv.reader(iter(lines))
    spans, last = {}, 0
    try:
        for _ in reader:
            spans[last + 1] = reader.line_num
            last = reader.line_num
    except csv.Error:
        pass  # the loader has said so; the lines past it are kept as they are
    return spans


def _columns(lines: list[str]) -> list[str]:
    """The header's columns, or HEADER for a header without both (the loader has said so)."""
    header = next(csv.reader([next(x for x in lines if x.strip())]))
    columns = [cell.strip().lstrip(BOM).strip().lower() for cell in header]
    return columns if set(HEADER) <= set(columns) else list(HEADER)


def csv_cell(text: str) -> str:
    """A cell as a CSV file writes it: quoted when it holds a comma, a quote or a line break."""
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if any(c in text for c in ',"\n\r') else text
