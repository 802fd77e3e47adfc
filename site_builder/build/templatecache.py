"""Templates compiled once per machine: Jinja's bytecode cache, in the user's own cache folder.

A new `site-builder build` process would otherwise compile every template it draws with (a
quarter of a second for the default theme). Jinja keys each entry by the template's name and
checks it against the digest of the template's text, so an edited template is compiled again.

The cache holds compiled code, which is run when it is read: unlike the build state (data,
read back by type), a tampered entry would be code. So it lives in the user's cache folder
(`$XDG_CACHE_HOME/site-builder/`, else `~/.cache/site-builder/`), never beside the output or
the state (which CI restores from caches others can write), and an entry is read only when it
and its folder belong to the user running the build and nobody else can write them: only a
file the user could have written as well as the tool's own code. Anything else is passed over,
and the template is compiled as if there were no cache. `SITE_BUILDER_TEMPLATE_CACHE=off` turns
it off.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import tempfile
import types
from contextlib import suppress
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

SWITCH = "SITE_BUILDER_TEMPLATE_CACHE"


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # Compiled code is the Python's and Jinja's own: one folder per pair of versions.
    version = f"py{sys.version_info[0]}{sys.version_info[1]}-jinja{jinja2.__version__}"
    return Path(base) / "site-builder" / f"templates-{version}"


def template_cache() -> jinja2.BytecodeCache | None:
    """The cache, or None when it is turned off or its folder is not safely the user's."""
    if os.environ.get(SWITCH, "").lower() in ("off", "0", "no"):
        return None
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _owned_and_private(os.lstat(folder)):
            return None
    except OSError:
        return None  # a read-only home: compile as before
    return PrivateBytecodeCache(str(folder))


def _owned_and_private(info: os.stat_result) -> bool:
    """Belongs to this user, and nobody else can write it."""
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class PrivateBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, reading only regular files of the user's that only they can write,
    never through a link. Its entries are this module's own (Jinja's pickle the checksum): a
    header, the template text's digest, and the code."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            descriptor = os.open(self._get_cache_filename(bucket),
                                 os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(descriptor)
            if not (stat.S_ISREG(info.st_mode) and _owned_and_private(info)):
                return
            data = handle.read()
        head = _HEADER + bucket.checksum.encode("ascii") + b"\n"
        if not data.startswith(head):
            return  # another template text, or not an entry of ours: compiled again
        try:
            code = marshal.loads(data[len(head):])
        except (EOFError, ValueError, TypeError):
            return  # cut short: compiled again, and written over
        if isinstance(code, types.CodeType):
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is None:
            return
        name = self._get_cache_filename(bucket)
        data = _HEADER + bucket.checksum.encode("ascii") + b"\n" + marshal.dumps(bucket.code)
        try:
            descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(name),
                                                     prefix=os.path.basename(name), suffix=".tmp")
            try:
                with os.fdopen(descriptor, "wb") as handle:
                    handle.write(data)
                os.replace(temporary, name)
            except BaseException:
                with suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            pass  # a full disk or a read-only cache: the next build compiles again


_HEADER = b"site-builder template " + jinja2.bccache.bc_magic + b"\n"
"""Jinja's magic holds its bytecode version and Python's: code of another version is passed
over."""
