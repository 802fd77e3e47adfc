"""Plan stage, the pages across events: home, archive, players, player histories, rankings,
content pages and the 404 page, planned from every event's facts (facts.py). siteplan.py puts
them together, planning again only what the changed events reach.

Each page's key holds the digests of the facts it shows, so a changed event re-renders the
pages that show something of it that changed, and no others.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from ..league.config import SiteConfig
from ..core.digests import digest
from .facts import EventFacts, EventSummary, result_of
from ..core.model import ContentPage, Person
from .eventpages import Page
from .rankings import PAGE_SIZE, TOP_ROWS, GameRanking, ranking_json

@dataclass(slots=True)
class SiteInputs:
    """What the pages across events are planned from."""

    config: SiteConfig
    events: list[EventFacts]
    """Newest first."""
    people: dict[str, Person]
    rankings: list[GameRanking]
    content: list[ContentPage]
    home_text: ContentPage | None


def home_page(site: SiteInputs, summaries: list[EventSummary]) -> Page:
    latest = summaries[: site.config.latest_events]
    teaser = tuple((r.game, r.title, tuple(row.shown for row in r.rows[:3])) for r in site.rankings)
    return Page("", "home.html", {"latest": latest, "total_events": len(summaries),
                                  "text": site.home_text, "rankings": site.rankings},
                ("home", site.home_text, len(summaries), tuple(latest), teaser))


def archive_page(events: list[EventFacts]) -> Page:
    """Events by year (newest first), then by game (alphabetical by the game's name)."""
    years: dict[int, dict[str, list[EventSummary]]] = defaultdict(lambda: defaultdict(list))
    for facts in events:
        years[facts.summary.date.year][facts.summary.game_title].append(facts.summary)
    grouped = [(year, sorted(games.items())) for year, games in sorted(years.items(), reverse=True)]
    return Page("events/", "events.html", {"years": grouped},
                ("archive", digest(*(_archive_line(facts.summary) for facts in events))))


def _archive_line(e: EventSummary) -> tuple:
    """What the archive shows of an event (partials/rows.html, archive_row): not its status
    line, which moves at every round."""
    return (e.url, e.name, e.subtitle, e.date, e.game_title, e.location, e.players, e.winner,
            e.complete, e.example)


def not_found_page() -> Page:
    return Page("404.html", "404.html", {}, ("404",), in_sitemap=False)


def content_page(page: ContentPage) -> Page:
    return Page(page.url, "page.html", {"content": page}, ("content", page))


def ranking_pages(rankings: list[GameRanking], config: SiteConfig,
                  decks: frozenset[str] = frozenset()) -> list[Page]:
    """The overview (each game's top rows), each game's pages of PAGE_SIZE rows, and each game's
    JSON twin with every row. `decks`: the games with a page of decks, which they link to."""
    season = config.rankings
    tops = tuple((r.game, r.title, len(r.rows), tuple(row.shown for row in r.rows[:TOP_ROWS]))
                 for r in rankings)
    pages = [Page("rankings/", "rankings.html", {"rankings": rankings, "season": season,
                                                 "top": TOP_ROWS, "decks": decks},
                  ("rankings", season, tops, tuple(sorted(decks))))]
    for ranking in rankings:
        for number in range(1, ranking.pages + 1):
            rows = ranking.page_rows(number)
            events = (ranking.counted, ranking.left_out) if number == 1 else ()
            pages.append(Page(ranking.page_url(number), "ranking.html",
                              {"ranking": ranking, "rows": rows, "number": number,
                               "season": season, "page_size": PAGE_SIZE,
                               "decks": ranking.game in decks},
                              ("ranking", season, ranking.game in decks, ranking.game,
                               ranking.title, number,
                               ranking.pages, len(ranking.rows), digest(*(r.shown for r in rows)),
                               events)))
        pages.append(Page(f"rankings/{ranking.game}.json", None, in_sitemap=False,
                          key=("ranking json", season, ranking.game, ranking.inputs or digest(
                              *((row.shown, row.contributions) for row in ranking.rows),
                              ranking.counted)),
                          data=partial(ranking_json, ranking, season)))
    return pages


def ranking_points(rankings: list[GameRanking]) -> dict[str, dict[str, int]]:
    """Person id → event slug → the points that event gives them toward the rankings."""
    points: dict[str, dict[str, int]] = defaultdict(dict)
    for ranking in rankings:
        for row in ranking.rows:
            for event, entry in row.contributions:
                points[row.person.id][event.slug] = entry.value
    return points


def player_page(person: Person, entries: list[tuple[EventFacts, str, bytes]],
                ranking_points: dict[str, int]) -> Page:
    """`ranking_points`: event slug → the points it gives this person toward the rankings. The
    page's results are read only if it is drawn (its key holds their digests)."""
    points, shown = {}, []
    for facts, result_digest, _ in entries:
        slug = facts.summary.slug
        given = ranking_points.get(slug)
        if given is not None:
            points[slug] = given
        shown.append((facts.label_digest, result_digest, given))
    made_of = ("player", person, tuple(shown))
    return Page(f"players/{person.id}/", "player.html",
                partial(_player_context, person, entries, points), made_of)


def _player_context(person: Person, entries: list[tuple[EventFacts, str, bytes]],
                    points: dict[str, int]) -> dict:
    shown = [(facts.summary.label, result_of(result)) for facts, _, result in entries]
    return {"person": person, "entries": shown, "ranking_points": points}
