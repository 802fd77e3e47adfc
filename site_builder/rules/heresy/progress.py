"""Heresy rounds as players look them up on the day (rules.pairings): the pairings of every round,
what a result slip asks, and the checks of a round in progress.

* Reascension / Revelations: a seat with result and tau both empty is still being played
  (tables.Seat.waiting); a table is decided once none of its seats waits. The result words of
  pairings.json are the data contract's: "win", "time", or "" for a player who stored tau.
* Armageddon: a match is being played while its two waiting rows are there (matches.GameRow.
  waiting); once decided each player's result is the match's, "win" or "loss", shown with the
  games ("Won 2–1").
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.model import Event, PlayerRef, Round
from ...core.problems import ProblemLog
from ..base import SlipField
from ..pairings import Pairings, pairings_of
from ..seating import first_rows
from .matches import BYE, matches_of
from .tables import TIME, WIN

Ref = Callable[[str], PlayerRef]

TABLE_SLIP = (SlipField("Won", tick=True), SlipField("Out of time", tick=True),
              SlipField("Tau stored"))
"""Each player at a table (Heresy.slip): a box for the winner, one for a game that ran out of
time (3.3.3: every player then ticks it), and the tau stored at the end."""

MATCH_SLIP = tuple(field for game in (1, 2, 3)
                   for field in (SlipField(f"Game {game} won", tick=True),
                                 SlipField(f"Game {game} tau")))
"""Each player of a best-of-three match (Heresy.slip), game by game: a box for the game's
winner and the tau stored at its end (an unplayed game, 4.2.5–4.2.6, is ticked by neither)."""


def pending(round_: Round) -> list:
    """The rows of a round still waiting for their result, in either format."""
    return [row for row in round_.rows if row.waiting]


def check_in_progress(event: Event, multiplayer: bool, log: ProblemLog) -> None:
    """Only the newest round may wait for results, and not in an event that says it is final."""
    newest = event.rounds[-1].number if event.rounds else 0
    what = ("write 'win' for the winner or the tau stored at the end of the game" if multiplayer
            else "replace the rows pair wrote by the match's game rows")
    for round_ in event.rounds[:-1]:
        for row in pending(round_):
            log.error(round_.path, row.line,
                      f"{row.player} has no result in round {round_.number}: {what}; only the "
                      f"newest round (round {newest}) may still be in progress")
    if event.rounds and event.info.status == "final":
        row = next(iter(pending(event.rounds[-1])), None)
        if row is not None:
            log.error(event.rounds[-1].path, row.line,
                      f"{row.player} has no result, but event.toml says status = \"final\": "
                      f"{what}, or remove the status until round {newest} is in")


def table_pairings(round_: Round, ref: Ref) -> Pairings:
    """A Reascension / Revelations round's tables, each with its results once every seat is in."""
    return pairings_of(round_, ref, "Table", pending, _seat_result, BYE, stage="tables")


def _seat_result(seat, others) -> tuple[str, str]:
    if seat.result == WIN:
        return WIN, "Win" if seat.tau is None else f"Win, tau {seat.tau}"
    if seat.result == TIME:
        return TIME, f"Out of time, tau {seat.tau}"
    return "", f"Tau {seat.tau}"


def match_pairings(round_: Round, ref: Ref) -> Pairings:
    """An Armageddon round's matches (a match's rows stand for its two players) and byes, each
    match with its outcome once it is over."""
    by_player = {p: m for m in matches_of(round_) if not m.is_bye for p in m.players}

    def result_of(row, others) -> tuple[str, str]:
        match = by_player.get(row.player)
        if match is None:  # a lone row that is no bye: an error the checks report
            return "", ""
        won = match.winner == row.player
        return ("win" if won else "loss"), f"{'Won' if won else 'Lost'} {match.score(row.player)}"

    return pairings_of(round_, ref, "Table", pending, result_of, BYE, seats=first_rows,
                       stage="elimination")


