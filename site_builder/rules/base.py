"""A game as the tool knows it: `Ruleset`, and the small declarations it makes (slips, flags).

Everything the tool knows of one game is declared on the game's ruleset, a subclass of `Ruleset`
in its own package `rules/<game>/`, registered once in `RULESETS` (rules/__init__.py): its
event.toml options, its round-file columns and rows, its checks, its scoring into the view
objects of rules/views.py, how `pair` forms its next round and which columns it writes, who
continues, and what a result slip asks. Pages and JSON are built from the view objects alone, and `pair` asks
the ruleset for the rest; nothing outside rules/ names a game. A new game adds its package, its
entry in RULESETS, its template partials in the theme (games/<game>/), its docs page and its
tests: the checklist "Adding a game" in docs/architecture.md, which
tests/games/test_adding_a_game.py follows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..core.model import Event
from ..core.problems import ProblemLog
from ..files.textfiles import ColumnSpec, CsvTable
from ..files.tomlkeys import KeyReader
from .views import ScoredEvent

if TYPE_CHECKING:  # forming.py imports this module: the names are for annotations only
    from .entry import Entry
    from .forming import Context, Formed


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

    # ------------------------------------------------ the venue desk

    def entry(self, options: Any) -> Entry | None:
        """What the desk asks of a table of this game (rules/entry.py); None: its results are
        typed into the round file, and the desk shows its tables without inputs."""
        return None

    def round_minutes(self, event: Event, number: int) -> int | None:
        """The time limit of round `number` by the game's rules, for the wall's timer when
        event.toml gives no `round_minutes`; None: the rules set none."""
        return None
