"""Plan stage, the pages across events, planned again only where the changed events reach.

`sitepages.site_pages` plans every page across events from every event's facts: right, and
what a one-off build does. A watch session (and the desk) rebuilds again and again after one
round file changed; planning 4,500 player pages, the search index and the players index from
30,000 results each time grows with the archive, not with the change.

`SitePlanner` keeps what each event contributes (its people's names, its results) by event,
and the pages it planned last time. Each plan finds the events whose facts are not the ones
it saw (the engine keeps an unchanged event's facts object) and the people they touch (in the
facts before or after), and plans again only those people's pages, the search index rows of
those people, and the players index when a touched person's name or event count moved. Pages
read from all events but cheap to plan (home, archive, feeds, rankings, decks) are planned as
before. The people's pages whose ranking points moved (a ranking worked out again) are planned
again too. The pages are the ones `site_pages` plans, in the same order: the incremental build
tests check a watch session against clean builds after every random edit.
"""

from __future__ import annotations

from collections import defaultdict

from ..core.model import Person
from ..league.people import Directory
from .deckpages import deck_games, deck_pages
from .eventpages import Page
from .facts import EventFacts
from .feeds import feed_pages
from .playersindex import players_index_pages
from .search import search_page_set, search_player, search_event
from .sitepages import (SiteInputs, archive_page, content_page, home_page, not_found_page,
                        player_page, ranking_pages, ranking_points)

WHOLE_AT = 0.25
"""When more than this share of the events changed, everything is planned from nothing (the
first build, a new players.csv): the bookkeeping would cost more than it saves."""


class SitePlanner:
    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self._facts: dict[str, EventFacts] = {}
        self._directory_key: object = None
        self._names: dict[str, dict[str, tuple[bool, str]]] = defaultdict(dict)
        """Person id → event slug → (played, the name written there)."""
        self._results: dict[str, dict[str, tuple[EventFacts, str, bytes]]] = defaultdict(dict)
        """Person id → event slug → (facts, result digest, result packed)."""
        self._people: dict[str, Person] = {}
        self._history: dict[str, list] = {}
        self._touched: set[str] | None = None
        """The people the last `people` call found touched; None: everyone."""
        self._player_pages: dict[str, Page] = {}
        self._points: dict[str, dict[str, int]] = {}
        self._rankings: tuple = ()
        self._search_rows: dict[str, tuple] = {}
        self._search_games: tuple = ()
        self._searched: list[Page] | None = None
        self._events: dict[str, tuple[EventFacts, tuple]] = {}
        self._index: tuple[dict, list[Page]] | None = None
        self._ranked: tuple[tuple, list[Page]] | None = None
        self._archived: tuple[tuple, Page] | None = None

    # ---------------------------------------------------------------- people

    def people(self, events: list[EventFacts], directory: Directory,
               directory_key: object) -> dict[str, Person]:
        """Everyone in the events, by id (as sitepages.people_of names them), updated from the
        events whose facts changed since the last call."""
        now = {facts.slug: facts for facts in events}
        changed = {slug for slug, facts in now.items() if self._facts.get(slug) is not facts}
        changed |= self._facts.keys() - now.keys()
        if directory_key != self._directory_key or len(changed) > WHOLE_AT * max(len(now), 1):
            self._clear()
            self._directory_key = directory_key
            changed = set(now)
            self._touched = None
        else:
            self._touched = set()
        touched: set[str] = set()
        for slug in changed:
            old, new = self._facts.get(slug), now.get(slug)
            reach = {pid for facts in (old, new) if facts is not None
                     for pid in _people_in(facts)}
            before = {pid: self._entry(pid, slug) for pid in reach}
            for facts, adding in ((old, False), (new, True)):
                if facts is None:
                    continue
                for pid, played, name in facts.names:
                    if adding:
                        known = self._names[pid].get(slug)
                        # Within one event the first name with the highest `played` counts
                        # (people_of's strict comparison, in the facts' order).
                        if known is None or (played and not known[0]):
                            self._names[pid][slug] = (played, name)
                    else:
                        self._names[pid].pop(slug, None)
                for pid, result_digest, result in facts.results:
                    if adding:
                        self._results[pid][slug] = (facts, result_digest, result)
                    else:
                        self._results[pid].pop(slug, None)
            if old is None or new is None or (old.label_digest, old.order) != (new.label_digest,
                                                                               new.order):
                touched |= reach
                continue
            # The event is shown as before: only the people whose name or line there changed
            # are touched (a round of an event being played changes none: see
            # facts.history_line). The others' histories take the new facts as they are.
            for pid in reach:
                if self._entry(pid, slug) != before[pid]:
                    touched.add(pid)
                elif slug in self._results.get(pid, {}):
                    self._history[pid] = [self._results[pid][slug] if entry[0].slug == slug
                                          else entry for entry in self._history[pid]]
        self._facts = now
        for pid in touched:
            self._person_again(pid, directory)
        if self._touched is not None:
            self._touched = touched
        return dict(sorted(self._people.items()))

    def _entry(self, pid: str, slug: str) -> tuple:
        """What a person's pages show of an event: their name there and their line's digest."""
        result = self._results.get(pid, {}).get(slug)
        return self._names.get(pid, {}).get(slug), result[1] if result else None

    def _person_again(self, pid: str, directory: Directory) -> None:
        names = self._names.get(pid)
        if not names:
            self._names.pop(pid, None)
            self._people.pop(pid, None)
        else:
            slug = max(names, key=lambda s: (names[s][0], self._facts[s].order))
            self._people[pid] = Person(pid, directory.names.get(pid, names[slug][1]))
        results = self._results.get(pid)
        if not results:
            self._results.pop(pid, None)
            self._history.pop(pid, None)
        else:
            self._history[pid] = sorted(results.values(), key=lambda entry: entry[0].order,
                                        reverse=True)

    @property
    def touched(self) -> frozenset[str] | None:
        """The people the events changed since the last plan reach; None when everything was
        planned again."""
        return None if self._touched is None else frozenset(self._touched)

    # ---------------------------------------------------------------- pages

    def plan(self, site: SiteInputs) -> list[Page]:
        """The pages across events, as sitepages.site_pages plans them. Call `people` first."""
        touched = self._touched
        summaries = [facts.summary for facts in site.events]
        pages = [home_page(site, summaries), self._archive(site.events), not_found_page()]
        pages += self._ranking_pages(site)
        pages += feed_pages(site.config, summaries)
        pages += deck_pages(site.events, site.config.rankings)
        history = self._history
        counts = {pid: len(entries) for pid, entries in history.items()}
        pages += self._players_index(site.people, counts, touched)
        pages += self._search(site, touched)
        again = self._points_again(site.rankings, touched)
        for pid in list(self._player_pages):
            if pid not in history:
                del self._player_pages[pid]
        for pid in history if again is None else again:
            if pid in history:
                self._player_pages[pid] = player_page(site.people[pid], history[pid],
                                                      self._points.get(pid, {}))
        pages += [self._player_pages[pid] for pid in sorted(history)]
        pages += [content_page(p) for p in site.content]
        return pages

    def _archive(self, events: list[EventFacts]) -> Page:
        if self._archived is None or not _same_objects(self._archived[0], events):
            self._archived = (tuple(events), archive_page(events))
        return self._archived[1]

    def _ranking_pages(self, site: SiteInputs) -> list[Page]:
        """Planned again only when a ranking was worked out again (the engine keeps an
        unchanged game's ranking object), or the season or the games with decks changed."""
        decks = frozenset(deck_games(site.events))
        inputs = (site.config.rankings, decks)
        if self._ranked is not None:
            (rankings, known), pages = self._ranked
            if known == inputs and _same_objects(rankings, site.rankings):
                return pages
        pages = ranking_pages(site.rankings, site.config, decks)
        self._ranked = ((tuple(site.rankings), inputs), pages)
        return pages

    def _points_again(self, rankings: list, touched: set[str] | None) -> set[str] | None:
        """The people whose page must be planned again: the touched, and those whose ranking
        points moved. None: everyone."""
        current = tuple(rankings)
        if touched is None or not _same_objects(current, self._rankings):
            points = ranking_points(rankings)
            moved = None if touched is None else {
                pid for pid in points.keys() | self._points.keys()
                if points.get(pid) != self._points.get(pid)}
            self._points, self._rankings = points, current
            if moved is None:
                return None
            return touched | moved
        return touched

    def _players_index(self, people: dict[str, Person], counts: dict[str, int],
                       touched: set[str] | None) -> list[Page]:
        if touched is not None and self._index is not None:
            shown, pages = self._index
            if all(shown.get(pid) == ((people[pid], counts[pid]) if pid in counts else None)
                   for pid in touched):
                return pages
        pages = players_index_pages(people, counts)
        self._index = ({pid: (people[pid], count) for pid, count in counts.items()}, pages)
        return pages

    def _search(self, site: SiteInputs, touched: set[str] | None) -> list[Page]:
        """The search page and index; the index's rows made again for the touched people and
        the changed events only, and the pages kept when no row changed."""
        games = tuple(sorted({facts.summary.game_title for facts in site.events}))
        number = {title: index for index, title in enumerate(games)}
        whole = touched is None or games != self._search_games or self._searched is None
        moved = whole or len(site.events) != len(self._events)
        events = {}
        for facts in site.events:
            known = self._events.get(facts.slug)
            if not whole and known is not None and known[0] is facts:
                events[facts.slug] = known
            else:
                events[facts.slug] = (facts, search_event(facts, number))
                moved = moved or known is None or known[1] != events[facts.slug][1]
        self._events = events
        of_event = {slug: (number[facts.summary.game_title], facts.summary.date.year)
                    for slug, (facts, _) in events.items()}
        if whole:
            self._search_rows = {}
            touched = set(self._history)
        for pid in touched:
            before = self._search_rows.pop(pid, None)
            if pid in self._history:
                self._search_rows[pid] = search_player(site.people[pid], self._history[pid],
                                                       of_event)
            moved = moved or before != self._search_rows.get(pid)
        self._search_games = games
        if moved:
            self._searched = search_page_set(list(games), sorted(self._search_rows.values()),
                                             sorted(row for _, row in events.values()))
        return self._searched

def _people_in(facts: EventFacts) -> set[str]:
    return {pid for pid, _, _ in facts.names} | {pid for pid, _, _ in facts.results}


def _same_objects(these, those) -> bool:
    """The same objects, in the same order (held, so an id cannot be another's later)."""
    return len(these) == len(those) and all(a is b for a, b in zip(these, those))
