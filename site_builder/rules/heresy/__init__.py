"""Heresy: Kingdom Come (Official Tournament Rules, seed 000).

Reascension and Revelations: multiplayer tables of 3 or 4 scored in points from tau. Armageddon:
best-of-three matches in single or double elimination.

The newest round may be in progress (progress.py): it is shown as its pairings, and the standings
stay those after the round before.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...core.model import Event, Round
from ...core.numbers import ordinal
from ...core.problems import ProblemLog
from ...files.textfiles import ColumnSpec, CsvTable
from ...files.tomlkeys import KeyReader
from ..base import Ruleset, SlipField
from ..views import Bracket, PlayerResult, RankingEntry, RoundView, ScoredEvent, Section, Standings
from ..elimination import Match, build_bracket, round_label
from ..forming import Context, Formed
from ..entry import Cell, Choice, Entry
from ..pairings import in_progress_view, with_round_in_progress
from . import armageddon, matches, multiplayer, progress, tables
from .options import HeresyOptions, read_options
from .views import (double_bracket, match_player_game, match_standings, match_views,
                    points_grid, table_player_games, table_standings, table_views, tau_line)

TABLE_ROUND = "games/heresy/tables_round.html"
MATCH_ROUND = "games/heresy/matches_round.html"
GRID = "games/heresy/points_grid.html"
SINGLE_BRACKET = "games/elimination_bracket.html"
DOUBLE_BRACKET = "games/heresy/double_bracket.html"
FORMAT_NAMES = {"reascension": "Reascension", "revelations": "Revelations",
                "armageddon": "Armageddon"}


class Heresy(Ruleset):
    game = "heresy"
    title = "Heresy: Kingdom Come"

    def entry(self, options: HeresyOptions) -> Entry:
        """Reascension and Revelations: the table's winner (or time, on every seat) and each
        seat's tau; Armageddon: each game of the match, won or lost, with its tau."""
        tau = Cell("tau", "Tau", low=0)  # past the goal it counts as the goal (3.2.5): no cap
        if options.multiplayer:
            return Entry(cells=(Cell("result", "Result", (Choice("", "—"), Choice("win", "Won"),
                                                          Choice("time", "Out of time"))), tau))
        return Entry(cells=(Cell("result", "Result", (Choice("", "—"), Choice("win", "Won"),
                                                      Choice("loss", "Lost")), optional=False),
                            tau), games=True, max_games=3)

    def round_minutes(self, event: Event, number: int) -> int | None:
        """3.2.4: "each round have a 75 minute time limit"; Armageddon recommends a limit per
        match without a number (4.2.4)."""
        return 75 if event.options.multiplayer else None

    def read_options(self, keys: KeyReader) -> HeresyOptions:
        return read_options(keys)

    def columns(self, options: HeresyOptions) -> ColumnSpec:
        return tables.COLUMNS if options.multiplayer else matches.COLUMNS

    def read_rows(self, table: CsvTable, shown: str, options: HeresyOptions, log: ProblemLog) -> tuple:
        if options.multiplayer:
            return tables.read_rows(table, shown, log)
        return matches.read_rows(table, shown, log)

    def pending(self, round_: Round) -> list:
        """The round's rows still waiting for their result."""
        return progress.pending(round_)

    def everyone_plays(self, event: Event, number: int) -> bool:
        """Every Reascension and Revelations round (everyone is seated at a table each round);
        no Armageddon round, where only the match winners (and, in double elimination, the
        once-beaten) go on."""
        return number >= 1 and event.options.multiplayer

    def validate(self, event: Event, log: ProblemLog) -> None:
        options: HeresyOptions = event.options
        progress.check_in_progress(event, options.multiplayer, log)
        if options.multiplayer:
            for round_ in event.rounds:
                tables.check_round(round_, log)
            return
        for round_ in event.rounds:
            matches.check_round(round_, log)
        if not log.has_errors():
            played = [matches.matches_of(r) for r in event.rounds]
            armageddon.check_eligibility(event.rounds, played, options.elimination, log)

    def score(self, event: Event) -> ScoredEvent:
        """The rounds whose results are all in are scored; a round still being played (the
        newest) is shown as its pairings, and the standings stay those after the round before."""
        current = event.rounds[-1] if event.rounds and progress.pending(event.rounds[-1]) else None
        at_tables = event.options.multiplayer  # Reascension, Revelations; else Armageddon
        if current is None:
            return (_TableScorer if at_tables else _MatchScorer)(event).scored()
        before, slip = replace(event, rounds=event.rounds[:-1]), self.slip(event, current)
        if at_tables:
            return _TableScorer(before, players=registered(event)).in_progress(current, event, slip)
        return _MatchScorer(before, first_round=first_round_players(event)).in_progress(
            current, event, slip)

    def slip(self, event: Event, round_: Round) -> tuple[SlipField, ...]:
        return progress.TABLE_SLIP if event.options.multiplayer else progress.MATCH_SLIP

    def form(self, context: Context) -> Formed:
        from . import pairing  # here, as every game's (see Ruleset.form)
        return pairing.form(context)


def registered(event: Event) -> int:
    return len(event.registrations) or len({r.player for rnd in event.rounds for r in rnd.rows})


def first_round_players(event: Event) -> int:
    """Players of round 1 (waiting rows too): the size of a single-elimination bracket."""
    return len({row.player for row in event.rounds[0].rows}) if event.rounds else 0


def single_rounds(first_round: int) -> int:
    """Rounds of single elimination from `first_round` players: each round halves them, a bye
    taking the odd one on."""
    return math.ceil(math.log2(first_round)) if first_round > 1 else 1


def armageddon_label(elimination: str, first_round: int, index: int) -> str:
    """Round `index` (0-based) as pages and `pair` name it: "Semi-finals" in single
    elimination, "Round 3" in double."""
    rounds = single_rounds(first_round)
    if elimination == "single" and index < rounds:
        return round_label(2 ** (rounds - index))
    return f"Round {index + 1}"


class _TableScorer:
    """Reascension / Revelations."""

    def __init__(self, event: Event, players: int | None = None):
        """`players`: the registered players, when `event` is an event without its round in
        progress (whose players count too)."""
        self.event = event
        self.options: HeresyOptions = event.options
        self.log = ProblemLog()
        self.players = players or registered(event)
        self.minimum = multiplayer.minimum_rounds(self.players)
        self.planned = self.options.rounds or self.minimum
        self.played = {r.number: multiplayer.round_results(r, self.options) for r in event.rounds}
        self.after: dict[int, list[multiplayer.Ranked]] = {}
        before: list[multiplayer.Ranked] = []
        for round_ in event.rounds:
            multiplayer.check_groupings(round_, before, self.log)
            before = self.after[round_.number] = multiplayer.rank(
                multiplayer.records_after(self.played, round_.number))
        self.last = event.rounds[-1].number if event.rounds else 0
        status = event.info.status
        self.complete = status == "final" or (status is None and self.last >= self.planned)

    def scored(self) -> ScoredEvent:
        self._check_structure()
        ref = self.event.ref
        rounds = []
        for round_ in self.event.rounds:
            k = round_.number
            final = self.complete and k == self.last
            title = "Final standings" if final else f"Standings after round {k}"
            standings = table_standings(self.after[k], title, k, final, self.options, ref)
            rounds.append(RoundView(k, f"Round {k}", round_.path, TABLE_ROUND,
                                    table_views(round_, self.played[k], ref), standings,
                                    pairings=progress.table_pairings(round_, ref)))
        standings = rounds[-1].standings if rounds else None
        final_rank = self.after.get(self.last, [])
        sections = ()
        if final_rank:
            grid = points_grid(final_rank, [r.number for r in self.event.rounds], ref)
            sections = (Section("Points by round", GRID, grid),)
        top = [r for r in final_rank if r.rank == 1]
        players = self._players(final_rank)
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name, details=self._details(),
            planned_rounds=self.planned, complete=self.complete, standings=standings,
            rounds=tuple(rounds), bracket=None, players=players,
            warnings=tuple(self.log.problems),
            winner=ref(top[0].record.name) if self.complete and len(top) == 1 else None,
            status_line=self._status_line(), sections=sections,
            ranking=tuple(RankingEntry(r.player, int(r.points), r.finish, r.rank)
                          for r in players.values()))

    def in_progress(self, current: Round, event: Event, slip: tuple[SlipField, ...]) -> ScoredEvent:
        """The event scored without `current`, the round being played, which is added as its
        pairings (its tables' sizes checked against 3.2.2 like any round's)."""
        before = self.after.get(self.last, [])
        multiplayer.check_groupings(current, before, self.log)
        done = self.scored()
        view = in_progress_view(current, f"Round {current.number}",
                                progress.table_pairings(current, event.ref), slip)
        return with_round_in_progress(done, event, view, max(self.planned, current.number))

    def _check_structure(self) -> None:
        toml = f"{self.event.folder}/event.toml"
        if self.players < 6:
            self.log.warning(toml, self.event.line_of("format"),
                             f"{self.players} players: a Reascension tournament is for 6 or more "
                             "(seed 3.1)")
        if self.options.rounds is not None and self.options.rounds < self.minimum:
            self.log.warning(toml, self.event.line_of("rounds"),
                             f"rounds = {self.options.rounds} is fewer than seed 3.2.3 asks for "
                             f"{self.players} players: at least {self.minimum} (4, plus one per "
                             "full fifteen players)")
        played = len(self.event.rounds)
        if self.complete and played < self.planned:
            self.log.warning(toml, self.event.line_of("status"),
                             f"the event is final after {played} round{'s' if played != 1 else ''}; "
                             f"seed 3.2.3 asks for at least {self.minimum} with {self.players} "
                             "players" if played < self.minimum else
                             f"the event is final after {played} of the {self.planned} announced "
                             "rounds")

    def _details(self) -> tuple[tuple[str, str], ...]:
        o = self.options
        fmt = (f"{FORMAT_NAMES[o.format]} — tables of 3 and 4, tau goal {o.tau_goal}, a win scores "
               f"{o.win_points}")
        how = "announced" if o.rounds else f"seed 3.2.3 for {self.players} players"
        return (("Format", fmt), ("Rounds", f"{self.planned} ({how})"))

    def _status_line(self) -> str:
        played = len(self.event.rounds)
        if not played:
            return "No results yet"
        if self.complete:
            return "Final"
        return f"In progress: {played} of {self.planned} rounds played"

    def _players(self, ranked: list[multiplayer.Ranked]) -> dict[str, PlayerResult]:
        total = len(ranked)
        results = {}
        for r in ranked:
            shared = sum(other.rank == r.rank for other in ranked) > 1
            finish = f"{'=' if shared else ''}{ordinal(r.rank)} of {total}"
            record = r.record
            notes = (f"dropped after round {record.results[-1].round}",) if record.dropped else ()
            results[record.name] = PlayerResult(
                self.event.ref(record.name), r.rank, finish, str(record.points),
                f"{record.wins} win{'s' if record.wins != 1 else ''}",
                table_player_games(record.results, self.event.ref), notes)
        return results


class _MatchScorer:
    """Armageddon: best-of-three matches, single or double elimination."""

    def __init__(self, event: Event, first_round: int | None = None):
        """`first_round`: the players of round 1, when `event` is an event without its round in
        progress (which may be round 1)."""
        self.event = event
        self.options: HeresyOptions = event.options
        self.log = ProblemLog()
        self.matches = [matches.matches_of(r) for r in event.rounds]
        self.states = armageddon.play(self.matches, self.options.elimination)
        armageddon.check_byes(event.rounds, self.states, self.options.elimination, self.log)
        self.last = event.rounds[-1].number if event.rounds else 0
        champion = self.states[-1].champion if self.states else None
        status = event.info.status
        self.complete = status == "final" or (status is None and champion is not None)
        if status == "final" and self.states and champion is None:
            alive = self.states[-1].alive()
            self.log.warning(f"{event.folder}/event.toml", event.line_of("status"),
                             f"status = \"final\" but {len(alive)} players are still in "
                             f"({', '.join(alive)}): no champion is named until one remains")
        self.first_round = first_round or first_round_players(event)
        self.single_rounds = single_rounds(self.first_round)

    def scored(self) -> ScoredEvent:
        ref = self.event.ref
        rounds = []
        for index, (round_, state) in enumerate(zip(self.event.rounds, self.states)):
            final = self.complete and round_.number == self.last
            title = "Final standings" if final else f"Standings after round {round_.number}"
            places = armageddon.places(state, final, self._round_name)
            standings = match_standings(places, title, round_.number, final, ref,
                                        self.options.elimination)
            rounds.append(RoundView(round_.number, self._label(index), round_.path, MATCH_ROUND,
                                    match_views(state.placed[-1], ref), standings,
                                    pairings=progress.match_pairings(round_, ref)))
        standings = rounds[-1].standings if rounds else None
        state = self.states[-1] if self.states else None
        champion = state.champion if state and self.complete else None
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name, details=self._details(),
            planned_rounds=None, complete=self.complete, standings=standings, rounds=tuple(rounds),
            bracket=self._bracket(), players=self._players(standings),
            warnings=tuple(self.log.problems), winner=ref(champion) if champion else None,
            status_line=self._status_line(),
            ranking_note="Armageddon has no points to rank: its events are not counted")

    def in_progress(self, current: Round, event: Event, slip: tuple[SlipField, ...]) -> ScoredEvent:
        """The event scored without `current`, the round being played, which is added as its
        pairings."""
        done = self.scored()
        view = in_progress_view(current, self._label(current.number - 1),
                                progress.match_pairings(current, event.ref), slip)
        planned = max(self.single_rounds, current.number)
        scored = with_round_in_progress(done, event, view, planned)
        if self.options.elimination == "double":  # as many rounds as the losses make
            scored.status_line = f"In progress: round {current.number} being played"
        return scored

    def _round_name(self, number: int) -> str:
        """How a round is named in a sentence: 'the Semi-finals', or 'round 3'."""
        label = self._label(number - 1)
        return f"the {label}" if not label.startswith("Round") else label.lower()

    def _label(self, index: int) -> str:
        return armageddon_label(self.options.elimination, self.first_round, index)

    def _bracket(self) -> Bracket:
        ref = self.event.ref
        title = f"{self.options.elimination.title()} elimination bracket"
        if not self.matches:
            return Bracket(SINGLE_BRACKET, title, (), empty_message=(
                "The bracket appears here once the first round's matches are in."))
        state = self.states[-1]
        champion = state.champion if self.complete else None
        if self.options.elimination == "double":
            view = double_bracket(state.placed, ref)
            return Bracket(DOUBLE_BRACKET, title, (), ref(champion) if champion else None,
                           note=("Winners' and losers' brackets are read from the results: two "
                                 "unbeaten players meet in the winners' bracket, two once-beaten "
                                 "players in the losers' bracket; a second loss puts a player out."),
                           extra=view)
        played = [[self._as_match(m) for m in round_matches] for round_matches in self.matches]
        rounds = build_bracket(played, self.single_rounds, 1, {}, ref, project=False)
        return Bracket(SINGLE_BRACKET, title, rounds, ref(champion) if champion else None)

    @staticmethod
    def _as_match(m: matches.MatchResult) -> Match:
        return Match(m.table or 0, m.players, m.winner, {p: m.score(p) for p in m.players},
                     {p: tau_line(m, p) for p in m.players if not m.is_bye})

    def _details(self) -> tuple[tuple[str, str], ...]:
        o = self.options
        return (("Format", f"Armageddon — {o.elimination} elimination, best-of-three matches, "
                           f"tau goal {o.tau_goal}"),)

    def _status_line(self) -> str:
        if not self.event.rounds:
            return "No results yet"
        if self.complete:
            return "Final"
        alive = len(self.states[-1].alive())
        return f"In progress: {alive} player{'s' if alive != 1 else ''} still in"

    def _players(self, standings: Standings | None) -> dict[str, PlayerResult]:
        if standings is None:
            return {}
        games: dict[str, list] = {}
        for index, round_matches in enumerate(self.matches):
            for match in round_matches:
                for name in match.players:
                    games.setdefault(name, []).append(
                        match_player_game(match, self._label(index), name, self.event.ref))
        results = {}
        for row in standings.rows:
            name = row.player.name
            v = row.values
            results[name] = PlayerResult(
                row.player, row.rank, v["finish"], f"{v['games_won']}–{v['games_lost']} games",
                f"{v['matches_won']}–{v['matches_lost']}", tuple(games.get(name, ())), row.notes,
                points_label="Tau")
        return results


__all__ = ["Heresy"]
