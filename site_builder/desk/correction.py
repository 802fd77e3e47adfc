"""Correcting a table of an earlier round, with a preview of what the correction changes.

Before anything is written the organizer sees: the standings now and as they would be (each
player whose rank or points move), and, for the round after the corrected one, whether the
game's own pairing procedure — `pair`'s, with the event's own seed — would have seated that
round differently. The rounds already played stay as they were played: the preview says so, it
does not re-pair them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.model import Event
from ..core.problems import DataError, Problem, ProblemLog
from ..league.load import EVENTS_DIR, assign_event_ids, load_event
from ..league.people import load_directory
from ..organizer.pair import round_seed
from ..rules.forming import Context
from ..rules.views import Standings
from . import roundfile
from .eventdesk import Loaded, Refused, check_values, new_errors
from .store import read_text


@dataclass(slots=True)
class Move:
    player: str
    rank_before: int | None
    rank_after: int | None
    points_before: str
    points_after: str


@dataclass(slots=True)
class Preview:
    round_number: int
    table: str
    file: str
    text: str
    """The round file as it would be written."""
    lines: list[str]
    moves: list[Move] = field(default_factory=list)
    next_round: str = ""
    """What the round after would have been: the same, or how it would differ."""


def preview(source: Path, loaded: Loaded, round_number: int, table: str, fingerprint: str,
            games: list[list[dict[str, str]]]) -> Preview:
    """The correction's effect, or Refused (nothing to write, or check would reject it)."""
    event, ruleset, entry = loaded.event, loaded.ruleset, loaded.entry
    assert event is not None and ruleset is not None and entry is not None
    round_ = next((r for r in event.rounds if r.number == round_number), None)
    shown = f"{EVENTS_DIR}/{loaded.slug}/round-{round_number}.csv"
    if round_ is None:
        raise Refused([Problem(shown, None, f"the event has no round {round_number}")])
    name = Path(round_.path).name
    try:
        text = roundfile.parse(read_text(loaded.folder / name))
    except (OSError, UnicodeDecodeError, roundfile.NotEditable) as exc:
        raise Refused([Problem(shown, None, f"cannot be edited at the desk: {exc}")]) from None
    rows = roundfile.read_table(text, table, entry)
    if not rows.seats:
        raise Refused([Problem(shown, None, f"round {round_number} has no table {table}")])
    if fingerprint != rows.fingerprint:
        raise Refused([Problem(shown, None, f"table {table} was changed in {name} since this "
                               "form was opened: nothing was written; here is what it says now")],
                      conflict=True)
    problems = check_values(entry, rows.seats, games, shown)
    lines = roundfile.table_lines(text, rows, entry, games)
    new_text = text.with_table(table, lines)
    problems += new_errors(source, loaded, {name: new_text})
    if problems:
        raise Refused(problems)
    result = Preview(round_number, table, name, new_text, lines)
    if loaded.errors:  # an event with errors cannot be scored: no standings to compare
        result.next_round = ("The event has errors (listed on its desk page), so the preview "
                             "cannot show the standings; the correction itself checks.")
        return result
    after = _load_with(source, loaded, {name: new_text})
    result.moves = _moves(ruleset.score(event).standings, ruleset.score(after).standings)
    result.next_round = _next_round(ruleset, event, after, round_number)
    return result


def _load_with(source: Path, loaded: Loaded, held: dict[str, str]) -> Event:
    log = ProblemLog()
    event = load_event(source, loaded.folder, log, {k: v.encode("utf-8") for k, v in held.items()})
    if event is None:
        raise Refused([p for p in log.problems if p.is_error])
    assign_event_ids(event, load_directory(source, ProblemLog()), log)
    return event


def _moves(before: Standings | None, after: Standings | None) -> list[Move]:
    def table(standings: Standings | None) -> dict[str, tuple[int, str]]:
        if standings is None:
            return {}
        # the points where the game has them (after a cut the first deciding column is the
        # finish, blank below the cut), else the first number that decides the order
        keys = [c.key for c in standings.columns]
        key = "points" if "points" in keys else next(
            (c.key for c in standings.columns if c.deciding), None)
        return {row.player.name: (row.rank, str(row.cell(key)) if key else "")
                for row in standings.rows}
    old, new = table(before), table(after)
    moves = []
    for player in sorted(set(old) | set(new), key=lambda p: (new.get(p, (10**6,))[0], p)):
        o, n = old.get(player, (None, "")), new.get(player, (None, ""))
        if o != n:
            moves.append(Move(player, o[0], n[0], o[1], n[1]))
    return moves


def _next_round(ruleset, before: Event, after: Event, number: int) -> str:
    later = next((r for r in before.rounds if r.number == number + 1), None)
    if later is None:
        return ""
    if not ruleset.everyone_plays(after, number + 1):
        return (f"Round {number + 1} is not a round everyone plays: who reached it is the "
                "game's rule; the preview does not re-pair it.")
    played = _tables(later.rows)
    truncated = replace(after, rounds=tuple(r for r in after.rounds if r.number <= number))
    players = list(dict.fromkeys(row.player for row in later.rows))
    try:
        formed = ruleset.form(Context(
            truncated, ruleset.score(truncated), number + 1, players, set(), [],
            random.Random(round_seed(after, number + 1)), frozenset(), later.path, frozenset()))
    except DataError:
        return f"Round {number + 1} could not have been paired by the rules from these standings."
    would = {frozenset(t.players) for t in formed.tables if len(t.players) > 1}
    if would == played:
        return (f"Round {number + 1}'s pairings would have been the same: the rounds played "
                "after it are not affected.")
    return (f"Round {number + 1} would have been paired differently ({len(would - played)} of "
            f"{len(would)} tables differ): the rounds after it stand as played; decide with the "
            "players whether that matters.")


def _tables(rows) -> set[frozenset[str]]:
    tables: dict[object, set[str]] = {}
    for row in rows:
        if row.table is not None:
            tables.setdefault(row.table, set()).add(row.player)
    return {frozenset(players) for players in tables.values() if len(players) > 1}
