"""Scoring one event of a declared game: the Swiss standings after every round, then the cut
and single elimination, as Conquest's seed runs them (rules/conquest/__init__.py's _Scorer is
the model; the elimination stage is the shared one of rules/elimination.py)."""

from __future__ import annotations

from ...core.model import Event, Round
from ...core.numbers import exact_points, ordinal
from ...core.problems import ProblemLog
from ..elimination import (Match, bracket_size, cut_bracket, expected_games, finish_text,
                           progress, round_label)
from ..eliminationchecks import check_cut, check_elimination_pairings
from ..seating import tables_of
from ..swiss import pairing_departures
from ..twoplayer import Absence, check_final_too_early, is_complete, status_line
from ..views import (Bracket, Column, PlayerResult, RankingEntry, RoundView, ScoredEvent,
                     Standings)
from . import Plan
from .model import Declaration
from .ranking import Ranked, rank
from .rows import BY_POINTS, outcome_of
from .tally import Record, records_extended, round_results
from .views import (FINAL_LEAD, columns, elimination_row, explanation, player_games, points_text,
                    record_text, round_pairings, round_tables, swiss_standings, tiebreak_labels)

ROUND_TEMPLATE = "games/declared/round.html"
BRACKET_TEMPLATE = "games/elimination_bracket.html"


class DeclaredScorer:
    def __init__(self, event: Event, plan: Plan, declaration: Declaration):
        self.event, self.plan, self.declaration = event, plan, declaration
        self.seed = event.info.seed
        self.log = ProblemLog()
        self.swiss_rounds = [r for r in event.rounds if r.number <= plan.swiss_rounds]
        self.elimination_rounds = [r for r in event.rounds if r.number > plan.swiss_rounds]
        self.results = {r.number: round_results(r, declaration) for r in self.swiss_rounds}
        self.after: dict[int, list[Ranked]] = {}
        records: dict[str, Record] = {}
        before: list[Ranked] = []
        met: dict[frozenset, int] = {}
        for round_ in self.swiss_rounds:
            self._check_round(round_, before, met)
            records = records_extended(records, self.results[round_.number], round_.number,
                                       declaration)
            before = self.after[round_.number] = rank(records, declaration, self.seed)
        self.last_swiss = before
        self.latest = {row.name: row.record for row in before}
        self.swiss_done = len(self.swiss_rounds) == plan.swiss_rounds
        self.cut = ([row.name for row in before if not row.record.dropped][:plan.cut]
                    if self.swiss_done else [])
        rank_of = {row.name: row.rank for row in before}
        self.matches: list[list[Match]] = []
        for round_ in self.elimination_rounds:
            previous = self.matches[-1] if self.matches else None
            seeds = sorted({r.player for r in round_.rows}, key=lambda n: rank_of.get(n, 0))
            self.matches.append(_matches(round_, expected_games(previous, seeds, plan.cut),
                                         declaration))
        self.last_number = event.rounds[-1].number if event.rounds else 0
        self.complete = is_complete(event, plan.total_rounds)

    # ------------------------------------------------------------ warnings

    def _check_round(self, round_: Round, before: list[Ranked], met: dict) -> None:
        """Rematches and pairings that depart from point groups: warnings (the organizer's
        pairings stand), as for Conquest."""
        results = self.results[round_.number]
        pairs = sorted({tuple(sorted((n, r.against))) for n, r in results.items()
                        if r.against and r.played})
        for a, b in pairs:
            key = frozenset((a, b))
            if key in met:
                self.log.warning(round_.path, results[a].line,
                                 f"{a} and {b} already played each other in round {met[key]}: "
                                 "Swiss pairing avoids a rematch")
        for a, b in pairs:
            met.setdefault(frozenset((a, b)), round_.number)
        if before:
            points = {row.name: exact_points(row.record.points) for row in before}
            known = [(a, b) for a, b in pairs if a in points and b in points]
            for player, message in pairing_departures(points, known):
                self.log.warning(round_.path, results[player].line, message)

    def _check_cut(self) -> None:
        """A cut no larger than the field, and the first elimination round against it."""
        plan, event = self.plan, self.event
        if plan.cut and plan.players and plan.cut > plan.players:
            key = "cut" if "cut" in event.key_lines else "game"
            self.log.warning(f"{event.folder}/event.toml", event.line_of(key),
                             f"a top-{plan.cut} cut with {plan.players} registered players: "
                             f"everyone makes it, and {plan.cut - plan.players} byes fill the "
                             "bracket (set cut in event.toml to a smaller one)")
        if self.matches:
            check_cut(self.elimination_rounds[0], self.matches[0], self.cut, self.last_swiss,
                      plan.cut, self.log)
            for i in range(1, len(self.matches)):
                check_elimination_pairings(self.elimination_rounds[i], self.matches[i - 1],
                                           self.matches[i], self.log)

    # ------------------------------------------------------------ the event

    def scored(self) -> ScoredEvent:
        check_final_too_early(self.event, self.plan.total_rounds, self.plan.describe(), self.log)
        self._check_cut()
        swiss = self._swiss_views()
        rounds = swiss + self._elimination_views(swiss[-1].standings if swiss else None)
        standings = rounds[-1].standings if rounds else None
        bracket = self._bracket()
        players = self._players(standings)
        winner = None
        if self.complete and standings is not None and standings.rows:
            winner = (bracket.champion if bracket is not None and bracket.champion
                      else standings.rows[0].player if not self.plan.cut else None)
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name,
            details=(("Game", self.declaration.name), ("Structure", self.plan.describe())),
            planned_rounds=self.plan.total_rounds, complete=self.complete, standings=standings,
            rounds=tuple(rounds), bracket=bracket, players=players,
            warnings=tuple(self.log.problems), winner=winner,
            status_line=status_line(self.event, self.plan.total_rounds, self.complete),
            ranking=self._ranking(players))

    def _ranking(self, players: dict[str, PlayerResult]) -> tuple[RankingEntry, ...]:
        """Each player's Swiss points toward the game's ranking, exact (chess's halves are
        kept as halves: RankingEntry.denominator)."""
        found = []
        for name, result in players.items():
            points = self.latest[name].points
            found.append(RankingEntry(result.player, points.numerator, result.finish, result.rank,
                                      denominator=points.denominator))
        return tuple(found)

    def _swiss_views(self) -> list[RoundView]:
        views = []
        for round_ in self.swiss_rounds:
            k = round_.number
            final = self.complete and k == self.last_number
            last_swiss = k == self.plan.swiss_rounds and self.plan.cut
            title = ("Final standings" if final and not last_swiss else
                     f"Swiss standings after round {k}" if last_swiss else
                     f"Standings after round {k}")
            cut_line = 0
            if last_swiss:
                qualified = set(self.cut)
                cut_line = max((r.rank for r in self.after[k] if r.name in qualified), default=0)
            standings = swiss_standings(self.after[k], title, k, final, self.declaration,
                                        self.seed, self.event.ref,
                                        self.plan.cut if last_swiss else 0, cut_line)
            tables = round_tables(self.results[k], self.declaration, False, self.event.ref, {},
                                  self._absent(k))
            views.append(RoundView(k, f"Round {k}", round_.path, ROUND_TEMPLATE, tables, standings,
                                   pairings=round_pairings(round_, False, self.event.ref)))
        return views

    def _absent(self, number: int) -> list[Absence]:
        found = []
        for name, record in sorted(self.latest.items(), key=lambda item: item[0].casefold()):
            result = next((r for r in record.results if r.round == number), None)
            if result is not None and result.kind == "absent":
                found.append(Absence(self.event.ref(name), "absent"))
            elif record.dropped and record.last_round == number - 1:
                found.append(Absence(self.event.ref(name), "dropped"))
        return found

    def _seeds(self) -> dict[str, int]:
        rank_of = {row.name: row.rank for row in self.last_swiss}
        playing = (sorted({p for m in self.matches[0] for p in m.players}, key=rank_of.get)
                   if self.matches else self.cut)
        return {name: i + 1 for i, name in enumerate(playing)}

    def _elimination_views(self, swiss: Standings | None) -> list[RoundView]:
        views = []
        seeds = self._seeds()
        for i, round_ in enumerate(self.elimination_rounds):
            label = round_label(bracket_size(self.plan.elimination_rounds, i))
            final = self.complete and round_.number == self.last_number
            title = "Final standings" if final else f"Standings after the {label}"
            standings = self._final_standings(swiss, self.matches[: i + 1], title,
                                              round_.number, final)
            tables = round_tables(round_results(round_, self.declaration), self.declaration,
                                  True, self.event.ref, seeds, [])
            views.append(RoundView(round_.number, label, round_.path, ROUND_TEMPLATE, tables,
                                   standings, pairings=round_pairings(round_, True,
                                                                      self.event.ref)))
        return views

    def _final_standings(self, swiss: Standings, played: list[list[Match]], title: str,
                         after: int, final: bool) -> Standings:
        reached = progress(played)
        rows = sorted(swiss.rows, key=lambda row: (-(reached[row.player.name].order
                                                    if row.player.name in reached else 0),
                                                   row.rank))
        shown = []
        for position, row in enumerate(rows, start=1):
            where = reached.get(row.player.name)
            finish = finish_text(where, self.plan.elimination_rounds, final)
            shown.append(elimination_row(row, position, finish, None if where else row.tiebreak))
        return Standings(title=title, after_round=after, complete=final,
                         columns=FINAL_LEAD + (Column("points", "Points", "points"),)
                         + columns(self.declaration)[1:],
                         rows=tuple(shown), tiebreak_labels=tiebreak_labels(self.declaration),
                         explanation=(f"The top {self.plan.cut} after the Swiss rounds played "
                                      "single elimination: the champion first, then the "
                                      "finalist, then each earlier round's losers by Swiss rank, "
                                      "then everyone else by Swiss rank. "
                                      + explanation(self.declaration, self.seed)),
                         phase="elimination")

    def _bracket(self) -> Bracket | None:
        if not self.plan.cut:
            return None
        return cut_bracket(BRACKET_TEMPLATE, self.plan.cut, self.plan.swiss_rounds,
                           len(self.swiss_rounds), self.matches, self._seeds(), self.cut,
                           self.event.ref, self.complete)

    def _players(self, standings: Standings | None) -> dict[str, PlayerResult]:
        if standings is None:
            return {}
        games: dict[str, list[tuple[int, str, Match]]] = {}
        for i, (round_, matches) in enumerate(zip(self.elimination_rounds, self.matches)):
            label = round_label(bracket_size(self.plan.elimination_rounds, i))
            for match in matches:
                for name in match.players:
                    games.setdefault(name, []).append((round_.number, label, match))
        total = len(standings.rows)
        found = {}
        for row in standings.rows:
            name = row.player.name
            record = self.latest[name]
            finish = row.values.get("finish") or f"{ordinal(row.rank)} of {total}"
            found[name] = PlayerResult(row.player, row.rank, finish, points_text(record.points),
                                       record_text(record),
                                       player_games(record, self.declaration, self.event.ref,
                                                    games.get(name, [])),
                                       row.notes)
        return found


def _matches(round_: Round, expected: dict[str, int], declaration: Declaration) -> list[Match]:
    """The round's games; a bye written without a Game number takes the one the bracket gives
    its player, or else the first number no other game uses."""
    tables, loose = tables_of(round_)
    matches = []
    for number, rows in tables.items():
        winner = None
        marks = {}
        for row in rows:
            other = next((o for o in rows if o is not row), None)
            outcome = "win" if other is None else outcome_of(row, other, declaration)
            if outcome == "win":
                winner = row.player
            marks[row.player] = ("bye" if other is None else
                                 points_text(row.points) if row.result == BY_POINTS else
                                 {"win": "W", "loss": "L", "draw": "D"}[outcome])
        matches.append(Match(number, tuple(r.player for r in rows), winner, marks))
    taken = set(tables)
    for row in loose:
        number = expected.get(row.player)
        if number is None or number in taken:
            number = next(n for n in range(1, len(round_.rows) + 2) if n not in taken)
        taken.add(number)
        matches.append(Match(number, (row.player,), row.player, {row.player: "bye"}))
    return sorted(matches, key=lambda m: m.number)


__all__ = ["DeclaredScorer"]
