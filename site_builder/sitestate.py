"""What a watch session keeps between rebuilds: each event's state, the site's pages by URL and
by unit, and what one rebuild did (for the terminal line, the browsers and the benchmark)."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from .model import Event
from .plan import EventLabel, EventSummary, Page
from .problems import Problem
from .rules.base import PlayerResult, ScoredEvent


@dataclass(slots=True)
class EventState:
    event: Event
    scored: ScoredEvent
    summary: EventSummary
    problems: list[Problem]
    """The warnings of the event's files (an event with errors is never in the state)."""
    results: dict[str, PlayerResult] = field(default_factory=dict)
    """Person id → their result in this event."""
    names: dict[str, tuple[bool, str]] = field(default_factory=dict)
    """Person id → (played here, the name written here): the inputs of their display name."""
    order: tuple = ()
    """(date, slug): events sort by it, newest last."""

    def __post_init__(self) -> None:
        self.order = self.event.order
        self.results = {r.player.id: r for r in self.scored.players.values()}
        for name, ref in self.event.players.items():
            candidate = (name not in self.event.official_names, name)
            if ref.id not in self.names or candidate[0] > self.names[ref.id][0]:
                self.names[ref.id] = candidate


@dataclass(slots=True)
class Report:
    """What one rebuild did, for the terminal line and the browsers."""

    changed: list[str]
    rendered: int = 0
    written: int = 0
    deleted: int = 0
    seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)
    """Every current error (applied nowhere) and warning of the site."""
    changed_urls: set[str] = field(default_factory=set)
    site_on_disk: bool = True
    """Whether a good site is in the output folder (not so while the first build has errors)."""
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds per phase (load and score, plan, render, write), for the benchmark."""

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    def line(self) -> str:
        what = ", ".join(self.changed[:3]) + (f" and {len(self.changed) - 3} more"
                                                if len(self.changed) > 3 else "")
        if self.errors:
            kept = ("the last good site stays" if self.site_on_disk else
                    "nothing is published until they are fixed")
            return (f"{what}: {len(self.errors)} error{'s' if len(self.errors) != 1 else ''}, "
                    f"nothing of it applied; {kept} ({self.seconds:.2f}s)")
        return (f"{what}: {self.rendered} page{'s' if self.rendered != 1 else ''} rendered, "
                f"{self.written} file{'s' if self.written != 1 else ''} written"
                + (f", {self.deleted} deleted" if self.deleted else "") + f" in {self.seconds:.2f}s")


class PageSet:
    """The site's current pages by URL, indexed by unit, with the sitemap's URLs kept in order
    (a rebuild touches a few units of a site of thousands of pages: nothing here walks them all)."""

    def __init__(self, pages: list[Page] = (), sitemap_line: Callable[[str], str] = str):
        self.by_url: dict[str, Page] = {}
        self.by_unit: dict[str, set[str]] = {}
        for page in pages:
            self.by_url[page.url] = page
            self.by_unit.setdefault(page.unit, set()).add(page.url)
        self.sitemap: list[str] = sorted(p.url for p in self.by_url.values() if p.in_sitemap)
        """The URLs of the sitemap, sorted."""
        self.sitemap_lines: list[str] = list(map(sitemap_line, self.sitemap))
        """Their lines in sitemap.xml, in the same order (the file is then one join)."""
        self._sitemap_line = sitemap_line
        self.sitemap_changed = True

    def put(self, page: Page) -> None:
        old = self.by_url.get(page.url)
        if old is not None and old.unit != page.unit:
            self.pop(page.url)
            old = None
        self.by_url[page.url] = page
        self.by_unit.setdefault(page.unit, set()).add(page.url)
        if (old is not None and old.in_sitemap) != page.in_sitemap:
            self._sitemap_toggle(page.url, page.in_sitemap)

    def pop(self, url: str) -> Page:
        page = self.by_url.pop(url)
        urls = self.by_unit[page.unit]
        urls.discard(url)
        if not urls:
            del self.by_unit[page.unit]
        if page.in_sitemap:
            self._sitemap_toggle(url, False)
        return page

    def _sitemap_toggle(self, url: str, present: bool) -> None:
        at = bisect.bisect_left(self.sitemap, url)
        if present:
            self.sitemap.insert(at, url)
            self.sitemap_lines.insert(at, self._sitemap_line(url))
        else:
            del self.sitemap[at]
            del self.sitemap_lines[at]
        self.sitemap_changed = True

    def urls_of(self, units: set[str]) -> list[str]:
        return sorted(url for unit in units for url in self.by_unit.get(unit, ()))

    def units(self) -> set[str]:
        return set(self.by_unit)


event_order = attrgetter("order")
"""How site.events is sorted: (date, slug), newest last."""


class NewestFirst:
    """An event's (date, slug) order, sorting newest first: a history's bisect key."""

    __slots__ = ("order",)

    def __init__(self, order: tuple):
        self.order = order

    def __lt__(self, other: NewestFirst) -> bool:
        return other.order < self.order


def newest_first(entry: tuple[EventLabel, PlayerResult]) -> NewestFirst:
    label = entry[0]
    return NewestFirst((label.date, label.slug))
