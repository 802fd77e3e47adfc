"""A site kept in memory between rebuilds, for `watch` and `serve`.

A change to one event's files reloads, re-scores and re-plans that event alone, then re-renders
the pages whose inputs actually changed: its own pages, the archive and home entries, the
rankings, and the pages of its players. Every page is made by the same functions as a full build
(plan.py's per-unit builders), and a file whose bytes did not change is not rewritten, so the
output is always byte-identical to a fresh full build.

Data with errors is never applied: the event (or the whole site, for site-wide files) keeps its
last good version on disk until the errors are fixed.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import suppress
from functools import partial
from pathlib import Path

from .build import check, collector_paused, keep_freed_memory
from .content import load_content
from .finish import extra_files, sitemap_line
from .load import (EVENTS_DIR, RoundCache, assign_event_ids, check_source, is_event_folder,
                   load_event)
from .model import Person, Site
from .people import Directory, load_directory
from .plan import (EventLabel, HistoryRows, Page, archive_page, content_page,
                   event_pages, event_warnings, home_page, not_found_page,
                   player_page, players_index_page, ranking_pages, site_rankings, summarize)
from .problems import DataError, Problem, ProblemLog, TemplateError, sorted_problems
from .rankings import RankingIndex
from .published import PublishedFiles, Staged
from .render import Renderer, render_all
from .rules import RULESETS
from .rules.base import PlayerResult, ScoredEvent
from .sitestate import EventState, NewestFirst, PageSet, Report, event_order, newest_first
from .templates import pages_using
from .themefiles import builtin_theme, scan_theme
from .write import check_output_folder, delete_files, has_site, write_site

SITE_WIDE = ("site.toml", "data/players.csv")


class Project:
    def __init__(self, source: Path, out: Path, base_url: str | None = None):
        self.source, self.out, self.base_url = source, out, base_url
        self.site: Site | None = None
        self.directory = Directory()
        self.events: dict[str, EventState] = {}
        self.blocked: dict[str, list[Problem]] = {}
        """Scope ("site" or an event slug) → the problems that keep its changes out."""
        self.site_problems: list[Problem] = []
        self._problems_memo: tuple[frozenset, list, list[Problem]] | None = None
        """(ids of the problem lists, the lists, the report made of them): see problems()."""
        self.renderer: Renderer | None = None
        self.pages = PageSet()
        self.files = PublishedFiles(out)
        """The output folder's files: how pages are staged, swapped in and deleted."""
        self.rankings: list = []
        self.ranking_index: RankingIndex | None = None
        """Kept between rebuilds: an event change swaps that event's entries in and out."""
        self.named_in: dict[str, set[str]] = {}
        """Person id → the events naming them (players and officials), for display names."""
        self.histories: dict[str, list[tuple[EventLabel, PlayerResult]]] = {}
        """Person id → (label, result) of each event giving them a result, newest first, as
        their page takes them: kept in order as events come and go, so planning a regular's
        page after a round does not sort (and chase through memory) the hundreds of events
        they played."""
        self.history_rows = HistoryRows()
        """Player pages' table rows of the last rebuild, reused where unchanged."""
        self._static_paths: set[str] = set()
        self.stale = False
        """Set when a broken template may have left pages unwritten: the next change rebuilds all."""
        self.wrote_site = False
        """Whether this session has written a whole site (see _build_all)."""
        self._round_caches: dict[str, RoundCache] = {}
        """Event slug → its parsed round files, so a reload parses only the files that changed."""
        self._refreeze = False
        """Set when frozen objects became garbage the collector cannot see (see tidy)."""
        self._resume_collector = False
        """Set when a rebuild left the collector paused for tidy() to resume."""

    # ---------------------------------------------------------------- whole site

    def build_all(self, changed: list[str] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Report:
        """Load, score and render everything (the start, and site-wide changes). `progress` is
        told (pages rendered, pages) while the first build renders, as `build` does."""
        with collector_paused():
            report = self._build_all(changed, progress)
        # Everything loaded stays for the whole session: frozen, out of the collector's sight,
        # or its full passes over millions of objects would stall later rebuilds. What the
        # previous whole site left (a replaced renderer is a cycle) is collected first.
        self._refreeze = True
        self.tidy()
        keep_freed_memory()
        return report

    def _build_all(self, changed: list[str] | None,
                   progress: Callable[[int, int], None] | None) -> Report:
        started = time.perf_counter()
        report = Report(changed or ["the whole site"])
        # Until a whole site has been written, the output folder holds an earlier session's
        # build (or nothing): the first good build replaces it as `build` does.
        first = not self.wrote_site
        if self.site is None:  # an unusable output folder stops the command, as it stops `build`
            check_source(self.source)
            check_output_folder(self.source, self.out, (builtin_theme(),))
        try:
            self._round_caches = {}
            result = check(self.source, self.base_url, round_caches=self._round_caches)
            self._adopt(result.site, result.scored, result.problems)
            if first:  # the whole site at once, swapped in like a build (warming the caches)
                files = self._render_everything(report, progress)
                write_site(self.out, files)
                self.files.sizes = {path: len(data) for path, data in files.items()}
                report.written = len(files)
                self.wrote_site = True
            else:
                self._render(set(), report, replan=False)
            # Everything was loaded afresh and nothing stopped it: an event or the content held
            # back by an earlier rebuild's errors is no longer (their problems would be shown
            # until that folder changed again).
            self.blocked.clear()
            self.stale = False
        except DataError as exc:
            self.blocked["site"] = exc.problems
        except TemplateError as exc:
            self._broken_theme(exc)
        report.problems = self.problems()
        report.site_on_disk = self.has_site()
        report.seconds = time.perf_counter() - started
        return report

    def _adopt(self, site: Site, scored: list[ScoredEvent], problems: list[Problem]) -> None:
        self.site = site
        self.directory = load_directory(self.source, ProblemLog())
        self.renderer = Renderer(self.source, site.config, site.pages)
        self.events = {}
        for event in scored:
            self.events[event.event.slug] = EventState(
                event.event, event, summarize(event), event_warnings(problems, event.event.folder))
        folders = {e.folder for e in site.events}
        self.site_problems = [p for p in problems
                              if not any(p.path.startswith(f + "/") for f in folders)]
        self.rankings, self.ranking_index = site_rankings(site, scored)
        self.named_in, self.histories, self.history_rows = {}, {}, HistoryRows()
        for state in self.events.values():
            self._index(state, add=True)
        self.pages = PageSet(self._plan_all(), partial(sitemap_line, site.config))

    def _render_everything(self, report: Report,
                           progress: Callable[[int, int], None] | None) -> dict[str, bytes]:
        files = render_all(self.renderer, list(self.pages.by_url.values()), progress)
        report.rendered = len(files)
        files.update(self._static_and_extra_files())
        return files

    def _static_and_extra_files(self) -> dict[str, bytes]:
        """The theme's static files, and the sitemap when the set of pages changed."""
        files = self.renderer.static_outputs()
        self._static_paths = set(files)
        if self.pages.sitemap_changed:
            files.update(extra_files(self.site.config, self.pages.sitemap, self.pages.sitemap_lines))
            self.pages.sitemap_changed = False
        return files

    def problems(self) -> list[Problem]:
        """Every current problem, in report order. Remembered while the lists it is made of are
        the same objects (never changed once made): a correction leaves its event's warnings
        as they were (see _reload_event), and sorting an archive's 700 warnings after every
        rebuild cost 1.5 ms."""
        sources = [self.site_problems, *(s.problems for s in self.events.values()),
                   *self.blocked.values()]
        key = frozenset(map(id, sources))  # the order of events does not change the report
        if self._problems_memo is None or self._problems_memo[0] != key:
            current = []
            for problems in sources:
                current += problems
            # The entry holds the lists, so their ids stand for them.
            self._problems_memo = (key, sources, sorted_problems(list(dict.fromkeys(current))))
        return list(self._problems_memo[2])

    # ---------------------------------------------------------------- a batch of changes

    def _broken_theme(self, exc: TemplateError) -> None:
        """A template that fails to render: report it like bad data, and re-render everything
        once the next change comes (some pages may not have been written)."""
        self.blocked["theme"] = [Problem("themes", None, str(exc))]
        self.stale = True

    def rebuild(self, changed: list[str], tidy_later: bool = False) -> Report:
        """Apply changed source paths (relative, with /) and rewrite what they touch.

        The cyclic garbage collector is paused meanwhile: its passes were a twentieth of a
        round's republishing. `tidy` catches up once the pages are out. With `tidy_later` (watch
        mode), the collector stays paused until then: resumed at once, its first pass went
        through everything the rebuild made (5 ms after a correction on the 1,000-event
        archive) before the rebuild could be reported and browsers told."""
        with collector_paused(resume=not tidy_later) as was_enabled:
            self._resume_collector |= was_enabled and tidy_later
            report = self._apply(changed)
        if not tidy_later:
            self.files.finish_deleting()
        return report

    def tidy(self) -> None:
        """Housekeeping after a rebuild, once its pages are out (and browsers told): collect what
        it left and freeze the survivors, so the collector has nothing of it to go through
        during the next rebuild. A few milliseconds, except after the renderer was replaced (a
        theme or menu edit): the old one is a cycle of objects frozen with the session, so
        everything is unfrozen and gone through once (3 s for a 1,000-event archive)."""
        self.files.finish_deleting()
        if self._refreeze:
            gc.unfreeze()
            self._refreeze = False
        gc.collect()
        gc.freeze()
        if self._resume_collector:  # paused by rebuild(tidy_later=True)
            gc.enable()
            self._resume_collector = False

    def _apply(self, changed: list[str]) -> Report:
        if (not self.wrote_site or self.stale or any(c in SITE_WIDE for c in changed)
                or "site" in self.blocked):
            return self.build_all(changed)
        try:
            return self._rebuild(changed)
        except TemplateError as exc:
            self._broken_theme(exc)
            return Report(changed, problems=self.problems(), site_on_disk=self.has_site())

    def has_site(self) -> bool:
        """Whether a site is in the output folder: this session's, or an earlier build that a
        first build with errors leaves in place (every build writes its home page)."""
        return self.wrote_site or has_site(self.out)

    def failed(self) -> None:
        """After a rebuild raised something unexpected: whatever it left half done, the next
        change loads and renders the whole site again."""
        self.stale = True

    def _rebuild(self, changed: list[str]) -> Report:
        started = time.perf_counter()
        report = Report(changed)
        slugs = sorted({c.split("/")[2] for c in changed if c.startswith(EVENTS_DIR + "/")})
        touched: set[str] = set()
        clock = time.perf_counter()
        events_before = set(self.events)
        folders_before = set(self.site.event_folders)
        for slug in slugs:
            touched |= self._reload_event(slug)
            (self.site.event_folders.add if is_event_folder(self.source, slug)
             else self.site.event_folders.discard)(slug)
        report.phases["load and score"] = time.perf_counter() - clock
        # An event report is checked against the events: one added or deleted may start or
        # end its "no such event" warning.
        if (any(c.startswith("content/") for c in changed) or set(self.events) != events_before
                or self.site.event_folders != folders_before):
            touched |= self._reload_content()
        themes = [c for c in changed if c.startswith("themes/")]
        if themes:
            touched |= self._reload_theme(themes, report)
        self._render(touched, report)
        report.problems = self.problems()
        report.seconds = time.perf_counter() - started
        return report

    def _reload_event(self, slug: str) -> set[str]:
        """Reload one event folder; returns the units to re-plan (none if it has errors)."""
        folder = self.source / EVENTS_DIR / slug
        log = ProblemLog()
        cache = self._round_caches.setdefault(slug, {})
        event = load_event(self.source, folder, log, cache)
        if event is None:
            self._round_caches.pop(slug, None)
        if event is not None:
            assign_event_ids(event, self.directory, log)
        if log.has_errors():
            self.blocked[slug] = log.problems
            return set()
        self.blocked.pop(slug, None)
        old = self.events.pop(slug, None)
        if old is None and event is None:
            return set()  # not an event folder (a stray file in data/events, say)
        if old is not None:
            self._index(old, add=False)
        if event is not None:
            scored = RULESETS[event.info.game].score(event)
            problems = sorted_problems(log.problems + list(scored.warnings))
            if old is not None and old.problems == problems:
                problems = old.problems  # the same list: the report need not be sorted again
            self.events[slug] = EventState(event, scored, summarize(scored), problems)
            self._index(self.events[slug], add=True)
        self._sync_site_events(old, self.events.get(slug))
        return self._units_after_event_change(old, self.events.get(slug))

    def _index(self, state: EventState, add: bool) -> None:
        slug = state.event.slug
        for pid in {r.id for r in state.event.players.values()}:
            slugs = self.named_in.setdefault(pid, set())
            (slugs.add if add else slugs.discard)(slug)
            if not slugs:
                del self.named_in[pid]
        label = state.summary.label
        for pid, result in state.results.items():
            entries = self.histories.setdefault(pid, [])
            at = bisect.bisect_left(entries, NewestFirst(state.order), key=newest_first)
            if add:
                entries.insert(at, (label, result))
            else:
                del entries[at]
                if not entries:
                    del self.histories[pid]

    def _sync_site_events(self, old: EventState | None, new: EventState | None) -> None:
        """site.events, in (date, slug) order, after one event's change. A corrected result
        keeps the event's place: it takes the old version's (sorting a 1,000-event archive
        after every save cost 1.5 ms)."""
        events = self.site.events
        if old is not None and new is not None and old.order == new.order:
            at = bisect.bisect_left(events, old.order, key=event_order)
            if at < len(events) and events[at] is old.event:
                self.site.events = [*events[:at], new.event, *events[at + 1:]]
                return
        self.site.events = sorted((s.event for s in self.events.values()), key=event_order)

    def _units_after_event_change(self, old: EventState | None, new: EventState | None) -> set[str]:
        """The units an event's new version touches (old or new is None for an added or removed
        event), with people and rankings brought up to date on the way."""
        slug = (new or old).event.slug
        units = {f"event:{slug}"}
        if old is None or new is None or old.summary != new.summary:
            units |= {"home", "archive"}
        label_changed = old is None or new is None or old.summary.label != new.summary.label

        affected = {ref.id for s in (old, new) if s for ref in s.event.players.values()}
        renamed: set[str] = set()
        if old is None or new is None or (old.names, old.event.info.date) != \
                (new.names, new.event.info.date):  # else no display name can have moved
            before = {pid: self.site.people.get(pid) for pid in affected}
            self._update_people(affected)
            renamed = {pid for pid in affected if before[pid] != self.site.people.get(pid)}

        index = self.ranking_index
        ranking_changed = (old is None or new is None
                           or index.inputs(old.scored) != index.inputs(new.scored))
        points_before = {pid: index.points.get(pid, {}).get(slug) for pid in affected}
        if ranking_changed or renamed:
            touched = set()
            if ranking_changed:
                touched = index.replace(old.scored if old else None, new.scored if new else None)
            index.refresh(touched | renamed, self.site.people.__getitem__)
            self.rankings = index.rankings()
            units |= {"rankings", "home"}

        # A player's page shows their result, the event's label and its ranking points.
        was = old.results if old else {}
        now = new.results if new else {}
        for pid in affected:
            if (label_changed or pid in renamed or was.get(pid) != now.get(pid)
                    or points_before[pid] != index.points.get(pid, {}).get(slug)):
                units.add(f"player:{pid}")
        if renamed or set(was) != set(now):
            units.add("players")
        return units

    def _update_people(self, ids: set[str]) -> None:
        """Recompute the display name of these people from the events they are in (the same rule
        as a full load: players.csv name, else their latest played spelling, else officiated)."""
        best: dict[str, tuple] = {}
        for pid in ids:
            for slug in self.named_in.get(pid, ()):
                state = self.events[slug]
                played, name = state.names[pid]
                rank = (played, state.event.info.date, slug)
                if pid not in best or rank > best[pid][0]:
                    best[pid] = (rank, name)
        for pid in ids:
            if pid in best:
                self.site.people[pid] = Person(pid, self.directory.names.get(pid, best[pid][1]))
            else:
                self.site.people.pop(pid, None)

    def _reload_content(self) -> set[str]:
        log = ProblemLog()
        before = (self.site.pages, self.site.home_text, self.site.reports)
        pages, home, reports = load_content(self.source, self.site.event_folders, log)
        if log.has_errors():
            self.blocked["content"] = log.problems
            return set()
        self.blocked.pop("content", None)
        self.site_problems = [p for p in self.site_problems
                              if not p.path.startswith("content/")] + log.problems
        self.site.pages, self.site.home_text, self.site.reports = pages, home, reports
        nav_before = [(p.url, p.title) for p in before[0] if p.url.count("/") == 1]
        nav_after = [(p.url, p.title) for p in pages if p.url.count("/") == 1]
        if nav_before != nav_after:  # the navigation is on every page
            self._replace_renderer(pages)
            return self.pages.units() | {f"content:{p.path}" for p in pages}
        units = {f"content:{p.path}" for p in set(before[0]) ^ set(pages)}
        if before[1] != home:
            units.add("home")
        for slug in set(before[2]) | set(reports):
            if before[2].get(slug) != reports.get(slug) and slug in self.events:
                units.add(f"event:{slug}")
        return units

    def _replace_renderer(self, nav: list) -> None:
        self.renderer = Renderer(self.source, self.site.config, nav)
        self._refreeze = True  # the old one is garbage frozen with the session: see tidy()

    def _reload_theme(self, changed: list[str], report: Report) -> set[str]:
        log = ProblemLog()
        scan_theme(self.source, self.site.config, log)  # as the load stage does
        if log.has_errors():
            self.blocked["theme files"] = log.problems
            return set()
        self.blocked.pop("theme files", None)
        self.site_problems = [p for p in self.site_problems
                              if not p.path.startswith("themes/")] + log.problems
        self._replace_renderer(self.site.pages)
        templates = {c.split("/templates/", 1)[1] for c in changed if "/templates/" in c}
        if not templates:
            return set()
        for name in sorted(templates):
            self.renderer.compile(name)  # a syntax error is reported even if no page uses it
        return {page.unit for page in self.pages.by_url.values()
                if pages_using(self.renderer.env, page) & templates}

    # ---------------------------------------------------------------- planning and writing

    def _plan_all(self) -> list[Page]:
        """Every page, from the same unit builders as a rebuild (plan_site composes them too),
        and from this session's objects: its summaries, rankings and history rows. A rebuild
        then finds an unchanged row as the very object the first build rendered, which the
        renderer's caches know by its identity alone."""
        units = {"home", "archive", "404", "rankings", "players"}
        units |= {f"event:{slug}" for slug in self.events}
        units |= {f"player:{pid}" for pid in self.histories}
        units |= {f"content:{page.path}" for page in self.site.pages}
        return self._plan_units(units)

    def _plan_units(self, units: set[str]) -> list[Page]:
        """The current pages of these units, from plan.py's builders (as a full build makes
        them)."""
        # Newest first: site.events is kept in (date, slug) order.
        summaries = [self.events[e.slug].summary for e in reversed(self.site.events)] \
            if units & {"home", "archive"} else []
        rankings = self.rankings
        pages: list[Page] = []
        if "home" in units:
            pages.append(home_page(self.site, summaries, rankings))
        if "archive" in units:
            pages.append(archive_page(summaries))
        if "404" in units:
            pages.append(not_found_page())
        if "rankings" in units:
            pages += ranking_pages(rankings, self.site)
        for unit in sorted(u for u in units if u.startswith("event:")):
            state = self.events.get(unit[6:])
            if state is not None:
                pages += event_pages(state.scored, state.summary,
                                     self.site.reports.get(state.event.slug), state.problems)
        if "players" in units:
            counts = {pid: len(entries) for pid, entries in self.histories.items()}
            pages.append(players_index_page(self.site, counts))
        for pid in sorted(u[7:] for u in units if u.startswith("player:")):
            if pid in self.histories:
                pages.append(player_page(self.site.people[pid], list(self.histories[pid]),
                                         self.ranking_index.points.get(pid, {}),
                                         self.history_rows))
            else:
                self.history_rows.forget(pid)
        for content in self.site.pages:
            if f"content:{content.path}" in units:
                pages.append(content_page(content))
        return pages

    def _render(self, units: set[str], report: Report, replan: bool = True) -> None:
        clock = time.perf_counter()
        if replan:
            fresh = self._plan_units(units)
        else:  # a full re-render: every page as planned, and the sitemap (base_url may differ)
            fresh = list(self.pages.by_url.values())
            self.pages.sitemap_changed = True
        report.phases["plan"] = time.perf_counter() - clock
        gone = self.pages.urls_of(units)
        for page in fresh:
            self.pages.put(page)
        fresh_urls = {page.url for page in fresh}
        removed = [self.pages.pop(url).output_path for url in gone if url not in fresh_urls]
        clock = time.perf_counter()
        self.files.finish_deleting()  # the last rebuild's, whose temporary names are reused below
        staged: list[Staged] = []
        in_background: list[Future] = []
        produced: set[str] = set()
        staging = 0.0
        try:
            # Each page is written to a temporary file beside its place as soon as it is
            # rendered, if its bytes changed (see PublishedFiles). Large files are written by a
            # thread meanwhile (see PublishedFiles.LARGE_FILE); for the others, writer threads were slower:
            # they need the interpreter between their system calls, and wait for it while the
            # renderer holds it (a round of the 1,000-event archive took 33 ms longer with four).
            # No file is put in place or deleted before every page has rendered: a broken
            # template changes nothing on disk.
            for page in fresh:
                produced.add(page.output_path)
                data = self.renderer.render(page)
                report.rendered += 1
                started = time.perf_counter()
                if len(data) >= self.files.LARGE_FILE:
                    in_background.append(self.files.writer().submit(self.files.staged,
                                                                    page.output_path, data))
                else:
                    self.files.stage(page.output_path, data, staged)
                staging += time.perf_counter() - started
            report.phases["render"] = time.perf_counter() - clock - staging
            clock = time.perf_counter() - staging
            static_before = self._static_paths
            for path, data in self._static_and_extra_files().items():
                produced.add(path)
                self.files.stage(path, data, staged)
            while in_background:
                done = in_background.pop(0).result()
                if done is not None:
                    staged.append(done)
            self.files.put_in_place(staged)
        except BaseException:
            for future in in_background:  # finished first, so nothing is left behind
                with suppress(BaseException):
                    done = future.result()
                    if done is not None:
                        staged.append(done)
            # What is not in place (or the old page, if it is).
            delete_files([temporary for _, _, temporary in staged])
            self.stale = True  # the plan moved on without the files: the next change redoes all
            raise
        for path, size, _ in staged:
            self.files.sizes[path] = size
        for path in removed:
            self._delete(path, report)
        report.written += len(staged)
        report.changed_urls.update(path for path, _, _ in staged)
        # Pages leave with their units (`removed` above); only static files can go stale on their
        # own, except in a full re-render, where the whole plan was replaced.
        stale = static_before - self._static_paths if replan else set(self.files.sizes) - produced
        for path in sorted(stale):
            self._delete(path, report)
        report.phases["write"] = time.perf_counter() - clock

    def _delete(self, path: str, report: Report) -> None:
        if self.files.delete(path):
            report.deleted += 1
            report.changed_urls.add(path)
