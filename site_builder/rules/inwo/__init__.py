"""INWO — Illuminati: New World Order (Official Tournament Rules, seed 003).

Multi-player: tables of about five where winners, shared victories and ties advance, a table out
of time is decided by Percentage of Goal, the round before the final sends the top three of each of
its two tables on. Head-to-head: two-player single elimination. INWO awards places, not points, so
its events are listed but not ranked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ...core.model import Event, Round
from ...core.numbers import ordinal, percent_text
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ...files.tomlkeys import KeyReader
from ..base import Ruleset, SlipField
from ..views import Bracket, PlayerResult, RoundView, ScoredEvent, Standings
from ..elimination import build_bracket, bracket_size, round_label
from ..grid import TEMPLATE as GRID_TEMPLATE
from ..forming import Context, Formed
from ..entry import Cell, Choice, Entry, Quick
from ..pairings import in_progress_view, round_in_progress, with_round_in_progress
from . import headtohead, playing, rows, tables, views
from .options import InwoOptions, read_options

TABLES_ROUND = "games/inwo/tables_round.html"
GAMES_ROUND = "games/inwo/games_round.html"
BRACKET = "games/elimination_bracket.html"
NOT_RANKED = "INWO tournaments award places, not points: listed, not ranked"


class Inwo(Ruleset):
    game = "inwo"
    title = "INWO"

    def entry(self, options: InwoOptions) -> Entry:
        """Multi-player: the winner, a shared victory or time, the groups each controlled, the
        special-goal percentage and the referee's decision; head-to-head: a click on the
        winner, with the groups and percentage that may place the semi-finalists."""
        groups = Cell("groups", "Groups", low=0, high=99, optional=not options.multiplayer)
        goal = Cell("goal_pct", "Special goal %", low=0, high=100, decimals=True,
                    aliases=("special_pct",))
        if options.multiplayer:
            result = Cell("result", "Result", (Choice("", "—"), Choice("win", "Win"),
                                               Choice("shared", "Shared victory"),
                                               Choice("time", "Out of time")))
            advanced = Cell("advanced", "Referee", (Choice("", "—"), Choice("yes", "Advance"),
                                                    Choice("no", "Hold back")))
            return Entry(cells=(result, groups, goal, advanced))
        result = Cell("result", "Result", (Choice("", "—"), Choice("win", "Win"),
                                           Choice("loss", "Loss")), optional=False)
        return Entry(cells=(result, groups, goal), quick=(Quick("wins", "win", "loss"),))

    def round_minutes(self, event: Event, number: int) -> int:
        """A GenCon session is 3½ hours for two games of a round."""
        return 105

    def read_options(self, keys: KeyReader) -> InwoOptions:
        return read_options(keys)

    def columns(self, options: InwoOptions) -> ColumnSpec:
        return rows.MULTIPLAYER_COLUMNS if options.multiplayer else rows.HEAD_TO_HEAD_COLUMNS

    def written_columns(self, options: InwoOptions) -> tuple[str, ...]:
        """The header `pair` writes: the contract's columns (goal_pct, not its alias
        special_pct), and `advanced` for the referee's decisions."""
        if options.multiplayer:
            return ("table", "player", "result", "groups", "goal_pct", "advanced")
        return ("table", "player", "result", "groups", "goal_pct")

    def read_rows(self, table: CsvTable, shown: str, options: InwoOptions, log: ProblemLog) -> tuple:
        return rows.read_rows(table, shown, options.multiplayer, log)

    def everyone_plays(self, event: Event, number: int) -> bool:
        """No round after the first: multiplayer tables send on only their advancers,
        head-to-head is single elimination."""
        return False

    def pending(self, round_: Round) -> list:
        """The round's rows still waiting for their result (their groups, multiplayer)."""
        return rows.pending_rows(round_)

    def validate(self, event: Event, log: ProblemLog) -> None:
        options: InwoOptions = event.options
        check = rows.check_multiplayer_round if options.multiplayer else rows.check_head_to_head_round
        for round_ in event.rounds:
            check(round_, log)
        rows.check_rounds_in_progress(event, options.multiplayer, log)
        if log.has_errors() or any(r.partial for r in event.rounds):
            return
        playing_now = round_in_progress(event, rows.pending_rows) is not None
        if options.multiplayer:
            check_advancement(event.rounds, options.goal_groups, log, playing_now)
        else:  # who plays a round follows from the rounds before it, all complete
            complete = event.rounds[:-1] if playing_now else event.rounds
            played = [headtohead.matches_of(r, options.goal_groups)[0] for r in complete]
            headtohead.check_eligibility(event.rounds, played, log)

    def score(self, event: Event) -> ScoredEvent:
        """The rounds whose results are all in are scored; a round still being played (the
        newest) is shown as its pairings, and the standings stay those after the round before."""
        scorer = _MultiplayerScorer if event.options.multiplayer else _HeadToHeadScorer
        current = round_in_progress(event, rows.pending_rows)
        if current is None:
            return scorer(event).scored()
        done = scorer(replace(event, rounds=event.rounds[:-1])).scored()
        in_progress = (_multiplayer_in_progress if event.options.multiplayer
                       else _head_to_head_in_progress)
        return in_progress(done, event, current, self.slip(event, current))

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return (playing.MULTIPLAYER_SLIP if event.options.multiplayer
                else playing.HEAD_TO_HEAD_SLIP)

    def form(self, context: Context) -> Formed:
        from . import pairing  # here, as every game's (see Ruleset.form)
        return pairing.form(context)


def _multiplayer_in_progress(done: ScoredEvent, event: Event, current: Round,
                             slip: tuple[SlipField, ...]) -> ScoredEvent:
    """How many rounds a multi-player event has depends on who advances, so the status line
    names the round being played, not "round k of n"."""
    pairings = playing.multiplayer_pairings(current, event.options.goal_groups, event.ref)
    label = "Final" if len(pairings.tables) == 1 else f"Round {current.number}"
    scored = with_round_in_progress(done, event, in_progress_view(current, label, pairings, slip),
                                    current.number)
    scored.status_line = ("In progress: the final table being played" if label == "Final" else
                          f"In progress: round {current.number} being played")
    return scored


def _head_to_head_in_progress(done: ScoredEvent, event: Event, current: Round,
                              slip: tuple[SlipField, ...]) -> ScoredEvent:
    planned = headtohead.planned_rounds(len(event.rounds[0].rows))
    index = len(event.rounds) - 1
    label = (round_label(bracket_size(planned, index)) if index < planned
             else f"Round {current.number}")
    view = in_progress_view(current, label, playing.head_to_head_pairings(current, event.ref),
                            slip)
    return with_round_in_progress(done, event, view, planned)


def check_advancement(rounds: list[Round], goal_groups: int, log: ProblemLog,
                      last_in_progress: bool = False) -> None:
    """Who plays each round must follow from the round before (or the referee's `advanced`).
    A round still being played is checked for who sits there, not for its tables' decisions."""
    for index, round_ in enumerate(rounds):
        results = tables.round_results(round_, goal_groups)
        if index + 1 == len(rounds):
            if not last_in_progress:
                _check_table_decisions(round_, results, log)
            break
        _check_table_decisions(round_, results, log)
        following = rounds[index + 1]
        if results and results[0].stage == "final":
            log.error(following.path, 1, f"round {following.number} follows a final: round "
                                         f"{round_.number} has a single table, so it was the final "
                                         "(a round with more tables needs more tables in its file)")
            continue
        through = tables.advancing(results)
        seated = {p.player: (t, p) for t in results for p in t.placed}
        for seat in following.rows:
            if seat.player in through:
                continue
            if seat.player not in seated:
                log.error(following.path, seat.line,
                          f"{seat.player} did not play round {round_.number} and cannot join in "
                          f"round {following.number}: INWO rounds after the first are played by "
                          "those who advanced")
                continue
            table, placed = seated[seat.player]
            log.error(following.path, seat.line,
                      f"{seat.player} plays round {following.number} but did not advance from "
                      f"table {table.number} of round {round_.number} ({_who_advanced(table)}): if "
                      f"the referee advanced them, write advanced = yes on line {placed.seat.line} "
                      f"of {round_.path}")
        playing = {s.player for s in following.rows}
        for name, table in through.items():
            if name not in playing:
                line = seated[name][1].seat.line
                log.warning(round_.path, line, f"{name} advanced from table {table.number} but is "
                                               f"not in round {following.number}: listed as out "
                                               f"there, without a game")


def _who_advanced(table: tables.TableResult) -> str:
    names = [p.player for p in table.placed if p.advances]
    if not names:
        return "nobody advanced"
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] + " advanced"


def _check_table_decisions(round_: Round, results: list[tables.TableResult], log: ProblemLog) -> None:
    """The referee's `advanced` column may override the rules, not leave a table without anyone
    going on; in the final it decides nothing."""
    for table in results:
        flagged = [p for p in table.placed if p.seat.advanced is not None]
        if not flagged:
            continue
        if table.stage == "final":
            log.warning(round_.path, flagged[0].seat.line,
                        f"advanced is ignored in the final (table {table.number}): nobody advances "
                        "from it, places come from the result and Percentage of Goal")
        elif not any(p.advances for p in table.placed):
            held_back = ", ".join(p.player for p in table.placed if p.reason == tables.BY_REFEREE)
            log.error(round_.path, flagged[0].seat.line,
                      f"table {table.number}: advanced = no on {held_back} leaves nobody advancing, "
                      f"which contradicts the result ({table.placed[0].player} placed first); "
                      "mark who goes on with advanced = yes")


class _MultiplayerScorer:
    def __init__(self, event: Event):
        self.event = event
        self.options: InwoOptions = event.options
        goal = self.options.goal_groups
        self.played = {r.number: tables.round_results(r, goal) for r in event.rounds}
        last = self.played[event.rounds[-1].number] if event.rounds else []
        self.final_played = len(last) == 1 and last[0].stage == "final"
        status = event.info.status
        self.complete = status == "final" or (status is None and self.final_played)
        self.log = ProblemLog()

    def scored(self) -> ScoredEvent:
        ref, goal = self.event.ref, self.options.goal_groups
        round_views = []
        ranked_after: list[tables.Ranked] = []
        for index, round_ in enumerate(self.event.rounds):
            k = round_.number
            final = self.complete and index == len(self.event.rounds) - 1
            ranked_after = tables.rank(tables.entries_after(self.played, k))
            title = "Final standings" if final else f"Standings after round {k}"
            standings = views.multiplayer_standings(ranked_after, title, k, final, goal, ref)
            results = self.played[k]
            label = "Final" if results and results[0].stage == "final" else f"Round {k}"
            round_views.append(RoundView(k, label, round_.path, TABLES_ROUND,
                                         views.round_tables(results, goal, ref), standings,
                                         pairings=playing.multiplayer_pairings(round_, goal, ref)))
        standings = round_views[-1].standings if round_views else None
        grid = views.advancement_grid(self.played, self.complete, ref) if self.played else None
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name, details=self._details(),
            planned_rounds=None, complete=self.complete, standings=standings,
            rounds=tuple(round_views), bracket=self._bracket(grid),
            players=self._players(ranked_after), warnings=tuple(self.log.problems),
            winner=grid.champion if grid else None, status_line=self._status_line(ranked_after),
            ranking=None, ranking_note=NOT_RANKED)

    def _details(self) -> tuple[tuple[str, str], ...]:
        return (("Format", "Multi-player tables: winners, shared victories and ties advance; the "
                           "round before the final sends each table's top three"),
                ("Victory", f"{self.options.goal_groups} groups"))

    def _bracket(self, grid) -> Bracket:
        if grid is None:
            return Bracket(GRID_TEMPLATE, "Advancement grid", (), empty_message=(
                "The advancement grid appears here once round 1's tables are in."))
        return Bracket(GRID_TEMPLATE, "Advancement grid", (), grid.champion,
                       note=("Each box is a table, its players in place order with their "
                             "Percentage of Goal; a player who advanced links to the table they "
                             "played next. Why a player advanced is written under their name."), extra=grid)

    def _status_line(self, ranked: list[tables.Ranked]) -> str:
        if not self.event.rounds:
            return "No results yet"
        if self.complete:
            return "Final"
        alive = sum(1 for r in ranked if r.entry.still_in)
        return (f"In progress: {alive} player{'s' if alive != 1 else ''} through after round "
                f"{self.event.rounds[-1].number}")

    def _players(self, ranked: list[tables.Ranked]) -> dict[str, PlayerResult]:
        total = len(ranked)
        per_rank = Counter(r.rank for r in ranked)
        results = {}
        for item in ranked:
            e, name = item.entry, item.entry.name
            shared = per_rank[item.rank] > 1
            finish = views.entry_finish(e, self.complete, e.table.shared and e.last.place == 1)
            if finish.startswith(("Out", "Advanced")):
                finish = f"{'=' if shared else ''}{ordinal(item.rank)} of {total}"
            results[name] = PlayerResult(
                self.event.ref(name), item.rank, finish, percent_text(e.last.percentage),
                f"reached round {e.reached}", views.multiplayer_games(e, self.event.ref),
                points_label="PoG")
        return results


class _HeadToHeadScorer:
    def __init__(self, event: Event):
        self.event = event
        self.options: InwoOptions = event.options
        games = [headtohead.matches_of(r, self.options.goal_groups) for r in event.rounds]
        self.matches = [m for m, _ in games]
        self.seats = [s for _, s in games]
        first = len(self.seats[0]) if self.seats else 0
        self.planned = headtohead.planned_rounds(first)
        status = event.info.status
        done = len(self.matches) >= self.planned and len(self.matches[-1]) == 1 if self.matches else False
        self.complete = status == "final" or (status is None and done)
        self.log = ProblemLog()

    def _label(self, index: int) -> str:
        return round_label(bracket_size(self.planned, index)) if index < self.planned else f"Round {index + 1}"

    def scored(self) -> ScoredEvent:
        ref = self.event.ref
        round_views, ranked = [], []
        for index, round_ in enumerate(self.event.rounds):
            ranked = headtohead.standings(self.matches[: index + 1], self.seats[: index + 1])
            final = self.complete and index == len(self.event.rounds) - 1
            title = "Final standings" if final else f"Standings after the {self._label(index)}"
            standings = views.h2h_standings(ranked, title, round_.number, final, self.planned, ref)
            round_views.append(RoundView(round_.number, self._label(index), round_.path, GAMES_ROUND,
                                         self._games(index), standings,
                                         pairings=playing.head_to_head_pairings(round_, ref)))
        standings = round_views[-1].standings if round_views else None
        bracket = self._bracket()
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name, details=self._details(),
            planned_rounds=self.planned if self.matches else None, complete=self.complete,
            standings=standings, rounds=tuple(round_views), bracket=bracket,
            players=self._players(ranked, standings), warnings=tuple(self.log.problems),
            winner=bracket.champion, status_line=self._status_line(),
            ranking=None, ranking_note=NOT_RANKED)

    def _games(self, index: int) -> tuple[views.GameView, ...]:
        return views.game_views(self.matches[index], self.seats[index], self.event.ref)

    def _bracket(self) -> Bracket:
        title = "Single elimination bracket"
        if not self.matches:
            return Bracket(BRACKET, title, (), empty_message=(
                "The bracket appears here once the first round's games are in."))
        rounds = build_bracket(self.matches, self.planned, self.event.rounds[0].number, {},
                               self.event.ref)
        champion = None
        if self.complete and len(self.matches[-1]) == 1 and self.matches[-1][0].winner:
            champion = self.event.ref(self.matches[-1][0].winner)
        return Bracket(BRACKET, title, rounds, champion,
                       note="Under each loser: their Percentage of Goal when the winner met the "
                            "goal, where the round file gives their groups.")

    def _details(self) -> tuple[tuple[str, str], ...]:
        return (("Format", "Head-to-head single elimination (the seed's two-player rules)"),
                ("Victory", f"{self.options.goal_groups} groups"))

    def _status_line(self) -> str:
        if not self.matches:
            return "No results yet"
        if self.complete:
            return "Final"
        return f"In progress: {len(self.matches)} of {self.planned} rounds played"

    def _players(self, ranked: list[headtohead.Ranked], standings: Standings | None) -> dict[str, PlayerResult]:
        if standings is None:
            return {}
        results = {}
        for item, row in zip(ranked, standings.rows):
            s = item.standing
            wins = row.values["games_won"]
            results[s.name] = PlayerResult(
                row.player, item.rank, row.values["finish"],
                percent_text(s.last.percentage) if s.last and s.last.percentage is not None else "",
                f"{wins}–{len(s.games) - wins}", views.h2h_games(s, self.planned, self.event.ref),
                points_label="PoG")
        return results


__all__ = ["Inwo"]
