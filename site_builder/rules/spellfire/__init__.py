"""SPELLFIRE (Tournament Rules 2.0, seed 002): three-player brackets to two game wins, placement
by unrazed realms, round multipliers, officials' points and scored tournaments.

The newest round may be in progress (see rows.py for how its file is filled in): its brackets
are shown as pairings, "playing" until someone has won two games, and the standings stay those
after the last complete round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.model import Event, Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ...files.tomlkeys import KeyReader
from ..base import Ruleset, SlipField
from ..views import Bracket, Official, PlayerResult, RankingEntry, RoundView, ScoredEvent
from ..grid import TEMPLATE as GRID_TEMPLATE
from ..forming import Context, Formed
from ..entry import Cell, Choice, Entry
from ..pairings import (check_in_progress, in_progress_view, round_in_progress,
                        with_round_in_progress)
from . import rows as spellfire_rows
from .options import ALLOW_FIVE, SpellfireOptions, read_options
from .scoring import (SCORED_MINIMUM, another_chance, brackets, check_advancement,
                      check_another_chance, decided_brackets, final_round_of, official_points,
                      rounds_to_play, score_rounds)
from .views import (FINAL_FINISHES, advancement_grid, bracket_views, ordinal, player_games,
                    ranked, round_pairings, slip_fields, standings_view)

ROUND_TEMPLATE = "games/spellfire/round.html"


class Spellfire(Ruleset):
    game = "spellfire"
    title = "SPELLFIRE"
    pair_flags = (ALLOW_FIVE,)

    def entry(self, options: Any) -> Entry:
        """Each game of the bracket: every seat's unrazed realms and the game's winner, the
        judge's place when realms tie; games are added until someone has two wins."""
        return Entry(cells=(Cell("realms", "Realms", low=0, high=99, optional=False),
                            Cell("result", "Result", (Choice("", "—"), Choice("win", "Won"))),
                            Cell("place", "Place", low=1, high=5)),
                     games=True, max_games=9)

    def read_options(self, keys: KeyReader) -> SpellfireOptions:
        return read_options(keys)

    def columns(self, options: Any) -> ColumnSpec:
        return spellfire_rows.COLUMNS

    def read_rows(self, table: CsvTable, shown: str, options: Any, log: ProblemLog) -> tuple:
        return spellfire_rows.read_rows(table, shown, log)

    def continuing(self, event: Event) -> dict[str, int]:
        """Who goes on after the latest round (for `pair`'s --drop and --add): its bracket
        winners, by the line of their first row. Another chance goes to someone else."""
        rows = spellfire_rows.brackets_of(event.rounds[-1]).values()
        winners = {spellfire_rows.bracket_winner(bracket) for bracket in rows}
        return {row.player: row.line for bracket in rows
                for row in spellfire_rows.first_rows(bracket) if row.player in winners}

    def everyone_plays(self, event: Event, number: int) -> bool:
        """No round after the first: only bracket winners (and another chance) go on."""
        return False

    def officials(self, options: SpellfireOptions) -> tuple[str, ...]:
        return options.officials

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return slip_fields(round_)

    def form(self, context: Context) -> Formed:
        from . import pairing  # here, as every game's (see Ruleset.form)
        return pairing.form(context)

    def pending(self, round_: Round) -> list:
        """A seat of every player in a bracket nobody has won yet."""
        return spellfire_rows.pending_rows(round_)

    def validate(self, event: Event, log: ProblemLog) -> None:
        newest = event.rounds[-1].number if event.rounds else 0
        for round_ in event.rounds:
            spellfire_rows.check_round(round_, log, None if round_.number == newest else newest)
        # Brackets unfinished in an earlier round are reported above with their tally; what is
        # left to check is an event marked final with its newest round still being played.
        check_in_progress(event, lambda r: spellfire_rows.pending_rows(r)
                          if r.number == newest else [], log)
        if not log.has_errors():
            check_advancement(event.rounds, log)

    def score(self, event: Event) -> ScoredEvent:
        """The complete rounds are scored; a round still being played (the newest) is shown as
        its brackets, and the standings stay those after the round before."""
        current = round_in_progress(event, spellfire_rows.pending_rows)
        if current is None:
            return _Scorer(event).scored()
        everyone = {row.player for round_ in event.rounds for row in round_.rows}
        done = _Scorer(replace(event, rounds=event.rounds[:-1]), len(everyone)).scored()
        pairings = round_pairings(current, decided_brackets(current), event.ref)
        single = len(spellfire_rows.brackets_of(current)) == 1
        view = in_progress_view(current, "Final" if single else f"Round {current.number}",
                                pairings, self.slip(event, current))
        playing = len({row.player for row in current.rows})
        return with_round_in_progress(done, event, view,
                                      current.number - 1 + rounds_to_play(playing))


class _Scorer:
    def __init__(self, event: Event, players: int | None = None):
        """`players`: everyone in the event, when `event` is an event without its round in
        progress (whose players count toward a scored tournament too)."""
        self.event = event
        self.options: SpellfireOptions = event.options
        self.log = ProblemLog()
        self.brackets = [brackets(r, self.log) for r in event.rounds]
        self.final_round = final_round_of(self.brackets, event.info.status == "final")
        self.chances = another_chance(self.brackets)
        self.after = score_rounds(self.brackets, self.final_round, self.chances)
        for index, round_ in enumerate(event.rounds):
            if round_.number in self.chances:
                advanced = {b.winner for b in self.brackets[index - 1]}
                check_another_chance(round_, self.chances[round_.number], self.after[index - 1],
                                     advanced, self.log)
        self.players = players or (len(self.after[-1]) if self.after else 0)
        self.scored_event = self.players >= SCORED_MINIMUM
        status = event.info.status
        self.complete = status == "final" or (status is None and self.final_round is not None)
        if status == "final" and self.after and self.final_round is None:
            self.log.warning(f"{event.folder}/event.toml", event.line_of("status"),
                             f'status = "final" but round {event.rounds[-1].number} is not a final '
                             "(a single bracket of the advancing players): no winner is named")
        ref = event.ref
        played = {ref(name).id for name in (self.after[-1] if self.after else {})}
        self.officials = [Official(ref(name), role, points) for name, role, points in
                          official_points(self.players, self.options.coordinator,
                                          event.info.judges, played, lambda n: ref(n).id)]

    def scored(self) -> ScoredEvent:
        rounds = []
        for index, round_ in enumerate(self.event.rounds):
            after = self.after[index]
            final = self.complete and index == len(self.event.rounds) - 1
            label = "Final" if round_.number == self.final_round else f"Round {round_.number}"
            title = "Final standings" if final else f"Standings after round {round_.number}"
            standings = standings_view(after, title, round_.number, final, self.final_round,
                                       self.officials if final else (), self.event.ref,
                                       {"scored": self.scored_event})
            tables = bracket_views(self.brackets[index], after, self.chances.get(round_.number),
                                   self.event.ref)
            pairings = round_pairings(round_, self.brackets[index], self.event.ref)
            rounds.append(RoundView(round_.number, label, round_.path, ROUND_TEMPLATE, tables,
                                    standings, pairings=pairings))
        standings = rounds[-1].standings if rounds else None
        winner = self.brackets[-1][0].winner if self.final_round and self.complete else None
        return ScoredEvent(
            event=self.event, display_name=self.options.shorthand(), details=self._details(),
            planned_rounds=None, complete=self.complete, standings=standings,
            rounds=tuple(rounds), bracket=self._grid(), players=self._players(),
            warnings=tuple(self.log.problems), winner=self.event.ref(winner) if winner else None,
            status_line=self._status_line(), ranking=self._ranking(),
            subtitle=self.event.info.name,
            ranking_note="" if self.scored_event else self._unscored_reason())

    def _unscored_reason(self) -> str:
        return (f"unscored: {self.players} players, and a scored SPELLFIRE tournament needs "
                f"{SCORED_MINIMUM} or more")

    def _scoring_detail(self) -> str:
        if not self.after:
            return f"Scored if {SCORED_MINIMUM} or more players take part"
        if self.scored_event:
            return "Scored: counts toward the rankings"
        reason = self._unscored_reason()
        return reason[0].upper() + reason[1:]

    def _details(self) -> tuple[tuple[str, str], ...]:
        o = self.options
        details = [("Tournament", o.tournament),
                   ("Victory", o.victory.title()), ("Deck size", str(o.deck_size))]
        if o.variants:
            details.append(("Variants", ", ".join(o.variants)))
        if o.coordinator:
            details.append(("Coordinator", o.coordinator))
        details.append(("Scoring", self._scoring_detail()))
        return tuple(details)

    def _status_line(self) -> str:
        played = len(self.event.rounds)
        if not played:
            return "No results yet"
        state = "Final" if self.complete else f"In progress: {played} round{'s' if played != 1 else ''} played"
        return state if self.scored_event else f"{state} · unscored"

    def _grid(self) -> Bracket:
        if not self.brackets:
            return Bracket(GRID_TEMPLATE, "Advancement grid", (), empty_message=(
                "The advancement grid appears here once round 1's brackets are in."))
        grid = advancement_grid(self.brackets, self.after[-1], self.chances, self.final_round,
                                self.event.ref)
        return Bracket(GRID_TEMPLATE, "Advancement grid", (), grid.champion if self.complete else None,
                       note=("Each box is a bracket, its players in place order; a bracket's winner "
                             "goes on to the box linked beside their name. A place the judge "
                             "decided, or shared on equal realms, says so under the name."), extra=grid)

    def _players(self) -> dict[str, PlayerResult]:
        if not self.after:
            return {}
        after, total = self.after[-1], len(self.after[-1])
        ranks = ranked(after)
        shared = {r for r, _ in ranks if sum(1 for x, _ in ranks if x == r) > 1}
        results = {}
        for rank, standing in ranks:
            finish = f"{'=' if rank in shared else ''}{ordinal(rank)} of {total}"
            if standing.last.final:
                finish = FINAL_FINISHES[standing.last.placing.place]
            notes = (f"another chance in round {standing.another_chance}",) if standing.another_chance else ()
            results[standing.name] = PlayerResult(
                self.event.ref(standing.name), rank, finish, str(standing.points),
                f"{standing.brackets_won} bracket{'s' if standing.brackets_won != 1 else ''} won",
                player_games(standing, self.event.ref), notes)
        for official in self.officials:
            results[official.player.name] = PlayerResult(
                official.player, None, official.role.capitalize(), str(official.points), "", ())
        return results

    def _ranking(self) -> tuple[RankingEntry, ...] | None:
        if not self.scored_event or not self.after:
            return None
        entries = [RankingEntry(result.player, int(result.points), result.finish, result.rank)
                   for result in self._players().values() if result.rank is not None]
        entries += [RankingEntry(o.player, o.points, o.role.capitalize(), None, o.role)
                    for o in self.officials]
        return tuple(entries)


__all__ = ["Spellfire"]
