"""`site-builder pair EVENT_FOLDER`: the event's next round, formed by its game's own procedure
and written as its round file with the results empty, for the organizer to fill in.

Load → check → score (the standings the pairing reads) → form → write. Nothing is written when
anything is wrong: every refusal is a `path:line` problem, and an existing file is never
overwritten.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from ..drops import csv_cell as _csv_cell
from ..drops import record_drop
from ..load import EVENTS_DIR, REGISTRATIONS_FILE, assign_event_ids, load_event
from ..model import Event
from ..people import load_directory
from ..problems import ConfigError, DataError, ProblemLog, sorted_problems
from ..rules import RULESETS
from . import heresy, inwo, spellfire, twoplayer
from .forming import Context, Formed, Table, refuse

FORMERS = {"conquest": twoplayer.form, "kingdom": twoplayer.form, "heresy": heresy.form,
           "spellfire": spellfire.form, "inwo": inwo.form}
"""Each game's way of forming its rounds (see forming.py)."""


@dataclass(slots=True)
class Request:
    folder: Path
    seed: int | None = None
    drop: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    allow_five: bool = False


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
    listed: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The event's drops.csv as it was read (name → (after_round, line))."""

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
    source = _site_of(request.folder)
    event = _load(source, request.folder)
    ruleset = RULESETS[event.info.game]
    number = event.rounds[-1].number + 1 if event.rounds else 1
    _refuse_if_not_ready(event, ruleset, number)
    names, where = _players(event, ruleset, request, number)
    rng = random.Random(request.seed if request.seed is not None else _seed(event, number))
    scored = ruleset.score(event)
    formed = FORMERS[event.info.game](Context(
        event, scored, ruleset, number, names, set(request.drop),
        list(dict.fromkeys(request.add)), rng, request.allow_five, where))
    if not formed.tables:
        raise refuse(where, None, f"nobody is left to play round {number}")
    return NextRound(request.folder / f"round-{number:0{_width(event)}d}.csv", number,
                     scored.display_name, formed, _header(ruleset, event),
                     tuple(dict.fromkeys(request.drop)), dict(event.drops))


def _header(ruleset, event: Event) -> tuple[str, ...]:
    """The columns `pair` writes: the ruleset's own choice where it has one (written_columns),
    else every column its round files take."""
    if hasattr(ruleset, "written_columns"):
        return ruleset.written_columns(event.options)
    spec = ruleset.columns(event.options)
    return spec.required + spec.optional


def _site_of(folder: Path) -> Path:
    """The site's folder, from an event folder data/events/<slug>."""
    if not folder.is_dir():
        raise ConfigError(f"{folder}: there is no such folder (give the event's folder, "
                          f"{EVENTS_DIR}/<slug>)")
    resolved = folder.resolve()
    if resolved.parent.name != "events" or resolved.parent.parent.name != "data":
        raise ConfigError(f"{folder} is not an event folder: expected {EVENTS_DIR}/<slug> inside a "
                          "results site")
    return resolved.parent.parent.parent


def _load(source: Path, folder: Path) -> Event:
    """This event alone, checked: an error elsewhere in the site (another event, a bad row of
    data/players.csv) does not stop the organizer pairing this one."""
    log = ProblemLog()
    event = load_event(source, folder.resolve(), log)
    if event is not None:
        assign_event_ids(event, load_directory(source, ProblemLog()), log)
    if event is None or log.has_errors():
        raise DataError(sorted_problems([p for p in log.problems if p.is_error]))
    return event


def _refuse_if_not_ready(event: Event, ruleset, number: int) -> None:
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


def _players(event: Event, ruleset, request: Request, number: int) -> tuple[list[str], str]:
    """Round 1: the registrations; later: the players of the latest round; minus --drop, plus
    --add. With the file they come from, for messages. A game whose rounds only some players
    go on to (SPELLFIRE's bracket winners) says who (`continuing`): an --add may be anyone but
    them (another chance)."""
    if number == 1:
        where = f"{event.folder}/{REGISTRATIONS_FILE}"
        lines = {r.name: r.line for r in event.registrations}
        if not lines and not request.add:  # a walk-in event may be all --add
            raise refuse(where, None, "has no registrations (or is missing): round 1 is paired "
                                      "from the event's players.csv, one name per row under "
                                      "'player'")
        what = "is not registered"
    else:
        latest = event.rounds[-1]
        where, lines = latest.path, {}
        for row in latest.rows:
            lines.setdefault(row.player, row.line)
        what = f"does not play round {latest.number}"
        if hasattr(ruleset, "continuing"):
            _check_drops(request, lines, where, what)
            _check_adds(request, ruleset.continuing(event), where)
            return [n for n in lines if n not in request.drop] + list(dict.fromkeys(request.add)), where
    _check_drops(request, lines, where, what)
    _check_adds(request, lines, where)
    names = [n for n in lines if n not in request.drop] + list(dict.fromkeys(request.add))
    if len(names) < 2:
        raise refuse(where, None, f"only {len(names)} player{'s' if len(names) != 1 else ''} "
                                  f"left to pair for round {number}: a game needs two")
    return names, where


def _check_drops(request: Request, lines: dict[str, int], where: str, what: str) -> None:
    """--drop names must be among `lines`."""
    for name in request.drop:
        if name not in lines:
            close = difflib.get_close_matches(name, list(lines), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise refuse(where, None, f"--drop '{name}': {name} {what}{hint}")


def _check_adds(request: Request, lines: dict[str, int], where: str) -> None:
    """--add names must not be among `lines`."""
    for name in request.add:
        if name in lines:
            raise refuse(where, lines[name], f"--add '{name}': {name} already plays")


def _seed(event: Event, number: int) -> int:
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
    """Create the round file, never over an existing one: written under a temporary name, then
    linked to its name, which fails if the name is taken (and a half-written file is never
    seen under the real name)."""
    temporary = plan.path.with_name(f".{plan.path.name}.tmp-{os.getpid()}")
    temporary.write_text(plan.text(), encoding="utf-8")
    try:
        os.link(temporary, plan.path)
    except FileExistsError:
        raise ConfigError(f"{plan.path} exists already: pair never overwrites a round file "
                          "(remove it first if it should go)") from None
    finally:
        temporary.unlink()


def record_drops(plan: NextRound) -> list[tuple[str, int]]:
    """After the round file is written: each --drop name into the event's drops.csv with the
    last round they played, the one before this, so `check` knows they left (and does not ask
    about their missing row). Every game's, elimination and advancement rounds included: it is
    true there too. Not in round 1: a registered player who never played has not dropped.
    Returns the (name, round) recorded."""
    after = plan.number - 1
    if after < 1:
        return []
    for name in plan.dropped:
        record_drop(plan.path.parent, name, after, plan.listed.get(name, (0, None))[1])
    return [(name, after) for name in plan.dropped]


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
