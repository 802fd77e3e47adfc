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
from functools import lru_cache, partial
from typing import Any, NamedTuple

from .jsonfile import dump_json
from .model import ContentPage, Person, Site
from .problems import Problem
from .rankings import GameRanking, RankingIndex, build_rankings, ranking_json
from .rules import RULESETS
from .rules.base import PlayerResult, RoundView, ScoredEvent, Standings, as_json_number
from .rules.pairings import pairings_json


@dataclass(frozen=True, slots=True)
class Page:
    url: str
    """Relative to the site root: 'events/x/' (written as events/x/index.html) or a file name."""
    template: str | None
    context: dict[str, Any] = field(default_factory=dict)
    unit: str = ""
    """What the page is made from, as the incremental rebuild re-plans it: "event:<slug>",
    "player:<id>", "archive", "home", "players", "rankings", "content:<path>", "404"."""
    data: Callable[[], str | bytes] | None = None
    """Makes the file's text for pages without a template (JSON twins): called when the page is
    rendered, so planning stays cheap and unchanged pages are never serialized."""
    in_sitemap: bool = True

    @property
    def output_path(self) -> str:
        return self.url + "index.html" if self.url.endswith("/") or not self.url else self.url


@dataclass(frozen=True, slots=True)
class EventLabel:
    """What a player's page shows of an event: only what does not move while the event runs, so
    a new round re-renders the pages of the players whose results it changed, not of everyone
    who ever played in the event."""

    slug: str
    url: str
    name: str
    subtitle: str
    date: dt.date
    game_title: str
    complete: bool


@dataclass(frozen=True, slots=True)
class EventSummary:
    """One line of an event list (home, archive)."""

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
    subtitle: str
    label: EventLabel


def summarize(scored: ScoredEvent) -> EventSummary:
    info = scored.event.info
    players = len(scored.standings.rows) if scored.standings else len(scored.event.registrations)
    url, title = f"events/{info.slug}/", RULESETS[info.game].title
    label = EventLabel(info.slug, url, scored.display_name, scored.subtitle, info.date, title,
                       scored.complete)
    return EventSummary(info.slug, url, scored.display_name, info.date, info.game, title,
                        scored.status_line, scored.complete, players, scored.winner, info.location,
                        scored.subtitle, label)


def newest_first(scored: list[ScoredEvent]) -> list[ScoredEvent]:
    return sorted(scored, key=lambda s: s.event.order, reverse=True)


def site_rankings(site: Site, scored: list[ScoredEvent]) -> tuple[list[GameRanking], RankingIndex]:
    titles = {game: ruleset.title for game, ruleset in RULESETS.items()}
    return build_rankings(scored, site.people, titles, site.config.rankings)


def plan_site(site: Site, scored: list[ScoredEvent], problems: list[Problem]) -> list[Page]:
    """Every page of the site; `problems` supplies the warnings each event page lists.

    Composed of the per-unit builders below, which an incremental rebuild calls for the units a
    change touches — so both paths make the same pages from the same inputs.
    """
    events = newest_first(scored)
    summaries = [summarize(s) for s in events]
    rankings, index = site_rankings(site, scored)
    pages = [home_page(site, summaries, rankings), archive_page(summaries), not_found_page()]
    for event, summary in zip(events, summaries):
        pages += event_pages(event, summary, site.reports.get(event.event.slug),
                             event_warnings(problems, event.event.folder))
    pages += ranking_pages(rankings, site)
    history = histories(events, summaries)
    pages.append(players_index_page(site, {pid: len(entries) for pid, entries in history.items()}))
    pages += [player_page(site.people[pid], entries, index.points.get(pid, {}))
              for pid, entries in history.items()]
    pages += [content_page(p) for p in site.pages]
    return pages


# ---------------------------------------------------------------- one unit each


def home_page(site: Site, summaries: list[EventSummary], rankings: list[GameRanking]) -> Page:
    return Page("", "home.html", {"latest": summaries[: site.config.latest_events],
                                  "total_events": len(summaries), "text": site.home_text,
                                  "rankings": rankings}, "home")


def archive_page(summaries: list[EventSummary]) -> Page:
    """Events by year (newest first), then by game (alphabetical by the game's name)."""
    years: dict[int, dict[str, list[EventSummary]]] = defaultdict(lambda: defaultdict(list))
    for summary in summaries:
        years[summary.date.year][summary.game_title].append(summary)
    grouped = [(year, sorted(games.items())) for year, games in sorted(years.items(), reverse=True)]
    return Page("events/", "events.html", {"years": grouped}, "archive")


def not_found_page() -> Page:
    return Page("404.html", "404.html", {}, "404", in_sitemap=False)


def content_page(page: ContentPage) -> Page:
    return Page(page.url, "page.html", {"content": page}, f"content:{page.path}")


def event_warnings(problems: list[Problem], folder: str) -> list[Problem]:
    return [p for p in problems if p.path.startswith(folder + "/")]


def event_pages(scored: ScoredEvent, summary: EventSummary, report: ContentPage | None,
                warnings: list[Problem]) -> list[Page]:
    slug = scored.event.slug
    unit = f"event:{slug}"
    base = {"event": scored, "summary": summary}
    pages = [
        Page(f"events/{slug}/", "event.html", {**base, "report": report, "warnings": warnings},
             unit),
        Page(f"events/{slug}/standings.json", None, unit=unit, in_sitemap=False,
             data=partial(standings_json, scored, scored.standings)),
    ]
    for index, round_ in enumerate(scored.rounds):
        neighbours = {"previous": scored.rounds[index - 1] if index else None,
                      "next": scored.rounds[index + 1] if index + 1 < len(scored.rounds) else None}
        pages.append(Page(f"events/{slug}/round-{round_.number}/", "round.html",
                          {**base, "round": round_, **neighbours}, unit))
        if not round_.in_progress:  # a round being played has no standings after it yet
            pages.append(Page(f"events/{slug}/round-{round_.number}/standings.json", None,
                              unit=unit, in_sitemap=False,
                              data=partial(standings_json, scored, round_.standings)))
        if round_.pairings is not None:
            pages.append(Page(f"events/{slug}/round-{round_.number}/pairings.json", None,
                              unit=unit, in_sitemap=False,
                              data=partial(round_pairings_json, scored, round_)))
        if round_.in_progress:
            pages.append(Page(f"events/{slug}/round-{round_.number}/slips/", "slips.html",
                              {**base, "round": round_}, unit))
    if scored.bracket is not None:
        pages.append(Page(f"events/{slug}/bracket/", "bracket.html",
                          {**base, "bracket": scored.bracket}, unit))
    return pages


DETAILED_EVENTS = 10
"""Player pages list every event, and game by game the most recent ones only: a regular's page
would otherwise grow by a table per event they ever played (megabytes on a phone)."""


def ranking_pages(rankings: list[GameRanking], site: Site) -> list[Page]:
    pages = [Page("rankings/", "rankings.html",
                  {"rankings": rankings, "season": site.config.rankings}, "rankings")]
    pages += [Page(f"rankings/{r.game}.json", None, unit="rankings", in_sitemap=False,
                   data=partial(ranking_json, r, site.config.rankings)) for r in rankings]
    return pages


History = list[tuple[EventLabel, PlayerResult]]


def histories(events: list[ScoredEvent], summaries: list[EventSummary]) -> dict[str, History]:
    """Each person's entries, newest event first, people in alphabetical order."""
    history: dict[str, History] = defaultdict(list)
    for scored, summary in zip(events, summaries):
        for result in scored.players.values():
            history[result.player.id].append((summary.label, result))
    return history


def players_index_page(site: Site, events_played: dict[str, int]) -> Page:
    """Everyone with a history, alphabetically, with their number of events."""
    people = sorted((site.people[pid] for pid in events_played), key=lambda p: (sort_key(p.name), p.id))
    return Page("players/", "players.html",
                {"people": [(p, events_played[p.id], _initial(p.name)) for p in people]}, "players")


class HistoryRow(NamedTuple):
    """One event in a player's history table, as `partials/history_row.html` takes it."""

    event: EventLabel
    result: PlayerResult
    points: int | None
    """Ranking points from this event; None when it gives none."""
    with_points: bool
    """Whether the table has a ranking column (the person has points from some event)."""


class HistoryRows:
    """The rows of people's history tables, kept between rebuilds in watch mode.

    A round changes one row of each of its players' tables. A row that did not change is the
    same object as at the last rebuild, which the renderer's caches recognize by its identity
    alone: looking through a row's contents costs more than the rest of its page when a
    regular's table has a hundred rows."""

    def __init__(self) -> None:
        self.by_person: dict[str, dict[str, HistoryRow]] = {}

    def rows(self, person_id: str, entries: History, points: dict[str, int]) -> list[HistoryRow]:
        known = self.by_person.get(person_id, {})
        with_points = bool(points)
        rows, kept = [], {}
        for label, result in entries:
            given = points.get(label.slug)
            row = known.get(label.slug)
            if (row is None or row.event is not label or row.result is not result
                    or row.points != given or row.with_points is not with_points):
                row = HistoryRow(label, result, given, with_points)
            rows.append(row)
            kept[label.slug] = row
        self.by_person[person_id] = kept
        return rows

    def forget(self, person_id: str) -> None:
        self.by_person.pop(person_id, None)


def player_page(person: Person, entries: History, ranking_points: dict[str, int],
                kept_rows: HistoryRows | None = None) -> Page:
    """`ranking_points`: event slug → the points it gives this person toward the rankings.
    `kept_rows`: the rows of the last rebuild (watch mode)."""
    points = {label.slug: given for label, _ in entries
              if (given := ranking_points.get(label.slug)) is not None}
    detailed = entries[:DETAILED_EVENTS]
    return Page(f"players/{person.id}/", "player.html",
                {"person": person, "entries": entries, "ranking_points": points,
                 "detailed": detailed,
                 # The rows as the row templates take them (one `fragments` call renders a list).
                 "history_rows": (kept_rows or HistoryRows()).rows(person.id, entries, points),
                 "detailed_rows": [(label, result, person.name) for label, result in detailed]},
                f"player:{person.id}")


def sort_key(name: str) -> str:
    """Alphabetical the way readers expect: 'Élodie' with the Es, case ignored."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return (folded or name).casefold()


def _initial(name: str) -> str:
    first = sort_key(name)[:1].upper()
    return first if first.isalpha() else "#"


def round_pairings_json(scored: ScoredEvent, round_: RoundView) -> str:
    """round-<n>/pairings.json: the round's tables, players and results (null while playing)."""
    return _pairings_json(_event_head(scored), round_.number, round_.label, round_.pairings)


@lru_cache(maxsize=1024)
def _pairings_json(head: tuple, number: int, label: str, pairings: Any) -> str:
    """Remembered by value, as the standings' twins are: a corrected result re-plans every
    round of its event, and the other rounds' pairings come out equal."""
    event = dict(zip(("slug", "name", "date", "game", "format"), head))
    return dump_json(pairings_json(event, number, label, pairings))


def _event_head(scored: ScoredEvent) -> tuple:
    info = scored.event.info
    return info.slug, scored.display_name, info.date.isoformat(), info.game, info.format


def standings_json(scored: ScoredEvent, standings: Standings | None) -> str:
    """The JSON twin of a standings table (data contract §5); numbers unrounded."""
    return _standings_json(_event_head(scored), standings)


@lru_cache(maxsize=256)
def _standings_json(head: tuple, standings: Standings | None) -> str:
    """Remembered by value: a new round re-plans every page of its event, and the tables after
    the earlier rounds come out equal to the ones already serialized."""
    slug, name, date, game, format_ = head
    payload: dict[str, Any] = {
        "event": {"slug": slug, "name": name, "date": date, "game": game, "format": format_},
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
    for key, value in row.values.items():
        data[key] = as_json_number(value)
    data["dropped"] = row.dropped
    data["tiebreak"] = row.tiebreak
    return data
