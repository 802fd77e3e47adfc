"""The published files, checked against what the state says a build left there.

A build from a state read from disk trusts none of its pages on sight: the output folder may be
a cache restored by a CI run, or edited by hand with each file's size and time kept. So the
first build of a process reads every page the state records and compares its bytes' digest
with the record; a page that differs, or is gone, is drawn again. A link or anything but files
and folders in the output folder (which no build makes) turns the state down: the next site is
then built whole into a new folder.

Reading and hashing 400 MB of pages is the cost of this check (see docs/performance.md); the
build's workers share it.
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


class OnDisk(NamedTuple):
    files: frozenset[str]
    """Every file under the output folder, relative, with `/`."""
    changed: frozenset[str]
    """The pages the state records whose file is missing or holds other bytes."""


def check_output(out: Path, state: BuildState) -> OnDisk | Refused:
    """The output folder as it is, against the state's records of its pages."""
    files, odd = _walk(os.fspath(out))
    if odd is not None:
        return Refused(f"{out.name}/{odd} is a link or a special file, which no build writes",
                       True)
    records = [item for unit in state.events.values() for item in unit.pages.items()]
    records += state.pages.items()
    present = [(path, record) for path, record in records if path in files]
    changed = {path for path, _ in records if path not in files}
    changed.update(_differing(os.fspath(out), present))
    return OnDisk(frozenset(files), frozenset(changed))


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


def _differing(root: str, pages: list[tuple[str, PageRecord]]) -> set[str]:
    """The pages whose file is not the one recorded, in shares read and hashed by the build's
    workers. (Threads would not share the work: each file costs a few system calls, and the
    threads spend the time handing Python's lock to each other.)"""
    shares = [pages[start:start + SHARE] for start in range(0, len(pages), SHARE)]
    return set().union(*shared(_differing_share, root, shares, parallel=True))


def _differing_share(root: str, pages: list[tuple[str, PageRecord]]) -> set[str]:
    differing = set()
    buffer = [bytearray(BLOCK)]  # reused: no 400 MB of bytes objects made
    for path, record in pages:
        if _digest_of(f"{root}/{path}", record.size, buffer) != record.digest:
            differing.add(path)
    return differing


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
