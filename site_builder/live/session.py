"""A `watch` or `serve` session: one engine kept between rebuilds, and what each rebuild did.

The engine does the work exactly as `build` does (recorded dependencies, the state beside the
output), so a rebuild renders only the pages whose inputs changed. What a session adds: data
with errors is never applied — an event with errors keeps its last good pages, and errors in a
site-wide file or a template keep the whole last good site — and every rebuild is summed up in
a `Report` for the terminal line and the browsers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..build.engine import BuildResult, Engine, Progress
from ..core.problems import DataError, Problem, TemplateError, sorted_problems, terminal_safe
from ..build.write import has_site


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
    """Output paths written or deleted."""
    site_on_disk: bool = True
    """Whether a good site is in the output folder (not so while the first build has errors)."""
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds per stage, for the benchmark."""
    held_back: int = 0
    """Events whose errors keep their last good pages while the rest of the change is published."""
    notes: list[str] = field(default_factory=list)
    """About the state beside the output: turned down, or not saved (see state_notes)."""

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    def line(self) -> str:
        # the paths changed are file names as the system gives them: shown escaped
        what = ", ".join(map(terminal_safe, self.changed[:3])) + (
            f" and {len(self.changed) - 3} more" if len(self.changed) > 3 else "")
        if self.errors and self.held_back and (self.written or self.deleted):
            verb = "keeps" if len(self.errors) == 1 else "keep"
            return (f"{what}: {_count(len(self.errors), 'error')} {verb} "
                    f"{_count(self.held_back, 'event')} at the last good version; "
                    f"{_count(self.rendered, 'page')} rendered, {_count(self.written, 'file')} "
                    f"written" + (f", {self.deleted} deleted" if self.deleted else "")
                    + f" in {self.seconds:.2f}s")
        if self.errors:
            kept = ("the last good site stays" if self.site_on_disk else
                    "nothing is published until they are fixed")
            return (f"{what}: {_count(len(self.errors), 'error')}, nothing of it applied; "
                    f"{kept} ({self.seconds:.2f}s)")
        return (f"{what}: {_count(self.rendered, 'page')} rendered, "
                f"{_count(self.written, 'file')} written"
                + (f", {self.deleted} deleted" if self.deleted else "") + f" in {self.seconds:.2f}s")


def state_notes(result: BuildResult) -> list[str]:
    """What the organizer is told of the state beside the output: a damaged one not used, or
    one that could not be saved once the site was published."""
    notes = []
    if result.state_refused:
        notes.append(f"note: {result.state_refused}; this build drew every page.")
    if result.state_not_saved:
        notes.append("warning: the site is published, but the state beside it could not be "
                     f"saved ({result.state_not_saved}): {result.state_next}.")
    return notes


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


class Session:
    def __init__(self, source: Path, out: Path, base_url: str | None = None):
        self.out = out
        self.engine = Engine(source, out, base_url)
        self.config = None
        """The site's configuration as the last good build read it (None before one)."""

    def build_all(self, progress: Progress | None = None) -> Report:
        """The session's first build: from the state of the last build when it is usable. What
        it leaves in memory stays for the whole session (see `Engine.settle`)."""
        report = self._build(["the whole site"], progress, save=True, hint=None)
        self.engine.settle()
        return report

    def rebuild(self, changed: list[str]) -> Report:
        """Apply changed source paths (relative, with /): the engine finds what they touch.
        The state is kept in memory, and written beside the output when the session stops."""
        return self._build(changed, None, save=False, hint=changed)

    def close(self) -> None:
        """The end of the session: the state of its last build is written beside the output,
        for the next `build`."""
        self.engine.save_state()

    def failed(self) -> None:
        """A rebuild stopped by something other than the data (a full disk, a bug): the output
        folder may not be what the state says, so the next change writes everything again."""
        self.engine.forget()

    def has_site(self) -> bool:
        return has_site(self.out)

    def _build(self, changed: list[str], progress: Progress | None,
               save: bool, hint: list[str] | None) -> Report:
        """`hint`: the paths the watcher saw change, for the engine to look only at the event
        folders they are in (None: every folder)."""
        started = time.perf_counter()
        report = Report(changed)
        try:
            self._apply(self.engine.build(keep_last_good=True, progress=progress, save=save,
                                          changed=hint), report)
        except DataError as exc:
            report.problems = exc.problems
        except TemplateError as exc:
            report.problems = [Problem("themes", None, str(exc))]
        report.site_on_disk = self.has_site()
        report.seconds = time.perf_counter() - started
        return report

    def _apply(self, result: BuildResult, report: Report) -> None:
        self.config = result.config
        held_back = [problem for errors in result.blocked.values() for problem in errors]
        report.problems = sorted_problems(result.problems + held_back)
        report.rendered, report.written, report.deleted = (result.rendered, result.written,
                                                           result.deleted)
        report.changed_urls = result.changed_urls
        report.phases = result.timings
        report.held_back = len(result.blocked)
        report.notes = state_notes(result)
