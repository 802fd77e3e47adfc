"""Each game's ranking, kept between the builds of one engine and worked out again only when
what it reads changed: what the rankings read of each event (`EventFacts.ranking_digest`: an
event counts once it is complete) and the names of the people they name."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..core.digests import digest
from ..core.model import Person
from ..league.config import RankingsConfig
from ..pages.facts import EventFacts
from ..pages.rankings import GameRanking, build_rankings, ranked_event


class Known(NamedTuple):
    key: str
    """The digest of the ranking's inputs (also its JSON twin's page key)."""
    ranking: GameRanking
    season: RankingsConfig
    digests: tuple[str, ...]
    """Its events' ranking digests, newest first."""
    names: dict[str, str]
    """Person id → name, for everyone it names."""


class RankingCache:
    def __init__(self) -> None:
        self._known: dict[str, Known] = {}

    def of(self, season: RankingsConfig, facts: list[EventFacts], people: dict[str, Person],
           touched: frozenset[str] | None) -> list[GameRanking]:
        """Every game's ranking, by the games' titles. `touched`: the people whose events
        changed since the last call (siteplan.SitePlanner.touched), None when unknown: a game
        none of whose events' digests moved and none of whose people was renamed is kept
        without working out its key."""
        titles = {item.summary.game: item.summary.game_title for item in facts}
        by_game: dict[str, list[EventFacts]] = {}
        for item in facts:
            by_game.setdefault(item.summary.game, []).append(item)
        rankings = []
        for game in sorted(by_game, key=titles.__getitem__):
            events = by_game[game]
            digests = tuple(f.ranking_digest for f in events)
            known = self._known.get(game)
            if (known is not None and touched is not None and known.season == season
                    and known.digests == digests
                    and all(people[pid].name == known.names[pid]
                            for pid in touched.intersection(known.names))):
                rankings.append(known.ranking)
                continue
            named = {entry.player.id for f in events if f.summary.complete
                     for entry in f.ranking or ()}
            key = digest(season, titles[game], list(digests),
                         sorted((pid, people[pid].name) for pid in named))
            if known is None or known.key != key:
                ranked = [ranked_event(f, season) for f in events]
                ranking = replace(build_rankings(ranked, people, titles)[0], inputs=key)
            else:
                ranking = known.ranking
            self._known[game] = Known(key, ranking, season, digests,
                                      {pid: people[pid].name for pid in named})
            rankings.append(ranking)
        return rankings
