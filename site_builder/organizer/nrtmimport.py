"""`site-builder import FILE.json`: an event in the NRTM JSON results format (as Cobra exports
it) made into an event folder of a declared game (Netrunner by default), with a report of what
it could not carry.

The Swiss rounds are carried: each table's players and points (a game whose rows carry points,
as Netrunner's, gets them as they are; any other gets its result word: the higher score wins).
What the tool has no place for is reported, never dropped silently: Cobra's cut (double
elimination, which this tool does not run), intentional-draw and two-for-one flags, the
organiser's account, pronouns. Nothing is written unless everything read makes sense; an
existing event folder is never overwritten.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.problems import DataError, Problem, ProblemLog, terminal_safe
from ..files.sources import read_bytes
from ..league.load import EVENTS_DIR, assign_event_ids, check_source, load_event
from ..league.people import load_directory, slugify
from ..rules.declared import DeclaredGame
from ..rules.registry import games_for

LIMIT = 20_000_000
"""The largest file read: a Cobra export of a 1,000-player event is under 5 MB."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_DATE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ][0-9:.+Z-]{0,30})?")
"""A date, perhaps with a time after it (which is dropped)."""


@dataclass(slots=True)
class Imported:
    folder: str
    files: dict[str, str]
    carried: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


class _Bad(Exception):
    pass


def _need(value: Any, kind: type | tuple, where: str, expected: str) -> Any:
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise _Bad(f"{where} is {_json(value)}: expected {expected}")
    return value


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _text(value: Any, where: str, expected: str, empty: bool = False) -> str:
    text = _need(value, str, where, expected).strip()
    if (not text and not empty) or _CONTROL.search(text):
        raise _Bad(f"{where} is {_json(value)}: expected {expected}, on one line")
    return text


def _score(value: Any, where: str) -> Fraction:
    """A seat's score: a JSON number (not true, not text), finite, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or not 0 <= value <= 1000:
        raise _Bad(f"{where} is {_json(value)}: expected the points, a number from 0 to 1000")
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _cell(text: str) -> str:
    """A CSV cell: quoted when it holds a comma or a quote (or starts with a character a
    spreadsheet might read as a formula: the quotes keep the name as it is, as data)."""
    if any(c in text for c in ',"') or text[:1] in "=+-@":
        return '"' + text.replace('"', '""') + '"'
    return text


def convert(data: Any, shown: str, game: str, source: Path) -> Imported:
    ruleset = games_for(source).get(game)
    if not isinstance(ruleset, DeclaredGame):
        raise _Bad(f"--game {game}: import makes events of a declared game (magic, pokemon, "
                   "netrunner, chess, or one of data/games/): "
                   f"{game!r} is {'scored by its own rules' if ruleset else 'not a game'}")
    declaration = ruleset.declaration
    _need(data, dict, shown, "an NRTM results object ({\"name\": …, \"players\": […], …})")
    name = _text(data.get("name"), "name", "the event's name")
    written = _need(data.get("date"), str, "date", 'a date "YYYY-MM-DD"')
    found = _DATE.fullmatch(written.strip())
    try:
        date = dt.date.fromisoformat(found.group(1)).isoformat() if found else ""
    except ValueError:
        date = ""
    if not date:
        raise _Bad(f"date is {_json(written)}: expected a date \"YYYY-MM-DD\"")
    players = _need(data.get("players"), list, "players", "the list of players")
    if not players:
        raise _Bad("players is empty: an NRTM file lists the Swiss standings' players")
    names: dict[int, str] = {}
    identities = []
    for i, player in enumerate(players):
        where = f"players[{i}]"
        _need(player, dict, where, "a player object")
        pid = _need(player.get("id"), int, f"{where}.id", "a whole number")
        pname = _text(player.get("name"), f"{where}.name", "the player's name")
        if pid in names or pname in names.values():
            raise _Bad(f"{where}: {pname} (id {pid}) is listed twice")
        names[pid] = pname
        sides = [_text(player.get(key) or "", f"{where}.{key}", "an identity's name", empty=True)
                 for key in ("corpIdentity", "runnerIdentity")]
        identities.append((pname, *sides))
    rounds = _need(data.get("rounds", []), list, "rounds", "a list of rounds")
    for i, tables in enumerate(rounds):
        _need(tables, list, f"rounds[{i}]", "a list of tables")
        for j, table in enumerate(tables):
            _need(table, dict, f"rounds[{i}][{j}]", "a table object")
    swiss = [r for r in rounds if not any(t.get("eliminationGame") is True for t in r)]
    if not swiss:
        raise _Bad("rounds holds no Swiss round: import carries an event's Swiss rounds")
    cut_rounds = len(rounds) - len(swiss)
    slug = f"{date}-{slugify(name) or 'event'}"
    folder = f"{EVENTS_DIR}/{slug}"
    files = {f"{folder}/event.toml": _event_toml(name, date, game, len(swiss)),
             f"{folder}/players.csv": "player,corp_identity,runner_identity\n" + "".join(
                 f"{_cell(p)},{_cell(c)},{_cell(r)}\n" for p, c, r in identities)}
    result = Imported(folder, files)
    flags = 0
    for number, tables in enumerate(swiss, start=1):
        rows, count = _round(tables, number, names, declaration)
        flags += count
        files[f"{folder}/round-{number}.csv"] = rows
    result.carried.append(f"{len(players)} players, with their identities in players.csv")
    result.carried.append(f"{len(swiss)} Swiss round{'s' if len(swiss) != 1 else ''}: every "
                          "table's players and points, and the byes")
    if cut_rounds:
        result.left.append(f"the top {data.get('cutToTop')} cut's {cut_rounds} round"
                           f"{'s' if cut_rounds != 1 else ''} (Cobra runs double elimination; "
                           "this tool runs single elimination): its final ranks were "
                           + ", ".join(f"{p.get('rank')}. {p.get('name')}"
                                       for p in data.get("eliminationPlayers") or []
                                       if isinstance(p, dict)))
    if flags:
        result.left.append(f"{flags} intentional-draw or two-for-one flag{'s' if flags > 1 else ''}"
                           " (the points are carried; the flags have no column)")
    for key in ("tournamentOrganiser", "links", "uploadedFrom"):
        if key in data:
            result.left.append(f"'{key}' (no place for it in an event folder)")
    if any(isinstance(p, dict) and "pronouns" in p for p in players):
        result.left.append("the players' pronouns (no place for them in players.csv)")
    return result


def _event_toml(name: str, date: str, game: str, rounds: int) -> str:
    escaped = name.replace("\\", "\\\\").replace('"', '\\"')
    return (f'name = "{escaped}"\ndate = {date}\ngame = "{game}"\nswiss_rounds = {rounds}\n'
            "cut = 0\n")


def _round(tables: list, number: int, names: dict[int, str], declaration) -> tuple[str, int]:
    points_column = declaration.points_column
    lines = ["table,player,points,result\n" if points_column else "table,player,result\n"]
    flags = 0
    words = {o: next(r.word for r in declaration.results if r.outcome == o)
             for o in ("win", "draw", "loss") if any(r.outcome == o for r in declaration.results)}
    seated: set[str] = set()
    numbers: set[int] = set()
    for i, table in enumerate(tables):
        where = f"rounds[{number - 1}][{i}]"
        flags += (table.get("intentionalDraw") is True) + (table.get("twoForOne") is True)
        seats = []
        for key in ("player1", "player2"):
            seat = _need(table.get(key), dict, f"{where}.{key}", "a seat object")
            pid = seat.get("id")
            if pid is None or pid == 0 and not isinstance(pid, bool):
                continue  # the empty seat of a bye: null in Cobra's files, 0 in NRTM's
            _need(pid, int, f"{where}.{key}.id", "a player's id, or null for a bye")
            if pid not in names:
                raise _Bad(f"{where}.{key}.id is {pid}: no player has that id")
            if names[pid] in seated:
                raise _Bad(f"{where}.{key}: {names[pid]} is at two tables of round {number}")
            seated.add(names[pid])
            score = seat.get("combinedScore")
            if score is None and (seat.get("corpScore") is not None
                                  or seat.get("runnerScore") is not None):
                points = sum((_score(seat.get(side) or 0, f"{where}.{key}.{side}")
                              for side in ("corpScore", "runnerScore")), Fraction(0))
            else:
                points = None if score is None else _score(score, f"{where}.{key}.combinedScore")
            seats.append((names[pid], points))
        if len(seats) == 1:  # a bye is written by its word, whatever the points column
            lines.append(f",{_cell(seats[0][0])},{',' if points_column else ''}bye\n")
            continue
        if len(seats) != 2:
            raise _Bad(f"{where}: a table of {len(seats)} players: expected two, or one and a bye")
        table_number = _need(table.get("table", i + 1), int, f"{where}.table", "a whole number")
        if table_number < 1 or table_number > 100_000 or table_number in numbers:
            raise _Bad(f"{where}.table is {table_number}: expected a table number from 1, one "
                       "a table")
        numbers.add(table_number)
        for (player, score), (_, other) in ((seats[0], seats[1]), (seats[1], seats[0])):
            if score is None or other is None:
                raise _Bad(f"{where}: {player}'s score is missing: only finished rounds import")
            if points_column:
                if score > declaration.most_points:
                    raise _Bad(f"{where}: {player}'s score {_shown_points(score)} is more than "
                               f"a {declaration.name} round gives ({declaration.most_points})")
                lines.append(f"{table_number},{_cell(player)},{_shown_points(score)},\n")
            else:
                outcome = "win" if score > other else "draw" if score == other else "loss"
                lines.append(f"{table_number},{_cell(player)},{words[outcome]}\n")
    return "".join(lines), flags


def _shown_points(score: Fraction) -> str:
    return str(score.numerator) if score.denominator == 1 else str(float(score))


def _checked(source: Path, result: Imported) -> None:
    """Load the event as `check` would, from a scratch copy (the league's declarations and the
    new folder): DataError with its problems, and nothing written in the league, when it has
    any error."""
    scratch = Path(tempfile.mkdtemp(prefix="site-builder-import-"))
    try:
        games = source / "data/games"
        if games.is_dir():
            for path in sorted(games.glob("*.toml")):
                if path.is_file() and not path.is_symlink():
                    (scratch / "data/games").mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, scratch / "data/games" / path.name)
        for relative, text in result.files.items():
            path = scratch / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        log = ProblemLog()
        event = load_event(scratch, scratch / result.folder, log)
        if event is not None:
            assign_event_ids(event, load_directory(source, ProblemLog()), log)
        if event is not None and not log.has_errors():
            event.ruleset.score(event)
        if log.has_errors():
            raise DataError(log.errors + [Problem(result.folder, None, "not imported: the event "
                                                                       "would not check")])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_import(file: Path, source: Path, game: str) -> int:
    check_source(source)
    # Messages name the file as the organizer typed it: problems are printed relative to
    # --source, so its path is given from there.
    shown = os.path.relpath(file.absolute(), source.absolute())
    log = ProblemLog()
    raw = read_bytes(file, shown, log, LIMIT)
    if raw is None:
        raise DataError(log.problems)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
        result = convert(data, shown, game, source)
    except UnicodeDecodeError:
        raise DataError([Problem(shown, None, "is not UTF-8 text: an NRTM file is JSON")]) from None
    except json.JSONDecodeError as exc:
        raise DataError([Problem(shown, exc.lineno, f"is not JSON: {exc.msg} at column "
                                                    f"{exc.colno}")]) from None
    except (ValueError, RecursionError):  # a number of 4,300 digits and more; deep nesting
        raise DataError([Problem(shown, None, "is not an NRTM file: it holds a number too long "
                                              "or arrays nested too deeply to read")]) from None
    except _Bad as exc:
        raise DataError([Problem(shown, None, f"{exc}: not imported")]) from None
    target = source / result.folder
    events = (source / EVENTS_DIR).resolve()
    if target.resolve().parent != events:  # the folder's name is made of the file's data
        raise DataError([Problem(shown, None, f"{result.folder} is not a folder of {EVENTS_DIR}/: "
                                              "not imported")])
    if target.exists():
        raise DataError([Problem(result.folder, None, "exists already: import does not overwrite "
                                                      "an event (remove or rename it first)")])
    _checked(source, result)
    for relative, text in result.files.items():
        path = source / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    out = sys.stdout
    print(terminal_safe(f"Imported {file} into {result.folder}/ as a {game} event:"), file=out)
    for line in result.carried:
        print(terminal_safe(f"  carried: {line}"), file=out)
    for line in result.left:
        print(terminal_safe(f"  not carried: {line}"), file=out)
    print(terminal_safe(f"Check it: site-builder check --source {source}"), file=out)
    return 0
