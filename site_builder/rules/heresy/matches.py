"""Armageddon round files: each game of each best-of-three match (seed 000, 4.2).

One row per player per game: `table` (the match), `game` (1–3), `win`/`loss`, and tau stored. A
match is won by the player with more game wins. Time-expiry outcomes (4.2.5–4.2.7) are written as
game results, including an unplayed game "recorded as losses for both players". A lone `bye` row
(no game) is a bye.

A match being played (the newest round may be in progress, see rules.pairings) keeps the two rows
`site-builder pair` wrote, `table,,player,,` — game, result and tau empty — one per player. The
organizer types each game's rows below them as the games end, and deletes the two waiting rows
once the match is over. While both are there the match is "playing", whatever games are typed:
they are checked only for what typing more cannot put right (a third player, a game twice, two
winners of a game). A waiting row elsewhere — without a table, alone at its table, one of the
two gone, or in an earlier round — is an error.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ...core.model import Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ..cells import INVALID, whole_number

COLUMNS = ColumnSpec(required=("table", "game", "player", "result", "tau"))
WIN, LOSS, BYE = "win", "loss", "bye"
WAITING = ""
"""The result of a waiting row: the match is still being played."""


@dataclass(frozen=True, slots=True)
class GameRow:
    line: int
    table: int | None
    game: int | None
    player: str
    result: str
    tau: int | None

    @property
    def waiting(self) -> bool:
        """The row `pair` wrote for a match being played (no game, result or tau)."""
        return self.result == WAITING


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match as played: its two players (or one, for a bye) and each game's outcome."""

    round: int
    table: int | None
    players: tuple[str, ...]
    games: tuple[tuple[int, dict[str, str], dict[str, int | None]], ...]
    """(game number, result by player, tau by player), in game order."""
    line: int
    playing: bool = False
    """Its waiting rows are still there: no winner yet, whatever games are typed."""

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    def wins(self, player: str) -> int:
        return sum(results.get(player) == WIN for _, results, _ in self.games)

    def losses(self, player: str) -> int:
        return sum(results.get(player) == LOSS for _, results, _ in self.games)

    @property
    def winner(self) -> str | None:
        if self.is_bye:
            return self.players[0]
        if self.playing or len(self.players) != 2:
            return None
        a, b = self.players
        return a if self.wins(a) > self.wins(b) else b if self.wins(b) > self.wins(a) else None

    @property
    def unplayed(self) -> int:
        """Games left out of a match decided before two wins (time in game 1, seed 4.2.5)."""
        if self.is_bye or self.winner is None or self.wins(self.winner) >= 2:
            return 0
        return 3 - len(self.games)

    @property
    def loser(self) -> str | None:
        winner = self.winner
        return next((p for p in self.players if p != winner), None) if winner else None

    def score(self, player: str) -> str:
        """'2–1' from this player's side; 'bye' for a bye."""
        if self.is_bye:
            return "bye"
        other = next(p for p in self.players if p != player)
        return f"{self.wins(player)}–{self.wins(other)}"

    def taus(self, player: str) -> list[int | None]:
        return [taus.get(player) for _, _, taus in self.games]

    def tau_at_last_loss(self, player: str) -> int | None:
        lost = [taus.get(player) for _, results, taus in self.games if results.get(player) == LOSS]
        return lost[-1] if lost else None


def read_rows(table: CsvTable, shown: str, log: ProblemLog) -> tuple[GameRow, ...]:
    rows = []
    for row in table.rows:
        player, result = row.get("player"), row.get("result").lower()
        ok = True
        if not player:
            log.error(shown, row.line, "the player cell is empty: expected the player's name")
            ok = False
        if result not in (WIN, LOSS, BYE, WAITING):
            log.error(shown, row.line, f"result '{row.get('result')}' is not an Armageddon result: "
                                       "expected win or loss for each game, or bye")
            ok = False
        number = whole_number(row.get("table"), "table", 1, shown, row.line, log)
        game = whole_number(row.get("game"), "game", 1, shown, row.line, log)
        tau = whole_number(row.get("tau"), "tau", 0, shown, row.line, log)
        if not ok or INVALID in (number, game, tau):
            continue
        if result == WAITING:
            if _waiting_row_ok(player, number, game, tau, shown, row.line, log):
                rows.append(GameRow(row.line, number, None, player, WAITING, None))
            continue
        if result == BYE:
            if game is not None:
                log.error(shown, row.line, f"{player} has a bye in game {game}: a bye is one row "
                                           "with no game number")
                continue
        elif game is None or not 1 <= game <= 3:
            log.error(shown, row.line, f"game '{row.get('game')}' is not a game of a best-of-three "
                                       "match: expected 1, 2 or 3")
            continue
        elif number is None:
            log.error(shown, row.line, "the table cell is empty: expected the match's number")
            continue
        elif tau is None and result == WIN:
            log.error(shown, row.line, f"{player} has no tau: expected the tau stored at the end of "
                                       f"game {game} (a whole number, 0 or more)")
            continue
        rows.append(GameRow(row.line, number, game, player, result, tau))
    return tuple(rows)


def _waiting_row_ok(player: str, table: int | None, game: int | None, tau: int | None, shown: str,
                    line: int, log: ProblemLog) -> bool:
    """A row with an empty result is the waiting row of a match being played: a table, and no
    game or tau (a game's row needs its result)."""
    if game is not None or tau is not None:
        written = f"game {game}" if game is not None else f"tau {tau}"
        log.error(shown, line, f"{player} has {written} but no result: a game's row needs win or "
                               "loss (only the row pair wrote for a match being played leaves "
                               "game, result and tau all empty)")
        return False
    if table is None:
        log.error(shown, line, f"{player} has no table and no result: seat them at a match's table "
                               "with an opponent, or write bye if they have a bye")
        return False
    return True


def matches_of(round_: Round) -> list[MatchResult]:
    """The round's matches (by table) and byes, in table order; byes last."""
    by_table: dict[int, list[GameRow]] = defaultdict(list)
    byes = []
    for row in round_.rows:
        if row.result == BYE:
            byes.append(MatchResult(round_.number, row.table, (row.player,), (), row.line))
        else:
            by_table[row.table].append(row)
    matches = []
    for number, rows in sorted(by_table.items()):
        players = tuple(dict.fromkeys(r.player for r in rows))
        games: dict[int, tuple[dict[str, str], dict[str, int | None]]] = {}
        for r in rows:
            if r.waiting:
                continue
            results, taus = games.setdefault(r.game, ({}, {}))
            results[r.player], taus[r.player] = r.result, r.tau
        matches.append(MatchResult(round_.number, number, players,
                                   tuple((g, *games[g]) for g in sorted(games)), rows[0].line,
                                   playing=any(r.waiting for r in rows)))
    return matches + byes


def check_round(round_: Round, log: ProblemLog) -> None:
    """Every match: two players, each game once per player with at most one winner, a winner."""
    tables_of: dict[str, set] = defaultdict(set)
    byes: dict[str, int] = {}
    for row in round_.rows:
        tables_of[row.player].add(row.table)
        if row.result == BYE:
            if row.player in byes:
                log.error(round_.path, row.line, f"{row.player} has two bye rows this round (also "
                                                 f"line {byes[row.player]}): a bye is one row")
            byes.setdefault(row.player, row.line)
    for player, tables in tables_of.items():
        if len(tables) > 1:
            line = next(r.line for r in reversed(round_.rows) if r.player == player)
            shown = ", ".join("a bye" if t is None else f"table {t}" for t in sorted(tables, key=str))
            log.error(round_.path, line, f"{player} plays more than one match this round ({shown})")
    by_table: dict[int | None, list[GameRow]] = defaultdict(list)
    for row in round_.rows:
        by_table[row.table].append(row)
    for number, rows in by_table.items():
        games = [r for r in rows if r.result != BYE]
        if any(r.result == BYE for r in rows) and games and number is not None:
            bye = next(r for r in rows if r.result == BYE)
            log.error(round_.path, bye.line, f"{bye.player} has a bye at table {number}, where a "
                                             "match is played: a bye has no opponent")
        elif games and not round_.table_rejected(number):
            _check_match(round_.path, number, games, log)


def _check_match(path: str, number: int | None, rows: list[GameRow], log: ProblemLog) -> None:
    players = list(dict.fromkeys(r.player for r in rows))
    if len(players) != 2:
        log.error(path, rows[-1].line, f"table {number} has {len(players)} player"
                                       f"{'s' if len(players) != 1 else ''} ({', '.join(players)}): an "
                                       "Armageddon match is between two players")
        return
    waiting = [r for r in rows if r.waiting]
    if waiting:
        _check_match_being_played(path, number, players, rows, waiting, log)
        return
    seen: dict[tuple[int, str], int] = {}
    by_game: dict[int, list[GameRow]] = defaultdict(list)
    for r in rows:
        if (r.game, r.player) in seen:
            log.error(path, r.line, f"{r.player} has two rows for game {r.game} at table {number} "
                                    f"(also line {seen[(r.game, r.player)]})")
            return
        seen[(r.game, r.player)] = r.line
        by_game[r.game].append(r)
    for game, game_rows in sorted(by_game.items()):
        if len(game_rows) != 2:
            missing = next(p for p in players if p not in {r.player for r in game_rows})
            log.error(path, game_rows[0].line, f"game {game} at table {number} has no row for "
                                               f"{missing}: write both players' result and tau")
            return
        if all(r.result == WIN for r in game_rows):
            log.error(path, game_rows[1].line, f"game {game} at table {number} has two winners: one "
                                               "player wins a game (an unplayed game is a loss for both)")
            return
        played = any(r.result == WIN for r in game_rows)
        untimed = next((r for r in game_rows if r.tau is None), None)
        if played and untimed is not None:
            log.error(path, untimed.line, f"{untimed.player} has no tau: expected the tau stored at "
                                          f"the end of game {game} (only an unplayed game, a loss "
                                          "for both, may leave it empty)")
            return
    wins = {p: sum(r.result == WIN for r in rows if r.player == p) for p in players}
    if wins[players[0]] == wins[players[1]]:
        log.error(path, rows[-1].line,
                  f"the match at table {number} is tied {wins[players[0]]}–{wins[players[1]]}: the "
                  "player with more game wins takes the match, so record the deciding game "
                  "(seed 4.2.5–4.2.7 for time)")


def _check_match_being_played(path: str, number: int | None, players: list[str],
                              rows: list[GameRow], waiting: list[GameRow], log: ProblemLog) -> None:
    """Both waiting rows there, once each; the games typed so far, each player once per game
    and at most one winner."""
    waits: dict[str, GameRow] = {}
    for row in waiting:
        if row.player in waits:
            log.error(path, row.line, f"{row.player} has two waiting rows at table {number} (also "
                                      f"line {waits[row.player].line}): pair writes one per player")
            return
        waits[row.player] = row
    if len(waits) == 1:
        kept = waiting[0]
        gone = next(p for p in players if p != kept.player)
        log.error(path, kept.line,
                  f"the match at table {number} is still waiting for {kept.player} but {gone}'s "
                  "waiting row is gone: delete both once the match is over (its games written "
                  "below them), or keep both while it is played")
        return
    by_game: dict[int, list[GameRow]] = defaultdict(list)
    for row in rows:
        if row.waiting:
            continue
        twice = next((r for r in by_game[row.game] if r.player == row.player), None)
        if twice is not None:
            log.error(path, row.line, f"{row.player} has two rows for game {row.game} at table "
                                      f"{number} (also line {twice.line})")
            return
        by_game[row.game].append(row)
        if len(by_game[row.game]) == 2 and all(r.result == WIN for r in by_game[row.game]):
            log.error(path, row.line, f"game {row.game} at table {number} has two winners: one "
                                      "player wins a game (an unplayed game is a loss for both)")
            return
