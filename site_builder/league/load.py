"""Load stage: the source folder in, a validated `Site` and every problem found out.

Never stops at the first problem: each file is read as far as it can be, so one run lists all of
a site's mistakes.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import replace
from pathlib import Path

from .drops import DROPS_FILE, read_drops
from ..core.model import Event, EventInfo, PlayerRef, Registration, Round
from .people import PLAYERS_FILE, SLUG, Directory, slugify
from ..core.problems import ConfigError, ProblemLog
from ..rules import PLANNED_GAMES
from ..rules.registry import Games, games_for
from ..rules.tiebreaks import default_seed
from ..files.sources import FILE, FOLDER, entries, is_utf8, kind, printable
from ..files.textfiles import ColumnSpec, read_csv, read_toml
from ..files.tomlkeys import KeyReader

EVENTS_DIR = "data/events"
EVENT_FILE = "event.toml"
REGISTRATIONS_FILE = "players.csv"
ROUND_FILE = re.compile(r"round-([0-9]+)\.csv", re.IGNORECASE)
MAX_ROUND = 999
"""No tournament has more rounds; a larger number is a mistake (often a date)."""
STATUSES = ("in-progress", "final")


EventFiles = dict[str, tuple[Path, str]]
"""An event folder's usable entries: name → (path, FILE or FOLDER)."""



def check_source(source: Path) -> None:
    """Refuse a --source that is not a results site before anything is read or written: a
    mistyped folder must not build an empty site over the published one."""
    shown = str(source)
    try:
        if not source.exists():
            raise ConfigError(f"--source {shown}: there is no such folder")
        if not source.is_dir():
            raise ConfigError(f"--source {shown} is a file: give the site's folder, the one "
                              "holding site.toml, data/ and content/")
        os.listdir(source)  # readable?
        events = source / EVENTS_DIR
        if not events.is_dir():
            what = "is a file, not a folder" if events.exists() else "is missing"
            raise ConfigError(f"{events.absolute()} {what}: a results site keeps its events in "
                              f"{EVENTS_DIR}/<slug>/ (is --source {shown} the right folder? "
                              "To start a league: site-builder new FOLDER)")
    except OSError as exc:
        raise ConfigError(f"--source {shown} cannot be read: {exc.strerror or exc}: give the "
                          "build access to it (chmod)") from None


def is_event_folder(source: Path, slug: str) -> bool:
    """Whether data/events/<slug> is an event folder as _event_folders lists them."""
    return (not slug.startswith(".") and is_utf8(slug)
            and kind(source / EVENTS_DIR / slug, slug, source, ProblemLog()) == FOLDER)


def event_folders(source: Path, log: ProblemLog) -> list[Path]:
    root = source / EVENTS_DIR
    found = kind(root, EVENTS_DIR, source, log)
    if found != FOLDER:
        if found == FILE:
            log.error(EVENTS_DIR, None, "is not a folder: each event is a folder "
                                        f"{EVENTS_DIR}/<slug>/ with an event.toml")
        return []
    folders = []
    for name, path, found in entries(root, EVENTS_DIR, source, log) or ():
        if found == FOLDER:
            folders.append(path)
        elif path.suffix.lower() not in (".md", ".txt"):
            log.warning(f"{EVENTS_DIR}/{name}", None,
                        f"is ignored: each event is a folder {EVENTS_DIR}/<slug>/ with an event.toml")
    return folders


Pending = dict[str, bytes]
"""Files read as if the event folder held them with these bytes, by name: `pair` loads the event
as it will be once its round (and drops.csv) are written, before writing either."""


def load_event(source: Path, folder: Path, log: ProblemLog,
               pending: Pending | None = None, games: Games | None = None) -> Event | None:
    """One event folder, checked against its own problems only: the rulesets skip their
    cross-round checks (advancement, eligibility) when the event's rows have errors, and an
    error elsewhere in the site (data/players.csv, another event) must not hide them.
    `pending` may hold a round file and drops.csv, no other file. `games`: the league's games
    as the caller read them once (a build's thousand events), else read here."""
    own = ProblemLog()
    event = _load_event(source, folder, own, pending or {}, games)
    log.extend(own.problems)
    return event


def _load_event(source: Path, folder: Path, log: ProblemLog, pending: Pending,
                games: Games | None) -> Event | None:
    shown_folder = f"{EVENTS_DIR}/{printable(folder.name)}"
    toml_shown = f"{shown_folder}/{EVENT_FILE}"
    if kind(folder, shown_folder, source, log) != FOLDER:
        return None  # gone, or skipped with a warning (a link out of the site)
    listing = entries(folder, shown_folder, source, log)
    if listing is None:
        return None  # unreadable: reported
    files: EventFiles = {name: (path, found) for name, path, found in listing}
    files.update({name: (folder / name, FILE) for name in pending})
    if files.get(EVENT_FILE, (None, None))[1] != FILE:
        log.error(toml_shown, None, f"is missing: every event folder needs an {EVENT_FILE} "
                                    "with name, date and game")
        return None
    if not SLUG.fullmatch(folder.name):
        log.error(toml_shown, 1,
                  f"the folder name '{printable(folder.name)}' is not a URL-safe slug: use lowercase letters, "
                  f"digits and '-' only, e.g. '{slugify(folder.name) or 'my-event'}'")
    doc = read_toml(folder / EVENT_FILE, toml_shown, log)
    if doc is None:
        return None
    keys = KeyReader(doc, log)
    games = games or games_for(source)
    info = _read_info(folder.name, keys, games)
    ruleset = games.get(info.game)
    if ruleset is None:
        return None  # without a game nobody knows its keys or columns: nothing more to check
    options = ruleset.read_options(keys)
    keys.unknown_keys()
    # A bad name or date is already an error; the rounds are still read and checked so that
    # one run lists every problem of the event.
    info = replace(info, format=options.format)
    event = Event(info, shown_folder, options,
                  key_lines={key: doc.line_of(key) for key in sorted(doc.data)}, ruleset=ruleset)
    event.registrations = _read_registrations(files, shown_folder, log)
    event.rounds = _read_rounds(files, shown_folder, ruleset, options, log, pending)
    ruleset.validate(event, log)
    _check_registered(event, log)
    event.drops = read_drops(files, shown_folder, event.rounds, log, pending.get(DROPS_FILE))
    return event


def _read_info(slug: str, keys: KeyReader, games: Games) -> EventInfo:
    """The common keys; a missing or bad one is logged and left empty (name "", a placeholder
    date, game "" when it is not a supported game)."""
    name = keys.text("name", required=True, example='name = "Store Championship"')
    date = keys.date("date", required=True)
    game = keys.text("game", required=True, example=f'game = "{games.names[0]}"')
    if game is not None:
        written, game = game, game.strip().lower()
        if written != game and game in games:
            keys.log.warning(keys.doc.shown, keys.doc.line_of("game"),
                             f'game = "{written}" is read as game = "{game}": game names are '
                             "written in lowercase")
        if game in PLANNED_GAMES:
            keys.log.error(keys.doc.shown, keys.doc.line_of("game"),
                           f"game = \"{game}\" is not supported by this version yet: "
                           f"it scores {', '.join(games.names)}")
            game = None
        elif game in games.broken:
            keys.log.error(keys.doc.shown, keys.doc.line_of("game"),
                           f"game = \"{game}\" is declared in {games.broken[game]}, which has "
                           "errors: `site-builder check` lists them")
            game = None
        elif game not in games:
            keys.log.error(keys.doc.shown, keys.doc.line_of("game"),
                           f"game = \"{game}\" is not a game: expected one of "
                           f"{', '.join(games.names)}, or a game declared in data/games/"
                           f"{game}.toml (docs/games/declared.md)")
            game = None
    return EventInfo(
        slug=slug,
        name=name or "",
        date=date or dt.date.min,
        game=game or "",
        format=None,
        location=keys.text("location"),
        organizer=keys.text("organizer"),
        judges=keys.text_list("judges"),
        seed=keys.integer("seed", default=default_seed(slug), maximum=None),  # any: it seeds
        status=keys.choice("status", STATUSES),
        round_minutes=keys.integer("round_minutes", minimum=1, maximum=24 * 60,
                                   example="round_minutes = 55"),
        example=keys.flag("example"),
    )


_REGISTRATION_SPEC = ColumnSpec(required=(), optional=("player", "name", "deck", "faction",
                                                      "deck_url", "corp_identity",
                                                      "runner_identity"))
DECK_COLUMNS = ("deck", "faction")
"""What a player plays, as the community writes it: `deck`, or `faction` where that is the word."""


def _read_registrations(files: EventFiles, shown_folder: str, log: ProblemLog
                        ) -> tuple[Registration, ...]:
    shown = f"{shown_folder}/{REGISTRATIONS_FILE}"
    if REGISTRATIONS_FILE not in files:
        return ()
    path, found = files[REGISTRATIONS_FILE]
    if found != FILE:
        log.error(shown, None, "is a folder: the registrations are a file")
        return ()
    quiet = ProblemLog()  # registration files may carry any other columns (faction, club, …)
    table = read_csv(path, shown, _REGISTRATION_SPEC, quiet)
    log.extend(quiet.errors)
    if table is None:
        return ()
    column = "player" if "player" in table.columns else "name" if "name" in table.columns else None
    if column is None:
        log.error(shown, table.header_line, "the header lacks a 'player' column: expected one name "
                                            "per row under 'player'")
        return ()
    registrations, seen = [], {}
    for row in table.rows:
        name = row.get(column)
        if not name:
            log.error(shown, row.line, "the player cell is empty: expected the player's name")
        elif name in seen:
            log.error(shown, row.line, f"{name} is registered twice (also on line {seen[name]})")
        else:
            seen[name] = row.line
            deck = next((row.get(c) for c in DECK_COLUMNS if c in table.columns), None) or None
            registrations.append(Registration(name, row.line, deck,
                                              _deck_url(row.get("deck_url"), shown, row.line, log),
                                              (row.get("corp_identity") or "",
                                               row.get("runner_identity") or "")))
    return tuple(registrations)


def _deck_url(text: str | None, shown: str, line: int, log: ProblemLog) -> str | None:
    """A deck list's link, only http(s): anything else would be a link the site cannot vouch
    for (javascript:, a file on the organizer's laptop)."""
    if not text:
        return None
    if re.fullmatch(r"https?://[^\s<>\"]+", text, re.IGNORECASE):
        return text
    log.warning(shown, line, f"deck_url '{text}' is not a web address: expected one starting "
                             "with https:// (left off the pages)")
    return None


def _read_rounds(files: EventFiles, shown_folder: str, ruleset, options,
                 log: ProblemLog, pending: Pending) -> tuple[Round, ...]:
    """The event's rounds in order (a pending one read from its bytes)."""
    numbered = _round_files(files, shown_folder, log)
    _check_round_gaps(numbered, shown_folder, log)
    rounds = []
    for number in sorted(numbered):
        path, shown = numbered[number], f"{shown_folder}/{numbered[number].name}"
        round_ = _read_round(number, path, shown, ruleset, options, log, pending.get(path.name))
        if round_ is not None:
            rounds.append(round_)
    return tuple(rounds)


def _read_round(number: int, path: Path, shown: str, ruleset, options,
                log: ProblemLog, raw: bytes | None = None) -> Round | None:
    table = read_csv(path, shown, ruleset.columns(options), log, raw)
    if table is None:
        return None
    if not table.rows:
        log.error(shown, table.header_line,
                  f"round {number} has no results, only a header: add the round's rows, or "
                  "leave the file out until the round has been played")
        return None
    before = len(log.problems)
    rows = ruleset.read_rows(table, shown, options, log)
    bad_lines = {p.line for p in log.problems[before:] if p.is_error}
    rejected = frozenset(row.get("table").lstrip("0") for row in table.rows
                         if row.line in bad_lines)
    return Round(number, shown, rows, rejected, partial=bool(bad_lines))


def _round_files(files: EventFiles, shown_folder: str, log: ProblemLog) -> dict[int, Path]:
    """round-<n>.csv files by round number, every odd file name reported."""
    numbered: dict[int, Path] = {}
    for name in sorted(files):
        path, found = files[name]
        if path.suffix.lower() != ".csv" or path.name in (REGISTRATIONS_FILE, DROPS_FILE):
            continue
        shown = f"{shown_folder}/{path.name}"
        match = ROUND_FILE.fullmatch(path.name)
        if match is None:
            if path.name.lower().startswith("round"):
                log.error(shown, 1, f"the file name '{path.name}' has no round number: expected "
                                    "round-<n>.csv with n a number, e.g. round-2.csv")
            else:
                log.warning(shown, 1, "is ignored: an event's CSV files are round-<n>.csv (one "
                                      "per round), players.csv (registrations) and drops.csv "
                                      "(players who left)")
            continue
        digits = match.group(1).lstrip("0") or "0"  # leading zeros are fine: round-01.csv
        number = int(digits) if len(digits) <= len(str(MAX_ROUND)) else MAX_ROUND + 1
        if found != FILE:
            log.error(shown, None, "is a folder: a round is a file")
        elif not 1 <= number <= MAX_ROUND:
            log.error(shown, 1, f"'{match.group(1)}' is not a round number: round files are "
                                "numbered from 1 (round-1.csv, round-2.csv, …)")
        elif number in numbered:
            log.error(shown, 1, f"round {number} has two files: {numbered[number].name} and {path.name}")
        else:
            numbered[number] = path
    return numbered


def _check_round_gaps(numbered: dict[int, Path], shown_folder: str, log: ProblemLog) -> None:
    """One error per gap in the round numbers ("rounds 2–4 are missing"), never one per number."""
    previous = 0
    for number in sorted(numbered):
        if number > previous + 1:
            missing = (f"round {previous + 1} is" if number == previous + 2
                       else f"rounds {previous + 1}–{number - 1} are")
            after = f"after {numbered[previous].name}" if previous else "as the first round file"
            log.error(f"{shown_folder}/{numbered[number].name}", 1,
                      f"{missing} missing: rounds are numbered from 1 without gaps, and this file "
                      f"comes {after}")
        previous = number


def _check_registered(event: Event, log: ProblemLog) -> None:
    if not event.registrations:
        return
    registered = {r.name for r in event.registrations}
    reported: set[str] = set()
    for round_ in event.rounds:
        for row in round_.rows:
            if row.player not in registered and row.player not in reported:
                reported.add(row.player)
                log.warning(round_.path, row.line,
                            f"{row.player} is not in the event's {REGISTRATIONS_FILE} "
                            "(a typo, or a late registration?)")


def assign_event_ids(event: Event, directory: Directory, log: ProblemLog) -> None:
    """Give every name in the event its person id (`event.players`). Two spellings of one
    person in one event are an error, since the event would count them as two players.
    Officials (judges, a coordinator) get ids too — some games give them points — and an
    official who also played is simply the same person."""
    first_seen: dict[str, tuple[str, int]] = {}
    for reg in event.registrations:
        first_seen.setdefault(reg.name, (f"{event.folder}/{REGISTRATIONS_FILE}", reg.line))
    for round_ in event.rounds:
        for row in round_.rows:
            first_seen.setdefault(row.player, (round_.path, row.line))
    owner: dict[str, str] = {}
    for name, (path, line) in first_seen.items():
        person_id = directory.id_for(name)
        if person_id in owner and owner[person_id] != name:
            log.error(path, line,
                      f"'{name}' and '{owner[person_id]}' stand for the same person (id "
                      f"'{person_id}'): use one spelling within an event, or give them different "
                      f"ids in {PLAYERS_FILE}")
            continue
        owner[person_id] = name
        event.players[name] = PlayerRef(name, person_id)
    officials = event.ruleset.officials(event.options)
    for name in event.info.judges + officials:
        if name not in event.players:
            person_id = directory.id_for(name)
            event.players[name] = PlayerRef(owner.get(person_id, name), person_id)
            event.official_names.add(name)
