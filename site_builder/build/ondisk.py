"""The published files, checked against what the state says a build left there.

A build from a state read from disk trusts none of its pages on sight: the output folder may be
a cache restored by a CI run, or edited by hand with each file's size and time kept. So the
first build of a process looks at every page the state records. A page whose file still has the
inode and change time the state recorded when it was published (its `stamp`) has not been
written since: no program can set a file's change time, and a file written again, restored or
copied has another. Any other page is read and its bytes' digest compared with the record; a
page that differs, or is gone, is drawn again, and one that is the same gets its new stamp. A
link or anything but files and folders in the output folder (which no build makes) turns the
state down: the next site is then built whole into a new folder.

After a cache restore every page is read and hashed once (400 MB on the bench archive: see
docs/performance.md), by the build's workers; after that, a page costs one `lstat`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from .state import BuildState, PageRecord, Refused, page_digest
from .pool import shared

BLOCK = 1 << 20
SHARE = 400
"""Pages a piece of the check: enough that a worker's piece outweighs sending it."""

Stamp = tuple[int, int]


class OnDisk(NamedTuple):
    files: frozenset[str]
    """Every file under the output folder, relative, with `/`."""
    changed: frozenset[str]
    """The pages the state records whose file is missing or holds other bytes."""
    stamps: dict[str, Stamp]
    """The new stamps of pages read and found to hold the bytes recorded."""


def stamp_of(path: str) -> Stamp | None:
    """(inode, change time in ns) of the file at `path`, never through a link; None if it is
    not there."""
    try:
        status = os.lstat(path)
    except OSError:
        return None
    return status.st_ino, status.st_ctime_ns


def check_output(out: Path, state: BuildState) -> OnDisk | Refused:
    """The output folder as it is, against the state's records of its pages."""
    root = os.fspath(out)
    files, odd = _walk(root)
    if odd is not None:
        return Refused(f"{out.name}/{odd} is a link or a special file, which no build writes",
                       True)
    records = [item for unit in state.events.values() for item in unit.pages.items()]
    records += state.pages.items()
    changed = {path for path, _ in records if path not in files}
    unsure = []
    for path, record in records:
        if path in files:
            stamp = state.stamps.get(path)
            if stamp is None or not _unchanged(f"{root}/{path}", stamp, record.size):
                unsure.append((path, record))
    differing, stamps = _differing(root, unsure)
    changed.update(differing)
    return OnDisk(frozenset(files), frozenset(changed), stamps)


TRUST_STAMPS = os.name != "nt"
"""On Windows a file's st_ctime is when it was created, which an edit in place keeps and a
program can set: every page is read and hashed there."""


def _unchanged(path: str, stamp: Stamp, size: int) -> bool:
    """Whether the file still has the stamp and size it was published with."""
    if not TRUST_STAMPS:
        return False
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return (status.st_ino, status.st_ctime_ns) == stamp and status.st_size == size


def _walk(root: str) -> tuple[set[str], str | None]:
    """Every file below `root`, and the first entry that is neither a file nor a folder (a link
    included), if any."""
    found: set[str] = set()
    pending = [("", root)]
    while pending:
        prefix, path = pending.pop()
        try:
            entries = list(os.scandir(path))
        except FileNotFoundError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append((f"{prefix}{entry.name}/", entry.path))
            elif entry.is_file(follow_symlinks=False):
                found.add(prefix + entry.name)
            else:
                return found, prefix + entry.name
    return found, None


def _differing(root: str, pages: list[tuple[str, PageRecord]]
               ) -> tuple[set[str], dict[str, Stamp]]:
    """The pages whose file is not the one recorded, and the stamps of those that are, in
    shares read and hashed by the build's workers. (Threads would not share the work: each
    file costs a few system calls, and the threads spend the time handing Python's lock to
    each other.)"""
    shares = [pages[start:start + SHARE] for start in range(0, len(pages), SHARE)]
    differing: set[str] = set()
    stamps: dict[str, Stamp] = {}
    for share_differing, share_stamps in shared(_differing_share, root, shares, parallel=True):
        differing |= share_differing
        stamps.update(share_stamps)
    return differing, stamps


def _differing_share(root: str, pages: list[tuple[str, PageRecord]]
                     ) -> tuple[set[str], dict[str, Stamp]]:
    differing, stamps = set(), {}
    buffer = [bytearray(BLOCK)]  # reused: no 400 MB of bytes objects made
    for path, record in pages:
        stamp = stamp_of(f"{root}/{path}")  # before the read: a write after it changes it
        if _digest_of(f"{root}/{path}", record.size, buffer) != record.digest:
            differing.add(path)
        elif stamp is not None:
            stamps[path] = stamp
    return differing, stamps


def _digest_of(path: str, size: int, buffer: list[bytearray]) -> bytes | None:
    """The page digest of the file, if it has `size` bytes (None otherwise, or unreadable);
    never read through a link. The size is the file's before any memory is taken for it: a
    record's size is only what the state says."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if os.fstat(descriptor).st_size != size:
            return None
        if size > len(buffer[0]):
            buffer[0] = bytearray(size)
        view, done = memoryview(buffer[0])[:size], 0
        while done < size and (count := os.readv(descriptor, [view[done:]])):
            done += count
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return page_digest(view) if done == size else None


def published_stamps(out: Path, state: BuildState, before: dict[str, Stamp],
                     written: list, pages: int) -> dict[str, Stamp]:
    """The stamps of `state`'s pages once its build is published: those of `before` (the last
    build's, and those the check found), and those of the pages this build wrote. Read after
    the files are swapped in: a rename gives a file a new change time."""
    root = os.fspath(out)
    stamps = dict(before)
    for done in written:
        if done.written and done.path not in state.files:
            stamp = stamp_of(f"{root}/{done.path}")
            if stamp is not None:
                stamps[done.path] = stamp
            else:
                stamps.pop(done.path, None)
    if len(stamps) > pages:  # pages gone: their stamps go too
        kept = set(state.pages).union(*(unit.pages for unit in state.events.values()))
        stamps = {path: stamp for path, stamp in stamps.items() if path in kept}
    return stamps
