"""Plan stage, the metagame across events: /decks/ (each game with deck data) and
/decks/<game>/ (its decks over every final event, over the rankings season, and year by year).

Planned from each event's facts (their `decks` entries); pandas is imported only when a page is
drawn, and only by builds whose events name decks.
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial

from ..league.config import RankingsConfig
from .facts import EventFacts
from .eventpages import Page


def deck_games(events: list[EventFacts]) -> dict[str, list[EventFacts]]:
    """Game → its final events with deck data, newest first: what the metagame counts (an event
    still being played would count half its matches; an example event counts nothing)."""
    games: dict[str, list[EventFacts]] = defaultdict(list)
    for facts in events:
        if facts.decks and facts.summary.complete and not facts.summary.example:
            games[facts.summary.game].append(facts)
    return dict(sorted(games.items()))


def deck_pages(events: list[EventFacts], season: RankingsConfig) -> list[Page]:
    games = deck_games(events)
    if not games:
        return []
    made_of = {game: tuple((f.slug, f.summary.date, f.summary.name, f.decks_digest)
                           for f in facts) for game, facts in games.items()}
    index = Page("decks/", "decks.html", partial(_index_context, games),
                 ("decks", tuple(made_of.items())))
    return [index] + [
        Page(f"decks/{game}/", "deck_game.html", partial(_game_context, game, facts, season),
             ("decks game", game, season, made_of[game]))
        for game, facts in games.items()]


def _index_context(games: dict[str, list[EventFacts]]) -> dict:
    from .metagame import frame, metagame
    return {"games": [(game, facts[0].summary.game_title, len(facts),
                       metagame(frame(_entries(facts)), None)) for game, facts in games.items()]}


def _game_context(game: str, events: list[EventFacts], season: RankingsConfig) -> dict:
    from .metagame import frame, metagame, timeline
    table = frame(_entries(events))
    in_season = [f for f in events if season.counts(f.summary.date)]
    seasonal = season.start is not None or season.end is not None
    return {
        "game": game, "title": events[0].summary.game_title, "events": events, "season": season,
        "overall": metagame(table, "cut or final"),
        "seasonal": metagame(frame(_entries(in_season)), "cut or final") if seasonal else None,
        "timeline": timeline(table) if table["period"].nunique() > 1 else None,
    }


def _entries(events: list[EventFacts]):
    """(event slug, period, entry) for every deck entry of the events, oldest event first. The
    period is the year, or the month when every event is of one year (a league's first)."""
    years = {f.summary.date.year for f in events}
    for facts in sorted(events, key=lambda f: f.order):
        date = facts.summary.date
        period = str(date.year) if len(years) > 1 else f"{date:%Y-%m}"
        for entry in facts.decks:
            yield facts.slug, period, entry
