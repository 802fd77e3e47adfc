"""What a build may read from the source folder, decided in one place.

Jekyll's safe mode is the model: a link that leads out of the site is skipped with a warning, so a
link committed to the repository cannot publish the files of whoever builds it (a GitHub Pages
runner's secrets, say). The top-level `data`, `content` and `themes` may themselves be links to
folders elsewhere (an organizer's data kept in another checkout): following those is the site's
own layout, and links below them are judged against their targets too.

A named pipe or device is skipped unread (reading one blocks, or never ends), a name that is not
UTF-8 is reported (it cannot be published or printed), and a folder that cannot be read is an
error: the build would otherwise be silently incomplete.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..core.problems import ProblemLog

INPUT_FOLDERS = ("data", "content", "themes")
FILE, FOLDER = "file", "folder"


def printable(name: str) -> str:
    """A file name as it can be shown: bytes that are not UTF-8 as \\xNN."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def is_utf8(name: str) -> bool:
    """Python keeps the bytes of a name that is not UTF-8 as lone surrogates."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _allowed(path: Path | os.DirEntry, source: Path) -> list[str]:
    """The real folders a link at `path` may lead into: the site's own, and the target of the
    top-level input folder it sits under when that folder is itself a link (data/ kept in
    another checkout). Not any other: content/ linked to /etc/ssl must not let a link in
    themes/ reach /etc/ssl."""
    allowed = [os.path.realpath(source)]
    top = os.path.relpath(path, source).split(os.sep)[0]
    if top in INPUT_FOLDERS and os.path.islink(os.path.join(source, top)):
        allowed.append(os.path.realpath(os.path.join(source, top)))
    return allowed


def _within(path: str, folders: list[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in folders)


def _hidden(path: str, folders: list[str]) -> bool:
    """Whether the path, inside one of the folders, passes through a hidden name there (.git,
    .env): the build never lists those, so a link must not reach them either."""
    for root in folders:
        if path.startswith(root.rstrip(os.sep) + os.sep):
            return any(part.startswith(".") for part in path[len(root):].split(os.sep))
    return False


OUTSIDE = "outside the site's folder"
HIDDEN = "a hidden file or folder of the site (such as .git or .env)"
BUILT = "inside a built site, which the next build replaces"
BUILD_MARKER = ".site-builder"
"""Written into every build and by nothing else (see write.py): a folder holding it is a build's
output, never an input."""


def off_limits(path: Path | os.DirEntry, source: Path) -> str | None:
    """Where the path, followed through every link on its way, leads that the build never
    reads (OUTSIDE or HIDDEN); None when it stays among the site's readable files."""
    target, allowed = os.path.realpath(path), _allowed(path, source)
    if _built(target):
        return BUILT
    if not _within(target, allowed):
        return OUTSIDE
    return HIDDEN if _hidden(target, allowed) else None


def _built(path: str) -> bool:
    """Whether the path lies in a build's output (a folder holding its marker): an event folder
    linked there would go with the next build of that output."""
    folder = os.path.dirname(path)
    while True:
        if os.path.isfile(os.path.join(folder, BUILD_MARKER)):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def inside(path: Path, source: Path) -> bool:
    """Whether the path, followed through every link on its way, stays among the site's files
    the build reads: inside the site, and in no hidden folder."""
    return off_limits(path, source) is None


def kind(path: Path | os.DirEntry, shown: str, source: Path, log: ProblemLog) -> str | None:
    """FILE or FOLDER for an input the build may read; None for one that is missing (nothing
    logged) or skipped (a warning or error logged, saying why)."""
    try:
        link = path.is_symlink()
        if path.is_file():
            found = FILE
        elif path.is_dir():
            found = FOLDER
        else:
            mode = os.stat(path).st_mode  # raises FileNotFoundError when missing
            found = None
    except FileNotFoundError:
        if link:  # the organizer's file, gone: as an error, the published site keeps it
            log.error(shown, None, f"is a link to {printable(os.readlink(path))}, which does not "
                                   "exist: put the file back, or remove the link")
        return None
    except OSError as exc:
        log.error(shown, None, f"cannot be read: {exc.strerror or exc}: give the build access "
                               "to it (chmod), or move it out of the site")
        return None
    where = off_limits(path, source) if link else None
    if where is not None:
        target = printable(os.path.realpath(path))
        if where == BUILT:  # an error: the build would delete what it leads to
            log.error(shown, None, f"is a link to {target}, {where}: move what it leads to out "
                                   "of the output folder, and link to it there")
            return None
        why = ("links out of the site are never read, so a committed link cannot publish other "
               "files" if where == OUTSIDE else
               "the build reads no hidden file, so a committed link cannot publish one")
        log.warning(shown, None, f"is a link to {target}, {where}: skipped ({why})")
        return None
    if found is None:
        what = "a named pipe" if stat.S_ISFIFO(mode) else \
            "a socket" if stat.S_ISSOCK(mode) else "a device"
        log.warning(shown, None, f"is {what}, not a file: skipped unread")
    return found


def entries(folder: Path, shown: str, source: Path, log: ProblemLog
            ) -> list[tuple[str, Path, str]] | None:
    """(name, path, FILE or FOLDER) of the folder's usable entries, by name; hidden ones
    (editors' swap files, .git) left out, the others skipped as `kind` says. None, with an
    error logged, when the folder cannot be read."""
    try:
        with os.scandir(folder) as listing:
            found = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        log.error(shown, None, f"cannot be read: {exc.strerror or exc}: give the build access "
                               "to it (chmod), or move it out of the site")
        return None
    usable = []
    for entry in found:
        if entry.name.startswith("."):
            continue
        entry_shown = f"{shown}/{printable(entry.name)}"
        if not is_utf8(entry.name):
            log.error(entry_shown, None, "the name is not UTF-8 text, so it cannot be published "
                                         "or shown: rename it")
            continue
        found_kind = kind(entry, entry_shown, source, log)
        if found_kind is not None:
            usable.append((entry.name, Path(entry.path), found_kind))
    return usable


def files_under(folder: Path, shown: str, source: Path, log: ProblemLog
                ) -> list[tuple[str, Path]]:
    """(path relative to `folder` with /, path) of every usable file under it, sorted by that
    relative path (so 'guides.md' comes before 'guides/index.md')."""
    found = []
    for name, path, found_kind in entries(folder, shown, source, log) or ():
        if found_kind == FOLDER:
            found += [(f"{name}/{relative}", inner)
                      for relative, inner in files_under(path, f"{shown}/{name}", source, log)]
        else:
            found.append((name, path))
    return sorted(found)


def read_bytes(path: Path, shown: str, log: ProblemLog, limit: int) -> bytes | None:
    """The file's bytes, or None after logging why not: unreadable, or over `limit` bytes (no
    input may take a build past about 1 GB of memory: see docs/commands.md, "Limits")."""
    try:
        size = os.stat(path).st_size
        if size <= limit:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
            size = len(data)  # the file may have grown since
    except OSError as exc:
        log.error(shown, None, f"cannot be read: {exc.strerror or exc}")
        return None
    if size > limit:
        log.error(shown, None, f"is {_size(size)}: the largest such a file may be is "
                               f"{_size(limit)} (see Limits in docs/commands.md)")
        return None
    return data


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size:,} bytes"
