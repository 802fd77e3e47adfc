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

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.problems import DataError, Problem, terminal_safe
from ..files.sources import read_bytes
from ..league.load import EVENTS_DIR, check_source
from ..league.people import slugify
from ..rules.registry import games_for

LIMIT = 20_000_000
"""The largest file read: a Cobra export of a 1,000-player event is under 5 MB."""


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
        raise _Bad(f"{where} is {json.dumps(value)[:60]}: expected {expected}")
    return value


def _cell(text: str) -> str:
    """A CSV cell: quoted when it holds a comma, a quote or starts like a formula."""
    if any(c in text for c in ',"\n\r') or text[:1] in "=+-@":
        return '"' + text.replace('"', '""') + '"'
    return text


def convert(data: Any, shown: str, game: str, source: Path) -> Imported:
    from ..rules.declared import DeclaredGame
    ruleset = games_for(source).get(game)
    if not isinstance(ruleset, DeclaredGame):
        raise _Bad(f"--game {game}: import makes events of a declared game (magic, pokemon, "
                   "netrunner, chess, or one of data/games/): "
                   f"{game!r} is {'scored by its own rules' if ruleset else 'not a game'}")
    declaration = ruleset.declaration
    _need(data, dict, shown, "an NRTM results object ({\"name\": …, \"players\": […], …})")
    name = _need(data.get("name"), str, "name", "the event's name in quotes").strip()
    date = _need(data.get("date"), str, "date", 'a date "YYYY-MM-DD"')[:10]
    players = _need(data.get("players"), list, "players", "the list of players")
    if not players:
        raise _Bad("players is empty: an NRTM file lists the Swiss standings' players")
    names: dict[int, str] = {}
    identities = []
    for i, player in enumerate(players):
        where = f"players[{i}]"
        _need(player, dict, where, "a player object")
        pid = _need(player.get("id"), int, f"{where}.id", "a whole number")
        pname = _need(player.get("name"), str, f"{where}.name", "the player's name").strip()
        if not pname or pid in names or pname in names.values():
            raise _Bad(f"{where}: player {pname!r} (id {pid}) is empty or listed twice")
        names[pid] = pname
        identities.append((pname, player.get("corpIdentity") or "", player.get("runnerIdentity")
                           or ""))
    rounds = _need(data.get("rounds", []), list, "rounds", "a list of rounds")
    swiss = [r for r in rounds if isinstance(r, list) and not any(
        isinstance(t, dict) and t.get("eliminationGame") for t in r)]
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
    for i, table in enumerate(tables):
        where = f"rounds[{number - 1}][{i}]"
        _need(table, dict, where, "a table object")
        flags += bool(table.get("intentionalDraw")) + bool(table.get("twoForOne"))
        seats = []
        for key in ("player1", "player2"):
            seat = _need(table.get(key), dict, f"{where}.{key}", "a seat object")
            pid = seat.get("id")
            if pid in (None, 0):
                continue
            if pid not in names:
                raise _Bad(f"{where}.{key}.id is {pid}: no player has that id")
            score = seat.get("combinedScore")
            if score is None and (seat.get("corpScore") is not None
                                  or seat.get("runnerScore") is not None):
                score = (seat.get("corpScore") or 0) + (seat.get("runnerScore") or 0)
            seats.append((names[pid], score))
        if len(seats) == 1:  # a bye is written by its word, whatever the points column
            lines.append(f",{_cell(seats[0][0])},{',' if points_column else ''}bye\n")
            continue
        if len(seats) != 2:
            raise _Bad(f"{where}: a table of {len(seats)} players: expected two, or one and a bye")
        table_number = _need(table.get("table", i + 1), int, f"{where}.table", "a whole number")
        for (player, score), (_, other) in ((seats[0], seats[1]), (seats[1], seats[0])):
            if score is None or other is None:
                raise _Bad(f"{where}: {player}'s score is missing: only finished rounds import")
            if points_column:
                lines.append(f"{table_number},{_cell(player)},{score},\n")
            else:
                outcome = "win" if score > other else "draw" if score == other else "loss"
                lines.append(f"{table_number},{_cell(player)},{words[outcome]}\n")
    return "".join(lines), flags


def run_import(file: Path, source: Path, game: str) -> int:
    check_source(source)
    shown = str(file)
    from ..core.problems import ProblemLog
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
    except _Bad as exc:
        raise DataError([Problem(shown, None, f"{exc}: not imported")]) from None
    target = source / result.folder
    if target.exists():
        raise DataError([Problem(result.folder, None, "exists already: import does not overwrite "
                                                      "an event (remove or rename it first)")])
    for relative, text in result.files.items():
        path = source / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    out = sys.stdout
    print(terminal_safe(f"Imported {shown} into {result.folder}/ as a {game} event:"), file=out)
    for line in result.carried:
        print(terminal_safe(f"  carried: {line}"), file=out)
    for line in result.left:
        print(terminal_safe(f"  not carried: {line}"), file=out)
    print(terminal_safe(f"Check it: site-builder check --source {source}"), file=out)
    return 0
