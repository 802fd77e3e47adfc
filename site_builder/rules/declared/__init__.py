"""A game declared in a file (data/games/<id>.toml, or one of the declarations shipped in
rules/declared/shipped/): Swiss rounds scored by the points it declares, ordered by the
tiebreaks it names from the fixed vocabulary (vocabulary.py), then single elimination of a
top cut, as Conquest's seed runs it. Everything a seed game gets: rounds in progress, `pair`
(the Conquest procedure), the cut, standings after every round, player pages, rankings, decks,
the desk.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...core.model import Event, Round
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ...files.tomlkeys import KeyReader
from ..base import Ruleset, SlipField
from ..elimination import bracket_size, round_label
from ..entry import Cell, Choice, Entry, Quick
from ..forming import Context, Formed
from ..pairings import (check_in_progress, in_progress_view, round_in_progress,
                        with_round_in_progress)
from ..twoplayer import registered_players
from ..views import ScoredEvent
from . import rows as declared_rows
from .model import CUTS, Declaration, stage_for
from .views import round_pairings, slip, word_label


@dataclass(frozen=True, slots=True)
class DeclaredOptions:
    swiss_rounds: int | None
    cut: int | None

    @property
    def format(self) -> str:
        return "swiss"


@dataclass(frozen=True, slots=True)
class Plan:
    players: int
    swiss_rounds: int
    cut: int
    chosen: bool
    """The event set its own rounds or cut, or the game has one number of rounds for every
    event: the player count did not decide them."""

    @property
    def elimination_rounds(self) -> int:
        return self.cut.bit_length() - 1 if self.cut else 0

    @property
    def total_rounds(self) -> int:
        return self.swiss_rounds + self.elimination_rounds

    def describe(self) -> str:
        cut = f"top {self.cut} cut" if self.cut else "no cut"
        rounds = f"{self.swiss_rounds} Swiss round{'s' if self.swiss_rounds != 1 else ''}, {cut}"
        return rounds if self.chosen else f"{self.players} registered players: {rounds}"


class DeclaredGame(Ruleset):
    """The ruleset of one declaration; `game` and `title` are the declaration's."""

    def __init__(self, declaration: Declaration):
        self.declaration = declaration
        self.game = declaration.game
        self.title = declaration.name

    def __repr__(self) -> str:  # page keys hold no ruleset, but messages might
        return f"DeclaredGame({self.game!r})"

    # ------------------------------------------------ reading

    def read_options(self, keys: KeyReader) -> DeclaredOptions:
        rounds = keys.integer("swiss_rounds", minimum=1, maximum=99, example="swiss_rounds = 5")
        cut = keys.integer("cut", minimum=0, example="cut = 8")
        if cut is not None and cut not in CUTS:
            keys.log.error(keys.doc.shown, keys.doc.line_of("cut"),
                           f"cut = {cut} is not a cut size: expected one of "
                           f"{', '.join(map(str, CUTS))} (0: no cut)")
            cut = None
        return DeclaredOptions(rounds, cut)

    def columns(self, options: Any) -> ColumnSpec:
        return declared_rows.columns(self.declaration)

    def read_rows(self, table: CsvTable, shown: str, options: Any, log: ProblemLog) -> tuple:
        return declared_rows.read_rows(table, shown, self.declaration, log)

    def plan(self, event: Event) -> Plan:
        options: DeclaredOptions = event.options
        players = registered_players(event)
        stage = stage_for(self.declaration.structure, players)
        rounds = options.swiss_rounds or stage.swiss_rounds
        cut = stage.cut if options.cut is None else options.cut
        by_count = len(self.declaration.structure) > 1
        return Plan(players, rounds, cut, options.swiss_rounds is not None or
                    options.cut is not None or not by_count)

    def validate(self, event: Event, log: ProblemLog) -> None:
        plan = self.plan(event)
        for round_ in event.rounds:
            declared_rows.check_round(round_, self.declaration, round_.number > plan.swiss_rounds,
                                      log)
        check_in_progress(event, declared_rows.pending_rows, log)
        if not any(r.partial for r in event.rounds):
            declared_rows.check_stages(event, plan.total_rounds, plan.swiss_rounds,
                                       plan.describe(), self.declaration, log)

    # ------------------------------------------------ rounds

    def everyone_plays(self, event: Event, number: int) -> bool:
        return 1 <= number <= self.plan(event).swiss_rounds

    def pending(self, round_: Round) -> list:
        return declared_rows.pending_rows(round_)

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return slip(self.declaration)

    def score(self, event: Event) -> ScoredEvent:
        from .scoring import DeclaredScorer
        plan = self.plan(event)
        current = round_in_progress(event, declared_rows.pending_rows)
        if current is None:
            return DeclaredScorer(event, plan, self.declaration).scored()
        done = DeclaredScorer(replace(event, rounds=event.rounds[:-1]), plan,
                              self.declaration).scored()
        elimination = current.number > plan.swiss_rounds
        label = (round_label(bracket_size(plan.elimination_rounds,
                                          current.number - plan.swiss_rounds - 1))
                 if elimination else f"Round {current.number}")
        view = in_progress_view(current, label, round_pairings(current, elimination, event.ref),
                                self.slip(event, current))
        return with_round_in_progress(done, event, view, plan.total_rounds)

    def form(self, context: Context) -> Formed:
        from .. import twoplayerpairing  # here: it loads networkx (see Ruleset.form)
        plan = self.plan(context.event)
        return twoplayerpairing.form(context, plan.swiss_rounds, plan.cut)

    def entry(self, options: Any) -> Entry | None:
        """A click on the winner (or on a draw), with the games won and drawn where the game
        records them, and each seat's points where rows carry them (Netrunner's 0-6: a table
        whose points are typed needs no word)."""
        declared = self.declaration
        choices = [Choice("", "—")] + [Choice(r.word, word_label(r.word))
                                       for r in declared.results]
        by = {o: [r.word for r in declared.results if r.outcome == o]
              for o in ("win", "draw", "loss")}
        quick = [Quick("wins" if i == 0 else w.replace("-", " "), w, by["loss"][0])
                 for i, w in enumerate(by["win"])]
        quick += [Quick("draw" if i == 0 else w.replace("-", " "), w, w)
                  for i, w in enumerate(by["draw"])]
        cells = [Cell("result", "Result", tuple(choices), optional=declared.points_column)]
        if declared.points_column:
            cells.append(Cell("points", "Points", low=0, high=int(declared.most_points),
                              decimals=declared.most_points.denominator != 1))
        if declared.game_records:
            cells += [Cell("games_won", "Games won", low=0, high=9),
                      Cell("games_drawn", "Games drawn", low=0, high=9)]
        return Entry(cells=tuple(cells), quick=tuple(quick), unplayed=by["loss"][0])

    def round_minutes(self, event: Event, number: int) -> int | None:
        return self.declaration.round_minutes


__all__ = ["DeclaredGame", "DeclaredOptions", "Plan"]
