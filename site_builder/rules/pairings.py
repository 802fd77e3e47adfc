"""The pairings of a two-player round as players look them up on the day: by table, and by name,
with each result once it is in. The view of a round in progress, and the contents of
`round-<n>/pairings.json` for every round.

A round file in progress is one whose result cells are still (partly) empty: `site-builder
pair` writes the pairings with empty results, and the organizer types each result in as the
table finishes. A table is decided once every seat at it has a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..core.model import Event, PlayerRef, Round
from ..core.problems import ProblemLog
from .base import SlipField
from .views import PlayerGame, PlayerResult, RoundView, ScoredEvent
from .seating import tables_of

PLAYING = "playing"
"""What a seat whose result is not in yet shows."""
PAIRINGS_TEMPLATE = "games/pairings.html"
"""The partial that draws a round in progress."""


@dataclass(frozen=True, slots=True)
class Seat:
    player: PlayerRef
    result: str | None
    """The result word of the data contract ("win", "loss", …), None while the table plays."""
    shown: str
    """What the page shows: "Win", "12 houses", or PLAYING."""


@dataclass(frozen=True, slots=True)
class PairedTable:
    number: int
    seats: tuple[Seat, ...]

    @property
    def decided(self) -> bool:
        return all(seat.result is not None for seat in self.seats)


@dataclass(frozen=True, slots=True)
class Assignment:
    """One line of the by-name list: where a player sits and against whom."""

    player: PlayerRef
    where: str
    """ "Table 3", "Game 2" or "Bye"."""
    opponents: tuple[PlayerRef, ...] = ()


@dataclass(frozen=True, slots=True)
class Pairings:
    place: str
    """What a table is called in this round: "Table", or "Game" in elimination rounds."""
    tables: tuple[PairedTable, ...]
    byes: tuple[PlayerRef, ...]
    others: tuple[Seat, ...] = ()
    """Lone rows that are not byes (an unpaired loss): shown, not paired."""
    record: tuple[SlipField, ...] = ()
    """What a result slip asks of each player (the game's Ruleset.slip), for a round in
    progress: the only rounds with slips (in_progress_view)."""
    stage: str = "swiss"
    """pairings.json's `stage`: "swiss", "elimination", or the game's own word ("tables",
    "brackets")."""

    @property
    def playing(self) -> int:
        """Tables whose result is not in yet."""
        return sum(not table.decided for table in self.tables)

    @property
    def in_progress(self) -> bool:
        return self.playing > 0

    @property
    def by_name(self) -> tuple[Assignment, ...]:
        """Every player, alphabetically: "find your name" on a phone or on the wall."""
        found = []
        for table in self.tables:
            for seat in table.seats:
                others = tuple(s.player for s in table.seats if s is not seat)
                found.append(Assignment(seat.player, f"{self.place} {table.number}", others))
        found += [Assignment(player, "Bye") for player in self.byes]
        return tuple(sorted(found, key=lambda a: (a.player.name.casefold(), a.player.name)))


ResultOf = Callable[[Any, list[Any]], tuple[str, str]]
"""(row, the other rows at its table, none for a lone row) → (result word, text shown), for a
decided seat."""
Pending = Callable[[Round], list[Any]]
"""The rows of a round still waiting for their result (the game decides what that means)."""


def pairings_of(round_: Round, ref: Callable[[str], PlayerRef], place: str, pending: Pending,
                result_of: ResultOf, bye: str, seats: Callable[[list[Any]], list[Any]] = list,
                stage: str = "swiss") -> Pairings:
    """The round's tables (two players or more), byes and lone rows. A table with a pending row
    is still playing: none of its results is shown yet. `seats` turns a table's rows into one
    row per player, for games that write a row per player per game (the first row stands for
    the player)."""
    waiting = set(map(id, pending(round_)))
    tables, loose = tables_of(round_)
    paired, byes, others = [], [], []
    for number, rows in tables.items():
        players = seats(rows)
        if len(players) >= 2:
            decided = not any(id(row) in waiting for row in rows)
            paired.append(PairedTable(number, tuple(
                _seat(row, [r for r in rows if r.player != row.player], ref, decided, result_of)
                for row in players)))
        else:
            loose = [*loose, *players]
    for row in sorted(loose, key=lambda r: r.line):
        if row.result == bye:
            byes.append(ref(row.player))
        else:
            others.append(_seat(row, [], ref, id(row) not in waiting, result_of))
    return Pairings(place, tuple(paired), tuple(byes), tuple(others), stage=stage)


def _seat(row: Any, others: list[Any], ref: Callable[[str], PlayerRef], decided: bool,
          result_of: ResultOf) -> Seat:
    if not decided:
        return Seat(ref(row.player), None, PLAYING)
    word, shown = result_of(row, others)
    return Seat(ref(row.player), word, shown)


def round_in_progress(event: Event, pending: Pending) -> Round | None:
    """The newest round, when some of its results are not in yet."""
    if event.rounds and pending(event.rounds[-1]):
        return event.rounds[-1]
    return None


def check_in_progress(event: Event, pending: Pending, log: ProblemLog) -> None:
    """Only the newest round may wait for results; and an event that says it is final has
    every result in."""
    for round_ in event.rounds[:-1]:
        for row in pending(round_):
            log.error(round_.path, row.line,
                      f"{row.player} has no result in round {round_.number}: only the newest "
                      f"round (round {event.rounds[-1].number}) may still be in progress; write "
                      "the result")
    current = round_in_progress(event, pending)
    if current is not None and event.info.status == "final":
        row = pending(current)[0]
        log.error(current.path, row.line,
                  f"{row.player} has no result, but event.toml says status = \"final\": write the "
                  f"results of round {current.number}, or remove the status until they are in")


def pairings_json(head: dict[str, Any], number: int, label: str,
                  pairings: Pairings) -> dict[str, Any]:
    """The data of `round-<n>/pairings.json`: every table with its players and results (null
    while playing), and the byes."""
    def seat(s: Seat) -> dict[str, Any]:
        return {"player": s.player.name, "player_id": s.player.id, "result": s.result}
    return {
        "event": head,
        "round": number,
        "label": label,
        "stage": pairings.stage,
        "in_progress": pairings.in_progress,
        "tables": [{"table": t.number, "players": [seat(s) for s in t.seats]}
                   for t in pairings.tables],
        "byes": [{"player": p.name, "player_id": p.id} for p in pairings.byes],
        "unpaired": [seat(s) for s in pairings.others],
    }


def in_progress_view(round_: Round, label: str, pairings: Pairings,
                     slip: tuple[SlipField, ...]) -> RoundView:
    """The view of the round being played: its pairings, drawn by PAIRINGS_TEMPLATE and
    printed as result slips asking `slip` (the game's Ruleset.slip); no standings yet."""
    pairings = replace(pairings, record=slip)
    return RoundView(round_.number, label, round_.path, PAIRINGS_TEMPLATE, pairings, None,
                     pairings=pairings, in_progress=True)


def with_round_in_progress(done: ScoredEvent, event: Event, view: RoundView,
                           planned: int) -> ScoredEvent:
    """An event scored without its round in progress (`done`), with that round added as its
    pairings: not complete, no winner yet, the standings those after the round before."""
    done.event = event
    done.rounds = (*done.rounds, view)
    done.complete = False
    done.winner = None
    stage = f"{view.label} (round {view.number} of {planned})" \
        if view.label != f"Round {view.number}" else f"round {view.number} of {planned}"
    done.status_line = f"In progress: {stage} being played"
    done.players = _with_games_in_progress(done.players, view)
    return done


def _with_games_in_progress(players: dict[str, PlayerResult],
                            view: RoundView) -> dict[str, PlayerResult]:
    """Each player's page shows their game being played; a player whose first game it is (a
    newcomer, a late --add) gets an entry, so the round page's link to them leads somewhere."""
    pairings: Pairings = view.pairings
    games = {seat.player: (str(table.number), tuple(s.player for s in table.seats if s is not seat),
                           seat.shown)
             for table in pairings.tables for seat in table.seats}
    games.update({player: ("", (), "Bye") for player in pairings.byes})
    found = dict(players)
    for player, (where, opponents, result) in games.items():
        # Not scored until every table is in (no points either): no outcome yet, even where
        # a table's result is already typed.
        game = PlayerGame(view.number, view.label, where, opponents, result, "", outcome="")
        known = found.get(player.name)
        found[player.name] = (replace(known, games=(*known.games, game)) if known else
                               PlayerResult(player, None, f"playing {view.label.lower()}", "", "",
                                            (game,)))
    return found
