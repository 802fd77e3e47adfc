"""Cross-event rankings: every person's points over the events that count, one table per game.

As TSR did for SPELLFIRE: a running total per person (officials' points included), with the
number of events, the best finish and each event's contribution. Which events count is the
season in site.toml's [rankings]; an event counts only if its ruleset says it is ranked (a
SPELLFIRE event needs 9 players, for instance) and it is final.

Worked out from scratch from each event's `RankedEvent`, the part of a scored event the rankings
read; the build keeps the result while those parts are unchanged.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..league.config import RankingsConfig
from ..core.jsonfile import dump_json
from ..core.model import Person
from .facts import EventFacts
from ..rules.views import RankingEntry, as_json_number
from ..core.numbers import exact_points
from fractions import Fraction
from ..rules.tiebreaks import shared_ranks

PAGE_SIZE = 100
"""Rows on each page of a game's ranking; the overview shows the first TOP_ROWS of each game."""
TOP_ROWS = 10


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event as the rankings page names it."""

    slug: str
    date: dt.date
    title: str
    subtitle: str

    @property
    def label(self) -> str:
        return self.subtitle or self.title


@dataclass(frozen=True, slots=True)
class RankedEvent:
    """What the rankings read of one event: its name and date, why it does not count (None when
    it counts) and, when it counts, what it gives each person."""

    game: str
    event: EventRef
    reason: str | None
    entries: tuple[RankingEntry, ...]


def ranked_event(facts: EventFacts, config: RankingsConfig) -> RankedEvent:
    summary = facts.summary
    ref = EventRef(summary.slug, summary.date, summary.name, summary.subtitle)
    if summary.example:
        reason = "an example event (example = true in its event.toml)"
    elif not config.counts(summary.date):
        reason = f"outside the season ({config.describe()})"
    elif facts.ranking is None:
        reason = facts.ranking_note or "not ranked"
    elif not summary.complete:
        reason = "still in progress"
    else:
        reason = None
    return RankedEvent(summary.game, ref, reason, facts.ranking or () if reason is None else ())


@dataclass(frozen=True, slots=True)
class RankingRow:
    rank: int
    person: Person
    points: int
    best_finish: str
    best_slug: str
    best_label: str
    contributions: tuple[tuple[EventRef, RankingEntry], ...]
    """Newest first."""

    @property
    def events(self) -> int:
        return len(self.contributions)

    @property
    def shown(self) -> tuple:
        """Everything its row on a page shows: rank, person, points, events and best finish.
        What each event gave is on the person's page and in the JSON twin, not in the row: a
        row would then change with every result of ten events, and weigh ten times more."""
        return (self.rank, self.person, self.points, self.events, self.best_finish,
                self.best_slug, self.best_label)


@dataclass(frozen=True, slots=True)
class GameRanking:
    game: str
    title: str
    rows: tuple[RankingRow, ...]
    counted: tuple[EventRef, ...]
    left_out: tuple[tuple[EventRef, str], ...]
    """Events of the game that do not count, with the reason; both lists newest first."""
    inputs: str = ""
    """The digest of everything the ranking was worked out from (set by the build): equal
    digests, equal rankings."""

    @property
    def url(self) -> str:
        return f"rankings/{self.game}/"

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows) // PAGE_SIZE))

    def page_url(self, number: int) -> str:
        return self.url if number == 1 else f"{self.url}page/{number}/"

    def page_rows(self, number: int) -> tuple[RankingRow, ...]:
        return self.rows[(number - 1) * PAGE_SIZE:number * PAGE_SIZE]


def build_rankings(events: Iterable[RankedEvent], people: dict[str, Person],
                   titles: dict[str, str]) -> list[GameRanking]:
    """One ranking per game that has events, games in alphabetical order of their title."""
    by_game: dict[str, list[RankedEvent]] = defaultdict(list)
    for event in events:
        by_game[event.game].append(event)
    return [game_ranking(game, titles[game], by_game[game], people)
            for game in sorted(by_game, key=titles.__getitem__)]


def game_ranking(game: str, title: str, events: list[RankedEvent],
                 people: dict[str, Person]) -> GameRanking:
    events = sorted(events, key=lambda e: (e.event.date, e.event.slug), reverse=True)
    earned: dict[str, list[tuple[EventRef, RankingEntry]]] = defaultdict(list)
    for event in events:  # newest first, so each person's list is too
        for entry in event.entries:
            earned[entry.player.id].append((event.event, entry))
    standings = [_standing(people[pid], contributions) for pid, contributions in earned.items()]
    standings.sort(key=lambda s: (-s[1], s[0].name.casefold(), s[0].id))
    ranks = shared_ranks([points for _, points, _ in standings])
    rows = tuple(_row(rank, person, points, contributions)
                 for rank, (person, points, contributions) in zip(ranks, standings))
    return GameRanking(game, title, rows,
                       tuple(e.event for e in events if e.reason is None),
                       tuple((e.event, e.reason) for e in events if e.reason is not None))


def _standing(person: Person, contributions: list) -> tuple[Person, int, tuple]:
    if all(entry.denominator == 1 for _, entry in contributions):  # every seed game
        return person, sum(entry.points for _, entry in contributions), tuple(contributions)
    total = sum((Fraction(entry.points, entry.denominator) for _, entry in contributions),
                Fraction(0))
    return person, exact_points(total), tuple(contributions)


def _row(rank: int, person: Person, points: int, contributions: tuple) -> RankingRow:
    """The best place played (lowest rank, earliest event on ties), else the latest role."""
    played = [(event, entry) for event, entry in contributions if entry.rank is not None]
    best_event, best = (min(reversed(played), key=lambda c: c[1].rank) if played
                        else contributions[0])
    return RankingRow(rank, person, points, best.finish, best_event.slug, best_event.label,
                      contributions)


def ranking_json(ranking: GameRanking, config: RankingsConfig) -> str:
    """The JSON twin of a game's ranking: every row, with every contribution."""
    return dump_json({
        "game": ranking.game, "title": config.title,
        "season": {"from": config.start.isoformat() if config.start else None,
                   "until": config.end.isoformat() if config.end else None},
        "events": [ref.slug for ref in ranking.counted],
        "rankings": [_row_json(row) for row in ranking.rows]})


def _row_json(row: RankingRow) -> dict[str, Any]:
    return {"rank": row.rank, "player": row.person.name, "player_id": row.person.id,
            "points": as_json_number(row.points), "events": row.events,
            "best_finish": row.best_finish,
            "contributions": [{"event": event.slug, "points": as_json_number(entry.value),
                               "finish": entry.finish, "role": entry.role}
                              for event, entry in row.contributions]}
