"""Watching a site's source for edits, with one rebuild per burst and never a half-written file.

Editors save by writing a temporary file and renaming it; spreadsheets may write a file in several
pieces; copying a folder in creates many files at once. The watcher collects every change and
calls back once the burst is over: when no changed file is still open for writing (Linux reports
the close of a written file) and nothing has changed for a short quiet moment. Where the system
does not report closes, a longer quiet moment stands in for it.

A file opened before its folder was watched (the folder was just made or moved in) is reported
created but never opened: whether it is still being written is then asked of /proc.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from watchdog.events import (DirCreatedEvent, FileCreatedEvent, FileSystemEvent,
                             FileSystemEventHandler)
from watchdog.observers import Observer

from ..files.sources import INPUT_FOLDERS

WATCHED = tuple(f"{name}/" for name in INPUT_FOLDERS)
WATCHED_FILES = ("site.toml",)
QUIET_WITH_CLOSE_EVENTS = 0.01
"""Linux reports when a written file is closed, so the quiet moment only has to outlast the gap
between two files of one copy or of one save: normally well under a millisecond. It is part of
every republishing, so it is kept short; should a busy machine stretch a
multi-file copy into an existing folder beyond it, the copy takes two rebuilds, each of
complete files. A new folder waits longer (QUIET_AFTER_NEW_FOLDER)."""
QUIET_WITHOUT = 0.4
QUIET_AFTER_NEW_FOLDER = 0.5
"""The quiet moment when the burst made a folder: a folder copied in (a new event) is filled
file by file, and on a busy machine the gaps between its files outlasted the short quiet moment,
giving a rebuild of half an event. A new folder is rare, so the wait costs little."""
STILL_OPEN_LIMIT = 3.0
"""Rebuild anyway when a changed file has stayed open this long without a change."""
LINKABLE = INPUT_FOLDERS
"""Inputs an organizer may keep elsewhere and link in: the site's watch does not follow links."""

# Stopping can race watchdog's inotify reader, which then logs "queue_events() called when the
# thread is inactive" as an error: harmless (nothing is being watched any more), but an
# organizer pressing Ctrl-C would read it as a failure. Only that message is dropped.
logging.getLogger("watchdog.observers.inotify").addFilter(
    lambda record: "called when the thread is inactive" not in record.getMessage())


def relevant(relative: str) -> bool:
    """Source files the site is built from; editors' swap, lock and backup files are not."""
    name = relative.rsplit("/", 1)[-1]
    if not relative or name.startswith((".", "~")) or name.endswith(("~", ".swp", ".swx", ".tmp")):
        return False
    return relative in WATCHED_FILES or relative.startswith(WATCHED) or relative in LINKABLE


def open_for_writing(paths: set[str]) -> set[str] | None:
    """Those of `paths` (absolute, resolved) that some process has open for writing, read from
    /proc; None where there is no /proc to ask. Processes we may not read are skipped: an
    organizer's own programs are readable. A few milliseconds for a hundred processes."""
    if not os.path.isdir("/proc/self/fdinfo"):
        return None
    found: set[str] = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target in paths and _writable(f"/proc/{pid}/fdinfo/{fd}"):
                    found.add(target)
            except OSError:
                continue  # the process or the descriptor is gone
    return found


def _writable(fdinfo: str) -> bool:
    with open(fdinfo, encoding="ascii") as lines:
        flags = next((line.split()[1] for line in lines if line.startswith("flags:")), "0")
    return int(flags, 8) & os.O_ACCMODE != os.O_RDONLY


class Watcher(FileSystemEventHandler):
    def __init__(self, source: Path, on_change: Callable[[list[str]], None]):
        self.source = source.resolve()
        self.on_change = on_change
        self.observer = Observer()
        self.close_events = "Inotify" in type(self.observer).__name__
        self.quiet = QUIET_WITH_CLOSE_EVENTS if self.close_events else QUIET_WITHOUT
        self._lock = threading.Condition()
        self._dirty: set[str] = set()
        self._open: set[str] = set()
        self._created: set[str] = set()
        """Files created in the current burst: one renamed away was a save's temporary file."""
        self._unseen_open: set[str] = set()
        """Files created in the current burst whose opening was not seen, nor a close: opened before
        their new folder was watched, they may still be being written (see _still_written)."""
        self._inputs: dict[str, object] = {}
        """data, content, themes → their watchdog watch (see start)."""
        self._links: dict[str, Path] = {}
        """Linked inputs (see LINKABLE) and their targets, resolved: events there map back."""
        self._new_folder = False
        """Whether the current burst made a folder (see QUIET_AFTER_NEW_FOLDER)."""
        self._last_event = 0.0
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="site-builder-watch", daemon=True)

    def start(self) -> None:
        """Watch, and hand each burst of changes to `on_change`."""
        self.observe()
        self.deliver()

    def observe(self) -> None:
        """Start noting changes, without handing them on yet: `watch` observes before its first
        build, so that a file saved while that build runs is rebuilt once it is done."""
        # The site's folder itself only for site.toml and the input folders coming and going:
        # the output folder (_site, often inside it) is replaced whole by a build, and
        # watchdog's watch of a tree deleted under it broke off, silently, for good.
        self.observer.schedule(self, str(self.source), recursive=False)
        for name in LINKABLE:
            self._watch_input(name)
        self.observer.start()

    def deliver(self) -> None:
        """Hand the changes noted so far, and each burst from now on, to `on_change`."""
        self._thread.start()

    def _watch_input(self, name: str, made: bool = False) -> None:
        """Watch data/, content/ or themes/ (a link's target too: watchdog's inotify watch does
        not follow links), once, from when it exists. One `made` during the session may have
        been filled before its watch began: what it holds is reported as created, as watchdog
        does for a folder made inside a watched one."""
        folder = self.source / name
        if name in self._inputs or not folder.is_dir():
            return
        target = folder.resolve()
        if self.source.is_relative_to(target):
            return  # a loop back over the site: nothing more to see, nothing to map
        if folder.is_symlink():
            self._links[name] = target
        self._inputs[name] = self.observer.schedule(self, str(target), recursive=True)
        if made:
            for root, folders, files in os.walk(target):
                for inner in folders:
                    self.on_any_event(DirCreatedEvent(os.path.join(root, inner)))
                for inner in files:
                    self.on_any_event(FileCreatedEvent(os.path.join(root, inner)))

    def _unwatch_input(self, name: str) -> None:
        """After data/, content/ or themes/ went away (its watch ended with it)."""
        watch = self._inputs.pop(name, None)
        self._links.pop(name, None)
        if watch is not None:
            with suppress(KeyError):
                self.observer.unschedule(watch)

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        self.observer.stop()
        self.observer.join(timeout=5)
        if self._thread.ident is not None:  # delivering had begun
            self._thread.join(timeout=5)

    # -- watchdog's side: note what changed

    def _follow_inputs(self, event: FileSystemEvent) -> None:
        """An input folder made or removed at the top of the site: start or stop watching it."""
        gone = [event.src_path] if event.event_type in ("deleted", "moved") else []
        made = [event.dest_path if event.event_type == "moved" else event.src_path] \
            if event.event_type in ("created", "moved") else []
        for path in map(Path, map(os.fsdecode, gone)):
            if path.parent == self.source and path.name in LINKABLE:
                self._unwatch_input(path.name)
        for path in map(Path, map(os.fsdecode, made)):
            if path.parent == self.source and path.name in LINKABLE:
                self._watch_input(path.name, made=True)

    def _relative(self, path: str | bytes) -> str:
        resolved = Path(os.fsdecode(path)).resolve()
        for name, target in self._links.items():  # first: a target may lie inside the site
            if resolved.is_relative_to(target):
                return (name / resolved.relative_to(target)).as_posix()
        try:
            return resolved.relative_to(self.source).as_posix()
        except ValueError:
            return ""

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory and event.event_type not in ("created", "deleted", "moved"):
            return  # a folder is "modified" whenever a file in it is: that file says more
        self._follow_inputs(event)
        paths = [self._relative(event.src_path)]
        if event.event_type == "moved":
            paths.append(self._relative(event.dest_path))
        paths = [p for p in paths if relevant(p)]
        if not paths:
            return
        with self._lock:
            if event.event_type == "opened":
                self._open.update(paths)
                self._unseen_open.difference_update(paths)
                return
            if event.event_type == "closed_no_write":
                self._open.difference_update(paths)
                return  # a reader's close: a change only when written
            if event.event_type in ("closed", "deleted", "moved"):
                self._open.difference_update(paths)
                self._unseen_open.difference_update(paths)
            if event.event_type == "created":
                self._created.update(paths)
                self._new_folder |= event.is_directory
                if not event.is_directory and self.close_events:
                    self._unseen_open.update(paths)  # its "opened" follows, unless it came first
            if event.event_type == "moved" and paths[0] in self._created:
                self._dirty.discard(paths[0])  # an editor's temporary file, renamed into place
                paths = paths[1:]
            self._dirty.update(paths)
            self._last_event = time.monotonic()
            self._lock.notify_all()

    # -- our side: one callback per burst

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._stopping and not self._ready():
                    self._lock.wait(timeout=self._wait())
                if self._stopping:
                    return
                batch = sorted(self._dirty)
                self._dirty.clear()
                self._created.clear()
                self._unseen_open.clear()
                self._new_folder = False
            try:
                self.on_change(batch)
            except Exception:  # the callback's own bug: said once, and the next change is seen
                logging.getLogger(__name__).exception("rebuilding after %s failed", batch)

    def _wait(self) -> float | None:
        if not self._dirty:
            return None
        idle = time.monotonic() - self._last_event
        # Past the quiet moment only open files hold the batch back: their closes wake us.
        until = self._quiet() if idle < self._quiet() else STILL_OPEN_LIMIT
        return max(0.005, until - idle)

    def _quiet(self) -> float:
        return max(self.quiet, QUIET_AFTER_NEW_FOLDER) if self._new_folder else self.quiet

    def _ready(self) -> bool:
        if not self._dirty:
            return False
        idle = time.monotonic() - self._last_event
        if idle < self._quiet():
            return False
        if idle >= STILL_OPEN_LIMIT:
            return True
        return not self._dirty & self._open and not self._still_written()

    def _still_written(self) -> bool:
        """Whether a file whose opening was not seen is open for writing. Asked once per file,
        and only when the batch is otherwise ready: such a file counts as open from then on, and
        its close (its folder is watched by now) wakes us. Without /proc, it counts as complete."""
        unseen = {str((self.source / p).resolve()): p for p in self._unseen_open & self._dirty}
        self._unseen_open.clear()
        writing = open_for_writing(set(unseen)) if unseen else None
        if not writing:
            return False
        self._open.update(unseen[path] for path in writing)
        return True
