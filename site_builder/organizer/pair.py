"""`site-builder pair EVENT_FOLDER`: the event's next round, formed by its game's own procedure
and written as its round file with the results empty, for the organizer to fill in.

Judge the inputs by the build's rules (pairtrust.py) → load → check → who plays (pairnames.py) →
score (the standings the pairing reads) → form (the game's `Ruleset.form`) → load the event with
the round as check would → write.
Nothing is written when anything is wrong: every refusal is a `path:line` problem, and an
existing file is never overwritten.
"""

from __future__ import annotations

import hashlib
import os
import random
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..league.drops import DROPS_FILE, current_text, drops_text
from ..league.drops import csv_cell as _csv_cell
from ..league.load import EVENTS_DIR, assign_event_ids, load_event
from ..core.model import Event
from ..league.namechecks import check_names
from ..league.people import Directory, load_directory
from ..core.problems import (ConfigError, DataError, Problem, ProblemLog, sorted_problems,
                             terminal_safe)
from ..rules.base import Ruleset
from ..rules.forming import Context, Formed, Table, refuse
from .pairnames import Players, gone_notes, who_plays
from ..core.notice import Notice
from .pairtrust import refuse_unless_check_passes, refuse_what_the_build_skips

@dataclass(slots=True)
class Request:
    folder: Path
    seed: int | None = None
    drop: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    flags: frozenset[str] = frozenset()
    """The game flags given (rules.pair_flags), as typed: the game's `form` reads its own."""


@dataclass(slots=True)
class NextRound:
    path: Path
    """The round file to write."""
    number: int
    event_name: str
    formed: Formed
    header: tuple[str, ...]
    dropped: tuple[str, ...] = ()
    """The --drop names, to record in drops.csv once the round is written."""
    drops: str | None = None
    """drops.csv's text once they are recorded (checked with the round), or None: no drop to
    record (none, or round 1, where a dropped name never played)."""
    details: tuple[tuple[str, str], ...] = ()
    """Round 1: what the event page says of the event once it is written (its structure: "Basic
    — 10 registered players: 4 Swiss rounds, no cut"), for the organizer to see before play."""

    @property
    def label(self) -> str:
        return self.formed.label

    @property
    def tables(self) -> list[Table]:
        return self.formed.tables

    @property
    def notes(self) -> list[str]:
        return self.formed.notes

    def text(self) -> str:
        """The round file: one row per player, results empty; a bye complete."""
        rows = [",".join(self.header)]
        for table in self.tables:
            for name in table.players:
                cells = {"table": "" if table.number is None else str(table.number),
                         "player": _csv_cell(name), "result": "bye" if table.bye else ""}
                rows.append(",".join(cells.get(column, "") for column in self.header))
        return "\n".join(rows) + "\n"


def plan_next_round(request: Request) -> NextRound:
    """The next round of the event, or DataError/ConfigError saying why there is none."""
    source, folder = _site_of(request.folder)
    refuse_what_the_build_skips(source, folder)  # before anything is read
    shown = terminal_safe(f"{EVENTS_DIR}/{folder.name}")
    with Notice(sys.stderr, shown, "reading the event") as notice:
        directory = load_directory(source, ProblemLog())  # its own errors are check's business
        event = _load(source, folder, directory)
        ruleset = event.ruleset
        number = event.rounds[-1].number + 1 if event.rounds else 1
        _refuse_if_not_ready(event, ruleset, number)
        _refuse_likely_typos(event, directory, number)
        players = who_plays(event, ruleset, request.drop, request.add, number, directory)
        notice.now(f"scoring its {len(event.rounds)} rounds")
        scored = ruleset.score(event)
    rng = random.Random(request.seed if request.seed is not None else round_seed(event, number))
    formed = ruleset.form(Context(
        event, scored, number, players.names, set(players.dropped) | set(players.gone),
        players.added, rng, request.flags, players.where, frozenset(players.gone)))
    if not formed.tables:
        raise refuse(players.where, None, f"nobody is left to play round {number}")
    formed.notes.extend(gone_notes(players))
    plan = NextRound(request.folder / f"round-{number:0{_width(event)}d}.csv", number,
                     scored.display_name, formed, ruleset.written_columns(event.options),
                     tuple(players.dropped), _drops_after(folder, event, players, number))
    with Notice(sys.stderr, shown, f"checking round {number} as check would"):
        written = _refuse_unless_it_checks(source, folder, plan, directory)
        if number == 1:  # the rounds and the cut the event will have, with its players known
            plan.details = tuple(ruleset.score(written).details)
    return plan


def _refuse_unless_it_checks(source: Path, folder: Path, plan: NextRound,
                             directory: Directory) -> Event:
    """Whatever a game's former returned and whatever names were given, what pair writes (the
    round, drops.csv) must pass check: loaded as check loads it, before anything is written."""
    pending = {plan.path.name: plan.text()}
    if plan.drops is not None:
        pending[DROPS_FILE] = plan.drops
    return refuse_unless_check_passes(source, folder, plan.path.name, pending, directory)


def _drops_after(folder: Path, event: Event, players: Players, number: int) -> str | None:
    """drops.csv with each --drop name in it, with the last round they played, the one before
    this: so `check` knows they left (and does not ask about their missing row). Every game's,
    elimination and advancement rounds included: it is true there too. Not in round 1: a
    registered player who never played has not dropped."""
    if number == 1 or not players.dropped:
        return None
    return drops_text(current_text(folder), [(name, number - 1, event.drops.get(name, (0, None))[1])
                                             for name in players.dropped])


def _site_of(folder: Path) -> tuple[Path, Path]:
    """(the site's folder, the event's folder), from an event folder data/events/<slug>, its
    links not followed: where a link leads is for the build's rule to judge (trust.py), and a
    folder linked in from another site must not make that site this one."""
    if not folder.is_dir():
        raise ConfigError(f"{folder}: there is no such folder (give the event's folder, "
                          f"{EVENTS_DIR}/<slug>)")
    absolute = Path(os.path.abspath(folder))
    if absolute.parent.name != "events" or absolute.parent.parent.name != "data":
        raise ConfigError(f"{folder} is not an event folder: expected {EVENTS_DIR}/<slug> inside a "
                          "results site")
    return absolute.parent.parent.parent, absolute


def _load(source: Path, folder: Path, directory: Directory | None = None) -> Event:
    """This event alone, checked, its people's ids from the site's directory: an error
    elsewhere in the site (another event, a bad row of data/players.csv) does not stop the
    organizer pairing this one."""
    log = ProblemLog()
    event = load_event(source, folder, log)
    if event is not None:
        assign_event_ids(event, directory or load_directory(source, ProblemLog()), log)
    if event is None or log.has_errors():
        raise DataError(sorted_problems([p for p in log.problems if p.is_error]))
    return event


def _refuse_if_not_ready(event: Event, ruleset: Ruleset, number: int) -> None:
    if event.rounds:
        latest = event.rounds[-1]
        waiting = ruleset.pending(latest)
        if waiting:
            names = ", ".join(dict.fromkeys(row.player for row in waiting[:4])) + (
                " …" if len(waiting) > 4 else "")
            raise refuse(latest.path, waiting[0].line,
                         f"round {latest.number} is still being played ({names} without a "
                         f"result): enter its results before pairing round {number}")
    if event.info.status == "final":
        raise refuse(f"{event.folder}/event.toml", event.line_of("status"),
                     "status = \"final\": the event is over, there is no next round to pair")


def _refuse_likely_typos(event: Event, directory: Directory, number: int) -> None:
    """A name one slip from another player's ("Priya Niar" beside "Priya Nair") is only a
    warning to `build`, but `pair` would seat it as a new player and the site would give it a
    page: it is an error here, fixed (or listed as two people) before round `number`."""
    log = ProblemLog()
    check_names(event, directory, log, close_is_error=True)
    errors = [problem for problem in log.problems if problem.is_error]
    if errors:
        lead = Problem(f"{EVENTS_DIR}/{Path(event.folder).name}", None,
                       f"round {number} is not paired: a name below is likely a typo of "
                       "another player's (fix it in its round file, or list both people in "
                       "data/players.csv)")
        raise DataError([lead] + sorted_problems(errors))


def round_seed(event: Event, number: int) -> int:
    """The round's draw: from the event's seed (or its folder name) and the round number, so
    the same inputs give the same file and different events differ."""
    digest = hashlib.sha256(f"{event.info.seed}:{event.slug}:round-{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _width(event: Event) -> int:
    """Keep the event's way of numbering files: round-01.csv is followed by round-02.csv."""
    if not event.rounds:
        return 1
    digits = Path(event.rounds[-1].path).stem.split("-", 1)[1]
    return len(digits) if digits.startswith("0") else 1


# ---------------------------------------------------------------- writing


def write_round(plan: NextRound) -> None:
    """Create the round file, never over an existing one: written under a temporary name of
    its own (created new, so no file or link already there is written through), then linked to
    its name, which fails if the name is taken (and a half-written file is never seen under the
    real name)."""
    handle, temporary = _new_temporary(plan.path)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(plan.text())
        os.link(temporary, plan.path)
    except FileExistsError:
        raise ConfigError(f"{plan.path} exists already: pair never overwrites a round file "
                          "(remove it first if it should go)") from None
    finally:
        os.unlink(temporary)


def _new_temporary(path: Path) -> tuple[int, Path]:
    """A file beside `path` under a hidden name of its own, created new (O_EXCL: never through
    a file or link already there), with the mode any new file gets."""
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temporary
        except FileExistsError:
            continue  # a name taken by chance: draw another


def record_drops(plan: NextRound) -> list[tuple[str, int]]:
    """After the round file is written: drops.csv as checked with the round (NextRound.drops).
    Returns the (name, round) recorded."""
    if plan.drops is None:
        return []
    (plan.path.parent / DROPS_FILE).write_text(plan.drops, encoding="utf-8", newline="")
    return [(name, plan.number - 1) for name in plan.dropped]


def record_drops_said(plan: NextRound, drops_shown: str) -> tuple[list[str], str | None]:
    """record_drops, as the organizer is told: (the lines saying what was recorded, or the
    error saying what to add by hand when the file could not be written)."""
    try:
        recorded = record_drops(plan)
    except OSError as exc:
        lines = " and ".join(f"'{_csv_cell(name)},{plan.number - 1}'" for name in plan.dropped)
        return [], (f"{drops_shown}: the drop{'s' if len(plan.dropped) > 1 else ''} could not "
                    f"be recorded ({exc.strerror or exc}): add {lines} to it yourself, so that "
                    "check knows they left")
    return [f"Recorded in {drops_shown}: {name} dropped after round {after}."
            for name, after in recorded], None
