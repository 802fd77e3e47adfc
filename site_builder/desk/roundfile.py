"""A round file as the desk edits it: one table's rows replaced, every other byte kept.

The round file stays the one source of truth, and an organizer may open it in an editor while
the desk runs. So the desk never re-serializes a file: it reads it line by line, replaces the
lines of the table it was given a result for (where that table's first line was), and leaves
every other line exactly as it was — its quoting, its spaces, its line endings. A file the desk
cannot edit that way (a cell running over several lines) is refused with a message, and stays
the organizer's to edit by hand.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass

from ..league.drops import csv_cell
from ..rules.entry import Cell, Entry


class NotEditable(ValueError):
    """The file cannot be edited line by line; the message says why, for the organizer."""


@dataclass(slots=True)
class RoundText:
    header: list[str]
    """Column names as the loader reads them (trimmed, lowercase)."""
    lines: list[str]
    """Every line after the header, without its line ending (blank lines kept)."""
    cells: list[list[str] | None]
    """Each line's cells; None for a blank line."""
    head: str
    """The header line as written."""
    newline: str
    ends_with_newline: bool

    def column(self, name: str) -> int | None:
        return self.header.index(name) if name in self.header else None

    def get(self, index: int, name: str) -> str:
        row, at = self.cells[index], self.column(name)
        return "" if row is None or at is None or at >= len(row) else row[at].strip()

    def table_lines(self, table: str) -> list[int]:
        """The lines of `table` (its cell as written, trimmed), in file order."""
        return [i for i, row in enumerate(self.cells)
                if row is not None and self.get(i, "table") == table]

    def tables(self) -> list[str]:
        """Every table named in the file, in the order of its first line."""
        seen: dict[str, None] = {}
        for i, row in enumerate(self.cells):
            if row is not None and (table := self.get(i, "table")):
                seen.setdefault(table, None)
        return list(seen)

    def fingerprint(self, table: str) -> str:
        """What the table's lines say now: a form remembers it, so a save over lines changed
        since (by hand, or at another desk) is a conflict rather than a silent overwrite."""
        text = "\n".join(self.lines[i] for i in self.table_lines(table))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def with_table(self, table: str, new_lines: list[str]) -> str:
        """The whole file with `table`'s lines replaced by `new_lines`, where its first line was
        (at the end when it had none)."""
        old = self.table_lines(table)
        lines = list(self.lines)
        at = old[0] if old else len(lines)
        for i in reversed(old):
            del lines[i]
        lines[at:at] = new_lines
        text = self.newline.join([self.head] + lines)
        return text + (self.newline if self.ends_with_newline or not self.lines else "")


def parse(text: str) -> RoundText:
    text = text.removeprefix("\ufeff")
    newline = "\r\n" if "\r\n" in text else "\n"
    ends = text.endswith(("\n", "\r"))
    raw = text.split(newline)
    if ends:
        raw.pop()
    if not raw or not raw[0].strip():
        raise NotEditable("it has no header line")
    header = [name.strip().lower() for name in _cells(raw[0])]
    cells = [(_cells(line) if line.strip() else None) for line in raw[1:]]
    return RoundText(header, raw[1:], cells, raw[0], newline, ends)


def _cells(line: str) -> list[str]:
    if '"' in line:
        records = list(csv.reader(io.StringIO(line, newline="")))
        if len(records) != 1 or line.count('"') % 2:
            raise NotEditable("a quoted cell runs over several lines: edit this file by hand")
        return records[0]
    return line.split(",")


# ------------------------------------------------------------------ a table's rows


@dataclass(slots=True)
class TableRows:
    """One table as the desk shows it: its seats in order, and each game's cells per seat."""

    table: str
    seats: list[str]
    games: list[list[dict[str, str]]]
    """Per game (one for a game played once per table), per seat, column → value."""
    fingerprint: str


def read_table(text: RoundText, table: str, entry: Entry) -> TableRows:
    lines = text.table_lines(table)
    seats = list(dict.fromkeys(text.get(i, "player") for i in lines))
    blocks: dict[str, dict[str, dict[str, str]]] = {}
    for i in lines:
        game = text.get(i, "game") if entry.games else "1"
        if not game:
            continue  # a seat row: who sits here, no game entered yet
        values = {cell.column: text.get(i, column_of(text, cell) or cell.column)
                  for cell in entry.cells}
        blocks.setdefault(game, {})[text.get(i, "player")] = values
    ordered = sorted(blocks.items(), key=lambda item: _game_order(item[0]))
    games = [[block.get(seat, {}) for seat in seats] for _, block in ordered]
    return TableRows(table, seats, games or [[{} for _ in seats]], text.fingerprint(table))


def _game_order(game: str) -> tuple[int, str]:
    return (int(game), "") if game.isdigit() else (10**9, game)


def column_of(text: RoundText, cell: Cell) -> str | None:
    """The file's name for the cell's column (itself, or one of its aliases), None if absent."""
    for name in (cell.column,) + cell.aliases:
        if name in text.header:
            return name
    return None


def table_lines(text: RoundText, rows: TableRows, entry: Entry,
                games: list[list[dict[str, str]]], unseated: bool = False) -> list[str]:
    """The lines of the table with `games` entered: one line per seat per game (a game with
    nothing in it is left out, and a table with no game left goes back to its seat rows). A
    column the desk does not ask about keeps its value from the seat's first line.
    `unseated`: the lines with their table emptied (a table that never played: Entry.unplayed)."""
    kept = _kept_cells(text, rows.table, entry)
    filled = [game for game in games if any(v for seat in game for v in seat.values())]
    lines = []
    for number, game in enumerate(filled or [[{} for _ in rows.seats]], start=1):
        for seat, values in zip(rows.seats, game):
            cells = dict(kept.get(seat, {}))
            cells.update({"table": "" if unseated else rows.table, "player": seat})
            if entry.games:
                cells["game"] = str(number) if filled else ""
            for cell in entry.cells:
                name = column_of(text, cell)
                if name is not None:
                    cells[name] = values.get(cell.column, "")
            lines.append(",".join(csv_cell(cells.get(name, "")) for name in text.header))
    return lines


def _kept_cells(text: RoundText, table: str, entry: Entry) -> dict[str, dict[str, str]]:
    asked = {"table", "player", "game"} | {
        name for cell in entry.cells for name in (cell.column,) + cell.aliases}
    kept: dict[str, dict[str, str]] = {}
    for i in text.table_lines(table):
        player = text.get(i, "player")
        if player not in kept:
            kept[player] = {name: text.get(i, name) for name in text.header if name not in asked}
    return kept
