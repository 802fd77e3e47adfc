"""Players' reports from their phones, and the round timer: what the desk keeps between requests.

Both live in memory and in the event's journal (store.py), so a restarted desk has them again:

* **Reports.** Off until the organizer turns them on for the event. A report is one seat's view
  of its table's whole result. When every seat of the table has reported the same result, it is
  saved as if the organizer had entered it (Cobra's "two-eye principle"); until then, and when
  the seats disagree, the table waits in the organizer's queue, where one report can be accepted.
  A report for a table whose result is in, or for a round that is over, is refused.
* **The timer.** Per round: its length (event.toml's `round_minutes`, or the game's rules), and
  whether it runs (an end time) or is paused (the time left).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .store import Journal

Games = list[list[dict[str, str]]]


@dataclass(slots=True)
class Timer:
    round_number: int
    length: float
    """Seconds the round lasts, extra time added included."""
    ends_at: float | None = None
    """While running: the wall-clock time it reaches zero."""
    left: float | None = None
    """While paused: the seconds left. Neither set: not started."""

    def remaining(self, now: float) -> float:
        if self.ends_at is not None:
            return self.ends_at - now
        return self.left if self.left is not None else self.length

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    def as_json(self, now: float) -> dict[str, Any]:
        return {"round": self.round_number, "running": self.running,
                "remaining": round(self.remaining(now), 1), "length": self.length}


@dataclass(slots=True)
class EventReports:
    phones: bool = False
    reports: dict[tuple[int, str], dict[int, Games]] = field(default_factory=dict)
    """(round, table) → seat index → the result that seat reported."""
    timer: Timer | None = None


class Venue:
    """The reports and timers of every event at the desk, restored from their journals."""

    def __init__(self):
        self._events: dict[str, EventReports] = {}
        self.lock = threading.Lock()

    def of(self, slug: str, journal: Journal) -> EventReports:
        with self.lock:
            if slug not in self._events:
                self._events[slug] = _restored(journal.records())
            return self._events[slug]

    # ---------------------------------------------------------------- reports

    def set_phones(self, slug: str, journal: Journal, on: bool) -> None:
        state = self.of(slug, journal)
        journal.append({"kind": "phones", "on": on})
        state.phones = on

    def report(self, slug: str, journal: Journal, round_number: int, table: str, seat: int,
               games: Games) -> dict[int, Games]:
        """Record a seat's report; returns every report of its table."""
        state = self.of(slug, journal)
        journal.append({"kind": "report", "round": round_number, "table": table, "seat": seat,
                        "games": games})
        with self.lock:
            table_reports = state.reports.setdefault((round_number, table), {})
            table_reports[seat] = games
            return dict(table_reports)

    def clear(self, slug: str, journal: Journal, round_number: int, table: str) -> None:
        """The table's result is in: its reports leave the queue."""
        state = self.of(slug, journal)
        journal.append({"kind": "cleared", "round": round_number, "table": table})
        with self.lock:
            state.reports.pop((round_number, table), None)

    # ---------------------------------------------------------------- the timer

    def timer(self, slug: str, journal: Journal, round_number: int, minutes: int | None) -> Timer:
        state = self.of(slug, journal)
        with self.lock:
            if state.timer is None or state.timer.round_number != round_number:
                state.timer = Timer(round_number, float((minutes or 50) * 60))
            return state.timer

    def act(self, slug: str, journal: Journal, round_number: int, minutes: int | None,
            action: str, now: float | None = None) -> Timer:
        """start, pause, add (a minute), take (a minute away) or reset."""
        now = time.time() if now is None else now
        timer = self.timer(slug, journal, round_number, minutes)
        with self.lock:
            _act(timer, action, now, minutes)
            journal.append({"kind": "timer", "round": round_number, "length": timer.length,
                            "ends_at": timer.ends_at, "left": timer.left})
        return timer


def _act(timer: Timer, action: str, now: float, minutes: int | None) -> None:
    if action == "start" and not timer.running:
        timer.ends_at, timer.left = now + timer.remaining(now), None
    elif action == "pause" and timer.running:
        timer.left, timer.ends_at = timer.remaining(now), None
    elif action in ("add", "take"):
        step = 60.0 if action == "add" else -min(60.0, max(timer.remaining(now), 0.0))
        timer.length += step
        if timer.ends_at is not None:
            timer.ends_at += step
        elif timer.left is not None:
            timer.left += step
    elif action == "reset":
        timer.length, timer.ends_at, timer.left = float((minutes or 50) * 60), None, None


def _restored(records: list[dict[str, Any]]) -> EventReports:
    """The reports and timer as the journal left them; a record of the wrong shape is passed
    over (the journal is read back as data, store.py)."""
    state = EventReports()
    for record in records:
        kind = record.get("kind")
        round_number, table = record.get("round"), record.get("table")
        if kind == "phones" and isinstance(record.get("on"), bool):
            state.phones = record["on"]
        elif kind == "report" and _is_int(round_number) and isinstance(table, str) \
                and _is_int(record.get("seat")) and _is_games(record.get("games")):
            state.reports.setdefault((round_number, table), {})[record["seat"]] = record["games"]
        elif kind == "cleared" and _is_int(round_number) and isinstance(table, str):
            state.reports.pop((round_number, table), None)
        elif kind == "timer" and _is_int(round_number) and _is_number(record.get("length")):
            ends_at, left = record.get("ends_at"), record.get("left")
            state.timer = Timer(round_number, float(record["length"]),
                                float(ends_at) if _is_number(ends_at) else None,
                                float(left) if _is_number(left) else None)
    return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e12


def _is_games(value: Any) -> bool:
    return (isinstance(value, list) and len(value) <= 20 and all(
        isinstance(game, list) and len(game) <= 16 and all(
            isinstance(seat, dict) and all(isinstance(k, str) and isinstance(v, str) and len(v) <= 40
                                           for k, v in seat.items())
            for seat in game) for game in value))


def agreed(reports: dict[int, Games], seats: int) -> Games | None:
    """The result every seat reported, when all `seats` have reported the same; else None."""
    if len(reports) < seats or any(s not in reports for s in range(seats)):
        return None
    first = _normal(reports[0])
    return reports[0] if all(_normal(r) == first for r in reports.values()) else None


def _normal(games: Games) -> list[list[tuple[tuple[str, str], ...]]]:
    """A result as compared: games with nothing in them left out, empty cells ignored."""
    kept = [game for game in games if any(v for seat in game for v in seat.values())]
    return [[tuple(sorted((k, v) for k, v in seat.items() if v)) for seat in game] for game in kept]
