"""Which games a league can score: the five of the seeds (RULESETS), the declarations that ship
with the tool (rules/declared/shipped/), and the league's own (data/games/<id>.toml), which take
the place of a shipped one of the same id.

Read once per league and kept while the files are the same bytes (`games_for`): every event,
`pair` and the desk ask it for an event's ruleset. A declaration with errors is not a game:
its problems are kept, and an event of it says where to look.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path

from ..core.problems import Problem, ProblemLog  # noqa: F401 (Problem: annotations)
from ..files.sources import FILE, FOLDER, entries, kind, read_bytes
from ..files.textfiles import LIMITS
from .base import Ruleset
from .conquest import Conquest
from .heresy import Heresy
from .inwo import Inwo
from .kingdom import Kingdom
from .spellfire import Spellfire

GAMES_DIR = "data/games"
SHIPPED = Path(__file__).parent / "declared" / "shipped"

BUILT_IN: dict[str, Ruleset] = {ruleset.game: ruleset
                                for ruleset in (Conquest(), Heresy(), Inwo(), Kingdom(),
                                                Spellfire())}


@dataclass(slots=True)
class Games:
    """Game id → its ruleset, for one league: a seed game's (looked up in BUILT_IN as it is
    now), else a declared one's."""

    declared: dict[str, Ruleset]
    broken: dict[str, str] = field(default_factory=dict)
    """Id of a declaration with errors → the file to look at."""
    problems: list[Problem] = field(default_factory=list)
    """Every problem of the league's declarations (reported once, by the site's load)."""
    digest: str = ""
    """Of every declaration file read: part of each event's key."""

    def __getitem__(self, game: str) -> Ruleset:
        found = self.get(game)
        if found is None:
            raise KeyError(game)
        return found

    def __contains__(self, game: object) -> bool:
        return game in BUILT_IN or game in self.declared

    def get(self, game: str) -> Ruleset | None:
        return BUILT_IN.get(game) or self.declared.get(game)

    @property
    def names(self) -> tuple[str, ...]:
        """Every id, the seeds' games first, then the declared ones by id."""
        return tuple(BUILT_IN) + tuple(sorted(self.declared))


_KNOWN: dict[tuple[str, str], Games] = {}
_LOCK = threading.Lock()


def games_for(source: Path | None) -> Games:
    """The games of the league at `source` (None: the built-in and shipped ones only)."""
    files, problems = _declaration_files(source)
    # What the games are made of, wherever the league lies: part of every event's key, so a
    # league copied elsewhere (a CI runner's checkout) finds its events current.
    made_of = hashlib.blake2b(repr([(shown, data) for shown, _, data in files]
                                   + [p.format() for p in problems]).encode(
        "utf-8", "surrogateescape"), digest_size=16).hexdigest()
    key = (str(source), made_of)
    with _LOCK:
        known = _KNOWN.get(key)
        if known is None:
            if len(_KNOWN) > 16:  # a long watch session over edited files: keep a few
                _KNOWN.clear()
            known = _KNOWN[key] = _read_games(files, made_of)
            known.problems[:0] = problems
        return known


def _declaration_files(source: Path | None) -> tuple[list[tuple[str, str, bytes]], list[Problem]]:
    """(shown path, game id, bytes) of the shipped declarations, then the league's; and the
    problems of reading data/games/ (a file too large or unreadable, a link out of the league,
    a folder or another file where declarations go)."""
    found = list(_shipped())
    log = ProblemLog()
    if source is None:
        return found, []
    folder = source / GAMES_DIR
    if kind(folder, GAMES_DIR, source, log) != FOLDER:
        if folder.is_file():
            log.error(GAMES_DIR, None, "is a file: games are declared in a folder, one "
                                       "data/games/<id>.toml each")
        return found, log.problems
    for name, path, found_kind in sorted(entries(folder, GAMES_DIR, source, log) or ()):
        shown = f"{GAMES_DIR}/{name}"
        if found_kind == FILE and name.endswith(".toml"):
            data = read_bytes(path, shown, log, LIMITS[".toml"])
            if data is not None:
                found.append((shown, name[:-5], data))
        elif found_kind is not None and not name.startswith("."):
            what = "a folder" if found_kind == FOLDER else "not a .toml file"
            log.warning(shown, None, f"is ignored: it is {what}, and a game is declared in "
                                     "data/games/<id>.toml")
    return found, log.problems


@functools.cache
def _shipped() -> tuple[tuple[str, str, bytes], ...]:
    """The declarations that ship with the tool: package data, read once a process."""
    return tuple((f"(shipped) {path.name}", path.stem, path.read_bytes())
                 for path in sorted(SHIPPED.glob("*.toml")))


def _read_games(files: list[tuple[str, str, bytes]], key: str) -> Games:
    from .declared import DeclaredGame
    from .declared.declaration import GAME_ID, DeclarationReader
    from ..files.textfiles import parse_toml

    games = Games({}, digest=key)
    for shown, game, data in files:
        log = ProblemLog()
        if not GAME_ID.fullmatch(game):
            log.error(shown, None, f"'{game}' is not a game id: name the file with lowercase "
                                   "letters, digits and '-' (e.g. data/games/magic.toml), as "
                                   "event.toml's game = \"…\" names it")
        elif game in BUILT_IN:
            log.error(shown, None, f"'{game}' is a game site-builder scores by its own rules: "
                                   "name the file otherwise (e.g. "
                                   f"data/games/{game}-house.toml)")
        else:
            doc = parse_toml(data, shown, log)
            declaration = DeclarationReader(game, doc, log).read() if doc is not None else None
            if declaration is not None:
                games.declared[game] = DeclaredGame(declaration)
                games.broken.pop(game, None)
        if log.has_errors():
            games.broken[game] = shown
            games.declared.pop(game, None)
        if not shown.startswith("(shipped)"):
            games.problems.extend(log.problems)
    return games
