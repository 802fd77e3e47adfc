"""Typed reading of TOML keys with messages that name the key, the value and what was expected."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from ..core.problems import ProblemLog
from .textfiles import TomlDoc, toml_type_name

_MISSING = object()
LARGEST = 2**53 - 1
"""The largest whole number a setting may be: every JSON reader holds it exactly (a browser's
numbers are doubles), and the build's state keeps it. A setting past it is a slip."""


class KeyReader:
    """Reads keys of one TOML document, logging a `path:line` problem for each bad value.

    Every getter returns a usable default after logging, so reading goes on and all problems of a
    file are reported together. `unknown_keys` warns about keys nobody asked for (typos).
    """

    def __init__(self, doc: TomlDoc, log: ProblemLog):
        self.doc = doc
        self.log = log
        self._asked: set[str] = set()

    def _raw(self, key: str, required: bool, example: str) -> Any:
        self._asked.add(key)
        value = self.doc.data.get(key, _MISSING)
        if value is _MISSING and required:
            self.log.error(self.doc.shown, 1, f"missing required key '{key}': expected e.g. {example}")
        return value

    def _bad(self, key: str, value: Any, expected: str) -> None:
        shown = repr(value) if isinstance(value, str) else str(value)
        self.log.error(
            self.doc.shown, self.doc.line_of(key),
            f"{key} = {shown} is {toml_type_name(value)}: expected {expected}",
        )

    def has(self, key: str) -> bool:
        return key in self.doc.data

    def text(self, key: str, *, required: bool = False, default: str | None = None,
             example: str = "") -> str | None:
        value = self._raw(key, required, example or f'{key} = "…"')
        if value is _MISSING:
            return default
        if not isinstance(value, str):
            self._bad(key, value, 'text in quotes, e.g. ' + (example or f'{key} = "…"'))
            return default
        if required and not value.strip():
            self.log.error(self.doc.shown, self.doc.line_of(key), f"{key} is empty: expected e.g. {example}")
            return default
        return value.strip()

    def integer(self, key: str, *, required: bool = False, default: int | None = None,
                minimum: int | None = None, maximum: int | None = LARGEST,
                example: str = "") -> int | None:
        value = self._raw(key, required, example or f"{key} = 1")
        if value is _MISSING:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self._bad(key, value, "a whole number, e.g. " + (example or f"{key} = 1"))
            return default
        if minimum is not None and value < minimum:
            self.log.error(self.doc.shown, self.doc.line_of(key),
                           f"{key} = {value} is too small: expected {minimum} or more")
            return default
        if maximum is not None and value > maximum:
            shown = f"{key} = {value:,}" if value < 10**24 else \
                f"{key} is a whole number of {len(str(value)):,} digits"
            self.log.error(self.doc.shown, self.doc.line_of(key),
                           f"{shown} is too large: expected at most {maximum:,}")
            return default
        return value

    def flag(self, key: str, *, default: bool = False) -> bool:
        """true or false (TOML's words, not in quotes)."""
        value = self._raw(key, False, f"{key} = true")
        if value is _MISSING:
            return default
        if not isinstance(value, bool):
            self._bad(key, value, f"true or false, not in quotes, e.g. {key} = true")
            return default
        return value

    def choice(self, key: str, choices: Iterable[str], *, required: bool = False,
               default: str | None = None) -> str | None:
        options = list(choices)
        listed = ", ".join(f'"{c}"' for c in options)
        value = self._raw(key, required, f'{key} = "{options[0]}" (one of {listed})')
        if value is _MISSING:
            return default
        if not isinstance(value, str) or value.strip().lower() not in options:
            self.log.error(self.doc.shown, self.doc.line_of(key),
                           f"{key} = {value!r} is not one of {listed}")
            return default
        return value.strip().lower()

    def date(self, key: str, *, required: bool = False, example: str = "2024-05-18") -> dt.date | None:
        """A TOML date. A date in quotes is text to TOML, and other tools reading the file would
        see text: it is an error that shows the date form."""
        value = self._raw(key, required, f"{key} = {example}")
        if value is _MISSING:
            return None
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str):
            try:
                day = dt.date.fromisoformat(value.strip())
            except ValueError:
                pass
            else:
                self.log.error(self.doc.shown, self.doc.line_of(key),
                               f'{key} = "{value}" is text in quotes: write the date without '
                               f"quotes, as TOML dates are written: {key} = {day.isoformat()}")
                return None
        shown = repr(value) if isinstance(value, str) else str(value)
        self.log.error(self.doc.shown, self.doc.line_of(key),
                       f"{key} = {shown} is not a date: expected YYYY-MM-DD, e.g. {key} = {example}")
        return None

    def text_list(self, key: str, *, example: str = '["Ann", "Bo"]') -> tuple[str, ...]:
        value = self._raw(key, False, f"{key} = {example}")
        if value is _MISSING:
            return ()
        if isinstance(value, str):  # a single name is a list of one, as a user would mean it
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self._bad(key, value, f"a list of names in quotes, e.g. {key} = {example}")
            return ()
        return tuple(v.strip() for v in value if v.strip())

    def table(self, key: str) -> dict[str, Any] | None:
        value = self._raw(key, False, f"[{key}]")
        if value is _MISSING:
            return None
        if not isinstance(value, dict):
            self._bad(key, value, f"a table ([{key}])")
            return None
        return value

    def unknown_keys(self, also_known: Iterable[str] = ()) -> None:
        known = self._asked | set(also_known)
        for key in self.doc.data:
            if key not in known:
                self.log.warning(self.doc.shown, self.doc.line_of(key),
                                 f"unknown key '{key}' is ignored (a typo?)")
