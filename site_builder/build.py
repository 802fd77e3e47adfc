"""The build, as its list of stages: load → score → plan → render → write → finish."""

from __future__ import annotations

import ctypes
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .load import check_source, load_site
from .model import Site
from .plan import Page, plan_site
from .problems import DataError, Problem, ProblemLog, sorted_problems
from .render import Renderer, render_all
from .themefiles import builtin_theme
from .rules.base import ScoredEvent
from .score import score_site
from .finish import extra_files, sitemap_urls
from .write import check_output_folder, write_site

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class BuildResult:
    site: Site
    scored: list[ScoredEvent]
    pages: list[Page] = field(default_factory=list)
    files: int = 0
    problems: list[Problem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = time.perf_counter() - start


@contextmanager
def collector_paused(resume: bool = True) -> Iterator[bool]:
    """The cyclic garbage collector off while a build or rebuild runs; yields whether it was on.
    With `resume` false it stays off afterwards, for the caller to resume.

    A build makes millions of objects that all stay, and the collector went through them again
    and again as they grew: a tenth of a 300-event build. Reference counting still frees what
    is let go; the cycles a build leaves (its renderer) wait for the next collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield enabled
    finally:
        if enabled and resume:
            gc.enable()


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
KEPT_BLOCK = 32 << 20
"""Blocks up to this size come from, and go back to, the process's own heap (glibc's largest)."""
KEPT_FREE = 256 << 20
"""Free memory at the top of the heap kept for reuse, not handed back to the system."""


def keep_freed_memory() -> bool:
    """For a long session (watch, serve): have the C allocator keep freed large blocks for the
    next rebuild instead of handing them back to the system. By default glibc maps a block of
    a few megabytes (a rankings page of a large archive, its JSON, their copies) freshly each
    time and returns it after, and a fresh mapping is filled page by page: on this kind of
    virtual machine the JSON of the 1,000-event archive's rankings took 11 ms to join, 3 ms
    with this. Called after each whole build of a session (the first one's temporary memory is
    handed back as usual); setting it again changes nothing.
    Returns whether the allocator took the settings (glibc only; elsewhere nothing changes)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, KEPT_BLOCK)) and bool(mallopt(_M_TRIM_THRESHOLD, KEPT_FREE))


def check(source: Path, base_url: str | None = None, strict: bool = False,
          round_caches: dict | None = None) -> BuildResult:
    """Load and score without writing anything; raises DataError when there are errors."""
    check_source(source)
    return _loaded_and_scored(source, base_url, strict, round_caches)


def _loaded_and_scored(source: Path, base_url: str | None, strict: bool,
                       round_caches: dict | None = None) -> BuildResult:
    timings: dict[str, float] = {}
    log = ProblemLog()
    with _timed(timings, "load"):
        site = load_site(source, log, round_caches)
        site.config = site.config.with_base_url(base_url)
    with _timed(timings, "score"):
        scored = score_site(site, log)
    problems = sorted_problems(log.problems)
    if log.has_errors() or (strict and problems):
        raise DataError(problems)
    return BuildResult(site, scored, problems=problems, timings=timings)


def build(source: Path, out: Path, base_url: str | None = None, strict: bool = False,
          progress: Progress | None = None) -> BuildResult:
    """Build the whole site into `out`; on any error the previous `out` is left untouched."""
    with collector_paused():
        return _build(source, out, base_url, strict, progress)


def _build(source: Path, out: Path, base_url: str | None, strict: bool,
           progress: Progress | None) -> BuildResult:
    check_source(source)
    check_output_folder(source, out, (builtin_theme(),))
    result = _loaded_and_scored(source, base_url, strict)
    config = result.site.config
    with _timed(result.timings, "plan"):
        result.pages = plan_site(result.site, result.scored, result.problems)
    with _timed(result.timings, "render"):
        renderer = Renderer(source, config, result.site.pages)
        files = render_all(renderer, result.pages, progress)
        files.update(renderer.static_outputs())
    with _timed(result.timings, "finish"):
        files.update(extra_files(config, sitemap_urls(result.pages)))
    with _timed(result.timings, "write"):
        write_site(out, files)
    result.files = len(files)
    return result
