"""`build` and `check`, as the rest of the world calls them (the engine does the work)."""

from __future__ import annotations

from pathlib import Path

from .engine import BuildResult, Engine, Progress

__all__ = ["BuildResult", "build", "check"]


def check(source: Path, base_url: str | None = None, strict: bool = False) -> BuildResult:
    """Load and score without writing anything; raises DataError when there are errors."""
    return Engine(source, None, base_url, strict).check()


def build(source: Path, out: Path, base_url: str | None = None, strict: bool = False,
          progress: Progress | None = None, clean: bool = False) -> BuildResult:
    """Build the site into `out`, from the state of the last build beside it unless `clean`;
    on any error the previous `out` is left untouched."""
    return Engine(source, out, base_url, strict, clean=clean).build(progress=progress)
