"""Heresy scores turned into plain objects for pages and JSON twins."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...core.model import PlayerRef, Round
from ..views import (BracketGame, BracketRound, BracketSlot, Column, PlayerGame, Standings,
                     StandingRow)
from .armageddon import BRACKET_NAMES, Place, Placed
from .matches import MatchResult
from .multiplayer import TIEBREAK_LABELS, Ranked, Result
from .options import HeresyOptions
from .tables import TIME, WIN, tables_of

Ref = Callable[[str], PlayerRef]

TABLE_COLUMNS = (
    Column("points", "Points", deciding=True),
    Column("wins", "Wins"),
    Column("tau", "Tau", title="tau stored over all games (a winner's empty tau counts as the goal)",
           deciding=True),
    Column("opponents_average", "Opp. avg", "dec3",
           "the mean, over every opponent at every table, of their points per round played"),
)
MATCH_COLUMNS = (
    Column("finish", "Finish", "text", numeric=False, deciding=True),
    Column("matches", "Matches", "text", "matches won–lost (byes not counted)"),
    Column("games", "Games", "text", "games won–lost"),
    Column("tau", "Tau", title="tau stored over all games played", deciding=True),
)


def table_explanation(options: HeresyOptions) -> str:
    return (f"The winner of a table scores {options.win_points}; everyone else scores the tau they "
            f"stored, up to the tau goal of {options.tau_goal}. When a game runs out of time there "
            "is no winner and everyone scores their tau (up to the goal) + 2. Equal totals share a "
            "rank unless more wins, then a higher opponents' average (the mean of the points per "
            "round of everyone met at a table), separate them.")


def table_standings(ranked: Sequence[Ranked], title: str, after_round: int, complete: bool,
                    options: HeresyOptions, ref: Ref) -> Standings:
    rows = []
    for r in ranked:
        record = r.record
        values = {"points": record.points, "wins": record.wins, "tau": record.tau(options.tau_goal),
                  "rounds_played": len(record.results), "opponents_average": r.opponents_average}
        notes = (f"dropped after round {record.results[-1].round}",) if record.dropped else ()
        rows.append(StandingRow(r.rank, ref(record.name), values, record.dropped, r.tiebreak, notes))
    return Standings(title, after_round, complete, TABLE_COLUMNS, tuple(rows), TIEBREAK_LABELS,
                     table_explanation(options))


# ---------------------------------------------------------------- Reascension round pages


@dataclass(frozen=True, slots=True)
class SeatView:
    player: PlayerRef
    result: str
    tau: int | None
    points: int
    how: str
    won: bool


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    timed: bool
    seats: tuple[SeatView, ...]


def table_views(round_: Round, results: Mapping[str, Result], ref: Ref) -> tuple[TableView, ...]:
    views = []
    for number, seats in tables_of(round_).items():
        shown = []
        for seat in sorted(seats, key=lambda s: -results[s.player].points):
            result = results[seat.player]
            label = {"win": "Win", "time": "Time"}.get(seat.result, "")
            shown.append(SeatView(ref(seat.player), label, seat.tau, result.points, result.how,
                                  result.won))
        views.append(TableView(number, seats[0].result == TIME, tuple(shown)))
    return tuple(views)


@dataclass(frozen=True, slots=True)
class GridRow:
    rank: int
    player: PlayerRef
    cells: tuple[tuple[int | None, bool], ...]
    """(points or None when absent, won) per round."""
    total: int


@dataclass(frozen=True, slots=True)
class Grid:
    rounds: tuple[int, ...]
    rows: tuple[GridRow, ...]


def points_grid(ranked: Sequence[Ranked], rounds: Sequence[int], ref: Ref) -> Grid:
    rows = []
    for r in ranked:
        by_round = {res.round: res for res in r.record.results}
        cells = tuple((by_round[n].points, by_round[n].won) if n in by_round else (None, False)
                      for n in rounds)
        rows.append(GridRow(r.rank, ref(r.record.name), cells, r.record.points))
    return Grid(tuple(rounds), tuple(rows))


def table_player_games(record_results: Sequence[Result], ref: Ref) -> tuple[PlayerGame, ...]:
    return tuple(
        PlayerGame(res.round, f"Round {res.round}", str(res.seat.table),
                   tuple(ref(o) for o in res.opponents),
                   {"win": "Win", "time": "Out of time"}.get(res.seat.result, f"tau {res.seat.tau}"),
                   f"{res.points}", outcome=table_outcome(res))
        for res in record_results)


def table_outcome(res: Result) -> str:
    """A table as a match between decks: its winner wins and everyone else loses (a seat with
    no result sat at a table someone won: the checks require a winner or 'time'). A table that
    ran out of time has no winner: a draw for everyone at it."""
    if not res.opponents:
        return ""
    if res.seat.result == WIN:
        return "win"
    return "draw" if res.seat.result == TIME else "loss"


# ---------------------------------------------------------------- Armageddon


def match_standings(places: Sequence[Place], title: str, after_round: int, complete: bool,
                    ref: Ref, elimination: str) -> Standings:
    rows = []
    for place in places:
        s = place.standing
        values = {"finish": place.finish, "matches_won": s.matches_won,
                  "matches_lost": s.match_losses, "games_won": s.games_won,
                  "games_lost": s.games_lost, "tau": s.tau, "byes": s.byes,
                  "eliminated_in": s.eliminated_in}
        cells = {"matches": f"{s.matches_won}–{s.match_losses}",
                 "games": f"{s.games_won}–{s.games_lost}"}
        notes = (f"{s.byes} bye",) if s.byes == 1 else (f"{s.byes} byes",) if s.byes else ()
        rows.append(StandingRow(place.rank, ref(s.name), values, False, None, notes, cells))
    out = "a second match loss" if elimination == "double" else "a match loss"
    explanation = ("Best-of-three matches: the player with more game wins takes the match; "
                   f"{out} puts a player out. The champion comes first, then the runner-up, then "
                   "everyone by the round they went out (later is better), then by games won; "
                   "equal places share a rank.")
    return Standings(title, after_round, complete, MATCH_COLUMNS, tuple(rows), {}, explanation,
                     phase="elimination")


@dataclass(frozen=True, slots=True)
class MatchSide:
    player: PlayerRef
    games: tuple[tuple[str, int | None], ...]
    """(result, tau) per game."""
    score: str
    won: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    table: int | None
    bracket: str
    bye: bool
    sides: tuple[MatchSide, ...]
    game_numbers: tuple[int, ...]


def match_views(placed: Sequence[Placed], ref: Ref) -> tuple[MatchView, ...]:
    views = []
    for item in placed:
        m = item.match
        sides = tuple(
            MatchSide(ref(p), tuple((results.get(p, ""), taus.get(p)) for _, results, taus in m.games),
                      m.score(p), m.winner == p)
            for p in m.players)
        views.append(MatchView(m.table, BRACKET_NAMES[item.bracket], m.is_bye, sides,
                               tuple(g for g, _, _ in m.games)))
    return tuple(views)


def tau_line(match: MatchResult, player: str) -> str:
    taus = [str(t) if t is not None else "–" for t in match.taus(player)]
    return "tau " + " · ".join(taus) if taus else ""


def match_player_game(match: MatchResult, label: str, player: str, ref: Ref) -> PlayerGame:
    if match.is_bye:  # no opponent: no match
        return PlayerGame(match.round, label, "", (), "Bye", "", outcome="")
    other = next(p for p in match.players if p != player)
    verdict = "Won" if match.winner == player else "Lost"
    # A match always has a winner once over (the checks reject a tie); None is one being played.
    outcome = "" if match.winner is None else "win" if match.winner == player else "loss"
    return PlayerGame(match.round, label, str(match.table), (ref(other),),
                      f"{verdict} {match.score(player)}", tau_line(match, player), outcome=outcome)


@dataclass(frozen=True, slots=True)
class DoubleBracket:
    """A double-elimination bracket: the winners' and losers' brackets and the final, each a
    list of rounds of match boxes."""

    parts: tuple[tuple[str, tuple[BracketRound, ...]], ...]


def double_bracket(placed_rounds: Sequence[Sequence[Placed]], ref: Ref) -> DoubleBracket:
    parts = []
    for bracket in ("winners", "losers", "final"):
        rounds = []
        for placed in placed_rounds:
            games = [_box(p.match, ref) for p in placed if p.bracket == bracket]
            if games:
                number = placed[0].match.round
                reset = bracket == "final" and rounds  # a second final: the unbeaten player lost
                label = f"Round {number}" + (" (reset)" if reset else "")
                rounds.append(BracketRound(label, number, tuple(games), True))
        if rounds:
            parts.append((BRACKET_NAMES[bracket], tuple(rounds)))
    return DoubleBracket(tuple(parts))


def _box(match: MatchResult, ref: Ref) -> BracketGame:
    slots = tuple(BracketSlot(ref(p), "", match.score(p), match.winner == p, tau_line(match, p))
                  for p in match.players)
    return BracketGame(match.table or 0, slots, True)

