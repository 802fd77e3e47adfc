"""Warhammer 40,000: Conquest (Tournament Regulations 1.2, seed 001).

Swiss rounds scored win 5 / modified win 4 / loss 0 / bye 5, ordered by points, Strength of
Schedule, Extended SoS and a seeded draw; then single elimination from a top-N cut.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.model import Event, Round
from ...core.numbers import ordinal
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ...files.tomlkeys import KeyReader
from ..base import Ruleset, SlipField
from ..elimination import Match, bracket_size, cut_bracket, expected_games, round_label
from ..eliminationchecks import check_cut, check_elimination_pairings
from ..entry import Cell, Choice, Entry, Quick
from ..forming import Context, Formed
from ..pairings import (
    check_in_progress,
    in_progress_view,
    round_in_progress,
    with_round_in_progress,
)
from ..swiss import SwissRecord, records_extended, rematches
from ..twoplayer import (
    absences,
    check_final_too_early,
    is_complete,
    registered_players,
    status_line,
)
from ..views import Bracket, PlayerResult, RankingEntry, RoundView, ScoredEvent, Standings
from . import rows as conquest_rows
from . import structure
from .knockout import KnockoutScorer
from .scoring import (
    SwissRow,
    cut_players,
    elimination_matches,
    final_order,
    rank_swiss,
    swiss_games,
)
from .views import (
    SLIP,
    final_standings_view,
    player_games,
    record_text,
    round_pairings,
    round_tables,
    swiss_standings_view,
)
from .warnings import check_swiss_round

ROUND_TEMPLATE = "games/conquest/round.html"
BRACKET_TEMPLATE = "games/elimination_bracket.html"


class Conquest(Ruleset):
    game = "conquest"
    title = "Warhammer 40,000: Conquest"

    def read_options(self, keys: KeyReader) -> structure.ConquestOptions:
        return structure.read_options(keys)

    def columns(self, options: Any) -> ColumnSpec:
        return conquest_rows.COLUMNS

    def read_rows(self, table: CsvTable, shown: str, options: Any, log: ProblemLog) -> tuple:
        return conquest_rows.read_rows(table, shown, log)

    def pending(self, round_: Round) -> list:
        """The round's rows still waiting for their result."""
        return conquest_rows.pending_rows(round_)

    def stages(self, event: Event) -> tuple[int, int]:
        """(Swiss rounds, cut): how `form` forms the next round."""
        plan = self.plan(event)
        return plan.swiss_rounds, plan.cut

    def form(self, context: Context) -> Formed:
        from .. import twoplayerpairing  # here: it loads networkx (see Ruleset.form)
        return twoplayerpairing.form(context, *self.stages(context.event))

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return SLIP

    def everyone_plays(self, event: Event, number: int) -> bool:
        """The Swiss rounds; not the elimination rounds after the cut (nor any round of an
        event that is single elimination from round 1)."""
        return 1 <= number <= self.plan(event).swiss_rounds

    def entry(self, options: Any) -> Entry:
        """A click on the winner: win or modified win (IV.3.a), the other seat a loss."""
        return TWO_PLAYER_ENTRY

    def round_minutes(self, event: Event, number: int) -> int:
        """V.4 Round Timing: 55 minutes a Swiss or elimination round, 90 the final."""
        plan = self.plan(event)
        final = plan.elimination_rounds > 0 and number == plan.total_rounds
        return 90 if final else 55

    def plan(self, event: Event) -> structure.Plan:
        """Registered players are the event's players.csv rows, else everyone in a round file."""
        return structure.make_plan(event.options, registered_players(event))

    def validate(self, event: Event, log: ProblemLog) -> None:
        plan = self.plan(event)
        for round_ in event.rounds:
            conquest_rows.check_round(round_, round_.number > plan.swiss_rounds, log)
        check_in_progress(event, conquest_rows.pending_rows, log)
        if not any(r.partial for r in event.rounds):  # a rejected row would look like an absence
            conquest_rows.check_stages(event, plan, log)

    def score(self, event: Event) -> ScoredEvent:
        """The rounds whose results are all in are scored; a round still being played (the
        newest) is shown as its pairings, and the standings stay those after the round before."""
        plan = self.plan(event)
        current = round_in_progress(event, conquest_rows.pending_rows)
        if current is None:
            return _scored(event, plan)
        done = _scored(replace(event, rounds=event.rounds[:-1]), plan)
        elimination = current.number > plan.swiss_rounds
        label = (round_label(bracket_size(plan.elimination_rounds,
                                          current.number - plan.swiss_rounds - 1))
                 if elimination else f"Round {current.number}")
        view = in_progress_view(current, label, round_pairings(current, elimination, event.ref),
                                self.slip(event, current))
        return with_round_in_progress(done, event, view, plan.total_rounds)


TWO_PLAYER_ENTRY = Entry(
    cells=(Cell("result", "Result", (Choice("", "—"), Choice("win", "Win"),
                                     Choice("modified-win", "Modified win"),
                                     Choice("loss", "Loss")), optional=False),),
    quick=(Quick("wins", "win", "loss"), Quick("modified win", "modified-win", "loss")),
    unplayed="loss")


def _scored(event: Event, plan: structure.Plan) -> ScoredEvent:
    if plan.knockout:
        return KnockoutScorer(event, plan).scored(ProblemLog())
    return _Scorer(event, plan).scored()


class _Scorer:
    """Scores one validated event; each method builds one part of the result."""

    def __init__(self, event: Event, plan: structure.Plan):
        self.event, self.plan = event, plan
        self.seed = event.info.seed
        self.log = ProblemLog()
        self.swiss_rounds = [r for r in event.rounds if r.number <= plan.swiss_rounds]
        self.elimination_rounds = [r for r in event.rounds if r.number > plan.swiss_rounds]
        self.played = {r.number: swiss_games(r) for r in self.swiss_rounds}
        self.swiss_after: dict[int, list[SwissRow]] = {}
        before: list[SwissRow] = []
        records: dict[str, SwissRecord] = {}
        repeats = rematches(self.played)
        for round_ in self.swiss_rounds:
            check_swiss_round(round_, self.played, before, repeats[round_.number], self.log)
            records = records_extended(records, self.played[round_.number], round_.number)
            before = self.swiss_after[round_.number] = rank_swiss(records, self.seed)
        self.last_swiss = before
        self.latest = {row.name: row.record for row in before}
        """Everyone's record after the last Swiss round played (rounds are numbered without gaps)."""
        self.swiss_done = len(self.swiss_rounds) == plan.swiss_rounds
        self.cut = cut_players(self.last_swiss, plan.cut) if self.swiss_done else []
        self.matches: list[list[Match]] = []
        rank = {row.name: row.rank for row in self.last_swiss}
        for round_ in self.elimination_rounds:
            previous = self.matches[-1] if self.matches else None
            seeds = sorted({r.player for r in round_.rows}, key=lambda n: rank.get(n, 0))
            expected = expected_games(previous, seeds, plan.cut)
            self.matches.append(elimination_matches(round_, expected))
        self.last_number = event.rounds[-1].number if event.rounds else 0
        self.complete = is_complete(event, plan.total_rounds)

    def scored(self) -> ScoredEvent:
        self._check_structure()
        self._check_status()
        self._check_elimination()
        swiss = self._swiss_round_views()
        rounds = swiss + self._elimination_round_views(swiss[-1].standings if swiss else None)
        standings = rounds[-1].standings if rounds else None
        bracket = self._bracket()
        players = self._player_results(standings)
        return ScoredEvent(
            event=self.event,
            display_name=self.event.info.name,
            details=self._details(),
            planned_rounds=self.plan.total_rounds,
            complete=self.complete,
            standings=standings,
            rounds=tuple(rounds),
            bracket=bracket,
            players=players,
            warnings=tuple(self.log.problems),
            winner=self._winner(standings, bracket),
            status_line=self._status_line(),
            ranking=tuple(RankingEntry(r.player, int(r.points), r.finish, r.rank)
                          for r in players.values()),
        )

    # -- checks that need standings

    def _check_status(self) -> None:
        check_final_too_early(self.event, self.plan.total_rounds, self.plan.describe(), self.log)

    def _check_structure(self) -> None:
        if self.plan.below_table:
            first = structure.TABLES[self.plan.structure][0]
            self.log.warning(f"{self.event.folder}/event.toml", self.event.line_of("structure"),
                             f"the {self.plan.structure} structure starts at {first[0]} registered "
                             f"players and this event has {self.plan.players}: using its first row "
                             f"({self.plan.describe()})")

    def _check_elimination(self) -> None:
        if not self.matches:
            return
        check_cut(self.elimination_rounds[0], self.matches[0], self.cut, self.last_swiss,
                  self.plan.cut, self.log)
        for i in range(1, len(self.matches)):
            check_elimination_pairings(self.elimination_rounds[i], self.matches[i - 1],
                                       self.matches[i], self.log)

    # -- rounds

    def _swiss_round_views(self) -> list[RoundView]:
        latest = self.latest
        views = []
        for round_ in self.swiss_rounds:
            k = round_.number
            final = self.complete and k == self.last_number
            last_swiss = k == self.plan.swiss_rounds and self.plan.cut
            title = ("Final standings" if final and not last_swiss else
                     f"Swiss standings after round {k}" if last_swiss else f"Standings after round {k}")
            cut_line = self._cut_line(self.swiss_after[k]) if last_swiss else 0
            standings = swiss_standings_view(self.swiss_after[k], title, k, final, self.seed,
                                             self.event.ref, self.plan.cut if last_swiss else 0,
                                             cut_line)
            tables = round_tables(round_, False, self.event.ref, {},
                                  absences(k, latest, self.event.ref))
            views.append(RoundView(k, f"Round {k}", round_.path, ROUND_TEMPLATE, tables, standings,
                                   pairings=round_pairings(round_, False, self.event.ref)))
        return views

    def _cut_line(self, rows: list[SwissRow]) -> int:
        qualified = set(cut_players(rows, self.plan.cut))
        return max((row.rank for row in rows if row.name in qualified), default=0)

    def _seeds(self) -> dict[str, int]:
        rank = {row.name: row.rank for row in self.last_swiss}
        if self.matches:
            playing = sorted({p for m in self.matches[0] for p in m.players}, key=lambda n: rank[n])
        else:
            playing = self.cut
        return {name: i + 1 for i, name in enumerate(playing)}

    def _elimination_round_views(self, swiss: Standings | None) -> list[RoundView]:
        """`swiss`: the view of the last Swiss standings (there are Swiss rounds before any
        elimination round)."""
        views = []
        seeds = self._seeds()
        for i, round_ in enumerate(self.elimination_rounds):
            label = round_label(bracket_size(self.plan.elimination_rounds, i))
            final = self.complete and round_.number == self.last_number
            title = "Final standings" if final else f"Standings after the {label}"
            rows = final_order(self.last_swiss, self.matches[: i + 1])
            standings = final_standings_view(rows, title, round_.number, final, self.seed, self.plan,
                                             swiss)
            tables = round_tables(round_, True, self.event.ref, seeds, [])
            views.append(RoundView(round_.number, label, round_.path, ROUND_TEMPLATE, tables,
                                   standings, pairings=round_pairings(round_, True, self.event.ref)))
        return views

    # -- bracket

    def _bracket(self) -> Bracket | None:
        if not self.plan.cut:
            return None
        return cut_bracket(BRACKET_TEMPLATE, self.plan.cut, self.plan.swiss_rounds,
                           len(self.swiss_rounds), self.matches, self._seeds(), self.cut,
                           self.event.ref, self.complete)

    # -- summaries

    def _details(self) -> tuple[tuple[str, str], ...]:
        details = [("Structure", self.plan.describe())]
        if self.event.options.tier:
            details.append(("Tier", self.event.options.tier.title()))
        return tuple(details)

    def _status_line(self) -> str:
        return status_line(self.event, self.plan.total_rounds, self.complete)

    def _winner(self, standings: Standings | None, bracket: Bracket | None) -> Any:
        """The champion, or the Swiss winner of an event without a cut, once the event is final."""
        if not self.complete:
            return None
        if bracket is not None and bracket.champion is not None:
            return bracket.champion
        if standings is not None and standings.rows and not self.plan.cut:
            return standings.rows[0].player
        return None

    def _player_results(self, standings: Standings | None) -> dict[str, PlayerResult]:
        if standings is None:
            return {}
        latest = self.latest
        elimination_games: dict[str, list[tuple[Round, Match]]] = {}
        for round_, matches in zip(self.elimination_rounds, self.matches):
            for match in matches:
                for name in match.players:
                    elimination_games.setdefault(name, []).append((round_, match))
        total = len(standings.rows)
        results = {}
        for row in standings.rows:
            name = row.player.name
            record = latest[name]
            finish = row.values.get("finish") or f"{ordinal(row.rank)} of {total}"
            results[name] = PlayerResult(
                row.player, row.rank, finish, str(record.points), record_text(record),
                player_games(name, record, elimination_games.get(name, []), self.plan,
                             self.event.ref),
                row.notes)
        return results


__all__ = ["Conquest"]
