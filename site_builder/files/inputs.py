"""The digests of the build's input files, which decide what a build does again.

An event's key is the digest of every entry of its folder (name, kind and content), of
data/players.csv (which gives its players their ids) and of the tool itself: an event whose key
is unchanged is neither read nor scored again. Content is hashed, not dated: a fresh clone (a
GitHub Pages run) gives every file a new time but the same bytes.

A file whose size, time and inode match the last run's is not read again, unless it changed
within two seconds of that run's end (a file system may give two writes the same time stamp,
git's "racy clean" case): then it is hashed again.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core.digests import bytes_digest

FileStamp = tuple[int, int, int]
"""(size, modification time in nanoseconds, inode)."""
RACY_NS = 2_000_000_000


def code_digest() -> str:
    """The digest of the tool's own code: facts kept by another version are not trusted."""
    package = Path(__file__).resolve().parent.parent
    hasher = hashlib.blake2b(digest_size=16)
    for path in sorted(package.rglob("*.py")):
        hasher.update(path.relative_to(package).as_posix().encode("utf-8"))
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


@dataclass(slots=True)
class FileDigests:
    """Path → (stamp, digest) of the files hashed by the last run, and when it ended."""

    known: dict[str, tuple[FileStamp, str]] = field(default_factory=dict)
    checked_ns: int = 0

    def file(self, path: str) -> str | None:
        """The digest of a file's bytes; None when it cannot be read (the loader reports why)."""
        try:
            info = os.stat(path)
        except OSError:
            return None
        stamp = (info.st_size, info.st_mtime_ns, info.st_ino)
        known = self.known.get(path)
        if known is not None and known[0] == stamp and info.st_mtime_ns < self.checked_ns - RACY_NS:
            return known[1]
        if not stat.S_ISREG(info.st_mode):
            return None  # a named pipe or device: opening it could wait for ever (reported as such)
        try:
            # O_NONBLOCK: were it swapped for a pipe since the stat, the open returns at once
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return None
        with open(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            try:
                found = hashlib.file_digest(handle, "blake2b").hexdigest()[:32]
            except OSError:
                return None
        self.known[path] = (stamp, found)
        return found

    def folder(self, path: str) -> str:
        """The digest of a folder's entries: each one's name and kind, and a file's bytes.
        Below it, only the names (event folders hold files; anything else is reported)."""
        parts = []
        try:
            listing = sorted(os.scandir(path), key=lambda entry: entry.name)
        except OSError as exc:
            return f"unreadable {exc.errno}"
        for entry in listing:
            if entry.is_file():
                parts.append(f"{entry.name}\0file\0{self.file(entry.path)}")
            else:
                kind = "link" if entry.is_symlink() else "folder" if entry.is_dir() else "other"
                parts.append(f"{entry.name}\0{kind}")
        return bytes_digest("\n".join(parts).encode("utf-8", "surrogateescape"))

    def folder_tree(self, path: str) -> str:
        """The digest of every file below a folder (a theme: templates and static files)."""
        parts = []
        for root, folders, files in os.walk(path):
            folders.sort()
            for name in sorted(files):
                file = os.path.join(root, name)
                parts.append(f"{os.path.relpath(file, path)}\0{self.file(file)}")
        return bytes_digest("\n".join(parts).encode("utf-8", "surrogateescape"))

    def done(self) -> None:
        """Note the end of a run: files changed from now on are stamped after it."""
        self.checked_ns = time.time_ns()
