"""The validated model that `load` produces and every later stage reads."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True, order=True)
class PlayerRef:
    """A player as written in one event (`name`) and the person behind it (`id`, a URL slug)."""

    name: str
    id: str


@dataclass(frozen=True, slots=True)
class EventInfo:
    """The common keys of event.toml (data contract section 2)."""

    slug: str
    name: str
    date: dt.date
    game: str
    format: str | None
    location: str | None
    organizer: str | None
    judges: tuple[str, ...]
    seed: int
    status: str | None
    """"in-progress" or "final" as written; None lets the rounds present decide."""
    round_minutes: int | None = None
    """The round's time limit for the desk's timer, when the event sets its own."""
    example: bool = False
    """An example event (`example = true`, as `site-builder new` writes one): shown, and said
    to be one, but counted in no ranking or deck table."""


@dataclass(frozen=True, slots=True)
class Round:
    """One round file, its rows already typed by the game's ruleset."""

    number: int
    path: str
    rows: tuple[Any, ...]
    rejected_tables: frozenset[str] = frozenset()
    """Tables (as written, leading zeros dropped) that lost a row to an error: checks across a
    table's rows skip them, or they would report ghosts of that error (a 'missing' player)."""
    partial: bool = False
    """Some row was rejected: checks across rounds skip the event for the same reason."""

    def table_rejected(self, number: object) -> bool:
        return str(number).lstrip("0") in self.rejected_tables

@dataclass(frozen=True, slots=True)
class Registration:
    """A row of the event's players.csv: who is registered, and what they play if it says."""

    name: str
    line: int
    deck: str | None = None
    """The `deck` (or `faction`) cell: a faction, warlord or archetype as the community writes it."""
    deck_url: str | None = None
    """An http(s) link to the deck list, from the `deck_url` cell."""
    identities: tuple[str, str] = ("", "")
    """Netrunner's corp and runner identities (`corp_identity`, `runner_identity`), as
    `import` writes them from an NRTM file and the NRTM export gives them back."""


@dataclass(slots=True)
class Event:
    info: EventInfo
    folder: str
    """The event's folder relative to the source, e.g. 'data/events/2024-05-store'."""
    options: Any
    """Game-specific settings, as the ruleset read them from event.toml."""
    rounds: tuple[Round, ...] = ()
    registrations: tuple[Registration, ...] = ()
    players: dict[str, PlayerRef] = field(default_factory=dict)
    """Every name written in the event's files, to the person it stands for."""
    official_names: set[str] = field(default_factory=set)
    """Names in `players` that only officiated (judges, a coordinator who did not play)."""
    key_lines: dict[str, int] = field(default_factory=dict)
    """The line of each key in event.toml, so later warnings can point at it."""
    drops: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The event's drops.csv: each player who left, as written in the rounds, to (the last
    round they played, the line of drops.csv that says so)."""
    ruleset: Any = None
    """Its game's rules.base.Ruleset, as the league knows the game (a declared game's is the
    league's own declaration): set by league/load.py, asked by every later stage."""

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, 1)

    @property
    def slug(self) -> str:
        return self.info.slug

    @property
    def order(self) -> tuple:
        """(date, slug): how events sort, oldest first (the archive lists them newest first)."""
        return self.info.date, self.info.slug

    def ref(self, name: str) -> PlayerRef:
        return self.players[name]


@dataclass(frozen=True, slots=True)
class ContentPage:
    """A Markdown file from content/: its source, where it is published, and its text."""

    path: str
    url: str
    title: str
    markdown: str


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who played in one or more events, keyed by a stable id."""

    id: str
    name: str
