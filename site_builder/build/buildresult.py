"""What a build reports: its counts, problems, timings and notes, and its progress as it goes."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..core.problems import Problem
from ..league.config import SiteConfig

Progress = Callable[[str, int, int], None]
"""Told (what is being done, pieces done, pieces) as a long build goes on."""


@dataclass(slots=True)
class BuildResult:
    config: SiteConfig | None = None
    """The site's settings as the build read them (None when it stopped before)."""
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
    state_refused: str = ""
    """Why the state beside the output was not used, when it was damaged or tampered with (the
    build was then a full one)."""
    state_not_saved: str = ""
    """Why the state could not be written after the site was published."""
    state_next: str = ""
    """With `state_not_saved`: what the next build does about it (state.StateNotSaved.then)."""

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - start


class Counter:
    """Tells `progress` (what, pieces done, pieces) as pieces finish."""

    def __init__(self, what: str, total: int, progress: Progress | None):
        self.what, self.total, self.done, self.progress = what, total, 0, progress

    def __call__(self, finished: int) -> None:
        self.done += finished
        if self.progress is not None:
            self.progress(self.what, self.done, self.total)


def url_of(path: str) -> str:
    """The page URL of an output path (events/x/index.html → events/x/)."""
    return path[: -len("index.html")] if path == "index.html" or path.endswith("/index.html") else path
