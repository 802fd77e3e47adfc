"""Plan stage: which pages and files the site has, what each one shows, and what it depends on.

A `Page` names its template and a plain context, and lists its inputs (`event:<slug>`,
`people`, `content:<path>`, `site`) so a later rebuild knows which pages one change touches.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .jsonfile import dump_json
from .model import ContentPage, Site
from .problems import Problem
from .rankings import GameRanking, build_rankings, points_by_event, ranking_json
from .rules import RULESETS
from .rules.base import PlayerResult, ScoredEvent, Standings, as_json_number


@dataclass(frozen=True, slots=True)
class Page:
    url: str
    """Relative to the site root: 'events/x/' (written as events/x/index.html) or a file name."""
    template: str | None
    context: dict[str, Any] = field(default_factory=dict)
    inputs: frozenset[str] = frozenset()
    data: Callable[[], str] | None = None
    """Makes the file's text for pages without a template (JSON twins): called when the page is
    rendered, so planning stays cheap and unchanged pages are never serialized."""
    in_sitemap: bool = True

    @property
    def output_path(self) -> str:
        return self.url + "index.html" if self.url.endswith("/") or not self.url else self.url


@dataclass(frozen=True, slots=True)
class EventSummary:
    """One line of an event list (home, archive, player pages)."""

    slug: str
    url: str
    name: str
    date: dt.date
    game: str
    game_title: str
    status: str
    complete: bool
    players: int
    winner: Any
    location: str | None
    subtitle: str = ""


def summarize(scored: ScoredEvent) -> EventSummary:
    info = scored.event.info
    players = len(scored.standings.rows) if scored.standings else len(scored.event.registrations)
    return EventSummary(info.slug, f"events/{info.slug}/", scored.display_name, info.date, info.game,
                        RULESETS[info.game].title, scored.status_line, scored.complete, players,
                        scored.winner, info.location, scored.subtitle)


def plan_site(site: Site, scored: list[ScoredEvent], problems: list[Problem]) -> list[Page]:
    """Every page of the site; `problems` supplies the warnings each event page lists."""
    newest_first = sorted(scored, key=lambda s: (s.event.info.date, s.event.slug), reverse=True)
    summaries = [summarize(s) for s in newest_first]
    every_event = frozenset(f"event:{s.event.slug}" for s in scored)
    titles = {game: ruleset.title for game, ruleset in RULESETS.items()}
    rankings = build_rankings(scored, site.people, titles, site.config.rankings)
    pages = [
        Page("", "home.html", {"latest": summaries[: site.config.latest_events],
                               "total_events": len(summaries), "text": site.home_text,
                               "rankings": rankings},
             every_event | {"content:content/index.md", "people"}),
        Page("events/", "events.html", {"years": _archive(summaries)}, every_event),
        Page("404.html", "404.html", {}, frozenset(), in_sitemap=False),
    ]
    for event, summary in zip(newest_first, summaries):
        warnings = [p for p in problems if p.path.startswith(event.event.folder + "/")]
        pages += _event_pages(event, summary, site.reports.get(event.event.slug), warnings)
    pages += _ranking_pages(rankings, site, every_event)
    pages += _player_pages(site, newest_first, summaries, points_by_event(rankings))
    pages += [Page(p.url, "page.html", {"content": p}, frozenset({f"content:{p.path}"}))
              for p in site.pages]
    return pages


def _archive(summaries: list[EventSummary]) -> list[tuple[int, list[tuple[str, list[EventSummary]]]]]:
    """Events by year (newest first), then by game (alphabetical by the game's name)."""
    years: dict[int, dict[str, list[EventSummary]]] = defaultdict(lambda: defaultdict(list))
    for summary in summaries:
        years[summary.date.year][summary.game_title].append(summary)
    return [(year, sorted(games.items())) for year, games in sorted(years.items(), reverse=True)]


def _event_pages(scored: ScoredEvent, summary: EventSummary, report: ContentPage | None,
                 warnings: list[Problem]) -> list[Page]:
    slug = scored.event.slug
    inputs = frozenset({f"event:{slug}", f"content:content/events/{slug}.md"})
    base = {"event": scored, "summary": summary}
    pages = [
        Page(f"events/{slug}/", "event.html", {**base, "report": report, "warnings": warnings},
             inputs),
        Page(f"events/{slug}/standings.json", None, inputs=inputs, in_sitemap=False,
             data=partial(standings_json, scored, scored.standings)),
    ]
    for index, round_ in enumerate(scored.rounds):
        neighbours = {"previous": scored.rounds[index - 1] if index else None,
                      "next": scored.rounds[index + 1] if index + 1 < len(scored.rounds) else None}
        pages.append(Page(f"events/{slug}/round-{round_.number}/", "round.html",
                          {**base, "round": round_, **neighbours}, inputs))
        pages.append(Page(f"events/{slug}/round-{round_.number}/standings.json", None, inputs=inputs,
                          in_sitemap=False, data=partial(standings_json, scored, round_.standings)))
    if scored.bracket is not None:
        pages.append(Page(f"events/{slug}/bracket/", "bracket.html",
                          {**base, "bracket": scored.bracket}, inputs))
    return pages


def _ranking_pages(rankings: list[GameRanking], site: Site, every_event: frozenset[str]) -> list[Page]:
    inputs = every_event | {"people", "site"}
    pages = [Page("rankings/", "rankings.html",
                  {"rankings": rankings, "season": site.config.rankings}, inputs)]
    pages += [Page(f"rankings/{r.game}.json", None, inputs=inputs, in_sitemap=False,
                   data=partial(ranking_json, r, site.config.rankings)) for r in rankings]
    return pages


def _player_pages(site: Site, newest_first: list[ScoredEvent], summaries: list[EventSummary],
                  ranking_points: dict[tuple[str, str], int]) -> list[Page]:
    history: dict[str, list[tuple[EventSummary, PlayerResult]]] = defaultdict(list)
    for scored, summary in zip(newest_first, summaries):
        for result in scored.players.values():
            history[result.player.id].append((summary, result))
    people = [site.people[pid] for pid in sorted(history, key=lambda i: (_sort_key(site.people[i].name), i))]
    pages = [Page("players/", "players.html",
                  {"people": [(p, len(history[p.id]), _initial(p.name)) for p in people]},
                  frozenset(f"event:{s.event.slug}" for s in newest_first) | {"people"})]
    for person in people:
        entries = history[person.id]
        inputs = frozenset(f"event:{summary.slug}" for summary, _ in entries) | {"people"}
        points = {summary.slug: ranking_points[(summary.slug, person.id)]
                  for summary, _ in entries if (summary.slug, person.id) in ranking_points}
        pages.append(Page(f"players/{person.id}/", "player.html",
                          {"person": person, "entries": entries, "ranking_points": points},
                          inputs | {"site"}))
    return pages


def _sort_key(name: str) -> str:
    """Alphabetical the way readers expect: 'Élodie' with the Es, case ignored."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return (folded or name).casefold()


def _initial(name: str) -> str:
    first = _sort_key(name)[:1].upper()
    return first if first.isalpha() else "#"


def standings_json(scored: ScoredEvent, standings: Standings | None) -> str:
    """The JSON twin of a standings table (data contract §5); numbers unrounded."""
    info = scored.event.info
    payload: dict[str, Any] = {
        "event": {"slug": info.slug, "name": scored.display_name, "date": info.date.isoformat(),
                  "game": info.game, "format": info.format},
        "after_round": standings.after_round if standings else 0,
        "complete": standings.complete if standings else False,
    }
    if standings is not None and standings.phase:
        payload["phase"] = standings.phase
    if standings is not None:
        payload.update({key: as_json_number(value) for key, value in standings.meta.items()})
    payload["standings"] = [_row_json(row) for row in standings.rows] if standings else []
    if standings is not None and standings.officials:
        payload["officials"] = [{"player": o.player.name, "player_id": o.player.id, "role": o.role,
                                 "points": o.points} for o in standings.officials]
    return dump_json(payload)


def _row_json(row) -> dict[str, Any]:
    data: dict[str, Any] = {"rank": row.rank, "player": row.player.name, "player_id": row.player.id}
    data.update({key: as_json_number(value) for key, value in row.values.items()})
    data["dropped"] = row.dropped
    data["tiebreak"] = row.tiebreak
    return data
