"""Kingdom, played with the Hero House deck (seed 004), as a Swiss event of two-player games.

The seed describes one game: the player with more hero houses wins, equal counts are a "cosmic
struggle" (a tie), and a game makes at most 22 hero houses. The event around it follows the data
contract and these decisions:

* event.toml: `win_points` (default 2) and `draw_points` (default 1), whole numbers ≥ 0 with
  draw ≤ win (an error otherwise); optional `rounds`, the planned Swiss rounds (≥ 1). Without it
  the plan is ceil(log2(players)) rounds, at least 1, players being the event's players.csv rows
  or else everyone in a round file (as Conquest counts registrations); if more rounds were
  played, the plan is the rounds played. A round numbered beyond an explicit `rounds` is an
  error. The event is complete when status = "final", or (status unset) when the planned rounds
  are in; "final" with rounds still to play is a warning, as in Conquest.
* Round files: `table,player,houses[,result]`. `houses` is a whole number 0–22, empty only on a
  bye. `result` is empty (the hero houses decide) or `bye` on a lone row (no table, or alone at
  its table). A lone row without `bye` is an unpaired loss, as in Conquest, with a warning that
  says so (its hero houses are not counted). Errors: an unknown result, a player twice in a
  round, three or more at a table, a bye with an opponent, a bad or empty `houses` on a game row,
  and two players' houses adding up to more than 22.
* Scoring: `win_points` per win or bye, `draw_points` per cosmic struggle, 0 per loss or unpaired
  loss. Order: points, then Strength of Schedule (`tiebreaks.schedule`, the function Conquest
  uses: the mean of the opponents' points per round played; a bye is no opponent), then the
  total hero houses made in games (byes and unpaired losses add none). Players equal on all three
  share a rank: there is no random tiebreak. Drops and rejoins work as in Conquest
  (`swiss.records_after`: a missed round before a return is an unpaired loss).
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
from ..views import PlayerResult, RankingEntry, RoundView, ScoredEvent, Standings
from ..forming import Context, Formed
from ..entry import Cell, Entry
from ..pairings import (check_in_progress, in_progress_view, round_in_progress,
                        with_round_in_progress)
from ..swiss import attendance_notes, records_after
from ..twoplayer import (absences, check_final_too_early, check_round_numbers, is_complete,
                         registered_players, status_line)
from . import rows as kingdom_rows
from .options import KingdomOptions, default_rounds, read_options
from .scoring import Ranked, round_scores, standings_after, swiss_games
from .views import SLIP, player_games, record_text, round_pairings, round_view, standings_view

ROUND_TEMPLATE = "games/kingdom/round.html"


class Kingdom(Ruleset):
    game = "kingdom"
    title = "Kingdom"

    def entry(self, options: Any) -> Entry:
        """The hero houses each player made: the game's score, which decides it."""
        return Entry(cells=(Cell("houses", "Hero houses", low=0, high=22, optional=False),))

    def round_minutes(self, event: Event, number: int) -> int:
        """Seed 004: "time is one half hour"."""
        return 30

    def read_options(self, keys: KeyReader) -> KingdomOptions:
        return read_options(keys)

    def columns(self, options: Any) -> ColumnSpec:
        return kingdom_rows.COLUMNS

    def read_rows(self, table: CsvTable, shown: str, options: Any, log: ProblemLog) -> tuple:
        return kingdom_rows.read_rows(table, shown, log)

    def pending(self, round_: Round) -> list:
        """The round's rows still waiting for their result."""
        return kingdom_rows.pending_rows(round_)

    def stages(self, event: Event) -> tuple[int, int]:
        """(Swiss rounds, cut): the planned rounds, and no cut."""
        return event.options.rounds or default_rounds(registered_players(event)), 0

    def form(self, context: Context) -> Formed:
        from .. import twoplayerpairing  # here: it loads networkx (see Ruleset.form)
        return twoplayerpairing.form(context, *self.stages(context.event))

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return SLIP

    def everyone_plays(self, event: Event, number: int) -> bool:
        """Every round: Kingdom events are Swiss throughout, with no cut."""
        return number >= 1

    def validate(self, event: Event, log: ProblemLog) -> None:
        for round_ in event.rounds:
            kingdom_rows.check_round(round_, log)
        check_in_progress(event, kingdom_rows.pending_rows, log)
        planned = event.options.rounds
        if planned is not None:
            check_round_numbers(event, planned, f"rounds = {planned} in event.toml",
                                "raise rounds in event.toml if it ran longer", log)

    def score(self, event: Event) -> ScoredEvent:
        """As Conquest: a round still being played is shown as its pairings, and the standings
        stay those after the round before."""
        current = round_in_progress(event, kingdom_rows.pending_rows)
        if current is None:
            return _Scorer(event).scored()
        scorer = _Scorer(replace(event, rounds=event.rounds[:-1]), players=registered_players(event))
        view = in_progress_view(current, f"Round {current.number}",
                                round_pairings(current, event.ref), self.slip(event, current))
        return with_round_in_progress(scorer.scored(), event, view,
                                      max(scorer.planned, current.number))


class _Scorer:
    """Scores one validated event; each method builds one part of the result."""

    def __init__(self, event: Event, players: int | None = None):
        """`players`: the registered players, when `event` is an event without its round in
        progress (whose players count too)."""
        self.event = event
        self.options: KingdomOptions = event.options
        self.log = ProblemLog()
        self.players = players or registered_players(event)
        self.suggested = default_rounds(self.players)
        last = event.rounds[-1].number if event.rounds else 0
        self.planned = self.options.rounds or max(self.suggested, last)
        self.last = last
        self.played = {r.number: swiss_games(r, self.options) for r in event.rounds}
        self.scores = {r.number: round_scores(r) for r in event.rounds}
        self.after = {r.number: standings_after(self.played, self.scores, r.number)
                      for r in event.rounds}
        self.complete = is_complete(event, self.planned)

    def scored(self) -> ScoredEvent:
        check_final_too_early(self.event, self.planned, self._describe(), self.log)
        rounds = self._round_views()
        standings = rounds[-1].standings if rounds else None
        players = self._player_results()
        return ScoredEvent(
            event=self.event,
            display_name=self.event.info.name,
            details=self._details(),
            planned_rounds=self.planned,
            complete=self.complete,
            standings=standings,
            rounds=tuple(rounds),
            bracket=None,
            players=players,
            warnings=tuple(self.log.problems),
            winner=self._winner(standings),
            status_line=status_line(self.event, self.planned, self.complete),
            ranking=tuple(RankingEntry(r.player, int(r.points), r.finish, r.rank)
                          for r in players.values()),
        )

    def _round_views(self) -> list[RoundView]:
        latest = records_after(self.played, self.last)
        views = []
        for round_ in self.event.rounds:
            k = round_.number
            final = self.complete and k == self.last
            title = "Final standings" if final else f"Standings after round {k}"
            standings = standings_view(self.after[k], title, k, final, self.options,
                                       self.event.ref)
            tables = round_view(round_, self.played[k], self.event.ref,
                                absences(k, latest, self.event.ref))
            views.append(RoundView(k, f"Round {k}", round_.path, ROUND_TEMPLATE, tables, standings,
                                   pairings=round_pairings(round_, self.event.ref)))
        return views

    def _describe(self) -> str:
        rounds = f"{self.planned} Swiss round{'s' if self.planned != 1 else ''}"
        if self.options.rounds is not None:
            return f"{rounds}, as set in event.toml"
        if self.planned > self.suggested:
            return (f"{rounds} played; log₂ of {self.players} players, rounded up, gives "
                    f"{self.suggested}")
        return f"{rounds}: log₂ of {self.players} players, rounded up"

    def _details(self) -> tuple[tuple[str, str], ...]:
        o = self.options
        return (("Scoring", f"Win {o.win_points}, cosmic struggle (draw) {o.draw_points}, loss 0, "
                            f"bye {o.win_points}"),
                ("Rounds", self._describe()))

    def _winner(self, standings: Standings | None) -> Any:
        """The one player ranked first once the event is final (nobody when first is shared)."""
        if not self.complete or standings is None:
            return None
        top = [row for row in standings.rows if row.rank == 1]
        return top[0].player if len(top) == 1 else None

    def _player_results(self) -> dict[str, PlayerResult]:
        final: list[Ranked] = self.after.get(self.last, [])
        total = len(final)
        results = {}
        for row in final:
            record = row.record
            finish = f"{'=' if row.shared else ''}{ordinal(row.rank)} of {total}"
            results[row.name] = PlayerResult(
                self.event.ref(row.name), row.rank, finish, str(record.points),
                record_text(record), player_games(record, self.scores, self.event.ref),
                tuple(attendance_notes(record)))
        return results


__all__ = ["Kingdom"]
