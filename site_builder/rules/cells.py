"""Typed cells of round files, shared by every game's row reader."""

from __future__ import annotations

import re

from ..core.problems import ProblemLog

WHOLE = re.compile(r"[0-9]{1,6}")  # ASCII digits only ('²'.isdigit() is True), and not absurdly long

INVALID = object()
"""Returned after a bad cell has been logged, so callers can skip the row."""


def whole_number(text: str, column: str, minimum: int, shown: str, line: int, log: ProblemLog,
                 hint: str = "") -> int | None | object:
    """The cell as a whole number ≥ `minimum`, None when empty, or INVALID after logging."""
    if not text:
        return None
    if WHOLE.fullmatch(text) and int(text) >= minimum:
        return int(text)
    expected = f"a whole number from {minimum}" if minimum else "a whole number, 0 or more"
    log.error(shown, line, f"{column} '{text}' is not {expected}{hint}")
    return INVALID
