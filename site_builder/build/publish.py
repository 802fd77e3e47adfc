"""Putting files into the output folder, all or nothing: the only writer besides write.py.

A full build writes every file into a staging folder beside the output and swaps it in whole
(`FreshFolder`). A build from a state writes each changed file into a staging folder beside the
output and, once every page has rendered, swaps them all in and deletes the files that are gone
(`InPlace`). Either way a failed build leaves the published site as it was, and a
reader (the preview server, a browser) finds the old page or the new one, never half of one.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from pathlib import Path
from typing import NamedTuple, Protocol

from .write import (delete_files, has_bytes, remove_leftovers, replace_file, swap_in,
                    write_new_file)


class Written(NamedTuple):
    """A file handed to a publisher (by this process or a worker)."""

    path: str
    size: int
    """Of the file as it is published (or will be, once committed)."""
    written: bool
    """False when the published file already had these bytes."""
    temporary: str | None = None
    """Where the bytes wait to be swapped in (InPlace)."""


def _written(path: str, data: bytes, written: bool, temporary: str | None = None) -> Written:
    return Written(path, len(data), written, temporary)


class Publisher(Protocol):
    """How a build's files reach the output folder: staged by `write` and `delete` (here or in
    a worker), published together by `commit`, or dropped by `abandon`. Nothing reaches the
    output before `commit`."""

    def write(self, path: str, data: bytes) -> Written:
        """Stage `data` as the file at `path` (relative to the output folder, with `/`)."""

    def delete(self, path: str) -> None:
        """Stage the deletion of a published file the site no longer has."""

    def commit(self, written: list[Written]) -> None:
        """Publish everything staged: `written` holds what every process wrote."""

    def abandon(self, written: list[Written]) -> None:
        """Drop everything staged; the published site stays as it was."""


class FreshFolder:
    """A whole new site in a staging folder, swapped in by `commit`."""

    def __init__(self, out: Path):
        self.out = out.resolve()
        self.out.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(self.out)
        self.root = tempfile.mkdtemp(prefix=f".{self.out.name}.staging-{os.getpid()}-",
                                     dir=self.out.parent)
        os.chmod(self.root, 0o755)  # mkdtemp makes it private; a web server must read it
        self._folders: set[str] = set()

    def write(self, path: str, data: bytes) -> Written:
        target = f"{self.root}/{path}"
        folder = os.path.dirname(target)
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        write_new_file(target, data)
        return _written(path, data, True)

    def delete(self, path: str) -> None:
        """Nothing to delete in a new folder."""

    def commit(self, written: list[Written]) -> None:
        swap_in(Path(self.root), self.out)

    def abandon(self, written: list[Written]) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class InPlace:
    """Changed files staged in a folder beside the output, swapped in together by `commit`.

    Nothing unfinished is ever inside the output folder: a build killed half way leaves only
    the staging folder, which the next build removes (write.remove_leftovers)."""

    def __init__(self, out: Path):
        resolved = out.resolve()
        self.out = os.fspath(resolved)
        remove_leftovers(resolved)
        self.root = tempfile.mkdtemp(prefix=f".{resolved.name}.staging-{os.getpid()}-",
                                     dir=resolved.parent)
        self._names = itertools.count()
        self._deleted: list[str] = []

    def write(self, path: str, data: bytes) -> Written:
        """A published file that already has these bytes is left as it is."""
        target = f"{self.out}/{path}"
        if has_bytes(target, data):
            return _written(path, data, False)
        # Workers write here too: the process id keeps their names apart.
        temporary = f"{self.root}/{os.getpid()}-{next(self._names)}"
        write_new_file(temporary, data)
        return _written(path, data, True, temporary)

    def delete(self, path: str) -> None:
        self._deleted.append(f"{self.out}/{path}")

    def commit(self, written: list[Written]) -> None:
        """Swap in every file written (here or by workers), then delete the gone ones."""
        for item in written:
            if item.temporary:
                target = f"{self.out}/{item.path}"
                os.makedirs(os.path.dirname(target), exist_ok=True)
                replace_file(item.temporary, target)  # the old file, if any, goes with the staging
        delete_files(self._deleted)
        for folder in sorted({os.path.dirname(p) for p in self._deleted}, key=len, reverse=True):
            _remove_empty(folder, self.out)
        self._deleted = []
        shutil.rmtree(self.root, ignore_errors=True)

    def abandon(self, written: list[Written]) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        self._deleted = []


def _remove_empty(folder: str, root: str) -> None:
    """Remove a folder a deletion emptied, and its parents as they empty, up to the root."""
    while folder != root and folder.startswith(root + "/"):
        try:
            os.rmdir(folder)
        except OSError:
            return
        folder = os.path.dirname(folder)


def files_under(folder: Path) -> set[str]:
    """Every file under `folder`, as paths relative to it with `/`."""
    found: set[str] = set()
    pending = [("", os.fspath(folder))]
    while pending:
        prefix, path = pending.pop()
        try:
            entries = os.scandir(path)
        except FileNotFoundError:  # removed meanwhile: nothing of it to delete
            continue
        with entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((f"{prefix}{entry.name}/", entry.path))
                else:
                    found.add(prefix + entry.name)
    return found
