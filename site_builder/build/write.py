"""Write stage: the file operations on the output folder (publish.py decides what to write).

A build is written to a staging folder beside the output and swapped in only when complete, so a
failed or interrupted build leaves the previous site exactly as it was.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import tempfile
from contextlib import suppress
from pathlib import Path

from ..core.problems import ConfigError
from ..files.sources import BUILD_MARKER, INPUT_FOLDERS

MARKER = ".nojekyll"
"""GitHub Pages needs it in every build: without it, Jekyll would drop folders starting with _."""
# BUILD_MARKER (sources.py), written into every build and by nothing else: its presence says a
# folder is an earlier build of ours, which the next build may replace whole. (A hand-written
# folder may have a .nojekyll.)
BUILD_MARKER_TEXT = b"This folder is a site built by site-builder: each build replaces it whole.\n"


def check_output_folder(source: Path, out: Path, read_from: tuple[Path, ...] = ()) -> None:
    """Refuse an output folder whose replacement would destroy something that isn't a build, or
    that the build reads from (`read_from`: folders read besides the source's, such as the
    built-in theme)."""
    src, dst = source.resolve(), out.resolve()
    if dst == src or src.is_relative_to(dst):
        raise ConfigError(f"the output folder {out} contains the source folder: choose another "
                          "--out (default _site)")
    # An output inside a folder the build reads would be read by the next build.
    for name, folder in [*((f"{n}/", source / n) for n in INPUT_FOLDERS),
                         *((str(p), p) for p in read_from)]:
        if dst.is_relative_to(folder.resolve()):
            raise ConfigError(f"the output folder {out} is inside {name}, which the site is built "
                              "from: every build would read the one before. Choose an --out "
                              "outside data/, content/ and themes/ (default _site)")
    # An input kept inside the output (data/ linked to _site/data) would go with the next build.
    for name in (*(f"{n}/" for n in INPUT_FOLDERS), "site.toml"):
        if (source / name).exists() and (source / name).resolve().is_relative_to(dst):
            raise ConfigError(f"{name.rstrip('/')} leads into the output folder {out} (it is a "
                              f"link to {(source / name).resolve()}), which every build replaces: "
                              "move it out of the output folder, or choose another --out")
    existing = next(p for p in (dst, *dst.parents) if p.exists())
    if existing != dst and not existing.is_dir():
        raise ConfigError(f"cannot make the output folder {out}: {existing} is a file, not a folder")
    if dst.exists() and not dst.is_dir():
        raise ConfigError(f"the output {out} is a file, not a folder")
    if dst.is_dir() and any(dst.iterdir()) and not (dst / BUILD_MARKER).is_file():
        raise ConfigError(
            f"refusing to replace {out}: it is not empty and is not a site-builder build (no "
            f"{BUILD_MARKER} file). Choose another --out, or remove it if it is yours to lose "
            f"(a build made before site-builder 0.2 lacks the file: remove it once)")


def has_site(out: Path | str) -> bool:
    """Whether a built site is in the output folder: every build writes its home page."""
    return os.path.isfile(os.path.join(out, "index.html"))


_LEFTOVER = re.compile(r"\.(?:staging|old)-(?:([0-9]+)-)?[a-z0-9_]{8}")
"""What publish.FreshFolder and InPlace name them: the process id, then mkdtemp's eight characters (builds before
0.2 wrote no process id)."""


def remove_leftovers(out: Path) -> list[str]:
    """Remove what killed builds of `out` left beside it (`._site.staging-<pid>-x`, and the
    `.old-` name of a swap): a build killed by the system (out of memory, SIGKILL) cannot clean
    up, and a large site's staging folder is hundreds of megabytes. A folder whose process is
    still running (another build of the same site) is left alone. Returns the names removed."""
    prefix = f".{out.name}"
    removed = []
    with suppress(OSError):
        for entry in os.scandir(out.parent):
            match = _LEFTOVER.fullmatch(entry.name[len(prefix):]) \
                if entry.name.startswith(prefix) else None
            if match is None or not entry.is_dir(follow_symlinks=False):
                continue
            if match.group(1) is not None and running(int(match.group(1))):
                continue
            if match.group(1) is None and not _looks_built(entry.path):
                continue  # a name of builds before 0.2, which carried no process id
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.name)
    return sorted(removed)


def _looks_built(folder: str) -> bool:
    """Empty, or holding a file a build writes first (files are written in name order, and
    these sort first): an old-style name without a process id is not enough to delete a folder
    that could be someone else's. (A build killed while it removed the old build may leave
    one without them: that one the user removes.)"""
    names = os.listdir(folder)
    return not names or MARKER in names or BUILD_MARKER in names


def running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's: running
    return True


def swap_in(staging: Path, out: Path) -> None:
    """Put the staged build in place of the old one, then remove the old one. Where the system
    can exchange two names at once, the output folder never goes missing, even for an instant."""
    if not out.exists():
        os.replace(staging, out)
        return
    if exchange(staging, out):
        shutil.rmtree(staging, ignore_errors=True)  # the old build, under the staging name now
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-{os.getpid()}-", dir=out.parent))
    retired.rmdir()
    os.replace(out, retired)
    try:
        os.replace(staging, out)
    except BaseException:
        os.replace(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def replace_file(temporary: str | Path, target: str | Path) -> bool:
    """Put a staged file where the published one is. Readers always find the old page or the new
    one, never neither, never half of one. True when the old page is left under the temporary
    name (then deleted with the staging folder, never written over: a reader that opened it
    before the swap may still be reading it).

    The two names are exchanged rather than renamed over: on Linux's ext4 a rename over an
    existing file also writes the renamed file's data to disk before it returns (its guard for
    programs that do not fsync), an exchange does not."""
    if exchange(temporary, target):
        return True
    os.replace(temporary, target)
    return False


def delete_files(paths: list[str | Path]) -> None:
    """Delete these files; one already gone, or that cannot be deleted, is passed over (the
    next write of its page reuses the name)."""
    for path in paths:
        with suppress(OSError):
            os.unlink(path)


def write_new_file(path: str, data: bytes) -> None:
    """Write `data` to `path` (created, or emptied first), with system calls only: a rebuild
    writes a hundred pages this way, and Python's file objects cost a third of that. On a
    failure (a full disk) no piece of the file is left."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
    except BaseException:
        os.close(descriptor)
        with suppress(OSError):
            os.unlink(path)
        raise
    os.close(descriptor)


def has_bytes(path: str, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (False if it cannot be read). One read
    of one byte more than `data`: a longer file shows it, and a short read (which a regular
    file gives only at its end) compares unequal, so the page is written again."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        return os.read(descriptor, len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(descriptor)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_NOT_EXCHANGEABLE = {errno.ENOENT, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV}
"""A missing path, or a system or file system that cannot exchange: rename instead."""


def _renameat2():
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # not Linux, or a C library without it
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


_renameat2_function = _renameat2()


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one step (Linux renameat2 with RENAME_EXCHANGE). False, with
    nothing changed, where that cannot be done; other failures raise OSError."""
    if _renameat2_function is None:
        return False
    if _renameat2_function(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
                           _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _NOT_EXCHANGEABLE:
        return False
    raise OSError(code, os.strerror(code), str(second))
