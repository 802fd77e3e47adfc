"""What the venue desk asks of a table, as a game declares it (`Ruleset.entry`).

The desk (site_builder/desk/) draws a form per table from this declaration alone: one line per
seat with an input per cell, in the game's round-file columns, and for games whose rounds are
several games per table (SPELLFIRE's brackets, Armageddon's best of three) a block per game with
a button that adds the next. What the desk writes is checked by the game's own `read_rows` and
`validate`, exactly as `check` does, so a declaration here only shapes the inputs: the rules
that judge the values stay in the game's package.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a cell may take, as written in the round file ("modified-win"), and as the desk
    labels it ("Modified win"). The empty value is a choice like any other ("—")."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Cell:
    """An input for one round-file column of each seat."""

    column: str
    """The round file's column, as `written_columns` names it."""
    label: str
    choices: tuple[Choice, ...] = ()
    """A pick from these (a result word); empty for a number typed in."""
    low: int | None = None
    high: int | None = None
    """The range a number input offers (the browser's hint: the game's checks judge it)."""
    decimals: bool = False
    """A number that may have decimals (INWO's goal percentage)."""
    optional: bool = True
    """May stay empty once the table's result is in (Heresy's winner's tau, SPELLFIRE's place)."""
    aliases: tuple[str, ...] = ()
    """Other names the column goes by in a round file typed by hand (INWO's special_pct)."""

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)


@dataclass(frozen=True, slots=True)
class Quick:
    """A one-click result for two-player tables: the seat it is given to gets `mine` in the
    `result` column, every other seat `theirs` ("Ada wins" → win / loss)."""

    label: str
    """Shown after the player's name: "wins", "modified win"; for the whole table (`both`),
    on its own: "Draw"."""
    mine: str
    theirs: str

    @property
    def both(self) -> bool:
        """The same result for every seat (a draw): one button for the table, not one a seat."""
        return self.mine == self.theirs


@dataclass(frozen=True, slots=True)
class Entry:
    """Everything the desk asks of one table of a game."""

    cells: tuple[Cell, ...]
    quick: tuple[Quick, ...] = ()
    games: bool = False
    """The table plays several games, one block of rows each, numbered in the `game` column."""
    max_games: int = 1
    """How many game blocks the desk offers at most (its "Add a game" button stops there)."""
    unplayed: str | None = None
    """The result a seat of a table that never reported gets when the organizer forms the next
    round anyway (its table emptied: an unpaired loss, Conquest IV); None: the game has no such
    result, and the next round waits for every table."""


RESULT = "result"
