"""The worker pool: a list of pieces of work done in forked worker processes (one a core, the
standard library's process pool) when it is worth it, else in this process. Each piece is the
same function either way, so the output is byte for byte the same. The build shares each event
that changed (pipeline.event_outcome) and then each page across events (pipeline.draw_page);
ondisk.py shares the pages it checks.

Workers are forked: they start with the build's state, renderer and plan as this process has
them, and send back only what they made (facts, records of the files written). Small builds, and
builds in a process that runs other threads (watch, serve), do the work here.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

First = TypeVar("First")
Item = TypeVar("Item")
Result = TypeVar("Result")

SERIAL_BELOW = 24
"""Fewer pieces than this are done in this process: starting workers costs more."""

_JOB: tuple[Callable, Any] | None = None
"""(function, its first argument) of the pieces being shared: set before the workers fork."""


def _piece(items: list) -> list:
    function, first = _JOB
    return [function(first, item) for item in items]


def shared(function: Callable[[First, Item], Result], first: First, items: Sequence[Item],
           parallel: bool, weight: Callable[[Item], int] = lambda item: 1,
           done: Callable[[int], None] | None = None) -> list[Result]:
    """[function(first, item) for item in items], in order, shared between worker processes when
    it is worth it. `done(n)` is told as pieces are finished."""
    global _JOB
    workers = os.cpu_count() or 1
    if not parallel or workers < 2 or len(items) < SERIAL_BELOW or not _can_fork():
        return _here(function, first, items, done)
    # Pieces in chunks of similar weight, the heaviest first, so the workers finish together.
    order = sorted(range(len(items)), key=lambda i: -weight(items[i]))
    chunks: list[list[int]] = [[] for _ in range(min(len(items), workers * 8))]
    for position, index in enumerate(order):
        chunks[position % len(chunks)].append(index)
    _JOB = (function, first)
    results: list[Any] = [None] * len(items)  # filled in below, each in its place
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            for chunk, made in zip(chunks, pool.map(_piece, [[items[i] for i in c] for c in chunks])):
                for index, result in zip(chunk, made):
                    results[index] = result
                if done:
                    done(len(chunk))
    finally:
        _JOB = None
    return results


def _here(function: Callable[[First, Item], Result], first: First, items: Sequence[Item],
          done: Callable[[int], None] | None) -> list[Result]:
    results = []
    for item in items:
        results.append(function(first, item))
        if done:
            done(1)
    return results


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies (linux/prctl.h)."""
PARENT_POLL_SECONDS = 1.0


def _die_with_parent(parent: int) -> None:
    """Each worker's first act. A worker waits for pieces on a queue whose write end every
    worker holds too (they were forked with it), so a parent killed outright (SIGKILL, the out
    of memory killer) leaves them waiting for ever, reparented: they must end with it.

    On Linux the kernel sends the worker SIGKILL when its parent dies: nothing to run, no thread,
    and it works even while the worker is busy drawing (what it staged, the next build removes
    with the killed build's staging folder). The "parent" is the thread that forked
    the worker: `shared` forks from the thread that calls it, which waits in the pool's `with`
    until every worker is done, so that thread outlives them. Elsewhere a thread looks at the
    parent's pid once a second. Either way, a parent that died before this ran has already made
    the worker an orphan (its parent pid is no longer `parent`): that is checked after."""
    if not _kill_on_parent_death():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _kill_on_parent_death() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # here: only a worker needs it
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _can_fork() -> bool:
    """Forking a process that runs other threads (the watcher, the preview server) can copy a
    lock one of them holds, and the child would wait on it for ever: those builds stay here."""
    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def folder_weight(folder: Path) -> int:
    """How much work an event is, roughly: the size of its files."""
    try:
        return sum(entry.stat().st_size for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        return 0
