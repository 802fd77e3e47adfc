"""A Conquest event that is single elimination from round 1 (`swiss_rounds = 0`; seed 001,
"Single Elimination Rounds": "tournaments which begin with single elimination rounds").

There are no Swiss rounds, so no tournament points and no Swiss rank: players are placed by how
far they got (the champion, the finalist, the semi-finalists, …), and the players the rules cannot
separate, those who went out in the same round, share a place. Such an event earns no ranking
points (the rankings count tournament points, which only Swiss rounds give).
"""

from __future__ import annotations

from ...core.model import Event
from ..elimination import (
    Match,
    bracket_size,
    build_bracket,
    champion,
    expected_games,
    progress,
    round_label,
)
from ..eliminationchecks import check_elimination_pairings
from ..tiebreaks import shared_ranks
from ..twoplayer import is_complete, status_line
from ..views import (
    Bracket,
    Column,
    PlayerGame,
    PlayerResult,
    RoundView,
    ScoredEvent,
    StandingRow,
    Standings,
)
from .scoring import elimination_matches
from .structure import Plan
from .views import finish_text, round_pairings, round_tables

ROUND_TEMPLATE = "games/conquest/round.html"
BRACKET_TEMPLATE = "games/elimination_bracket.html"
COLUMNS = (Column("finish", "Finish", "text", numeric=False, deciding=True),
           Column("wins", "Wins", "int", "games won, byes included"))
NOT_RANKED = "single elimination only: no Swiss rounds, so no tournament points"


class KnockoutScorer:
    def __init__(self, event: Event, plan: Plan):
        self.event, self.plan = event, plan
        self.matches: list[list[Match]] = []
        for round_ in event.rounds:
            previous = self.matches[-1] if self.matches else None
            self.matches.append(elimination_matches(round_, expected_games(previous, [], plan.cut)))
        self.complete = is_complete(event, plan.total_rounds)

    def scored(self, log) -> ScoredEvent:
        for i in range(1, len(self.matches)):
            check_elimination_pairings(self.event.rounds[i], self.matches[i - 1], self.matches[i],
                                       log)
        rounds = tuple(self._round_view(i) for i in range(len(self.event.rounds)))
        standings = rounds[-1].standings if rounds else None
        bracket = self._bracket()
        return ScoredEvent(
            event=self.event, display_name=self.event.info.name,
            details=(("Structure", self.plan.describe()),),
            planned_rounds=self.plan.total_rounds, complete=self.complete, standings=standings,
            rounds=rounds, bracket=bracket, players=self._players(standings),
            warnings=tuple(log.problems),
            winner=bracket.champion if self.complete else None,
            status_line=status_line(self.event, self.plan.total_rounds, self.complete),
            ranking=None, ranking_note=NOT_RANKED)

    def _label(self, index: int) -> str:
        return round_label(bracket_size(self.plan.elimination_rounds, index))

    def _round_view(self, index: int) -> RoundView:
        round_ = self.event.rounds[index]
        final = self.complete and index == len(self.event.rounds) - 1
        title = "Final standings" if final else f"Standings after the {self._label(index)}"
        return RoundView(round_.number, self._label(index), round_.path, ROUND_TEMPLATE,
                         round_tables(round_, True, self.event.ref, {}),
                         self._standings(self.matches[:index + 1], title, round_.number, final),
                         pairings=round_pairings(round_, True, self.event.ref))

    def _standings(self, played: list[list[Match]], title: str, after: int, final: bool) -> Standings:
        reached = progress(played)
        wins = {name: sum(m.winner == name for ms in played for m in ms) for name in reached}
        order = sorted(reached, key=lambda n: (-reached[n].order, n.casefold(), n))
        ranks = shared_ranks([reached[n].order for n in order])
        return Standings(
            title=title, after_round=after, complete=final, columns=COLUMNS,
            rows=tuple(StandingRow(rank, self.event.ref(name),
                                   {"finish": finish_text(reached[name], self.plan, final),
                                    "wins": wins[name]})
                       for rank, name in zip(ranks, order)),
            explanation=("Single elimination from the first round: the champion comes first, then "
                         "the finalist, then each earlier round's losers, who share their place "
                         "(no Swiss rounds rank them)."),
            phase="elimination")

    def _bracket(self) -> Bracket:
        title = f"Bracket of {self.plan.cut}"
        if not self.matches:
            return Bracket(BRACKET_TEMPLATE, title, (), empty_message=(
                "The bracket appears here once the first round is paired."))
        rounds = build_bracket(self.matches, self.plan.elimination_rounds, 1, {}, self.event.ref)
        winner = champion(self.matches, self.plan.elimination_rounds)
        return Bracket(BRACKET_TEMPLATE, title, rounds,
                       self.event.ref(winner) if winner else None)

    def _players(self, standings: Standings | None) -> dict[str, PlayerResult]:
        if standings is None:
            return {}
        results = {}
        for row in standings.rows:
            name = row.player.name
            games = tuple(self._game_line(index, match, name)
                          for index, matches in enumerate(self.matches)
                          for match in matches if name in match.players)
            results[name] = PlayerResult(row.player, row.rank, row.values["finish"] or "",
                                         str(row.values["wins"]), f"{row.values['wins']} won",
                                         games)
        return results

    def _game_line(self, index: int, match: Match, name: str) -> PlayerGame:
        result = {"W": "Win", "MW": "Modified win", "L": "Loss", "bye": "Bye"}[match.marks[name]]
        return PlayerGame(self.event.rounds[index].number, self._label(index), str(match.number),
                          tuple(self.event.ref(p) for p in match.players if p != name), result, "",
                          outcome=match.outcome(name))
