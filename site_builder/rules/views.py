"""What a game's scoring hands to pages and JSON: the standings, the rounds, the bracket, each
player's results, the ranking entries, all in one `ScoredEvent`. Plain frozen objects that name
no game: the pages and the JSON twins are drawn from them alone (rules/base.py declares the
`Ruleset` that makes them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core.model import Event, EventInfo, PlayerRef, Registration
from ..core.problems import Problem


@dataclass(frozen=True, slots=True)
class Column:
    """A standings column: the JSON key it shows, its heading, and how numbers are displayed."""

    key: str
    label: str
    kind: str = "int"
    """"int", "dec3" (three decimals; exact value in a tooltip), "pct" (a percentage to two
    decimals; exact in the tooltip), "share" (a share of one shown as a percentage), "points"
    (whole, or with a half as chess writes it: 2½), "text" or "record"."""
    title: str = ""
    """The heading spelled out, for an <abbr> tooltip (e.g. "Strength of Schedule")."""
    numeric: bool = True
    deciding: bool = False
    """A number the order is decided by (points, a finish, tau): tables show these columns
    right after the player, so a phone shows them without scrolling sideways."""

    @property
    def css(self) -> str:
        return "num" if self.numeric else "text"


TIEBREAK = Column("tiebreak", "Tiebreak", "tiebreak", "what broke a tie on the columns before, "
                  "and its value", numeric=False)
"""The column saying which tiebreak placed a tied player: right after the deciding columns, so
a phone shows it (Standings.lines gives its cells)."""


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player: PlayerRef
    values: dict[str, Any] = field(hash=False)
    """Fields of the JSON twin after rank/player/player_id, in order; Fractions are exact."""
    dropped: bool = False
    tiebreak: str | None = None
    """Which tiebreak placed this player among equals on the primary score (a key of
    `Standings.tiebreak_labels`), or None when the primary score alone decided."""
    notes: tuple[str, ...] = ()
    cells: dict[str, Any] = field(default_factory=dict, hash=False)
    """Display-only cells by column key (e.g. a "3–1–0" record); other columns show `values`."""

    def cell(self, key: str) -> Any:
        return self.cells[key] if key in self.cells else self.values.get(key)


@dataclass(frozen=True, slots=True)
class Official:
    """Someone who ran the event rather than played it, with the points the game gives them."""

    player: PlayerRef
    role: str
    points: int


@dataclass(frozen=True, slots=True)
class Standings:
    title: str
    after_round: int
    complete: bool
    columns: tuple[Column, ...]
    rows: tuple[StandingRow, ...]
    tiebreak_labels: dict[str, str] = field(default_factory=dict, hash=False)
    explanation: str = ""
    """How the order was decided, in a sentence or two, shown under the table."""
    phase: str = ""
    """Extra JSON key when a game has stages (e.g. "swiss", "elimination")."""
    cut_after: int = 0
    """Draw the cut line below this many rows (players above it advance); 0 for none."""
    cut_label: str = ""
    officials: tuple[Official, ...] = ()
    """Listed under the table, not ranked; in the JSON twin as `officials`."""
    meta: dict[str, Any] = field(default_factory=dict, hash=False)
    """Extra top-level keys of the JSON twin (e.g. "scored")."""

    @property
    def shown_columns(self) -> tuple[Column, ...]:
        """The columns a table shows, in its order: the deciding ones first, then (where the
        game breaks ties) TIEBREAK, then the rest, each group in the ruleset's order; a column
        empty in every row is left out (a Finish column before the cut is made). The JSON twin
        keeps every key."""
        filled = [column for column in self.columns
                  if any(row.cell(column.key) not in (None, "") for row in self.rows)]
        return (tuple(c for c in filled if c.deciding)
                + ((TIEBREAK,) if self.tiebreak_labels else ())
                + tuple(c for c in filled if not c.deciding))

    @property
    def lines(self) -> list[tuple[StandingRow, tuple[tuple[Column, Any], ...]]]:
        """Each row with its cells in the order of `shown_columns`, as the template draws
        them. TIEBREAK's cell is (the tiebreak's label, its column, its value) for a row whose
        tie a tiebreak broke, else None."""
        columns = self.shown_columns
        by_key = {column.key: column for column in self.columns}
        return [(row, tuple((column, self._tiebreak_cell(row, by_key) if column is TIEBREAK
                             else row.cell(column.key)) for column in columns))
                for row in self.rows]

    def _tiebreak_cell(self, row: StandingRow, by_key: dict[str, Column]) -> tuple | None:
        if not row.tiebreak:
            return None
        return (self.tiebreak_labels.get(row.tiebreak, row.tiebreak), by_key.get(row.tiebreak),
                row.cell(row.tiebreak))


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class PlayerGame:
    """One line of a player's history: a round, whom they met and how it went."""

    round_number: int
    round_label: str
    table: str
    opponents: tuple[PlayerRef, ...]
    result: str
    points: str
    outcome: str = ""
    """The game as a match between decks: "win", "loss" or "draw" for the player; "" when it
    was no match (a bye, an unpaired loss, a game still being played). At a table of more than
    two, "win" is winning the table and "loss" is another player winning it."""


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class PlayerResult:
    """A player's summary of one event, for their player page."""

    player: PlayerRef
    rank: int | None
    finish: str
    points: str
    record: str
    games: tuple[PlayerGame, ...]
    notes: tuple[str, ...] = ()
    points_label: str = "Points"
    """Heading of the per-game score column on the player page."""
    deck: str | None = None
    deck_url: str | None = None
    ranks: tuple[tuple[str, int | None, int], ...] = ()
    """(round label, their rank in the standings after it, players ranked) for each round with
    standings: the line of their event history's chart."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    label: str
    path: str
    """The round file, relative to the source (for messages and the organizer)."""
    template: str
    """The partial that draws this round's tables, e.g. "games/conquest/round.html"."""
    tables: Any
    standings: Standings | None
    notes: tuple[str, ...] = ()
    pairings: Any = None
    """The round's rules.pairings.Pairings (two-player games): its pairings.json, and the page
    of a round in progress."""
    in_progress: bool = False
    """Some results are not in yet: the page leads with the pairings, and there are no
    standings after this round yet."""


@dataclass(frozen=True, slots=True)
class BracketSlot:
    player: PlayerRef | None
    label: str = ""
    """Shown when the player is not known yet ("Winner of Game 2") or beside a player ("seed 3")."""
    result: str = ""
    won: bool = False
    detail: str = ""
    """A second line under the name (e.g. the tau of each game)."""


@dataclass(frozen=True, slots=True)
class BracketGame:
    number: int
    slots: tuple[BracketSlot, ...]
    played: bool


@dataclass(frozen=True, slots=True)
class BracketRound:
    label: str
    round_number: int
    games: tuple[BracketGame, ...]
    """In the order they are drawn, so each pair of games feeds the game beside it."""
    played: bool


@dataclass(frozen=True, slots=True)
class Bracket:
    template: str
    title: str
    rounds: tuple[BracketRound, ...]
    champion: PlayerRef | None = None
    note: str = ""
    empty_message: str = ""
    """What the page says while there is nothing to draw yet."""
    extra: Any = None
    """Game-specific bracket data for its template (e.g. double elimination's brackets)."""


@dataclass(frozen=True, slots=True)
class Section:
    """A game-specific block on the event page (e.g. a points-by-round grid)."""

    title: str
    template: str
    data: Any


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class RankingEntry:
    """What one person earns toward the cross-event ranking from one event."""

    player: PlayerRef
    points: int
    finish: str
    rank: int | None
    """Their place in the event (None for an official), for "best finish"."""
    role: str = "player"
    denominator: int = 1
    """`points` are in units of 1/denominator (2 for chess's half points): `value`."""

    @property
    def value(self) -> int | Fraction:
        """The points, exact: an int when whole (every seed game), else core.numbers.Points."""
        from ..core.numbers import exact_points
        return self.points if self.denominator == 1 else exact_points(
            Fraction(self.points, self.denominator))


@dataclass(slots=True)
class ScoredEvent:
    """Everything the pages of one event show, computed once by the event's ruleset. Templates
    get it as `event`: `event.info`, `event.slug`, `event.folder` and `event.registrations`
    are the event's as read (docs/theming.md)."""

    event: Event
    """The event as read. Templates reach what they need of it through the properties below;
    `event.event.info` and the like still work in a theme written for them (0.2.0's default
    theme was), but are deprecated there."""
    display_name: str
    details: tuple[tuple[str, str], ...]
    planned_rounds: int | None
    complete: bool
    standings: Standings | None
    rounds: tuple[RoundView, ...]
    bracket: Bracket | None
    players: dict[str, PlayerResult]
    """By name as written in the event."""
    warnings: tuple[Problem, ...] = ()
    winner: PlayerRef | None = None
    status_line: str = ""
    sections: tuple[Section, ...] = ()
    """Shown on the event page after the standings, in order."""
    subtitle: str = ""
    """A second name shown with `display_name` wherever events are listed (SPELLFIRE: the
    event's own name, since every title follows the seed's shorthand)."""
    ranking: tuple[RankingEntry, ...] | None = None
    """Points toward the game's ranking, or None when the event does not count."""
    ranking_note: str = ""
    """Why the event does not count toward rankings (e.g. "unscored: fewer than 9 players")."""
    decks: tuple = ()
    """What the metagame tables count of an event with deck data (deckentry.DeckEntry, one per
    ranked player); empty when its registrations name no decks."""

    @property
    def info(self) -> EventInfo:
        """The event's keys: slug, name, date, game, format, location, organizer, judges…"""
        return self.event.info

    @property
    def slug(self) -> str:
        return self.event.slug

    @property
    def folder(self) -> str:
        """Its folder as messages name it: data/events/<slug>."""
        return self.event.folder

    @property
    def registrations(self) -> tuple[Registration, ...]:
        """Its players.csv, as read (none without one)."""
        return self.event.registrations


_PLAIN_JSON = frozenset({int, float, str, bool, type(None)})


def as_json_number(value: Any) -> Any:
    """Exact values become floats only at the JSON boundary (always floats, so the type of a
    field never depends on its value).

    Every value of every standings row of the JSON twins comes through here, so the common
    types are told by `type` first: isinstance against Fraction goes through the ABC machinery
    (numbers.Rational), and float() of a Fraction through two int() calls, which together were
    a third of writing a round's JSON. The division is float()'s own: correctly rounded."""
    kind = type(value)
    if kind is Fraction:
        return value.numerator / value.denominator
    if kind in _PLAIN_JSON:
        return value
    if kind is dict:  # a declared game's tiebreaks, by their vocabulary names
        return {key: as_json_number(inner) for key, inner in value.items()}
    return float(value) if isinstance(value, Fraction) else value
