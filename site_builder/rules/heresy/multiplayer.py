"""Reascension / Revelations scoring (seed 000, 3.2–3.3 and 5.2): pure functions.

The winner of a game gets `win_points`; everyone else their tau, capped at the tau goal; when a
game runs out of time nobody wins and everyone gets their capped tau plus 2. A player's total over
the rounds ranks them; equal totals share a rank unless wins, then the opponents' average points,
separate them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ...core.model import Round
from ...core.problems import ProblemLog
from ..tiebreaks import comparable, decided_by, shared_ranks, strength_of_schedule
from .options import HeresyOptions
from .tables import TIME, WIN, Seat, tables_of

TIME_BONUS = 2
TIEBREAK_LABELS = {"wins": "wins", "opponents": "opp. avg", "shared": "shared"}


@dataclass(frozen=True, slots=True)
class Result:
    """One player's game: the seat as written plus its points and how they were reached."""

    round: int
    seat: Seat
    points: int
    how: str
    opponents: tuple[str, ...]

    @property
    def won(self) -> bool:
        return self.seat.result == WIN


def seat_points(seat: Seat, options: HeresyOptions) -> tuple[int, str]:
    """(points, the arithmetic in words) for one seat."""
    goal = options.tau_goal
    if seat.result == WIN:
        return options.win_points, "win"
    capped = min(seat.tau or 0, goal)
    shown = f"tau {seat.tau}" + (f", capped at {goal}" if (seat.tau or 0) > goal else "")
    if seat.result == TIME:
        return capped + TIME_BONUS, f"{shown}, + {TIME_BONUS} for time"
    return capped, shown


def round_results(round_: Round, options: HeresyOptions) -> dict[str, Result]:
    results = {}
    for seats in tables_of(round_).values():
        for seat in seats:
            points, how = seat_points(seat, options)
            others = tuple(s.player for s in seats if s is not seat)
            results[seat.player] = Result(round_.number, seat, points, how, others)
    return results


@dataclass(slots=True)
class Record:
    name: str
    results: list[Result] = field(default_factory=list)
    dropped: bool = False

    @property
    def points(self) -> int:
        return sum(r.points for r in self.results)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    def tau(self, goal: int) -> int:
        """Tau stored over the games; a winner whose tau is left empty reached the goal."""
        return sum(goal if r.seat.tau is None else r.seat.tau for r in self.results)

    @property
    def opponents(self) -> list[str]:
        return [o for r in self.results for o in r.opponents]


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    record: Record
    opponents_average: Fraction
    tiebreak: str | None


def records_after(played: Mapping[int, Mapping[str, Result]], k: int) -> dict[str, Record]:
    records: dict[str, Record] = {}
    for number in sorted(r for r in played if r <= k):
        for name, result in played[number].items():
            records.setdefault(name, Record(name)).results.append(result)
    for name, record in records.items():
        record.dropped = name not in played.get(k, {})
    return records


def rank(records: Mapping[str, Record]) -> list[Ranked]:
    """Total points; equal totals share a rank unless wins, then the opponents' average points
    (the mean, over each opponent at each table, of that opponent's points per round played)
    separate them."""
    opponents = {n: r.opponents for n, r in records.items()}
    average = strength_of_schedule(opponents, {n: r.points for n, r in records.items()},
                                   {n: len(r.results) for n, r in records.items()})
    exact = comparable(average)
    order = sorted(records, key=lambda n: (-records[n].points, -records[n].wins, -exact[n],
                                           n.casefold(), n))
    keys = [(records[n].points, records[n].wins, exact[n]) for n in order]
    labels = decided_by(keys, (None, "wins", "opponents"), tied="shared")
    return [Ranked(r, records[n], average[n], label)
            for r, n, label in zip(shared_ranks(keys), order, labels)]


# ---------------------------------------------------------------- seed 3.2.2 and 3.2.3


def groupings(players: int) -> tuple[int, int]:
    """(groups of three, groups of four) for a round of `players` (seed 3.2.2):
    (X div 3) − (X mod 3) threes and (X mod 3) fours."""
    return players // 3 - players % 3, players % 3


def minimum_rounds(players: int) -> int:
    """Seed 3.2.3: at least 4 rounds, plus one per full fifteen players."""
    return 4 + players // 15


def check_groupings(round_: Round, before: Sequence[Ranked], log: ProblemLog) -> None:
    """Warn where a round's tables depart from 3.2.2: the number of fours, and fours made of the
    highest-ranking scores."""
    tables = tables_of(round_)
    players = sum(len(s) for s in tables.values())
    threes, fours = groupings(players)
    actual_fours = [n for n, seats in tables.items() if len(seats) == 4]
    line = round_.rows[0].line
    if threes < 0:
        log.warning(round_.path, line, f"{players} players cannot be grouped in threes and fours "
                                       "as seed 3.2.2 asks")
        return
    if len(actual_fours) != fours:
        log.warning(round_.path, line,
                    f"{players} players sit at {len(actual_fours)} table"
                    f"{'s' if len(actual_fours) != 1 else ''} of four; seed 3.2.2 seats them at "
                    f"{_count(fours, 'four')} and {_count(threes, 'three')}")
        return
    if not before or not actual_fours:
        return
    points = {r.record.name: r.record.points for r in before}
    at_fours = {s.player for n in actual_fours for s in tables[n]}
    playing = sorted((s.player for seats in tables.values() for s in seats),
                     key=lambda p: (-points.get(p, 0), p))
    threshold = points.get(playing[len(at_fours) - 1], 0)
    too_low = sorted(p for p in at_fours if points.get(p, 0) < threshold)
    left_out = [p for p in playing if p not in at_fours and points.get(p, 0) >= threshold]
    if too_low or any(points.get(p, 0) > threshold for p in left_out):
        should = [p for p in left_out if points.get(p, 0) > threshold] or left_out
        log.warning(round_.path, line,
                    "the tables of four are not the highest-ranking players (seed 3.2.2): "
                    f"{', '.join(should[:4])} ({points.get(should[0], 0)} points) should sit at "
                    f"them rather than {', '.join(too_low[:4]) or 'players ranked below them'}")


def _count(tables: int, size: str) -> str:
    return f"{tables} table{'s' if tables != 1 else ''} of {size}"
