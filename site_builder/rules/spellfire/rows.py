"""SPELLFIRE round files: every game of every bracket (seed 002, "Scoring").

One row per player per game: `table` (the bracket), `game`, `player`, `realms` (unrazed realms at
the end of the game) and `result` (`win` for the game's winner). An optional `place` column holds
the judge's placement when realms leave players tied.

A round in progress (what `site-builder pair` writes, see rules.pairings): one row per player
with `game`, `realms` and `result` empty, a *seat row*, saying who sits at a bracket not started
yet. The organizer fills game 1 in on those rows and adds rows for games 2, 3, …; a bracket with
games has no seat rows left. Only the newest round may hold a bracket still being played (nobody
on two game wins yet, every game entered complete); anywhere else it is an error.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ...core.model import Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number
from ..seating import first_rows  # noqa: F401 (the bracket's seats, used here and by views)

COLUMNS = ColumnSpec(required=("table", "game", "player", "realms", "result"), optional=("place",))
WIN = "win"
WINS_NEEDED = 2
FIVE = 5
"""A bracket of five: only as the one bracket of a round after round 1, seating five bracket
winners who cannot be seated in threes and fours (`site-builder pair --allow-five`)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    line: int
    bracket: int
    game: int | None
    """None on a seat row (a bracket not started: game, realms and result empty)."""
    player: str
    realms: int | None
    won: bool
    place: int | None

    @property
    def table(self) -> int:
        """The bracket, under the name the shared seating code reads (rules.seating)."""
        return self.bracket

    @property
    def seated_only(self) -> bool:
        """A seat row: the player sits at the bracket, no game entered on this row."""
        return self.game is None


def read_rows(table: CsvTable, shown: str, log: ProblemLog) -> tuple[GameRow, ...]:
    rows = []
    for row in table.rows:
        player, result = row.get("player"), row.get("result").lower()
        cells = {name: whole_number(row.get(name), name, minimum, shown, row.line, log)
                 for name, minimum in (("table", 1), ("game", 1), ("realms", 0), ("place", 1))}
        ok = INVALID not in cells.values()
        if not player:
            log.error(shown, row.line, "the player cell is empty: expected the player's name")
            ok = False
        if result not in (WIN, ""):
            log.error(shown, row.line, f"result '{row.get('result')}' is not a SPELLFIRE result: "
                                       "expected 'win' for the game's winner, empty for the others")
            ok = False
        seat_row = cells["game"] is None and cells["realms"] is None and not result
        required = (("table", "the bracket's number", ""),) if seat_row else (
            ("table", "the bracket's number", ""), ("game", "the game's number", SEAT_ROW_HINT),
            ("realms", "the unrazed realms at the end of the game", SEAT_ROW_HINT))
        for name, what, hint in required:
            if cells[name] is None and ok:
                log.error(shown, row.line, f"the {name} cell is empty: expected {what}{hint}")
                ok = False
        if ok:
            rows.append(GameRow(row.line, cells["table"], cells["game"], player, cells["realms"],
                                result == WIN, cells["place"]))
    return tuple(rows)


SEAT_ROW_HINT = (" (a bracket not started yet leaves game, realms and result all empty, as pair "
                 "writes it)")


def brackets_of(round_: Round) -> dict[int, list[GameRow]]:
    brackets: dict[int, list[GameRow]] = defaultdict(list)
    for row in round_.rows:
        brackets[row.bracket].append(row)
    return dict(sorted(brackets.items()))


def players_of(rows: list[GameRow]) -> list[str]:
    return list(dict.fromkeys(r.player for r in rows))




def bracket_winner(rows: list[GameRow]) -> str | None:
    """The player on two game wins, None while the bracket is still being played."""
    wins: dict[str, int] = {}
    for row in rows:
        wins[row.player] = wins.get(row.player, 0) + row.won
    return next((p for p, w in wins.items() if w >= WINS_NEEDED), None)


def pending_rows(round_: Round) -> list[GameRow]:
    """A seat (first row) of every player in a bracket nobody has won yet: the round is still
    being played while there is one (see rules.pairings)."""
    return [seat for rows in brackets_of(round_).values() if bracket_winner(rows) is None
            for seat in first_rows(rows)]


def check_round(round_: Round, log: ProblemLog, newest: int | None = None) -> None:
    """`newest`: the number of the event's newest round, the only one whose brackets may still
    be being played (None: this round is the newest)."""
    seen: dict[str, int] = {}
    brackets = brackets_of(round_)
    # Five seat only five bracket winners, all together (a round after round 1).
    five = round_.number > 1 and len(brackets) == 1
    for number, rows in brackets.items():
        for player in players_of(rows):
            if player in seen:
                line = next(r.line for r in rows if r.player == player)
                log.error(round_.path, line, f"{player} plays in bracket {number} and bracket "
                                             f"{seen[player]}: a player plays one bracket per round")
            seen.setdefault(player, number)
        if not round_.table_rejected(number):
            _check_bracket(round_.path, number, rows, five, newest, log)


def _check_bracket(path: str, number: int, rows: list[GameRow], five: bool, newest: int | None,
                   log: ProblemLog) -> None:
    players = players_of(rows)
    if len(players) not in ((3, 4, FIVE) if five else (3, 4)):
        log.error(path, rows[-1].line,
                  f"bracket {number} has {len(players)} player{'s' if len(players) != 1 else ''} "
                  f"({', '.join(players)}): SPELLFIRE brackets have 3 players, or 4 to balance")
        return
    seat_rows = [r for r in rows if r.seated_only]
    if seat_rows and len(seat_rows) != len(rows):
        row = seat_rows[0]
        log.error(path, row.line, f"{row.player}'s row has no game, but bracket {number} has games "
                                  "entered: fill in the game, realms and result on it (every "
                                  "player of a bracket has a row for every game)")
        return
    if seat_rows:
        if newest is not None:
            log.error(path, rows[-1].line,
                      f"bracket {number} has no games entered ({', '.join(players)}): only the "
                      f"newest round (round {newest}) may still be in progress; enter its games")
        return  # not started: the round is in progress
    games: dict[int, list[GameRow]] = defaultdict(list)
    for row in rows:
        games[row.game].append(row)
    wins: dict[str, int] = dict.fromkeys(players, 0)
    decided_in: int | None = None
    for game in sorted(games):
        game_rows = games[game]
        if not _check_game(path, number, game, game_rows, players, log):
            return
        if decided_in is not None:
            log.error(path, game_rows[0].line,
                      f"bracket {number} has a game {game} after {_leader(wins)} won two games in "
                      f"game {decided_in}: the bracket ends when a player has won two")
            return
        winner = next(r.player for r in game_rows if r.won)
        wins[winner] += 1
        if wins[winner] == WINS_NEEDED:
            decided_in = game
    expected = list(range(1, max(games) + 1))
    if sorted(games) != expected:
        missing = [g for g in expected if g not in games]
        log.error(path, rows[-1].line, f"bracket {number} has no game {missing[0]}: games are "
                                       "numbered 1, 2, 3, … in the order played")
    elif decided_in is None:
        if newest is not None:  # still being played is fine in the newest round only
            log.error(path, rows[-1].line,
                      f"bracket {number} ends with nobody on two wins ({_tally(wins)}): it is "
                      "played until one player has won two games; only the newest round (round "
                      f"{newest}) may still be in progress")
    else:
        _check_places(path, number, rows, players, _leader(wins), log)


def _check_game(path: str, number: int, game: int, rows: list[GameRow], players: list[str],
                log: ProblemLog) -> bool:
    names = [r.player for r in rows]
    for player in players:
        if names.count(player) > 1:
            log.error(path, rows[-1].line, f"{player} has two rows for game {game} of bracket {number}")
            return False
        if player not in names:
            log.error(path, rows[0].line, f"game {game} of bracket {number} has no row for {player}: "
                                          "every player of the bracket has realms in every game")
            return False
    winners = [r.player for r in rows if r.won]
    if len(winners) != 1:
        shown = "no winner" if not winners else f"{len(winners)} winners ({', '.join(winners)})"
        log.error(path, rows[-1].line, f"game {game} of bracket {number} has {shown}: write 'win' "
                                       "for the one player who won it")
        return False
    return True


def _check_places(path: str, number: int, rows: list[GameRow], players: list[str],
                  winner: str, log: ProblemLog) -> None:
    """`place` is all or nothing per bracket, one value per player, a permutation of 1..n."""
    given: dict[str, set[int]] = defaultdict(set)
    for row in rows:
        if row.place is not None:
            given[row.player].add(row.place)
    if not given:
        return
    line = next(r.line for r in rows if r.place is not None)
    if set(given) != set(players) or any(len(v) != 1 for v in given.values()):
        log.error(path, line, f"bracket {number} gives 'place' to only some of its rows: give each "
                              "player one place on all their rows, or leave the column empty")
        return
    places = sorted(next(iter(v)) for v in given.values())
    if places != list(range(1, len(players) + 1)):
        log.error(path, line, f"bracket {number} has places {', '.join(map(str, places))}: expected "
                              f"each of 1 to {len(players)} once")
    elif given[winner] != {1}:
        log.error(path, line, f"bracket {number} places {winner}, who won two games, "
                              f"{next(iter(given[winner]))}: the bracket's winner is 1st")


def _leader(wins: dict[str, int]) -> str:
    return next(p for p, w in wins.items() if w >= WINS_NEEDED)


def _tally(wins: dict[str, int]) -> str:
    return ", ".join(f"{p} {w}" for p, w in wins.items())
