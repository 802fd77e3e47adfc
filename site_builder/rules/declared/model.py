"""A declared game as the ruleset scores it: the plain values its declaration file gives
(declaration.py reads and checks the file)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .vocabulary import ABSENT

CUTS = (0, 2, 4, 8, 16, 32, 64)
"""The cut sizes a declaration or an event may give (0: no cut)."""


@dataclass(frozen=True, slots=True)
class ResultWord:
    word: str
    points: Fraction
    outcome: str
    spellings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TiebreakChoice:
    name: str
    parameters: tuple[tuple[str, Fraction], ...] = ()

    def get(self, name: str) -> Fraction:
        return dict(self.parameters)[name]


@dataclass(frozen=True, slots=True)
class Stage:
    """One row of a by-player-count structure: up to `up_to` players (None: and more)."""

    up_to: int | None
    swiss_rounds: int
    cut: int


@dataclass(frozen=True, slots=True)
class Declaration:
    game: str
    name: str
    shown: str
    """The file as messages name it (data/games/magic.toml, or the shipped one's name)."""
    results: tuple[ResultWord, ...]
    unplayed: tuple[tuple[str, Fraction], ...]
    """The unplayed words the game uses, with their points (absent always among them)."""
    points_column: bool
    most_points: Fraction
    game_records: bool
    bye_games: int
    tiebreaks: tuple[TiebreakChoice, ...]
    structure: tuple[Stage, ...]
    round_minutes: int | None
    missed_rounds: str = "absent"

    @property
    def spellings(self) -> dict[str, str]:
        """Every spelling a round file may use (lowercase, spaces single) → its word."""
        found = {}
        for result in self.results:
            found[result.word] = result.word
            for spelling in result.spellings:
                found[spelling] = result.word
        for word, _ in self.unplayed:
            if word != ABSENT:
                found[word] = word
                found[word.replace("-", " ")] = word
        return found

    def points_of(self, word: str) -> Fraction:
        for result in self.results:
            if result.word == word:
                return result.points
        return dict(self.unplayed)[word]

    @property
    def win_points(self) -> Fraction:
        return max(r.points for r in self.results if r.outcome == "win")


def stage_for(structure: tuple[Stage, ...], players: int) -> Stage:
    for stage in structure:
        if stage.up_to is None or players <= stage.up_to:
            return stage
    return structure[-1]
