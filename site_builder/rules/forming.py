"""What `pair` hands a game's `Ruleset.form`, and what it gets back.

Each game forms its rounds in its own package (`rules/<game>/pairing.py`, or the shared
`twoplayerpairing.py`), called from its ruleset's `form(context) -> Formed`. The command does
what every game shares: it loads and checks the event, refuses while the latest round is still
being played or when the event is marked final, checks the `--drop` and `--add` names against the
players of the latest round (the registrations for round 1, organizer/pairnames.py), draws the
seed, checks the round as `check` would and writes the file (organizer/pairtrust.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..core.model import Event
from ..core.problems import DataError, Problem
from .views import ScoredEvent


@dataclass(slots=True)
class Context:
    event: Event
    scored: ScoredEvent
    """The event as scored now: its standings, rounds (with their pairings) and bracket."""
    number: int
    """The round to form."""
    players: list[str]
    """The players of the latest round (the registrations for round 1), without --drop and
    those drops.csv lists as gone after it, with --add: at least two. Who of them plays next is
    the game's business."""
    dropped: set[str]
    """The --drop names and those drops.csv lists as gone after the latest round."""
    added: list[str]
    rng: random.Random
    """Seeded: from --seed, or from the event's seed and the round number."""
    flags: frozenset[str] = frozenset()
    """The game flags given to `pair`, as typed ("--allow-five"): those its ruleset declares
    (Ruleset.pair_flags) are the game's to read; it ignores any other."""
    where: str = ""
    """The file the players were read from (for messages): the latest round, or players.csv."""
    recorded: frozenset[str] = frozenset()
    """Of `dropped`, those the event's drops.csv lists as gone after the latest round (no
    --drop names them): for messages, and to pass over those out of the event already."""

    @property
    def toml(self) -> str:
        return f"{self.event.folder}/event.toml"


@dataclass(slots=True)
class Table:
    number: int | None
    """The table (Game or bracket number); None for a bye written without one."""
    players: tuple[str, ...]
    bye: bool = False
    """A bye, written complete (`result` = bye) for each of its players."""


@dataclass(slots=True)
class Formed:
    tables: list[Table]
    label: str
    """"Round 3", "Semi-finals", "Final table"."""
    notes: list[str] = field(default_factory=list)
    """What the organizer should know: a pair-down, a forced rematch, who has another chance."""
    place: str = "Table"
    """What a table is called in the summary ("Table", "Game", "Bracket")."""


def refuse(path: str, line: int | None, message: str) -> DataError:
    """A refusal as the command prints it: `path:line: message`, exit 1, nothing written."""
    return DataError([Problem(path, line, message)])
