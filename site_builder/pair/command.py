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

from ..load import EVENTS_DIR, REGISTRATIONS_FILE, assign_event_ids, load_event
from ..model import Event
from ..people import load_directory
from ..problems import ConfigError, DataError, Problem, ProblemLog, sorted_problems
from ..rules import RULESETS
from ..rules.base import ScoredEvent
from ..rules.elimination import round_label
from . import elimination, swiss

PAIRABLE = ("conquest", "kingdom")


@dataclass(slots=True)
class Request:
    folder: Path
    seed: int | None = None
    drop: list[str] = field(default_factory=list)
    add: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Table:
    number: int | None
    """The table (Game number in elimination rounds); None for a Swiss bye."""
    players: tuple[str, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


@dataclass(slots=True)
class NextRound:
    source: Path
    path: Path
    """The round file to write."""
    number: int
    label: str
    event_name: str
    tables: list[Table]
    header: tuple[str, ...]
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        """The round file: one row per player, results empty; a bye complete."""
        rows = [",".join(self.header)]
        for table in self.tables:
            for name in table.players:
                cells = {"table": "" if table.number is None else str(table.number),
                         "player": _csv_cell(name), "result": "bye" if table.bye else ""}
                rows.append(",".join(cells.get(column, "") for column in self.header))
        return "\n".join(rows) + "\n"


def _csv_cell(text: str) -> str:
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if any(c in text for c in ',"\n') else text


def plan_next_round(request: Request) -> NextRound:
    """The next round of the event, or DataError/ConfigError saying why there is none."""
    source, shown = _site_of(request.folder)
    event = _load(source, request.folder)
    ruleset = RULESETS[event.info.game]
    if event.info.game not in PAIRABLE:
        raise ConfigError(f"{shown}: pair does not form {ruleset.title} rounds yet: write "
                          "the round file by hand (see the README for its columns)")
    scored = ruleset.score(event)
    swiss_rounds, cut = ruleset.stages(event)
    total = swiss_rounds + (cut.bit_length() - 1 if cut else 0)
    number = event.rounds[-1].number + 1 if event.rounds else 1
    _refuse_if_not_ready(event, ruleset, number, total, swiss_rounds, cut)
    names = _players(event, request, number, swiss_rounds)
    rng = random.Random(request.seed if request.seed is not None else _seed(event, number))
    if number <= swiss_rounds:
        tables, notes = _swiss(event, scored, names, number, rng)
        label = f"Round {number}"
    else:
        tables, notes = _elimination(event, scored, names, number, swiss_rounds, cut,
                                     set(request.drop), rng)
        label = _elimination_label(number, total)
    digits = _width(event)
    spec = ruleset.columns(event.options)
    return NextRound(source, request.folder / f"round-{number:0{digits}d}.csv", number, label,
                     scored.display_name, tables, spec.required + spec.optional, notes)


def _site_of(folder: Path) -> tuple[Path, str]:
    """The site's folder, from an event folder data/events/<slug>."""
    if not folder.is_dir():
        raise ConfigError(f"{folder}: there is no such folder (give the event's folder, "
                          f"{EVENTS_DIR}/<slug>)")
    resolved = folder.resolve()
    if resolved.parent.name != "events" or resolved.parent.parent.name != "data":
        raise ConfigError(f"{folder} is not an event folder: expected {EVENTS_DIR}/<slug> inside a "
                          "results site")
    return resolved.parent.parent.parent, str(folder)


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


def _refuse(path: str, line: int | None, message: str) -> DataError:
    return DataError([Problem(path, line, message)])


def _refuse_if_not_ready(event: Event, ruleset, number: int, total: int, swiss_rounds: int,
                         cut: int) -> None:
    toml = f"{event.folder}/event.toml"
    if event.rounds:
        latest = event.rounds[-1]
        waiting = ruleset.pending(latest)
        if waiting:
            names = ", ".join(row.player for row in waiting[:4]) + (" …" if len(waiting) > 4 else "")
            raise _refuse(latest.path, waiting[0].line,
                          f"round {latest.number} is still being played ({names} without a "
                          f"result): enter its results before pairing round {number}")
    if event.info.status == "final":
        raise _refuse(toml, event.line_of("status"),
                      "status = \"final\": the event is over, there is no next round to pair")
    if number > total:
        stages = f"{swiss_rounds} Swiss round{'s' if swiss_rounds != 1 else ''}" + (
            f" and the top {cut} elimination rounds" if cut else "")
        raise _refuse(toml, 1, f"the event is over: all {total} planned rounds ({stages}) are in"
                               + (", and the final is decided" if cut else ""))


def _players(event: Event, request: Request, number: int, swiss_rounds: int) -> list[str]:
    """Round 1: the registrations; later: the players of the latest round; minus --drop, plus
    --add."""
    if number == 1:
        where = f"{event.folder}/{REGISTRATIONS_FILE}"
        lines = {r.name: r.line for r in event.registrations}
        if not lines:
            raise _refuse(where, None, "has no registrations (or is missing): round 1 is paired "
                                       "from the event's players.csv, one name per row under "
                                       "'player'")
        what = "is not registered"
    else:
        latest = event.rounds[-1]
        where, lines = latest.path, {row.player: row.line for row in latest.rows}
        what = f"does not play round {latest.number}"
    for name in request.drop:
        if name not in lines:
            close = difflib.get_close_matches(name, list(lines), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise _refuse(where, None, f"--drop '{name}': {name} {what}{hint}")
    for name in request.add:
        if name in lines:
            raise _refuse(where, lines[name], f"--add '{name}': {name} already plays")
        if number > swiss_rounds:
            raise _refuse(where, None, f"--add '{name}': players join during the Swiss rounds; "
                                       "nobody joins an elimination round")
    names = [n for n in lines if n not in request.drop] + list(dict.fromkeys(request.add))
    if len(names) < 2:
        raise _refuse(where, None, f"only {len(names)} player{'s' if len(names) != 1 else ''} "
                                   f"left to pair for round {number}: a game needs two")
    return names


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


# ---------------------------------------------------------------- the two stages


def _swiss(event: Event, scored: ScoredEvent, names: list[str], number: int,
           rng: random.Random) -> tuple[list[Table], list[str]]:
    if number == 1 or scored.standings is None:
        pairing = swiss.first_round(names, rng)
    else:
        pairing = swiss.later_round(_entrants(scored, names), rng)
    tables = [Table(k, pair) for k, pair in enumerate(pairing.tables, start=1)]
    if pairing.bye:
        tables.append(Table(None, (pairing.bye,)))
    points = _points(scored)
    notes = [f"pair-down: {a} ({points.get(a, 0)}) – {b} ({points.get(b, 0)})"
             for a, b in pairing.pair_downs]
    notes += [f"rematch: {a} – {b} played before" for a, b in pairing.rematches]
    return tables, pairing.notes + notes


def _points(scored: ScoredEvent) -> dict[str, int]:
    rows = scored.standings.rows if scored.standings else ()
    return {row.player.name: row.values.get("points", 0) for row in rows}


def _entrants(scored: ScoredEvent, names: list[str]) -> list[swiss.Entrant]:
    """The players to pair in standings order, with their points, byes and past opponents; one
    who joins now (--add) comes last, with no points."""
    met: dict[str, set[str]] = {}
    for view in scored.rounds:
        if view.pairings is None or view.pairings.place != "Table":
            continue
        for table in view.pairings.tables:
            a, b = (seat.player.name for seat in table.seats)
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    playing = set(names)
    entrants = [swiss.Entrant(row.player.name, row.values.get("points", 0),
                              row.values.get("byes", 0) > 0, frozenset(met.get(row.player.name, ())))
                for row in scored.standings.rows if row.player.name in playing]
    known = {e.name for e in entrants}
    entrants += [swiss.Entrant(name, 0, False, frozenset(met.get(name, ())))
                 for name in names if name not in known]
    # By points (the standings already are; a player rejoining with points takes their place).
    return sorted(entrants, key=lambda e: -e.points)


def _elimination(event: Event, scored: ScoredEvent, names: list[str], number: int,
                 swiss_rounds: int, cut: int, dropped: set[str],
                 rng: random.Random) -> tuple[list[Table], list[str]]:
    notes = []
    if swiss_rounds == 0 and number == 1:
        games = elimination.opening_round(names, rng)
    elif number == swiss_rounds + 1:
        swiss_view = next(v for v in scored.rounds if v.number == swiss_rounds).standings
        playing = set(names)
        ranked = [row.player.name for row in swiss_view.rows]
        seeds = [name for name in ranked if name in playing][:cut]
        passed = [name for name in ranked[:ranked.index(seeds[-1])] if name not in playing]
        if passed:
            notes.append(f"not in the cut (dropped): {', '.join(passed)}; the next in the "
                         "standings take their places")
        games = elimination.cut_round(seeds, cut)
    else:
        played = next(r for r in scored.bracket.rounds if r.round_number == number - 1)
        previous = [(game.number, next(s.player.name for s in game.slots if s.won))
                    for game in played.games]
        games = elimination.next_round(previous, dropped)
        notes += [f"{name} dropped: their opponent has a bye" for _, name in previous
                  if name in dropped]
    return [Table(game.number, game.players) for game in games], notes


def _elimination_label(number: int, total: int) -> str:
    """"Semi-finals" and so on: the players of round `number` of an event of `total` rounds."""
    return round_label(2 * 2 ** (total - number))


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
