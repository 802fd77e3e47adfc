"""Where the data departs from the regulations' procedures: warnings, because the organizer's
decisions stand (byes "to the data as given", the cut "read from its file")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.model import Round
from ...core.problems import ProblemLog
from ..swiss import Game, pairing_departures
from .rows import BYE
from .scoring import SwissRow


def check_swiss_round(
    round_: Round,
    played: Mapping[int, Mapping[str, Game]],
    before: Sequence[SwissRow],
    repeats: Sequence[tuple[str, str, int]],
    log: ProblemLog,
) -> None:
    """Byes, pairings and rematches of Swiss round `round_` against the standings before it;
    `repeats` are the round's rematches (see swiss.rematches)."""
    games = played[round_.number]
    line_of = {name: game.line for name, game in games.items()}
    for a, b, earlier in repeats:
        log.warning(round_.path, line_of[a], f"{a} and {b} already played each other in round "
                                             f"{earlier}: the seed avoids pairing them twice")
    if round_.number == 1:
        _check_bye_count(round_, games, log)
        return
    points = {row.name: row.record.points for row in before}
    pairs = sorted({tuple(sorted((n, g.opponent))) for n, g in games.items()
                    if g.opponent and n in points and g.opponent in points})
    for name, message in pairing_departures(points, pairs):
        log.warning(round_.path, line_of[name], f"pairing: {message}")
    _check_bye_count(round_, games, log)
    _check_bye_recipients(round_, played, before, log)


def _check_bye_count(round_: Round, games: Mapping[str, Game], log: ProblemLog) -> None:
    byes = [name for name, g in games.items() if g.kind == BYE]
    if len(byes) > 1:
        log.warning(round_.path, games[byes[1]].line,
                    f"{len(byes)} byes in one round ({', '.join(byes)}): the seed gives one bye, "
                    "to the odd player out")


def _check_bye_recipients(round_: Round, played: Mapping[int, Mapping[str, Game]],
                          before: Sequence[SwissRow], log: ProblemLog) -> None:
    """The seed gives a later-round bye to the lowest-ranked player who has not had one."""
    games = played[round_.number]
    had_bye = {name for r, round_games in played.items() if r < round_.number
               for name, g in round_games.items() if g.kind == BYE}
    for name, game in games.items():
        if game.kind != BYE:
            continue
        if name in had_bye:
            log.warning(round_.path, game.line, f"{name} gets a second bye: the seed gives the bye to "
                                                "a player who has not yet received one")
            continue
        mine = next((row for row in before if row.name == name), None)
        lower = [row for row in before
                 if row.name in games and row.name not in had_bye and games[row.name].kind != BYE
                 and mine is not None and _strictly_below(row, mine)]
        if lower:
            log.warning(round_.path, game.line,
                        f"{name} (rank {mine.rank} after round {round_.number - 1}) gets the bye, "
                        f"but {lower[-1].name} (rank {lower[-1].rank}) is lower and has had none: the "
                        "seed gives it to the lowest-ranked player without a bye")


def _strictly_below(row: SwissRow, other: SwissRow) -> bool:
    """Below on points, SoS and ESoS alone: a random draw is no reason to question a bye."""
    return (row.record.points, row.sos, row.esos) < (other.record.points, other.sos, other.esos)


def _line(round_: Round, player: str) -> int:
    return next((row.line for row in round_.rows if row.player == player), 1)
