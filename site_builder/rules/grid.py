"""The advancement grid: rounds as columns, each table (or bracket) a box of its players in place
order, each player who goes on linked to the box they play next. Shared by the games whose tables
seat more than two (SPELLFIRE brackets, INWO tables)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.model import PlayerRef

TEMPLATE = "games/grid.html"


@dataclass(frozen=True, slots=True)
class GridEntry:
    player: PlayerRef
    place: str
    """Compact: '1st', '=2nd' (shared); how it was decided is in `place_note`."""
    place_note: str
    score: str
    """What the game measures, as shown: SPELLFIRE points, INWO Percentage of Goal."""
    advances_to: str | None
    """The anchor of the box this player plays next."""
    badge: str = ""
    """A short flag beside the name (e.g. "another chance", "referee")."""


@dataclass(frozen=True, slots=True)
class GridBox:
    anchor: str
    label: str
    entries: tuple[GridEntry, ...]


@dataclass(frozen=True, slots=True)
class GridRound:
    number: int
    label: str
    boxes: tuple[GridBox, ...]


@dataclass(frozen=True, slots=True)
class Grid:
    rounds: tuple[GridRound, ...]
    champion: PlayerRef | None
    champion_label: str = "Tournament winner"
    box_noun: str = "bracket"
    """What a box is called in the game ("bracket", "table")."""
