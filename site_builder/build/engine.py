"""The build, as its stages: load → events → plan → render → write → finish. One engine for
`build`, `check`, `watch` and `serve`.

What the last build made is its state (state.py): each event's key and facts, and each published
file's record. A build reads the inputs' digests, loads and scores only the events whose key
changed (or whose pages must be drawn again), plans every page, and renders a page only when
the digest of what it is made from, or a template it was drawn with, changed — Lektor's
recorded dependencies. With no usable state, every page is rendered into a new folder that
replaces the old one whole. Each event that changed goes through pipeline.py; the pool
(pool.py) shares the events and pages of large builds between worker processes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..core.digests import digest
from ..core.model import ContentPage
from ..core.problems import DataError, ProblemLog, sorted_problems
from ..files.inputs import code_digest
from ..core.statecodec import Damaged
from ..league.load import check_source
from ..pages.eventpages import Page, output_path
from ..pages.facts import EventFacts
from ..pages.siteplan import SitePlanner
from ..pages.sitepages import SiteInputs
from .buildresult import BuildResult, Counter, Progress, timed
from .finish import ExtraFiles
from .keeper import Keeper, StateNotSaved, settle
from .ondisk import published_stamps
from .rankingcache import RankingCache
from .pipeline import Drawing, EventJob, draw_page, event_outcome, page_key
from .pool import folder_weight, shared
from .publish import FreshFolder, InPlace, Publisher, Written
from .render import Renderer
from .state import BuildState, EventUnit, PageRecord
from .siteload import SiteLoad, load_site
from .themefiles import builtin_theme
from .write import check_output_folder


class Engine:
    """Builds one source into one output folder, again and again (a watch session keeps one)."""

    def __init__(self, source: Path, out: Path | None, base_url: str | None = None,
                 strict: bool = False, clean: bool = False, parallel: bool = True):
        self.source, self.out, self.base_url, self.strict = source, out, base_url, strict
        self.clean, self.parallel = clean, parallel
        self.code = code_digest()
        self.kept = Keeper(out, self.code, clean)
        self.renderer: Renderer | None = None
        self._renderer_key = ""
        self._rankings = RankingCache()
        self._save = True
        self._hint: Sequence[str] | None = None
        self._published: tuple[BuildState, dict] | None = None
        """(the state this engine's last build made, the event reports it drew with)."""
        self._folder_keys: tuple[str, dict[str, str]] = ("", {})
        """(data/players.csv's digest, event slug → its key) as the last build found them."""
        self.planner = SitePlanner()
        self._extra = ExtraFiles()
        self._page_keys: dict[str, tuple[Page, str, str]] = {}
        """Output path → (the page planned, the site key, its page key): a page planned again
        by the planner is a new object; one kept is not keyed again."""

    # ---------------------------------------------------------------- the stages

    def check(self) -> BuildResult:
        """Load and score everything, write nothing; raises DataError on errors."""
        self._hint = None
        return self._run(render=False, keep_last_good=False, progress=None)

    def build(self, keep_last_good: bool = False, progress: Progress | None = None,
              save: bool = True, changed: Sequence[str] | None = None) -> BuildResult:
        """Build into the output folder. With `save`, the state is written beside it (a watch
        session keeps it in memory and writes it when it stops: see `save_state`).

        `changed`: the source paths a watcher saw change since this engine's last build. Only
        the event folders they are in are looked at again (the others keep the key found last
        time); None looks at every folder."""
        self._save = save
        self._hint = changed
        try:
            return self._run(render=True, keep_last_good=keep_last_good, progress=progress)
        except Exception as error:
            # Something read of a state from disk did not hold together (a result read only now
            # that a page shows it, facts that contradict each other). Nothing was swapped in:
            # build again from nothing. (A data or system error is raised as it is.)
            if not self.kept.drop_if_damaged(error):
                raise
            return self._run(render=True, keep_last_good=keep_last_good, progress=progress)

    def save_state(self) -> None:
        """Write the state of the last build beside the output (StateNotSaved if it cannot
        be)."""
        self.kept.save()

    def settle(self) -> None:
        """See keeper.settle."""
        settle()

    def _run(self, render: bool, keep_last_good: bool, progress: Progress | None) -> BuildResult:
        result = BuildResult()
        check_source(self.source)
        if render:
            check_output_folder(self.source, self.out, (builtin_theme(),))
            self.kept.prepare()
        result.state_refused = self.kept.note()
        log = ProblemLog()
        with timed(result.timings, "load"):
            site = self._load_site(log)
        # With site-wide errors nothing is drawn, but every event is still checked: the
        # organizer sees all the mistakes of the run at once.
        render = render and not log.has_errors()
        state = self.kept.state
        drawing = self._drawing(site, state) if render else None
        written: list[Written] = []
        try:
            with timed(result.timings, "events"):
                units = self._events(site, state, drawing, log, result, keep_last_good, written,
                                     progress)
            problems = sorted_problems(log.problems)
            if log.has_errors() or (self.strict and problems):
                held_back = [p for errors in result.blocked.values() for p in errors]
                raise DataError(sorted_problems(problems + held_back))
            result.problems = problems
            result.config, result.events = site.config, len(units)
            if drawing is not None:
                self._publish(site, units, drawing, written, result, progress)
        except BaseException:
            if drawing is not None:
                drawing.publisher.abandon(written)
            raise
        return result

    def forget(self) -> None:
        """Build the next site from nothing (see Keeper.forget)."""
        self.kept.forget()

    def _drawing(self, site: SiteLoad, state: BuildState | None) -> Drawing:
        renderer = self._renderer(site)
        changed = frozenset(name for name, known in (state.templates.items() if state else ())
                            if renderer.template_digest(name) != known)
        return Drawing(site.site_key, renderer,
                       FreshFolder(self.out) if state is None else InPlace(self.out),
                       changed, self.kept.changed_on_disk)

    def _load_site(self, log: ProblemLog) -> SiteLoad:
        return load_site(self.source, self.base_url, self.code, self.kept.digests, log)

    # ---------------------------------------------------------------- events

    def _events(self, site: SiteLoad, state: BuildState | None, drawing: Drawing | None,
                log: ProblemLog, result: BuildResult, keep_last_good: bool,
                written: list[Written], progress: Progress | None) -> dict[str, EventUnit]:
        """Every event's unit: kept from the state when its key and pages are current, else
        loaded, scored and its changed pages drawn (in workers when there are many)."""
        reports = site.reports
        previous = state.events if state is not None else {}
        keys, todo = {}, []
        unchanged = self._unchanged_folders(site)
        published = self._published_as_before(site, state, drawing)
        for folder in site.folders:
            slug = folder.name
            keys[slug] = unchanged.get(slug) or digest(self.code, site.league_digest,
                                                       self.kept.digests.folder(str(folder)))
            unit = previous.get(slug)
            if unit is not None and unit.facts.key == keys[slug] \
                    and unit.facts.summary.game not in site.games:
                # Its key holds the games' files as they are: a build of it made a game the
                # league has. Facts of any other came from no build.
                raise Damaged(f"event {slug!r} is of no game site-builder knows")
            if (published is not None and slug in unchanged and unit is not None
                    and unit.facts.key == keys[slug] and reports.get(slug) == published.get(slug)):
                continue  # as this engine's last build published it, pages and all
            if unit is None or not self._unit_fresh(unit, keys[slug], drawing, reports.get(slug)):
                todo.append(folder)
        self._folder_keys = (site.league_digest, keys)
        job = EventJob(self.source, site.directory, keys, reports, previous, drawing, site.games)
        counter = Counter("Scoring events", len(todo), progress)
        outcomes = {o.slug: o for o in shared(event_outcome, job, todo, self.parallel,
                                                weight=folder_weight, done=counter)}
        units: dict[str, EventUnit] = {}
        for folder in site.folders:
            slug = folder.name
            outcome = outcomes.get(slug)
            if outcome is None:  # unchanged
                units[slug] = previous[slug]
                log.extend(list(units[slug].facts.problems))
            elif outcome.has_errors and keep_last_good and slug in previous:
                result.blocked[slug] = [p for p in outcome.problems if p.is_error]
                units[slug] = previous[slug]
                log.extend(list(previous[slug].facts.problems))
            else:
                log.extend(outcome.problems)
                written += outcome.written
                if outcome.facts is not None:
                    units[slug] = EventUnit(outcome.facts, outcome.pages)
        return units

    def _unchanged_folders(self, site: SiteLoad) -> dict[str, str]:
        """Slug → key of the event folders the watcher saw nothing change in, as the last build
        found them; empty when every folder is to be looked at (no hint, a new players.csv, a
        change to data/events/ itself or to something in data/ the engine cannot place)."""
        players, known = self._folder_keys
        if self._hint is None or players != site.league_digest:
            return {}
        changed = set()
        for path in self._hint:
            parts = path.split("/")
            if parts[0] != "data":
                continue  # site.toml, content/, themes/: not an event folder's
            if len(parts) < 4 or parts[1] != "events" or not parts[2]:
                return {}
            changed.add(parts[2])
        return {slug: key for slug, key in known.items() if slug not in changed}

    def _published_as_before(self, site: SiteLoad, state: BuildState | None,
                             drawing: Drawing | None) -> dict | None:
        """The event reports of this engine's last build, when the state is the one it made,
        with the same site settings, and no template or published page changed since: an event
        whose folder and report did not change is then published as it was. None otherwise."""
        if (drawing is None or state is None or self._published is None
                or self._published[0] is not state or state.site_key != site.site_key
                or drawing.changed_templates or drawing.changed_on_disk):
            return None
        return self._published[1]

    def _unit_fresh(self, unit: EventUnit, key: str, drawing: Drawing | None,
                    report: ContentPage | None) -> bool:
        """Whether an event is unchanged and (when drawing) every page of it is published as
        it would be drawn now."""
        if unit.facts.key != key:
            return False
        if drawing is None:
            return True
        expected = page_key(drawing.site_key, (key, report))
        return not any(drawing.stale(path, expected, record) for path, record in unit.pages.items())

    # ---------------------------------------------------------------- plan

    def _site_pages(self, site: SiteLoad, facts: list[EventFacts]) -> list[Page]:
        """Planned by the session's planner: again only where the changed events reach."""
        people = self.planner.people(facts, site.directory, site.league_digest)
        return self.planner.plan(SiteInputs(site.config, facts, people,
                                            self._rankings.of(site.config.rankings, facts,
                                                              people, self.planner.touched),
                                            site.pages, site.home_text))

    # ---------------------------------------------------------------- render and write

    def _renderer(self, site: SiteLoad) -> Renderer:
        key = digest(site.site_key, site.theme_key, site.pages)
        if self.renderer is None or self._renderer_key != key:
            self.renderer = Renderer(self.source, site.config, site.pages)
            self._renderer_key = key
        return self.renderer

    def _publish(self, site: SiteLoad, units: dict[str, EventUnit], drawing: Drawing,
                 written: list[Written], result: BuildResult, progress: Progress | None) -> None:
        with timed(result.timings, "plan"):
            facts = sorted((unit.facts for unit in units.values()), key=lambda f: f.order,
                           reverse=True)
            pages = self._site_pages(site, facts)
        drawn_for_events = len(written)
        old = self.kept.state
        known = old.pages if old is not None else {}
        records: dict[str, PageRecord] = {}
        todo = []
        keys = {}
        for page in pages:
            path = output_path(page.url)
            known_key = self._page_keys.get(path)
            if known_key is not None and known_key[0] is page and known_key[1] == site.site_key:
                key = known_key[2]
            else:
                key = page_key(site.site_key, page.key)
            keys[path] = (page, site.site_key, key)
            if drawing.stale(path, key, known.get(path)):
                todo.append((page, key))
            else:
                records[path] = known[path]
        self._page_keys = keys  # a key is a pure function of the page and the site key
        with timed(result.timings, "render"):
            counter = Counter("Rendering pages", len(todo), progress)
            drawn = shared(draw_page, (drawing, todo), range(len(todo)), self.parallel,
                           done=counter)
        for (page, _), (record, done) in zip(todo, drawn):
            records[output_path(page.url)] = record
            written.append(done)
        state = BuildState(self.code, site.site_key, dict(sorted(units.items())), records)
        with timed(result.timings, "finish"):
            written += self._write_extra(site, state, drawing)
            state.templates = self._template_digests(state, drawing.renderer)
            result.deleted = self._delete_gone(old, state, drawing.publisher, result)
        with timed(result.timings, "write"):
            try:
                drawing.publisher.commit(written)
            except BaseException:  # some files may be swapped in, others not
                self.forget()
                raise
        before = old.stamps if old is not None else {}
        if self.kept.on_disk is not None:
            before = {**before, **self.kept.on_disk.stamps}
        result.pages = len(pages) + sum(len(u.pages) for u in units.values())
        state.stamps = published_stamps(self.out, state, before, written, result.pages)
        result.rendered = drawn_for_events + len(todo)
        result.written = sum(1 for w in written if w.written)
        result.changed_urls |= {w.path for w in written if w.written}
        result.files = result.pages + len(state.files)
        self.kept.adopt(state)
        self._published = (state, dict(site.reports))
        if self._save:
            try:
                self.kept.save()
            except StateNotSaved as exc:
                result.state_not_saved, result.state_next = exc.reason, exc.then

    def _template_digests(self, state: BuildState, renderer: Renderer) -> dict[str, str | None]:
        # The records share a few tuples of names: gathered first, they are few to go through.
        tuples = {record.templates for unit in state.events.values()
                  for record in unit.pages.values()}
        tuples.update(record.templates for record in state.pages.values())
        used = set().union(*tuples)
        return {name: renderer.template_digest(name) for name in sorted(used)}

    def _write_extra(self, site: SiteLoad, state: BuildState, drawing: Drawing) -> list[Written]:
        """The theme's static files, the sitemap and the markers."""
        files = dict(drawing.renderer.static_outputs())
        files.update(self._extra.files(site.config, state))
        written = []
        for path in sorted(files):
            done = drawing.publisher.write(path, files[path])
            state.files[path] = done.size
            written.append(done)
        return written

    def _delete_gone(self, old: BuildState | None, new: BuildState, publisher: Publisher,
                     result: BuildResult) -> int:
        """Delete the files of pages the site no longer has; how many."""
        if old is None:
            return 0
        gone = (old.pages.keys() - new.pages.keys()) | (old.files.keys() - new.files.keys())
        for slug, unit in old.events.items():
            kept = new.events.get(slug)
            if kept is not unit:  # an event kept as it was keeps its pages
                gone |= unit.pages.keys() - (kept.pages.keys() if kept is not None else set())
        if self.kept.on_disk is not None:  # a new process: files no build of ours made go too
            gone |= self.kept.on_disk.files
        if gone:  # rare: only then is every path the site keeps gathered
            gone -= _paths(new)
        for path in sorted(gone):
            publisher.delete(path)
            result.changed_urls.add(path)
        return len(gone)


def _paths(state: BuildState) -> set[str]:
    paths = set(state.pages) | set(state.files)
    for unit in state.events.values():
        paths.update(unit.pages)
    return paths
