"""`watch` and `serve` as the organizer runs them: build, then rebuild on every burst of changes
until Ctrl-C, each build told in one line on the terminal (and, when serving, to the browsers:
the pages that changed reload, errors show in an overlay). Nothing a rebuild raises stops the
watching: the organizer fixes what the message names, and that save rebuilds."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..core.notice import ProgressLine
from ..core.problems import (EXIT_OK, ConfigError, Problem, SiteError, one_line, print_problems,
                             system_error, terminal_safe)
from ..league.load import EVENTS_DIR
from .serve import LiveState, served_url
from .session import Report, Session
from .watch import Watcher

SIGNAL_CHECK_SECONDS = 0.2
"""How often the loop looks for Ctrl-C or `kill` that the system gave another thread."""


class Serving(NamedTuple):
    """The preview server of a `serve` session, its browsers' state, and where it is served."""

    server: object
    live: LiveState
    url: str


class WatchLoop:
    def __init__(self, source: Path, out: Path, base_url: str | None,
                 serving: Serving | None = None):
        self.source, self.out, self.serving = source, out, serving
        self.session = Session(source, out, base_url)
        self.shown: set[Problem] = set()
        """The problems the terminal showed last: a warning is said once, an error each time."""

    def run(self) -> int:
        """The first build, then the watcher (and the server) until Ctrl-C or `kill`."""
        progress = ProgressLine() if sys.stderr.isatty() else None  # as `build` shows it
        watcher = Watcher(self.source, lambda batch: self._attempt(
            lambda: self.session.rebuild(batch), changed=batch))
        watcher.observe()  # before the first build: what is saved while it runs is not lost
        try:
            self._attempt(lambda: self.session.build_all(progress=progress), first=True)
        except BaseException:
            watcher.stop()
            raise
        if progress:
            progress.clear()
        watcher.deliver()
        self._announce()
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops as cleanly as Ctrl-C
        try:
            # Python acts on a signal when the main thread runs again. The system may hand
            # Ctrl-C to any thread (watchdog's, the server's), and a main thread blocked for
            # good in a wait would then never stop: it wakes up often instead.
            while True:
                time.sleep(SIGNAL_CHECK_SECONDS)
        finally:
            watcher.stop()
            self._stop()
        return EXIT_OK

    def _announce(self) -> None:
        if self.serving:
            threading.Thread(target=self.serving.server.serve_forever, daemon=True).start()
            _say(terminal_safe(f"Serving {self.out}/ at {self.serving.url}  (pages reload "
                               "themselves; Ctrl-C to stop)"))
        _say("Watching data/, content/, themes/ and site.toml for changes.")

    def _attempt(self, build: Callable[[], Report], first: bool = False,
                 changed: list[str] | None = None) -> None:
        """Run a build or rebuild and report it; what it raises is said, and the next change
        builds the whole site again."""
        try:
            self._report(build(), changed)
        except ConfigError as exc:
            if first:  # the command line itself is unusable (an --out that is not a build)
                raise
            self._failed(str(exc))
        except SiteError as exc:
            self._failed(str(exc))
        except OSError as exc:  # a full disk, a folder in the way: say so and keep watching
            self._failed(f"{system_error(exc, str(self.out))}. The next change writes "
                         "everything again.")
        except Exception as exc:  # a bug of ours: the organizer's next save tries again
            self._failed(f"the rebuild failed: {type(exc).__name__}: {exc}. This is a bug in "
                         "site-builder (please report it with the file you changed); the next "
                         "change rebuilds the whole site.")

    def _report(self, report: Report, changed: list[str] | None = None) -> None:
        """Every error; every warning of the files just changed (and of their event), which
        still stands after the save; and any other warning the first time it appears."""
        problems = report.problems
        touched = {_place(path) for path in changed or ()}
        print_problems([p for p in problems if p.is_error or p not in self.shown
                        or _place(p.path) in touched], str(self.source))
        self.shown = set(problems)
        _say(report.line())
        for note in report.notes:
            _say(terminal_safe(f"site-builder: {note}"))
        if self.serving:
            self._follow_base_url()
            self.serving.live.publish(report.changed_urls, problems, built=report.site_on_disk)

    def _follow_base_url(self) -> None:
        """Serve under site.toml's base_url as it is now: an edit moves the site (and open pages
        follow it)."""
        config, live = self.session.config, self.serving.live
        if config is not None and config.base_url.path != live.base_path:
            live.set_base_path(config.base_url.path)
            _say(terminal_safe("base_url changed: now serving at "
                               f"{served_url(self.serving.server, live.base_path)}"))

    def _failed(self, message: str) -> None:
        """A build that could not finish: one line in the terminal and the browsers' overlay."""
        self.session.failed()
        _say(one_line(f"site-builder: {message}"))
        if self.serving:
            self.serving.live.publish(set(), [Problem("", None, message)],
                                      built=self.session.has_site())

    def _stop(self) -> None:
        """The state written beside the output for the next build; the server shut down."""
        try:
            self.session.close()
        except OSError as exc:  # a full disk (state.StateNotSaved)
            then = getattr(exc, "then", "the next build will draw every page")
            print(terminal_safe(f"site-builder: warning: the state beside {self.out}/ could not "
                                f"be saved ({getattr(exc, 'reason', exc)}): {then}."),
                  file=sys.stderr)
        if self.serving:
            self.serving.live.close()
            self.serving.server.shutdown()
            self.serving.server.server_close()


def _place(path: str) -> str:
    """What a file belongs to: its event's folder (data/events/<slug>), or itself."""
    inside, _, rest = path.partition(EVENTS_DIR + "/")
    slug, sep, _ = rest.partition("/")
    return f"{EVENTS_DIR}/{slug}" if not inside and sep else path


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
