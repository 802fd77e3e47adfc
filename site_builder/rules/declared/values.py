"""The numbers and values of a game declaration as a file gives them, and as a message shows
them: points exactly as written (0.33 is 33/100), never text that takes seconds to read."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any


NUMBER_TEXT = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?|[0-9]{1,9}/[1-9][0-9]{0,8}")
"""A number written as text: 3, 0.5 or 1/2; never an exponent (Fraction("1e-9999999") takes
seconds to make), nor more digits than any number of points needs."""


def _exact(value: Any) -> Fraction | None:
    """3, 0.5, "1/2", "0.33" exactly as written: a float is read from its shortest text, so
    0.33 is 33/100, never the binary fraction nearest it."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value) if abs(value) < 10**9 else None
    if isinstance(value, float):
        if value != value or abs(value) > 10**9:
            return None
        return Fraction(repr(value))
    if isinstance(value, str) and NUMBER_TEXT.fullmatch(value.strip()):
        return Fraction(value.strip())
    return None


def shown(value: Any) -> str:
    """A value of the file as TOML writes it, for a message: true, "w", 3, a table, a list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "missing"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _shown(points: Fraction) -> str:
    return str(points.numerator) if points.denominator == 1 else f"{float(points):g}"
