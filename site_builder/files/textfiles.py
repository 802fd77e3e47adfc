"""Reading the organizer's text files: UTF-8 text, CSV tables and TOML documents.

Each reader turns a file into plain values plus problems with `path:line` positions; none of them
raises on bad content. The stdlib `csv` module is used rather than pandas because validation needs
the physical line of every row and the cells exactly as typed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
import sys
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.problems import ProblemLog
from .sources import read_bytes

BOM = "\ufeff"


LIMITS = {".md": 2_000_000, ".csv": 2_000_000, ".toml": 1_000_000}
"""The largest text file of each kind, in bytes: a report of 2 MB is a long book, a round file
of 2 MB holds ten thousand players. Without a cap, one committed file could take the build past
the memory of the machine building it (a 50 MB report needed 2.5 GB): see docs/commands.md, "Limits"."""
MAX_ROWS = 10_000
"""The most rows a round or registration file may have (one round of 10,000 players builds in
about 0.2 GB)."""


def read_text(path: Path, shown: str, log: ProblemLog, raw: bytes | None = None,
              limit: int | None = None) -> str | None:
    """The file's text (a UTF-8 BOM removed), or None after logging why it can't be read.
    `raw` is the file's content when the caller has already read it; `limit` the largest size
    allowed, by default the one for the file's kind (LIMITS)."""
    if raw is None:
        raw = read_bytes(path, shown, log, limit or LIMITS.get(path.suffix.lower(), 1_000_000))
        if raw is None:
            return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        log.error(
            shown,
            line,
            f"is not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {column}): "
            "save it as UTF-8 (in a spreadsheet: 'CSV UTF-8')",
        )
        return None
    return text.removeprefix(BOM)


# ---------------------------------------------------------------- CSV


@dataclass(frozen=True, slots=True)
class CsvRow:
    """One data row: its first physical line and its cells by normalized column name."""

    line: int
    cells: dict[str, str]

    def get(self, column: str) -> str:
        return self.cells.get(column, "")


@dataclass(frozen=True, slots=True)
class CsvTable:
    header_line: int
    columns: tuple[str, ...]
    rows: tuple[CsvRow, ...]


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    """Columns a file must have and may have; any other column is ignored with a warning."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    def describe(self) -> str:
        names = list(self.required) + [f"[{name}]" for name in self.optional]
        return ",".join(names)


def read_csv(path: Path, shown: str, spec: ColumnSpec, log: ProblemLog,
             raw: bytes | None = None, limit: int | None = None,
             max_rows: int = MAX_ROWS) -> CsvTable | None:
    """Parse a CSV file against `spec`. Returns None when the file can't be used at all
    (unreadable, over `limit` bytes or `max_rows` rows)."""
    text = read_text(path, shown, log, raw, limit)
    if text is None:
        return None
    if text.count("\n") > max_rows + 1 and _records(text) > max_rows + 1:
        log.error(shown, None, f"has more than {max_rows:,} rows, the most a file of this kind "
                               "may have (see Limits in docs/commands.md)")
        return None
    records = _Records(text, shown, log)
    first = next(records, None)
    if first is None:  # nothing, or only blank lines and empty cells (an empty sheet's export)
        if not records.broken:
            log.error(shown, 1, f"the file is empty: expected a header line '{spec.describe()}' "
                                "and rows")
        return None
    header_line, header = first
    columns = _read_header(header, header_line, shown, spec, log)
    if columns is None:
        return None
    rows = [
        row
        for line, cells in (_without_nul_rows(records, shown, log) if "\x00" in text else records)
        if (row := _read_row(cells, line, columns, shown, log)) is not None
    ]
    if records.broken:
        return None  # the records stopped at a row the csv module could not read
    return CsvTable(header_line, columns, tuple(rows))


def _records(text: str) -> int:
    """How many non-blank records the CSV text has (a quoted cell may span lines)."""
    try:
        return sum(1 for cells in csv.reader(io.StringIO(text, newline="")) if any(cells))
    except csv.Error:
        return 0  # reported where the rows are read


def _without_nul_rows(records, shown: str, log: ProblemLog):
    for line, cells in records:
        if any("\x00" in cell for cell in cells):
            log.error(shown, line, "a cell holds a NUL byte (\\x00), which no name or result "
                                   "has: the file is damaged or not text; retype the row")
        else:
            yield line, cells


CELL_LIMIT = csv.field_size_limit()
"""The csv module's longest cell (131,072 characters). No name or result comes near it: a cell
that long is a stray quote that swallowed the rest of the file, or not a results file."""


class _Records:
    """The (first line number, cells) of each non-blank record; a quoted cell may span lines.

    Lines end only at \n, \r or \r\n (not at Unicode separators inside a name), and cells are
    NFC-normalized, so 'Zoë' typed two ways is one name. A record the csv module cannot read
    (a cell past its limit) is an error at its first line, ends the records, and leaves
    `broken` set.
    """

    def __init__(self, text: str, shown: str, log: ProblemLog):
        self.reader = csv.reader(io.StringIO(text, newline=""))
        self.shown, self.log = shown, log
        self.last_line = 0
        self.broken = False

    def __iter__(self):
        return self

    def __next__(self) -> tuple[int, list[str]]:
        while not self.broken:
            try:
                cells = next(self.reader)
            except csv.Error as exc:
                self.broken = True
                self.log.error(self.shown, self.last_line + 1, _unreadable_record(
                    str(exc), self.last_line + 1, self.reader.line_num))
                break
            first_line = self.last_line + 1
            self.last_line = self.reader.line_num
            if any(cell.strip() for cell in cells):
                return first_line, [unicodedata.normalize("NFC", cell.strip()) for cell in cells]
        raise StopIteration


def _unreadable_record(reason: str, first_line: int, reached_line: int) -> str:
    return "unreadable CSV: " + _why_unreadable(reason, first_line, reached_line)


def _why_unreadable(reason: str, first_line: int, reached_line: int) -> str:
    if "field limit" not in reason:
        return f"{reason}; the file is not read past this line"
    if reached_line > first_line:
        return (f"a quoted cell starting on this line runs on to line {reached_line} and past "
                f"{CELL_LIMIT:,} characters: a stray double quote (\") opens a cell that only "
                "another quote closes. Remove it, or write a quote inside a cell as two (\"\")")
    return (f"a cell on this line is longer than {CELL_LIMIT:,} characters: no name or result "
            "is that long (is this the right file?)")


def _read_header(
    header: list[str], line: int, shown: str, spec: ColumnSpec, log: ProblemLog
) -> tuple[str, ...] | None:
    columns = tuple(name.strip().lower() for name in header)
    ok = True
    seen: set[str] = set()
    for name in columns:
        if name in seen and name:
            log.error(shown, line, f"column '{name}' appears twice in the header")
            ok = False
        seen.add(name)
    missing = [name for name in spec.required if name not in seen]
    if missing:
        names = ", ".join(f"'{m}'" for m in missing)
        log.error(
            shown,
            line,
            f"the header lacks column{'s' if len(missing) > 1 else ''} {names}: "
            f"expected '{spec.describe()}', found '{','.join(columns)}'",
        )
        ok = False
    known = set(spec.required) | set(spec.optional)
    for name in columns:
        if name and name not in known:
            log.warning(shown, line, f"column '{name}' is not used and is ignored "
                        f"(expected '{spec.describe()}')")
    return columns if ok else None


def _read_row(
    cells: list[str], line: int, columns: tuple[str, ...], shown: str, log: ProblemLog
) -> CsvRow | None:
    extra = cells[len(columns):]
    if any(extra):
        log.error(
            shown, line,
            f"the row has {len(cells)} cells but the header has {len(columns)} columns "
            "(a comma inside a name needs quotes: \"Smith, Ann\")",
        )
        return None
    padded = cells[: len(columns)] + [""] * (len(columns) - len(cells))
    return CsvRow(line, {name: value for name, value in zip(columns, padded) if name})


# ---------------------------------------------------------------- TOML


@dataclass(frozen=True, slots=True)
class TomlDoc:
    """A parsed TOML document that can say on which line a top-level key was set."""

    shown: str
    text: str
    data: dict[str, Any]

    def line_of(self, key: str) -> int:
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=", re.MULTILINE)
        match = pattern.search(self.text)
        return self.text.count("\n", 0, match.start()) + 1 if match else 1


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def read_toml(path: Path, shown: str, log: ProblemLog) -> TomlDoc | None:
    text = read_text(path, shown, log)
    return None if text is None else _parsed_toml(text, shown, log)


def parse_toml(raw: bytes, shown: str, log: ProblemLog) -> TomlDoc | None:
    """A TOML document already read (a game declaration, read once per league)."""
    text = read_text(Path(shown), shown, log, raw=raw)
    return None if text is None else _parsed_toml(text, shown, log)


def _parsed_toml(text: str, shown: str, log: ProblemLog) -> TomlDoc | None:
    try:
        data = tomllib.loads(text)
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        log.error(shown, 1, "is not valid TOML: its arrays or tables are nested too deeply")
        return None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        line = int(match.group(1)) if match else text.count("\n") + 1
        detail = message[: match.start()] if match else message.replace(" (at end of document)", "")
        where = f" at column {match.group(2)}" if match else " at the end of the file"
        log.error(shown, line, f"is not valid TOML: {detail[0].lower()}{detail[1:]}{where}")
        return None
    except ValueError:  # after TOMLDecodeError, its subclass: a decimal integer too long for int()
        data = None
    if data is None or _holds_too_long_integer(data):
        log.error(shown, *_too_long_integer(text))
        return None
    return TomlDoc(shown, text, data)


# ---------------------------------------------------------------- integers too long to read
# Python turns at most sys.get_int_max_str_digits() digits (4,300) of text into an int, or an int
# into text: past that, int() and str() raise ValueError. tomllib reads a longer decimal integer
# with int() (a ValueError that says neither where nor which), and a longer hexadecimal, octal or
# binary one without complaint, which every message and digest showing it then fails on.

_INTEGER = re.compile(r"[+-]?(?:0x[0-9a-fA-F](?:_?[0-9a-fA-F])*|0o[0-7](?:_?[0-7])*"
                      r"|0b[01](?:_?[01])*|[0-9](?:_?[0-9])*)")
_KEY = re.compile(r"^\s*([^=\s]+)\s*=")


def _holds_too_long_integer(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_holds_too_long_integer(inner) for inner in value.values())
    if isinstance(value, list):
        return any(_holds_too_long_integer(inner) for inner in value)
    if not isinstance(value, int):
        return False
    limit = sys.get_int_max_str_digits()  # 0: no limit
    # Below 2 ** (3 * limit) a number is below 10 ** limit: most need no power of ten at all.
    return limit > 0 and value.bit_length() > 3 * limit and abs(value) >= 10 ** limit


def _reads_too_long_integer(text: str) -> bool:
    try:
        return _holds_too_long_integer(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    except ValueError:
        return True


def _too_long_integer(text: str) -> tuple[int, str]:
    """(line, message) for the first integer too long to read. Its line is the last of the
    shortest beginning of the file that holds it: a beginning that holds the number reads it
    (all before it was read), one that ends before it does not (one cut inside a string is not
    TOML). So a binary search over the lines finds it."""
    lines = text.splitlines(keepends=True)
    low, high = 1, max(len(lines), 1)
    while low < high:
        middle = (low + high) // 2
        if _reads_too_long_integer("".join(lines[:middle])):
            high = middle
        else:
            low = middle + 1
    line = lines[low - 1] if lines else ""
    digits = max((_decimal_digits(m.group()) for m in _INTEGER.finditer(line)), default=0)
    key = _KEY.match(line)
    subject = key.group(1).strip("\"'") if key else "a value"
    return low, (f"{subject} is a whole number of {digits:,} digits: expected a whole number of "
                 f"at most {sys.get_int_max_str_digits():,} digits")


def _decimal_digits(literal: str) -> int:
    """How many decimal digits the TOML integer has, without making it text."""
    written = literal.lstrip("+-").replace("_", "")
    if not written.startswith(("0x", "0o", "0b")):
        return len(written.lstrip("0")) or 1
    value = int(written, 0)  # a power-of-two base: no limit
    return len(str(value)) if value < 10 ** 4000 else math.floor(math.log10(value)) + 1


def toml_type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return "a date"
    return type(value).__name__
