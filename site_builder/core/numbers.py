"""Exact numbers shown to people: rounding for display happens here and only here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def decimals(value: Any, places: int = 3) -> str:
    """An exact value rounded half up for display: 41/12 → '3.417' (integer arithmetic only)."""
    exact = value if isinstance(value, Fraction) else Fraction(value)
    n, d = exact.numerator, exact.denominator  # the sign is the numerator's
    unit = 10**places
    scaled = (2 * abs(n) * unit + d) // (2 * d)
    sign = "-" if n < 0 and scaled else ""
    whole, part = divmod(scaled, unit)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def exact_text(value: Any) -> str:
    exact = value if isinstance(value, Fraction) else Fraction(value)
    return str(exact.numerator) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"


def percent_text(value: Any) -> str:
    """A percentage for pages: two decimals, e.g. 800/11 → '72.73%'."""
    return f"{decimals(value, 2)}%"


def share_text(value: Any) -> str:
    """A share of one as a percentage for pages: two decimals, e.g. 7/11 → '63.64%'."""
    exact = value if isinstance(value, Fraction) else Fraction(value)
    return f"{decimals(exact * 100, 2)}%"


def points_text(value: Any) -> str:
    """Points as a player writes them: 3, 2½ (a half as chess writes it), else decimals (1.25)."""
    exact = value if isinstance(value, Fraction) else Fraction(value)
    whole, part = divmod(exact, 1)
    if part == 0:
        return str(int(whole))
    if part == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½"
    return decimals(exact, 3).rstrip("0")


class Points(Fraction):
    """Points that are not whole (chess's half points): shown as players write them ("12½"),
    wherever a page prints them, and a float in JSON (rules.views.as_json_number)."""

    __slots__ = ()

    def __str__(self) -> str:
        return points_text(self)


def exact_points(value: Fraction | int) -> int | Points:
    """Whole points as an int, others as Points."""
    exact = Fraction(value)
    return exact.numerator if exact.denominator == 1 else Points(exact)


def ordinal(n: int) -> str:
    """1 → '1st', 12 → '12th', 22 → '22nd'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
