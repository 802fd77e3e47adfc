"""Cross-event rankings: every person's points over the events that count, one table per game.

As TSR did for SPELLFIRE: a running total per person (officials' points included), with the
number of events, the best finish and each event's contribution. Which events count is the
season in site.toml's [rankings]; an event counts only if its ruleset says it is ranked (a
SPELLFIRE event needs 9 players, for instance).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .config import RankingsConfig
from .jsonfile import dump_json
from .model import Person
from .rules.base import RankingEntry, ScoredEvent
from .rules.tiebreaks import shared_ranks


@dataclass(frozen=True, slots=True)
class Contribution:
    event: ScoredEvent
    entry: RankingEntry


@dataclass(frozen=True, slots=True)
class RankingRow:
    rank: int
    person: Person
    points: int
    contributions: tuple[Contribution, ...]
    """Newest first."""

    @property
    def events(self) -> int:
        return len(self.contributions)

    @property
    def best(self) -> Contribution:
        """The best place played (lowest rank, earliest event on ties), else the latest role."""
        played = [c for c in self.contributions if c.entry.rank is not None]
        if not played:
            return self.contributions[0]
        return min(reversed(played), key=lambda c: c.entry.rank)


@dataclass(frozen=True, slots=True)
class GameRanking:
    game: str
    title: str
    rows: tuple[RankingRow, ...]
    counted: tuple[ScoredEvent, ...]
    left_out: tuple[tuple[ScoredEvent, str], ...]
    """Events of the game that do not count, with the reason."""


def build_rankings(scored: list[ScoredEvent], people: dict[str, Person], titles: dict[str, str],
                   config: RankingsConfig) -> list[GameRanking]:
    """One ranking per game that has events, games in alphabetical order of their title."""
    by_game: dict[str, list[ScoredEvent]] = defaultdict(list)
    for event in sorted(scored, key=lambda s: (s.event.info.date, s.event.slug), reverse=True):
        by_game[event.event.info.game].append(event)
    rankings = []
    for game in sorted(by_game, key=lambda g: titles[g]):
        counted, left_out = [], []
        for event in by_game[game]:
            if not config.counts(event.event.info.date):
                left_out.append((event, f"outside the season ({config.describe()})"))
            elif event.ranking is None:
                left_out.append((event, event.ranking_note or "not ranked"))
            elif not event.complete:
                left_out.append((event, "still in progress"))
            else:
                counted.append(event)
        rankings.append(GameRanking(game, titles[game], _rows(counted, people), tuple(counted),
                                    tuple(left_out)))
    return rankings


def _rows(counted: list[ScoredEvent], people: dict[str, Person]) -> tuple[RankingRow, ...]:
    contributions: dict[str, list[Contribution]] = defaultdict(list)
    for event in counted:
        for entry in event.ranking or ():
            contributions[entry.player.id].append(Contribution(event, entry))
    totals = {pid: sum(c.entry.points for c in items) for pid, items in contributions.items()}
    order = sorted(totals, key=lambda pid: (-totals[pid], people[pid].name.casefold(), pid))
    ranks = shared_ranks([(totals[pid],) for pid in order])
    return tuple(RankingRow(rank, people[pid], totals[pid], tuple(contributions[pid]))
                 for rank, pid in zip(ranks, order))


def points_by_event(rankings: list[GameRanking]) -> dict[tuple[str, str], int]:
    """(event slug, person id) → points that event gives the person toward the ranking."""
    return {(c.event.event.slug, row.person.id): c.entry.points
            for ranking in rankings for row in ranking.rows for c in row.contributions}


def ranking_json(ranking: GameRanking, config: RankingsConfig) -> str:
    payload = {
        "game": ranking.game,
        "title": config.title,
        "season": {"from": config.start.isoformat() if config.start else None,
                   "until": config.end.isoformat() if config.end else None},
        "events": [e.event.slug for e in ranking.counted],
        "rankings": [
            {"rank": row.rank, "player": row.person.name, "player_id": row.person.id,
             "points": row.points, "events": row.events, "best_finish": row.best.entry.finish,
             "contributions": [{"event": c.event.event.slug, "points": c.entry.points,
                                "finish": c.entry.finish, "role": c.entry.role}
                               for c in row.contributions]}
            for row in ranking.rows
        ],
    }
    return dump_json(payload)
