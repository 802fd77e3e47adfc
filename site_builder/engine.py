"""The build, as its stages: load → score → plan → render → write → finish. One engine for
`build`, `check`, `watch` and `serve`.

What the last build made is its state (state.py): each event's key and facts, and each published
file's record. A build reads the inputs' digests, loads and scores only the events whose key
changed (or whose pages must be drawn again), plans every page, and renders a page only when
the digest of what it is made from, or a template it was drawn with, changed — Lektor's
recorded dependencies. With no usable state, every page is rendered into a new folder that
replaces the old one whole. Workers (workers.py) share the events and pages of large builds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .config import load_config
from .content import load_content
from .facts import EventFacts, digest
from .finish import extra_files
from .inputs import FileDigests, code_digest
from .load import EVENTS_DIR, event_folders
from .people import PLAYERS_FILE, load_directory
from .plan import Page, output_path
from .problems import DataError, Problem, ProblemLog, sorted_problems
from .publish import FreshFolder, InPlace
from .rankings import build_rankings, ranked_event
from .render import Renderer
from .rules import RULESETS
from .siteplan import SiteInputs, people_of, site_pages
from .state import BuildState, EventUnit, PageRecord, load_state, page_on_disk, save_state
from .themefiles import builtin_theme, scan_theme, theme_dirs
from .load import check_source
from .write import check_output_folder
from . import workers

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class BuildResult:
    config: object = None
    events: int = 0
    pages: int = 0
    """HTML pages on the site."""
    files: int = 0
    rendered: int = 0
    written: int = 0
    deleted: int = 0
    problems: list[Problem] = field(default_factory=list)
    blocked: dict[str, list[Problem]] = field(default_factory=dict)
    """Event slug → the errors that keep its last good version published (watch mode)."""
    changed_urls: set[str] = field(default_factory=set)
    """Output paths written or deleted."""
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - start


@dataclass(slots=True)
class SiteLoad:
    """The site-wide inputs, loaded every build (they are small)."""

    config: object
    directory: object
    folders: list[Path]
    content: tuple
    players_digest: str
    site_key: str
    theme_key: str


class Engine:
    """Builds one source into one output folder, again and again (a watch session keeps one)."""

    def __init__(self, source: Path, out: Path | None, base_url: str | None = None,
                 strict: bool = False, clean: bool = False, parallel: bool = True):
        self.source, self.out, self.base_url, self.strict = source, out, base_url, strict
        self.clean, self.parallel = clean, parallel
        self.code = code_digest()
        self.state: BuildState | None = None
        self._state_loaded = False
        self._on_disk_checked = False
        """Whether the state in memory was read from disk (its pages' files are then checked)."""
        self.renderer: Renderer | None = None
        self._renderer_key = ""
        self._rankings: dict[str, tuple] = {}
        """Game → (the digest of its inputs, its ranking): one cache, keyed by value."""
        self.digests = FileDigests()

    # ---------------------------------------------------------------- the stages

    def check(self) -> BuildResult:
        """Load and score everything, write nothing; raises DataError on errors."""
        return self._run(render=False, keep_last_good=False, progress=None)

    def build(self, keep_last_good: bool = False, progress: Progress | None = None) -> BuildResult:
        return self._run(render=True, keep_last_good=keep_last_good, progress=progress)

    def _run(self, render: bool, keep_last_good: bool, progress: Progress | None) -> BuildResult:
        result = BuildResult()
        check_source(self.source)
        if render:
            check_output_folder(self.source, self.out, (builtin_theme(),))
            self._load_state()
        log = ProblemLog()
        with _timed(result.timings, "load"):
            site = self._load_site(log)
        state = self.state if render else None
        with _timed(result.timings, "score"):
            units, scored = self._events(site, state, log, result, keep_last_good)
        problems = sorted_problems(log.problems)
        if log.has_errors() or (self.strict and problems):
            raise DataError(problems)
        result.problems = problems
        result.config, result.events = site.config, len(units)
        if not render:
            return result
        with _timed(result.timings, "plan"):
            facts = sorted((unit.facts for unit in units.values()), key=lambda f: f.order,
                           reverse=True)
            pages = self._site_pages(site, facts)
            for slug, made in scored.items():
                pages += made
        self._publish(site, units, scored, pages, result, progress)
        return result

    def _load_state(self) -> None:
        if self._state_loaded:
            return
        self._state_loaded = True
        if not self.clean:
            self.state = load_state(self.out, self.code)
            self._on_disk_checked = self.state is not None
            if self.state is not None:
                self.digests = self.state.digests

    def _load_site(self, log: ProblemLog) -> SiteLoad:
        config = load_config(self.source, log).with_base_url(self.base_url)
        static = scan_theme(self.source, config, log)
        directory = load_directory(self.source, log)
        folders = event_folders(self.source, log)
        content = load_content(self.source, {f.name for f in folders}, log)
        if log.has_errors():
            raise DataError(sorted_problems(log.problems))
        pages, home, reports = content
        nav = [(p.url, p.title) for p in pages if p.url.count("/") == 1]
        players_digest = self.digests.file(str(self.source / PLAYERS_FILE)) or ""
        theme = digest(*(self.digests.folder_tree(str(d)) for d in theme_dirs(self.source, config)))
        site_key = digest(self.code, config, nav, sorted(static))
        return SiteLoad(config, directory, folders, content, players_digest, site_key, theme)

    # ---------------------------------------------------------------- events

    def _events(self, site: SiteLoad, state: BuildState | None, log: ProblemLog,
                result: BuildResult, keep_last_good: bool
                ) -> tuple[dict[str, EventUnit], dict[str, list[Page]]]:
        """Every event's unit, reused or made again, and the planned pages of those made again."""
        renderer = self._renderer(site) if self.out is not None else None
        changed_templates = self._changed_templates(state, renderer)
        reports = site.content[2]
        keys, todo = {}, []
        for folder in site.folders:
            slug = folder.name
            keys[slug] = digest(self.code, site.players_digest, self.digests.folder(str(folder)))
            unit = state.events.get(slug) if state is not None else None
            if unit is None or not self._unit_fresh(unit, keys[slug], site, reports.get(slug),
                                                    changed_templates):
                todo.append(folder)
        made = workers.score_events(self, site, todo, keys, state, log)
        units: dict[str, EventUnit] = {}
        scored: dict[str, list[Page]] = {}
        for folder in site.folders:
            slug = folder.name
            outcome = made.get(slug)
            if outcome is None:
                units[slug] = state.events[slug]
                log.extend(list(units[slug].facts.problems))
                continue
            if outcome.errors:
                kept = state.events.get(slug) if (keep_last_good and state is not None) else None
                if kept is not None:
                    result.blocked[slug] = outcome.errors
                    units[slug] = kept
                    log.extend(list(kept.facts.problems))
                else:
                    log.extend(outcome.errors)
                continue
            if outcome.facts is None:
                continue  # not an event (no event.toml): reported by the loader
            log.extend(list(outcome.facts.problems))
            old = state.events.get(slug) if state is not None else None
            units[slug] = EventUnit(outcome.facts, dict(old.pages) if old else {})
            scored[slug] = outcome.pages
        return units, scored

    def _unit_fresh(self, unit: EventUnit, key: str, site: SiteLoad, report: object,
                    changed_templates: set[str]) -> bool:
        """Whether every page of an unchanged event is published as it would be drawn now."""
        if unit.facts.key != key:
            return False
        expected = page_key(site.site_key, (key, report))
        for path, record in unit.pages.items():
            if record.key != expected or changed_templates.intersection(record.templates):
                return False
            if self._on_disk_checked and not page_on_disk(self.out, path, record):
                return False
        return True

    # ---------------------------------------------------------------- plan

    def _site_pages(self, site: SiteLoad, facts: list[EventFacts]) -> list[Page]:
        pages, home, _ = site.content
        people = people_of(facts, site.directory)
        return site_pages(SiteInputs(site.config, facts, people,
                                     self._game_rankings(site, facts, people), pages, home))

    def _game_rankings(self, site: SiteLoad, facts: list[EventFacts], people: dict) -> list:
        """Each game's ranking, worked out again only when what it reads changed."""
        config = site.config.rankings
        titles = {game: ruleset.title for game, ruleset in RULESETS.items()}
        by_game: dict[str, list[EventFacts]] = {}
        for item in facts:
            by_game.setdefault(item.summary.game, []).append(item)
        rankings = []
        for game in sorted(by_game, key=titles.__getitem__):
            events = by_game[game]
            named = {entry.player.id for f in events for entry in f.ranking or ()}
            key = digest(config, [f.ranking_digest for f in events],
                         sorted((pid, people[pid].name) for pid in named))
            known = self._rankings.get(game)
            if known is None or known[0] != key:
                ranked = [ranked_event(f, config) for f in events]
                known = self._rankings[game] = (key, build_rankings(ranked, people, titles)[0])
            rankings.append(known[1])
        return rankings

    # ---------------------------------------------------------------- render and write

    def _renderer(self, site: SiteLoad) -> Renderer:
        key = digest(site.site_key, site.theme_key, site.content[0])
        if self.renderer is None or self._renderer_key != key:
            self.renderer = Renderer(self.source, site.config, site.content[0])
            self._renderer_key = key
        return self.renderer

    def _changed_templates(self, state: BuildState | None, renderer: Renderer | None) -> set[str]:
        if state is None or renderer is None:
            return set()
        return {name for name, known in state.templates.items()
                if renderer.template_digest(name) != known}

    def _publish(self, site: SiteLoad, units: dict[str, EventUnit], scored: dict[str, list[Page]],
                 pages: list[Page], result: BuildResult, progress: Progress | None) -> None:
        state = self.state
        fresh = state is None
        renderer = self._renderer(site)
        changed_templates = self._changed_templates(state, renderer)
        own = {page.url: slug for slug, made in scored.items() for page in made}
        todo = []
        for page in pages:
            key = page_key(site.site_key, page.key)
            slug = own.get(page.url)
            records = units[slug].pages if slug else (state.pages if state else {})
            record = records.get(output_path(page.url))
            if (record is None or record.key != key
                    or changed_templates.intersection(record.templates)
                    or (self._on_disk_checked and not page_on_disk(self.out, output_path(page.url),
                                                                   record))):
                todo.append((page, key))
        publisher = FreshFolder(self.out) if fresh else InPlace(self.out)
        try:
            with _timed(result.timings, "render"):
                records = workers.render_pages(self, renderer, todo, publisher, progress)
            with _timed(result.timings, "finish"):
                new_state = self._next_state(site, units, scored, pages, records, renderer)
                self._write_extra(site, new_state, publisher, result)
                self._delete_gone(state, new_state, publisher, result)
            with _timed(result.timings, "write"):
                publisher.commit()
        except BaseException:
            publisher.abandon()
            self.state = None  # unknown what is on disk now: the next build is a full one
            self._state_loaded = True
            raise
        result.rendered = len(todo)
        for (page, _), (path, record, written) in zip(todo, records):
            if written:
                result.written += 1
                result.changed_urls.add(path)
        result.pages = sum(1 for page in pages if page.template)
        result.files = len(pages) + len(new_state.files)
        new_state.digests = self.digests
        self.digests.done()
        self.state, self._on_disk_checked = new_state, False
        save_state(self.out, new_state)

    def _next_state(self, site: SiteLoad, units: dict[str, EventUnit],
                    scored: dict[str, list[Page]], pages: list[Page],
                    records: list, renderer: Renderer) -> BuildState:
        made = {path: record for path, record, _ in records}
        state = BuildState(self.code, site.site_key)
        old_site_pages = self.state.pages if self.state else {}
        for slug, unit in units.items():
            if slug in scored:
                paths = [output_path(p.url) for p in scored[slug]]
                unit = EventUnit(unit.facts, {path: made.get(path) or unit.pages[path]
                                              for path in paths})
            state.events[slug] = unit
        own = {output_path(p.url) for made_pages in scored.values() for p in made_pages}
        for page in pages:
            path = output_path(page.url)
            if path not in own:
                state.pages[path] = made.get(path) or old_site_pages[path]
        used = {name for unit in state.events.values() for record in unit.pages.values()
                for name in record.templates}
        used |= {name for record in state.pages.values() for name in record.templates}
        state.templates = {name: renderer.template_digest(name) for name in sorted(used)}
        return state

    def _write_extra(self, site: SiteLoad, state: BuildState, publisher, result: BuildResult) -> None:
        urls = sorted(url_of(path) for unit in state.events.values()
                      for path, record in unit.pages.items() if record.in_sitemap)
        urls += [url_of(path) for path, record in state.pages.items() if record.in_sitemap]
        files = dict(self.renderer.static_outputs())
        files.update(extra_files(site.config, sorted(urls)))
        for path in sorted(files):
            size, _, written = publisher.write(path, files[path])
            state.files[path] = size
            if written:
                result.changed_urls.add(path)
                result.written += 1

    def _delete_gone(self, old: BuildState | None, new: BuildState, publisher,
                     result: BuildResult) -> None:
        if old is None:
            return
        before = set(old.pages) | set(old.files)
        before |= {path for unit in old.events.values() for path in unit.pages}
        after = set(new.pages) | set(new.files)
        after |= {path for unit in new.events.values() for path in unit.pages}
        for path in sorted(before - after):
            publisher.delete(path)
            result.deleted += 1
            result.changed_urls.add(path)


def page_key(site_key: str, made_of: tuple) -> str:
    return digest(site_key, made_of)


def url_of(path: str) -> str:
    """The page URL of an output path (events/x/index.html → events/x/)."""
    return path[: -len("index.html")] if path == "index.html" or path.endswith("/index.html") else path
