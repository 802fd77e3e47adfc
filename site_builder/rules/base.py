"""A game as the tool knows it (`Ruleset`), and the plain objects it hands to pages and JSON.

Everything the tool knows of one game is declared on the game's ruleset, a subclass of `Ruleset`
in its own package `rules/<game>/`, registered once in `RULESETS` (rules/__init__.py): its
event.toml options, its round-file columns and rows, its checks, its scoring into the view
objects below, how `pair` forms its next round and which columns it writes, who continues, and
what a result slip asks. Pages and JSON are built from the view objects alone, and `pair` asks
the ruleset for the rest; nothing outside rules/ names a game. A new game adds its package, its
entry in RULESETS, its template partials in the theme (games/<game>/), its docs page and its
tests: the checklist "Adding a game" in docs/architecture.md, which
tests/games/test_adding_a_game.py follows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..core.model import Event, EventInfo, PlayerRef, Registration
from ..core.problems import Problem, ProblemLog
from ..files.textfiles import ColumnSpec, CsvTable
from ..files.tomlkeys import KeyReader

if TYPE_CHECKING:  # forming.py imports this module: the names are for annotations only
    from .forming import Context, Formed


@dataclass(frozen=True, slots=True)
class Column:
    """A standings column: the JSON key it shows, its heading, and how numbers are displayed."""

    key: str
    label: str
    kind: str = "int"
    """"int", "dec3" (three decimals; exact value in a tooltip), "pct" (a percentage to two
    decimals; exact in the tooltip), "text" or "record"."""
    title: str = ""
    """The heading spelled out, for an <abbr> tooltip (e.g. "Strength of Schedule")."""
    numeric: bool = True
    deciding: bool = False
    """A number the order is decided by (points, a finish, tau): tables show these columns
    right after the player, so a phone shows them without scrolling sideways."""

    @property
    def css(self) -> str:
        return "num" if self.numeric else "text"


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
        """The columns a table shows, in its order: the deciding ones first, then the rest,
        each group in the ruleset's order; a column empty in every row is left out (a Finish
        column before the cut is made). The JSON twin keeps every key."""
        filled = [column for column in self.columns
                  if any(row.cell(column.key) not in (None, "") for row in self.rows)]
        return (tuple(c for c in filled if c.deciding)
                + tuple(c for c in filled if not c.deciding))

    @property
    def lines(self) -> list[tuple[StandingRow, tuple[tuple[Column, Any], ...]]]:
        """Each row with its cells in the order of `shown_columns`, as the template draws
        them."""
        columns = self.shown_columns
        return [(row, tuple((column, row.cell(column.key)) for column in columns))
                for row in self.rows]


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


@dataclass(frozen=True, slots=True)
class SlipField:
    """One thing a result slip asks of each player: a box to tick ("Win"), or a blank to fill
    in ("Tau stored")."""

    label: str
    tick: bool = False


@dataclass(frozen=True, slots=True)
class PairFlag:
    """A flag of `site-builder pair` that only some games read (SPELLFIRE's --allow-five). The
    command line offers every game's flags, each with its help under the game's title; a game
    reads those given in `Context.flags`, and the others ignore them."""

    flag: str
    """As typed, e.g. "--allow-five"."""
    help: str


class Options(Protocol):
    """What the rest of the tool reads of a game's event.toml options (`read_options`'s
    result); everything else in them is the game's own."""

    @property
    def format(self) -> str:
        """The event's format, shown with it and in its JSON (e.g. "swiss", "armageddon")."""


class Ruleset(ABC):
    """Everything the tool knows of one game. A subclass declares `game` and `title` and
    implements each abstract method; the other methods are the optional parts, whose defaults
    suit a game that has nothing of its own to say there.

    A base class rather than a Protocol: the defaults of the optional parts are written once,
    here, so the code asking for them never looks for a method (no hasattr); and a game missing
    a required part cannot be made (TypeError when RULESETS is built), rather than failing the
    first time an organizer builds or pairs one of its events."""

    game: ClassVar[str]
    """The `game` key of event.toml, lowercase; also the name of its package (rules/<game>/)
    and of its partials' folder in the theme (templates/games/<game>/)."""
    title: ClassVar[str]
    """The game's name on pages, in feeds, and before its flags in `pair --help`."""
    pair_flags: ClassVar[tuple[PairFlag, ...]] = ()
    """The flags of `pair` this game reads (see PairFlag)."""

    # ------------------------------------------------ reading and checking an event

    @abstractmethod
    def read_options(self, keys: KeyReader) -> Options:
        """Read and check this game's event.toml keys (each bad one logged through `keys`)."""

    @abstractmethod
    def columns(self, options: Any) -> ColumnSpec:
        """The columns its round files take (required, optional, aliases)."""

    @abstractmethod
    def read_rows(self, table: CsvTable, shown: str, options: Any, log: ProblemLog) -> tuple[Any, ...]:
        """Type every row of one round file, logging each bad cell."""

    @abstractmethod
    def validate(self, event: Event, log: ProblemLog) -> None:
        """Checks across rows and rounds (tables, duplicates, who may play which round)."""

    def officials(self, options: Any) -> tuple[str, ...]:
        """Who ran the event besides its judges, by the game's own keys (SPELLFIRE's
        coordinator): they get person ids, and are the event's people but not its players."""
        return ()

    # ------------------------------------------------ the event's rounds

    @abstractmethod
    def everyone_plays(self, event: Event, number: int) -> bool:
        """Whether every player still in the event is meant to play round `number` (a Swiss
        round, a Heresy Reascension round); False for a round only some go on to (elimination
        rounds after a cut, SPELLFIRE's and INWO's advancers). Its stages, as `check` (a
        player missing from such a round) and the metagame (who reached the cut) ask them."""

    @abstractmethod
    def pending(self, round_: Any) -> list[Any]:
        """The round's rows still waiting for their result (a round in progress: see
        rules.pairings); `pair` refuses to form the next round while there are any."""

    @abstractmethod
    def score(self, event: Event) -> ScoredEvent:
        """Pure: the validated event in, its pages' contents out. No I/O, no clock."""

    @abstractmethod
    def slip(self, event: Event, round_: Any) -> tuple[SlipField, ...]:
        """What the result slip of a table of `round_` (a round in progress) asks of each
        player; `score` puts it in that round's Pairings (rules.pairings.in_progress_view)."""

    # ------------------------------------------------ `site-builder pair`

    @abstractmethod
    def form(self, context: Context) -> Formed:
        """The next round, formed by the game's own procedure from `context` (forming.py), or
        a DataError (forming.refuse) saying why there is none. Each game imports its pairing
        module here, inside the method, never at the top of its package: Swiss pairing loads
        networkx and rustworkx (swisspairing.py), which `build`, `check` and `watch` never
        use and would pay for at every start (test_adding_a_game checks they stay out)."""

    def written_columns(self, options: Any) -> tuple[str, ...]:
        """The header of the round file `pair` writes: by default every column the game's
        round files take, required then optional."""
        spec = self.columns(options)
        return spec.required + spec.optional

    def continuing(self, event: Event) -> dict[str, int] | None:
        """Who goes on after the latest round when only some of its players do and the game
        says who (SPELLFIRE's bracket winners), by the line of their first row: `pair --add`
        may then name anyone but them (another chance), and `form` alone judges whether
        enough are left. None: every player of the latest round goes on, --add names someone
        new, and `pair` wants two players at least."""
        return None


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
    return float(value) if isinstance(value, Fraction) else value
