"""What a long step says on the terminal while it works: the build's one-line counter of
events scored and pages rendered (`ProgressLine`), and what `pair` is doing once a step has run
a second (`Notice`, never part of the round it writes)."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

SLOW_SECONDS = 1.0
"""A pairing that runs longer says what it is doing."""


class Notice:
    """What a long pairing is doing, once it has run SLOW_SECONDS: on a terminal one line,
    rewritten as the pairing moves on and rubbed out when it is done (as `build`'s progress
    line); elsewhere (a log) one plain line. Shown from a timer thread, which gets its turn
    while the pairing runs Python, or at the next step if a matching held the interpreter
    that long (rustworkx does while it runs). A notice is never part of the round."""

    def __init__(self, stream: TextIO | None, what: str, doing: str) -> None:
        self.stream, self.what, self.doing = stream, what, doing
        self.shown = self.done = False
        self.started = time.perf_counter()
        self.lock = threading.Lock()
        self.timer = threading.Timer(SLOW_SECONDS, self._show)
        self.timer.daemon = True

    def __enter__(self) -> Notice:
        if self.stream is not None and SLOW_SECONDS <= 0:
            self._show()  # at once (the tests): no thread to race
        elif self.stream is not None:
            self.timer.start()
        return self

    def now(self, doing: str) -> None:
        with self.lock:
            self.doing = doing
        if self.stream is not None and (self.shown and self._terminal()
                                        or time.perf_counter() - self.started >= SLOW_SECONDS):
            self._show(again=True)

    def _show(self, again: bool = False) -> None:
        with self.lock:
            if self.done or (self.shown and not (again and self._terminal())):
                return
            line = f"{self.what}: {self.doing}…"
            self.stream.write(f"\r{line}\033[K" if self._terminal() else f"{line}\n")
            self.stream.flush()
            self.shown = True

    def _terminal(self) -> bool:
        return self.stream.isatty()

    def __exit__(self, *_) -> None:
        self.timer.cancel()
        with self.lock:
            self.done = True
            if self.shown and self._terminal():
                self.stream.write("\r\033[K")
                self.stream.flush()


class ProgressLine:
    """A one-line counter on the terminal while a slow build scores events and renders pages."""

    EVERY = 0.1
    """Seconds between two updates of the line."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def __call__(self, what: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self.started < 0.5 or (now - self.last < self.EVERY and done != total):
            return
        self.last = now
        print(f"\r{what} {done}/{total}\033[K", end="", file=sys.stderr, flush=True)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
