"""Dates as pages show them, in English whatever the machine's locale."""

from __future__ import annotations

import datetime as dt

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def long_date(value: dt.date) -> str:
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def short_date(value: dt.date) -> str:
    """For table cells: '21 Nov 2026' (months spelled out in English, whatever the locale)."""
    return f"{value.day} {MONTHS[value.month - 1][:3]} {value.year}"
