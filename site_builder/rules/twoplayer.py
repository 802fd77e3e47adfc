"""What every game of two-player Swiss rounds shares (Conquest, Kingdom): rows grouped by table,
the checks a pairing needs, each player's game of a round, Strength of Schedule over records,
absences, player-page lines and the event's status.

A game's rows only need `line`, `table` (None when empty), `player` and `result` (`BYE` on a bye
row); what a paired row scores is the game's own business (`paired_games` asks it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.model import Event, PlayerRef, Round
from ..core.problems import ProblemLog
from .views import PlayerGame
from .seating import tables_of
from .swiss import MISSED, Game, SwissRecord
from .tiebreaks import Schedule, schedule

BYE = "bye"
UNPAIRED_LOSS = "unpaired-loss"
"""Result kind of a player alone at a table (or without one) who has no bye: 0 points."""

Ref = Callable[[str], PlayerRef]


def registered_players(event: Event) -> int:
    """Registered players: the event's players.csv rows, else everyone in a round file."""
    return len(event.registrations) or len({r.player for rnd in event.rounds for r in rnd.rows})


# ---------------------------------------------------------------- rows of a round


def seating(round_: Round, keep_lone: bool = False) -> tuple[list[tuple[int, list[Any]]],
                                                             list[Any], list[Any]]:
    """(tables of two — every table with `keep_lone` —, lone bye rows, lone rows without a bye)."""
    tables, loose = tables_of(round_)
    games: list[tuple[int, list[Any]]] = []
    byes: list[Any] = []
    unpaired: list[Any] = []
    for number, rows in tables.items():
        if len(rows) == 2 or keep_lone:
            games.append((number, rows))
        else:
            (byes if rows[0].result == BYE else unpaired).append(rows[0])
    for row in loose:
        (byes if row.result == BYE else unpaired).append(row)
    return games, byes, unpaired


def check_duplicates(round_: Round, log: ProblemLog) -> None:
    first_line: dict[str, int] = {}
    for row in round_.rows:
        if row.player in first_line:
            log.error(round_.path, row.line,
                      f"{row.player} is in this round twice (also on line "
                      f"{first_line[row.player]}): a player plays one game per round")
        else:
            first_line[row.player] = row.line


def check_pair(path: str, number: int, rows: Sequence[Any], game: str, log: ProblemLog) -> bool:
    """Log a table of three or more (`game` names the game: "a Conquest game") and a bye with an
    opponent. False when it logged one: nothing more is worth checking at that table."""
    if len(rows) > 2:
        names = ", ".join(r.player for r in rows)
        log.error(path, rows[-1].line, f"table {number} has {len(rows)} players ({names}): "
                                       f"{game} is played by two")
        return False
    bye = next((r for r in rows if r.result == BYE), None)
    if len(rows) == 2 and bye is not None:
        other = next(r for r in rows if r is not bye)
        log.error(path, bye.line, f"{bye.player} has a bye but {other.player} is at the same table "
                                  f"{number}: a bye has no opponent")
        return False
    return True


def check_round_numbers(event: Event, planned: int, described: str, advice: str,
                        log: ProblemLog) -> None:
    """Each round file numbered beyond the event's `planned` rounds is an error (line 1)."""
    for round_ in event.rounds:
        if round_.number > planned:
            log.error(round_.path, 1, f"round {round_.number} is beyond this event's {planned} "
                                      f"rounds ({described}): {advice}")


# ---------------------------------------------------------------- scoring


def paired_games(round_: Round, kind_of: Callable[[Any, Any], str],
                 points: Mapping[str, int]) -> dict[str, Game]:
    """Each player's game in a Swiss round: `kind_of(row, opponent's row)` at a table of two, a
    bye, or an unpaired loss for a lone row without one; worth `points[kind]`."""
    tables, loose = tables_of(round_)
    games: dict[str, Game] = {}
    for number, rows in tables.items():
        for row in rows:
            other = next((o for o in rows if o is not row), None)
            kind = (kind_of(row, other) if other is not None else
                    BYE if row.result == BYE else UNPAIRED_LOSS)
            games[row.player] = Game(round_.number, kind, points[kind], number,
                                     other.player if other is not None else None, row.line)
    for row in loose:
        kind = BYE if row.result == BYE else UNPAIRED_LOSS
        games[row.player] = Game(round_.number, kind, points[kind], None, None, row.line)
    return games


def schedule_of(records: Mapping[str, SwissRecord]) -> Schedule:
    """Strength of Schedule (and its extension) of every player, from their records so far."""
    opponents, points, played = {}, {}, {}
    for name, record in records.items():  # one pass: each record is read once, after every round
        opponents[name], points[name], played[name] = record.opponents, record.points, len(record.games)
    return schedule(opponents, points, played)


# ---------------------------------------------------------------- pages


def result_counts(record: SwissRecord, counted: Mapping[str, str]) -> dict[str, int]:
    """The counts a standings row starts with: points, rounds played, then `counted` (JSON key:
    result kind, in order), byes and unpaired losses (missed rounds included)."""
    kinds = record.kinds  # read directly: this runs for every player after every round
    counts = {"points": record.points, "rounds_played": len(record.games)}
    for key, kind in counted.items():
        counts[key] = kinds.get(kind, 0)
    counts["byes"] = kinds.get(BYE, 0)
    counts["unpaired_losses"] = kinds.get(UNPAIRED_LOSS, 0) + kinds.get(MISSED, 0)
    return counts


def record_line(record: SwissRecord, win: str, middle: str, loss: str) -> str:
    """"wins–middle–losses": byes count as wins, unpaired losses and missed rounds as losses."""
    kinds = record.kinds
    wins = kinds.get(win, 0) + kinds.get(BYE, 0)
    losses = kinds.get(loss, 0) + kinds.get(UNPAIRED_LOSS, 0) + kinds.get(MISSED, 0)
    return f"{wins}–{kinds.get(middle, 0)}–{losses}"


@dataclass(frozen=True, slots=True)
class Absence:
    player: PlayerRef
    note: str


def absences(number: int, final_records: Mapping[str, SwissRecord], ref: Ref) -> list[Absence]:
    """Players not at a Swiss round: dropped there, or given an unpaired loss when they came
    back."""
    found = []
    # Only a player who dropped or missed a round can be absent (most players are neither).
    for name in sorted((n for n, r in final_records.items() if r.dropped or MISSED in r.kinds),
                       key=str.casefold):
        record = final_records[name]
        game = next((g for g in record.games if g.round == number), None)
        if game is not None and game.kind == MISSED:
            how = "joined" if number < record.first_round else "rejoined"
            back = next(g.round for g in record.games if g.round > number and g.kind != MISSED)
            found.append(Absence(ref(name), f"absent; {how} in round {back}, so this round counts "
                                            "as an unpaired loss"))
        elif record.dropped and record.last_round == number - 1:
            found.append(Absence(ref(name), "dropped"))
    return found


MATCH_OUTCOMES = {"win": "win", "draw": "draw", "loss": "loss"}
"""A paired game's kind as a match between decks, for a game whose kinds are these plain words
(Kingdom: equal houses are its draw); a game with kinds of its own passes its own table."""


def game_lines(record: SwissRecord, result_text: Callable[[Game], str], ref: Ref,
               outcomes: Mapping[str, str] = MATCH_OUTCOMES) -> list[PlayerGame]:
    """A player's Swiss games for their player page, missed rounds included. A game without an
    opponent (a bye, an unpaired loss, a missed round) was no match: its outcome is empty."""
    return [PlayerGame(game.round, f"Round {game.round}", str(game.table or ""),
                       (ref(game.opponent),) if game.opponent else (), result_text(game),
                       str(game.points),
                       outcome=outcomes.get(game.kind, "") if game.opponent else "")
            for game in record.games]


# ---------------------------------------------------------------- the event's status


def is_complete(event: Event, planned: int) -> bool:
    """Final when event.toml says so, or (status unset) when the planned rounds are all in."""
    status = event.info.status
    last = event.rounds[-1].number if event.rounds else 0
    return status == "final" or (status is None and bool(event.rounds) and last >= planned)


def status_line(event: Event, planned: int, complete: bool) -> str:
    played = len(event.rounds)
    if not event.rounds:
        return "No results yet"
    if complete:
        return "Final" if played >= planned else f"Final after {played} of {planned} rounds"
    if played >= planned:
        return f"In progress: all {planned} rounds in, not yet marked final"
    return f"In progress: {played} of {planned} rounds played"


def check_final_too_early(event: Event, planned: int, described: str, log: ProblemLog) -> None:
    """A warning (the organizer's word stands) for status = "final" with rounds still to play."""
    played = len(event.rounds)
    if event.info.status == "final" and played < planned:
        log.warning(f"{event.folder}/event.toml", event.line_of("status"),
                    f"status = \"final\" with {played} of the {planned} planned rounds "
                    f"({described}): the standings after round {played} are published as final")
