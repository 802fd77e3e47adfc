"""Where a key of a nested TOML table was written, for `path:line` messages about a game
declaration ([points] win = 3 is on line 7).

TOML parsers give values, not positions; this reads the text once and notes the line of each
key under the table header it follows (`[points]`, the n-th `[[structure]]`). A key written
inside an inline table or an array is found at the line of the key that holds it, which is
where the organizer looks anyway.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r'^\s*("[^"]*"|[A-Za-z0-9_.\-]+)\s*=')


def _path(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip('"') for part in dotted.split("."))


class KeyLines:
    """Line of each key: `line((), "name")`, `line(("points",), "win")`,
    `line(("structure", 1), "cut")` for the second [[structure]]."""

    def __init__(self, text: str):
        self._lines: dict[tuple, int] = {}
        table: tuple = ()
        counts: dict[tuple[str, ...], int] = {}
        for number, raw in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(raw)
            if header:
                path = _path(header.group(2))
                if header.group(1) == "[[":
                    index = counts.get(path, -1) + 1
                    counts[path] = index
                    table = (*path, index)
                else:
                    table = path
                self._lines.setdefault(table, number)
                continue
            key = _KEY.match(raw)
            if key:
                full = (*table, *_path(key.group(1)))
                self._lines.setdefault(full, number)

    def line(self, table: tuple, key: str | None = None) -> int:
        """The line of `key` in `table` (or of the table's header), else of the nearest
        enclosing key or table written; 1 when none is."""
        path = (*table, key) if key is not None else tuple(table)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return 1
