"""What `pair` reads and writes is held to the build's own rules, before anything is touched.

* **What it reads.** Each input `pair` reads (data/events, the event's folder and its files,
  data/players.csv) is judged by the build's rule (sources.kind). What the build skips (a link
  leading out of the site, a named pipe) it never reads; `pair` refuses instead, since it can
  neither pair from part of an event nor write through such a link: a committed drops.csv
  linked to a file elsewhere would get a line appended, an event folder linked from elsewhere a
  round file written there.
* **What it writes.** Before the round is written, the event is loaded with it (and with
  drops.csv as it will be) held in memory, by the loader and rulesets `check` uses. A round
  `check` would reject is not written.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..league.drops import DROPS_FILE
from ..league.load import (EVENT_FILE, EVENTS_DIR, REGISTRATIONS_FILE, ROUND_FILE, assign_event_ids,
                    load_event)
from ..league.people import PLAYERS_FILE, Directory
from ..core.model import Event
from ..core.problems import DataError, Problem, ProblemLog, sorted_problems
from ..files.sources import kind, off_limits, printable

LINK_OUT = ("is a link to {target}, {where}: pair neither reads nor writes through it (a build "
            "skips it too): put the {what} itself there instead of the link")


def refuse_what_the_build_skips(source: Path, folder: Path) -> None:
    """DataError listing every input of the event that the build would skip or refuse."""
    shown_folder = f"{EVENTS_DIR}/{printable(folder.name)}"
    for path, shown in ((source / EVENTS_DIR, EVENTS_DIR), (folder, shown_folder)):
        problems = _judged(path, shown, source, "folder")
        if problems:  # its files are judged only once it may be entered
            raise DataError(problems)
    problems = [problem for path, shown in _files_read(source, folder, shown_folder)
                for problem in _judged(path, shown, source, "file")]
    if problems:
        raise DataError(sorted_problems(problems))


def _files_read(source: Path, folder: Path, shown_folder: str) -> list[tuple[Path, str]]:
    """The files the loader reads for this event (the round file pair writes is one of them if
    it exists), and data/players.csv. Hidden entries are never read."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        names = []  # the loader says why
    read = [name for name in names if not name.startswith(".") and (
        name in (EVENT_FILE, REGISTRATIONS_FILE, DROPS_FILE) or ROUND_FILE.fullmatch(name))]
    return [(folder / name, f"{shown_folder}/{printable(name)}") for name in read] + [
        (source / PLAYERS_FILE, PLAYERS_FILE)]


def _judged(path: Path, shown: str, source: Path, what: str) -> list[Problem]:
    """The build's verdict on one input (sources.kind), as errors: nothing when the build
    reads it (or it is not there)."""
    verdict = ProblemLog()
    if kind(path, shown, source, verdict) is not None or not verdict.problems:
        return []
    where = off_limits(path, source)
    if where is not None:
        target = printable(os.path.realpath(path))
        return [Problem(shown, None, LINK_OUT.format(target=target, where=where, what=what))]
    # A pipe or device (a warning to the build, which skips it), or a link to nothing.
    return [Problem(p.path, p.line, p.message if p.is_error else
                    f"{p.message} by a build; pair refuses it, as it would read or write it: "
                    f"put the {what} itself there")
            for p in verdict.problems]


FORMED_BADLY = ("the round pair formed would not pass check (its problems follow), so it is not "
                "written: expected a round check accepts; unless a name given to --add causes "
                "it, this is a bug in site-builder: please report it")


def refuse_unless_check_passes(source: Path, folder: Path, round_name: str,
                               pending: dict[str, str], directory: Directory) -> Event:
    """Load the event as `check` would once `pending` (file name → text: the round file, and
    drops.csv when it changes) is written: a DataError with check's errors if it has any.
    Loading and giving ids is where check's errors come from; its name checks only warn."""
    log = ProblemLog()
    held = {name: text.encode("utf-8") for name, text in pending.items()}
    event = load_event(source, folder, log, held)
    if event is not None:
        assign_event_ids(event, directory, log)
    errors = [problem for problem in log.problems if problem.is_error]
    if event is None or errors:
        lead = Problem(f"{EVENTS_DIR}/{folder.name}/{round_name}", None, FORMED_BADLY)
        raise DataError([lead] + sorted_problems(errors))
    return event
