"""Who plays the next round: the players of the latest round (the registrations for round 1),
without those who leave, with those who join; the `--drop` and `--add` names checked first.

A name given on the command line is read as a round file's cell is read (trimmed, NFC): the file
`pair` writes must read back as the name given. Names are compared by person, as `check` does
(data/players.csv's spellings, else the slug of the name): `--add ann` beside Ann would be one
person written two ways, which `check` rejects. Every problem of the names is listed at once.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field

from ..league.drops import DROPS_FILE
from ..league.load import REGISTRATIONS_FILE
from ..core.model import Event
from ..league.namechecks import NameIndex, likely_slips
from ..league.people import Directory
from ..core.problems import DataError, ProblemLog, sorted_problems
from ..rules.base import Ruleset
from ..rules.forming import refuse


@dataclass(slots=True)
class Players:
    names: list[str]
    """Who is paired: at least two, unless the game says who goes on (`continuing`)."""
    where: str
    """The file the players were read from (for messages): the latest round, or players.csv."""
    dropped: list[str] = field(default_factory=list)
    """The --drop names, as read; recorded in drops.csv once the round is written."""
    added: list[str] = field(default_factory=list)
    """The --add names, as read, each once."""
    gone: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Players of the latest round whom drops.csv lists as gone after it: name → (after_round,
    line). Not paired, as if named by --drop."""


def as_read(name: str) -> str:
    """A name as a round file's cell reads back (textfiles._Records): trimmed, NFC."""
    return unicodedata.normalize("NFC", name.strip())


def who_plays(event: Event, ruleset: Ruleset, drop: list[str], add: list[str], number: int,
              directory: Directory) -> Players:
    """Round 1: the registrations; later: the players of the latest round; minus --drop and
    those drops.csv lists as gone, plus --add. A game whose rounds only some players go on to
    (SPELLFIRE's bracket winners) says who (`continuing`): an --add may be anyone but them
    (another chance)."""
    if number == 1:
        where = f"{event.folder}/{REGISTRATIONS_FILE}"
        lines = {r.name: r.line for r in event.registrations}
        if not lines and not add:  # a walk-in event may be all --add
            raise refuse(where, None, "has no registrations (or is missing): round 1 is paired "
                                      "from the event's players.csv, one name per row under "
                                      "'player'")
        what, gone = "is not registered", {}
    else:
        latest = event.rounds[-1]
        where, lines = latest.path, {}
        for row in latest.rows:
            lines.setdefault(row.player, row.line)
        what = f"does not play round {latest.number}"
        # A line for an earlier round is out of date: they played the latest round (check
        # warns that they came back), so they are paired.
        gone = {name: event.drops[name] for name in lines
                if name in event.drops and event.drops[name][0] >= latest.number}
    continuing = ruleset.continuing(event) if number > 1 else None
    log = ProblemLog()
    dropped = _dropped(drop, lines, where, what, log)
    added = _added(add, lines if continuing is None else continuing, event, directory, gone,
                   where, log)
    if log.has_errors():
        raise DataError(sorted_problems(log.problems))
    names = [n for n in lines if n not in dropped and n not in gone] + added
    if continuing is None and len(names) < 2:
        raise refuse(where, None, f"only {len(names)} player{'s' if len(names) != 1 else ''} "
                                  f"left to pair for round {number}: a game needs two")
    return Players(names, where, dropped, added, gone)


def _dropped(given: list[str], lines: dict[str, int], where: str, what: str,
             log: ProblemLog) -> list[str]:
    """The --drop names as read, each among `lines`."""
    dropped = []
    for typed in given:
        name = as_read(typed)
        if not name:
            log.error(where, None, f"--drop '{typed}': the name is empty: expected the name of a "
                                   "player who leaves, as the round files write it")
        elif name not in lines:
            close = difflib.get_close_matches(name, list(lines), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            log.error(where, None, f"--drop '{typed}': {name} {what}{hint}")
        elif name not in dropped:
            dropped.append(name)
    return dropped


def _added(given: list[str], lines: dict[str, int], event: Event, directory: Directory,
           gone: dict[str, tuple[int, int]], where: str, log: ProblemLog) -> list[str]:
    """The --add names as read: none empty, none a person among `lines` (who plays already),
    none a person the event writes otherwise, no person twice."""
    playing = {directory.id_for(name): name for name in lines}
    # Everyone the event names in its registrations and rounds (officials are not players).
    written = {directory.id_for(name): name for name in event.players
               if name not in event.official_names}
    added: dict[str, str] = {}  # person id → the name added
    event_names = NameIndex(written.values())
    for typed in given:
        name = as_read(typed)
        person = directory.id_for(name)
        if not name:
            log.error(where, None, f"--add '{typed}': the name is empty: expected the player's "
                                   "name, as the round files write it")
        elif name in lines:
            log.error(where, lines[name], f"--add '{typed}': {name} already plays"
                                          + _listed_as_gone(name, gone))
        elif person in playing:
            other = playing[person]
            log.error(where, lines[other], f"--add '{typed}': the same person as {other} (id "
                                           f"'{person}'), who already plays"
                                           + _listed_as_gone(other, gone))
        elif person in written and written[person] != name:
            log.error(where, None, f"--add '{typed}': the same person as {written[person]} (id "
                                   f"'{person}'), as the event writes them: expected --add "
                                   f"'{written[person]}'")
        elif slip := _likely_typo(name, event_names, directory):
            other, found_in = slip
            log.error(where, None, f"--add '{typed}': very close to {other} ({found_in}): did "
                                   f"you mean --add '{other}'? If they are two people, list "
                                   "both in data/players.csv")
        elif person in added and added[person] != name:
            log.error(where, None, f"--add '{typed}': the same person as --add "
                                   f"'{added[person]}' (id '{person}'): name each player once")
        else:
            added.setdefault(person, name)
    return list(added.values())


def _likely_typo(name: str, event_names: NameIndex,
                 directory: Directory) -> tuple[str, str] | None:
    """The player `name` is likely a slip for, and where they are written ("the event",
    "data/players.csv"): as check asks, leaving out another spelling of the same person."""
    close = likely_slips(name, [(other, "the event") for other in event_names.close_to(name)],
                         directory)
    person = directory.id_for(name)
    return next(((other, where) for other, where in close if directory.id_for(other) != person),
                None)


def _listed_as_gone(name: str, gone: dict[str, tuple[int, int]]) -> str:
    if name not in gone:
        return ""
    after, line = gone[name]
    return (f" ({DROPS_FILE} line {line} says they left after round {after}: remove that line "
            "to pair them)")


def gone_notes(players: Players) -> list[str]:
    """What the organizer reads of the players drops.csv keeps out of the round."""
    return [f"not paired: {name} ({DROPS_FILE} line {line}: dropped after round {after})"
            for name, (after, line) in players.gone.items() if name not in players.dropped]
