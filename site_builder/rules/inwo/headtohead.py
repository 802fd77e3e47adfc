"""The head-to-head tournament (seed 003): two-player single elimination under the two-player
rules, played to `goal_groups` (12 by default).

Places: the champion, the finalist, then the semi-finalists by Percentage of Goal in their
semi-final (the seed: the system "will also be used to determine 2nd and 3rd places in the
semi-finals and finals, the game ending the moment the winner meets his victory conditions"; the
final itself leaves one loser for 2nd, so the semi-finals' Percentage of Goal decides 3rd). Everyone
else by the round they went out in, then Percentage of Goal in that game, then groups; players the
rules cannot separate share a place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import Round
from ...core.numbers import percent_text
from ...core.problems import ProblemLog
from ..elimination import Match, Progress, progress
from ..tiebreaks import shared_ranks
from .percentage import percentage_of_goal
from .rows import BYE, LOSS, WIN, Seat, tables_of

MARKS = {WIN: "W", LOSS: "L", BYE: "bye"}


@dataclass(frozen=True, slots=True)
class GameSeat:
    """A player's game in one round, with their Percentage of Goal when it ended (None when the
    round file has no groups for them)."""

    round: int
    match: Match
    seat: Seat
    percentage: Fraction | None


def matches_of(round_: Round, goal_groups: int) -> tuple[list[Match], dict[str, GameSeat]]:
    tables, loose = tables_of(round_)
    matches, seats = [], {}
    taken = set(tables)
    for number, rows in tables.items():
        winner = next((s.player for s in rows if s.result in (WIN, BYE)), None)
        # The loser's Percentage of Goal when the winner met the goal (the winner's is 100% or
        # more and says nothing).
        details = {s.player: f"{percent_text(p)} of goal" for s in rows
                   if (p := _percentage(s, goal_groups)) is not None and s.result == LOSS}
        match = Match(number, tuple(s.player for s in rows), winner,
                      {s.player: MARKS[s.result] for s in rows}, details)
        matches.append(match)
        seats.update({s.player: GameSeat(round_.number, match, s, _percentage(s, goal_groups))
                      for s in rows})
    for seat in loose:  # byes written without a table take the next free number
        number = next(n for n in range(1, len(round_.rows) + 2) if n not in taken)
        taken.add(number)
        match = Match(number, (seat.player,), seat.player, {seat.player: MARKS[BYE]})
        matches.append(match)
        seats[seat.player] = GameSeat(round_.number, match, seat, None)
    return sorted(matches, key=lambda m: m.number), seats


def _percentage(seat: Seat, goal_groups: int) -> Fraction | None:
    if seat.groups is None and seat.special is None:
        return None
    return percentage_of_goal(seat.groups or 0, goal_groups, seat.special)


def planned_rounds(first_round_players: int) -> int:
    """Rounds of a single-elimination bracket for that many players (byes fill it up)."""
    return max(1, math.ceil(math.log2(first_round_players))) if first_round_players > 1 else 1


def check_eligibility(rounds: Sequence[Round], played: Sequence[Sequence[Match]],
                      log: ProblemLog) -> None:
    """Only a round's winners (and byes) may play the next round."""
    for index in range(1, len(rounds)):
        through = {m.winner for m in played[index - 1] if m.winner}
        previous = rounds[index - 1].number
        lost = {p: m.number for m in played[index - 1] for p in m.players if p != m.winner}
        for seat in rounds[index].rows:
            if seat.player in through:
                continue
            if seat.player in lost:
                reason = f"lost at table {lost[seat.player]} in round {previous}"
            else:
                reason = f"did not play round {previous}"
            log.error(rounds[index].path, seat.line,
                      f"{seat.player} {reason} and cannot play round {rounds[index].number}: in "
                      "single elimination only a round's winners (and byes) go on")


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    progress: Progress
    last: GameSeat | None
    """Their game in the round they went out in (None: they won through and did not show)."""
    games: tuple[GameSeat, ...]

    @property
    def key(self) -> tuple:
        if self.progress.won:  # still in (or the champion): how far, not the score, orders them
            return (self.progress.order, Fraction(0), 0)
        if self.last is None or self.last.percentage is None:  # no game, or no groups written
            return (self.progress.order, Fraction(-1), 0)
        return (self.progress.order, self.last.percentage, self.last.seat.groups or 0)


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    standing: Standing


def standings(played: Sequence[Sequence[Match]], seats: Sequence[Mapping[str, GameSeat]]) -> list[Ranked]:
    reached = progress(played)
    entries = []
    for name, where in reached.items():
        games = tuple(s[name] for s in seats if name in s)
        last = seats[where.depth - 1].get(name) if where.depth <= len(seats) else None
        entries.append(Standing(name, where, last, games))
    by_name = sorted(entries, key=lambda s: (s.name.casefold(), s.name))
    order = sorted(by_name, key=lambda s: s.key, reverse=True)
    return [Ranked(r, s) for r, s in zip(shared_ranks([s.key for s in order]), order)]
