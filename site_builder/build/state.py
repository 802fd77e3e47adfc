"""The build state: what the last build made, kept in memory by a watch session and in one file
beside the output between runs (`_site.state` for `_site`).

It holds each event's key and facts (facts.py), each published page's record (the key it was
made from, the templates it was drawn with, its size and the digest of its bytes), the digests
of the templates then, and the stamps of the input files hashed.

The file is data, never code: msgpack read back against the state's own types (statecodec.py),
so a state restored from a cache someone else could write cannot run anything. It is trusted
no further than it can be checked. A state that is missing, of another version of the tool, of
an output folder that is not the one it describes, that does not parse, or that names a path
outside the output folder is turned down: the build is then a full one, never a wrong one. Its
pages are checked against their files on the first build of a process (see `check_output`).
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import os
import re
import stat
import struct
import tempfile
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..pages.facts import EventFacts
from ..core.digests import bytes_digest
from ..files.inputs import FileDigests
from ..core.problems import ConfigError
from .statecheck import all_inside, check_values
from ..core.statecodec import Damaged, pack, unpack
from .write import running

MAGIC = b"site-builder state\n"
FORMAT = 6
"""6: each event's record packed on its own (written again only when the event changed).
5: with the pages' file stamps. 4: msgpack read back by type (3 and before were pickles, never
read again)."""
LONGEST_HEADER = 1 << 24
_LENGTH = struct.Struct(">I")
PICKLED = b"\x80"
"""How the states of site-builder 0.2 and before began (a pickle): never read, only told apart."""


class PageRecord(NamedTuple):
    """A published page as the build that drew it left it."""

    key: str
    """The digest of the page's key and the site's settings (see pipeline.page_key)."""
    templates: tuple[str, ...]
    size: int
    digest: bytes
    """`page_digest` of its bytes: a page changed on disk is drawn again."""
    in_sitemap: bool


@dataclass(slots=True)
class EventUnit:
    """One event as the last build left it: its facts and its own pages."""

    facts: EventFacts
    pages: dict[str, PageRecord]
    """Output path → record."""


@dataclass(slots=True)
class BuildState:
    code: str = ""
    """The tool's code digest (inputs.code_digest) when it was made."""
    site_key: str = ""
    events: dict[str, EventUnit] = field(default_factory=dict)
    """Slug → unit, for every event on the published site."""
    pages: dict[str, PageRecord] = field(default_factory=dict)
    """Output path → record, for the pages across events (home, players, rankings…)."""
    templates: dict[str, str | None] = field(default_factory=dict)
    """Template name → its digest when the pages above were drawn."""
    files: dict[str, int] = field(default_factory=dict)
    """The other files published (static files, sitemap, markers): path → size."""
    stamps: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Page path → (inode, change time in ns) of its file as published: a file that still has
    both was not written since (see ondisk.py)."""
    digests: FileDigests = field(default_factory=FileDigests)
    packed: dict[str, tuple[EventUnit, bytes]] = field(default_factory=dict)
    """Not written: slug → (its record, the record packed) as this state was last read or
    written. A record kept from the build before is written again from these bytes."""


class StateFile(NamedTuple):
    """The state as written: each event's record packed on its own, so writing a state after a
    build that changed one event packs that event's record alone (the records of the events
    kept are the same objects: see `BuildState.packed`)."""

    code: str
    site_key: str
    events: dict[str, bytes]
    pages: dict[str, PageRecord]
    templates: dict[str, str | None]
    files: dict[str, int]
    stamps: dict[str, tuple[int, int]]
    digests: FileDigests


class Header(NamedTuple):
    """What is read first, so a state of another version or folder is turned down unread."""

    format: int
    code: str
    files: dict[str, int]
    body_digest: str
    signature: str = ""
    """HMAC-SHA256 of `body_digest` under SIGNING_KEY, when the build that wrote it had one."""


SIGNING_KEY = "SITE_BUILDER_STATE_KEY"
"""The environment variable holding a secret to sign the state with. A state restored from a
cache that others can write is checked against every rule here, but a forged one that keeps to
them can still say which pages are current: signed, one made without the secret is refused."""


def signing_key() -> bytes | None:
    key = os.environ.get(SIGNING_KEY, "")
    return key.encode("utf-8", "surrogateescape") if key else None


def _signature(key: bytes, body_digest: str) -> str:
    return hmac.new(key, body_digest.encode("ascii", "replace"), hashlib.sha256).hexdigest()


def page_digest(data: bytes | memoryview) -> bytes:
    """The digest a page record keeps of the page's bytes: SHA-256, which this machine's
    processors do in hardware (twice as fast as BLAKE2b: a new process checks every page)."""
    return hashlib.sha256(data).digest()[:16]


def state_file(out: Path) -> Path:
    return out.parent / f"{out.name}.state"


# ---------------------------------------------------------------- reading

class Refused(NamedTuple):
    """Why a state on disk was not used; `damaged` when it is not what a build writes (a note
    for the organizer), not when it is merely of another version or folder."""

    reason: str
    damaged: bool


def check_state_path(out: Path) -> None:
    """Refuse to build when the state's name is taken by something a build must not read or
    replace (a folder, a pipe that would block the read, a link): said before anything is
    written."""
    path = state_file(out)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise ConfigError(
            f"{path} is {_kind_of(mode)}, not the state file a build of {out}/ keeps beside it: "
            "move it away or remove it, then build again (nothing was written)")


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    return "not a regular file"


def load_state(out: Path, code: str) -> BuildState | Refused | None:
    """The state beside `out` if it can be used; why not if there is one; None if there is
    none."""
    try:
        with _open_regular(state_file(out)) as handle:
            if handle.peek(1)[:1] == PICKLED:
                return Refused("made by an earlier version of site-builder", False)
            header = _read_header(handle)
            if header.format != FORMAT or header.code != code:
                return Refused("made by another version of site-builder", False)
            all_inside(header.files)
            if not _describes(header.files, out):
                return Refused(f"it describes another {out.name}/", False)
            body = handle.read()
    except FileNotFoundError:
        return None
    except Damaged as exc:
        return Refused(f"it is not what a build writes ({exc})", True)
    except (OSError, ValueError) as exc:
        return Refused(f"it cannot be read ({exc})", True)
    if bytes_digest(body) != header.body_digest:
        return Refused("it is incomplete or changed (its checksum does not match)", True)
    key = signing_key()
    if key is not None and not hmac.compare_digest(header.signature,
                                                   _signature(key, header.body_digest)):
        return Refused(f"it is not signed with {SIGNING_KEY}" if not header.signature else
                       f"its signature does not match {SIGNING_KEY}", True)
    try:
        with _collector_paused():
            state = _from_body(unpack(body, StateFile))
        check_values(state)
    except Damaged as exc:
        return Refused(f"it is not what a build writes ({exc})", True)
    if state.files != header.files or state.code != code:
        return Refused("its header and body disagree", True)
    return state


def _from_body(body: StateFile) -> BuildState:
    events = {slug: unpack(packed, EventUnit) for slug, packed in body.events.items()}
    return BuildState(body.code, body.site_key, events, body.pages, body.templates, body.files,
                      body.stamps, body.digests,
                      {slug: (events[slug], packed) for slug, packed in body.events.items()})


@contextmanager
def _collector_paused():
    """Reading makes a few hundred thousand objects and no garbage: the garbage collector's
    passes over them, as they pile up, would take longer than making them."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _open_regular(path: Path):
    """The file at `path` opened for reading, if it is a regular file: never through a link,
    and never waiting on a pipe."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    handle = os.fdopen(descriptor, "rb")  # buffered: peek
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        handle.close()
        raise Damaged("not a regular file")
    return handle


def _read_header(handle) -> Header:
    if handle.read(len(MAGIC)) != MAGIC:
        raise Damaged("not a site-builder state")
    (length,) = _LENGTH.unpack(handle.read(_LENGTH.size) or b"\0" * 4)
    if length > LONGEST_HEADER:
        raise Damaged("its header is too long")
    data = handle.read(length)
    if len(data) != length:
        raise Damaged("its header is cut short")
    # The format comes first, alone, so a later format's header is turned down, not misread.
    fmt = unpack(data[:1], int) if data[:1] and data[0] < 0x80 else None
    if fmt != FORMAT:
        return Header(-1, "", {}, "")
    return unpack(data[1:], Header)


def _describes(files: dict[str, int], out: Path) -> bool:
    """Whether the output folder still holds the files the state says were published besides
    the pages (static files, sitemap, markers), at their sizes."""
    root = os.fspath(out)
    for path, size in files.items():
        try:
            if os.lstat(f"{root}/{path}").st_size != size:
                return False
        except OSError:
            return False
    return True


# ---------------------------------------------------------------- writing

FULL_NEXT = "the next build will draw every page"
EARLIER_NEXT = ("the state of the build before stays beside it, and the next build checks every "
                "page against it")


class StateNotSaved(OSError):
    """The site was published, but its state could not be written beside it."""

    def __init__(self, reason: str, then: str):
        super().__init__(reason)
        self.reason = reason
        self.then = then
        """What the next build does about it (FULL_NEXT, EARLIER_NEXT, or what to do)."""


def save_state(out: Path, state: BuildState) -> None:
    """Written to a new temporary file (created exclusively, never through a link) and renamed
    into place: never half a state. StateNotSaved says why it could not be, and no temporary
    file is left."""
    target = state_file(out)
    _remove_stale_temporaries(target)
    temporary = None
    try:
        data = _state_bytes(state)
        _check_target(target)
        descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.tmp-{os.getpid()}-",
                                                 dir=target.parent)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, target)
    except StateNotSaved:
        raise
    except (OSError, ValueError, TypeError, OverflowError) as exc:  # a full disk; a huge number
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise StateNotSaved(reason, FULL_NEXT if _removed(target) else EARLIER_NEXT) from None


def _state_bytes(state: BuildState) -> bytes:
    packed = {}
    for slug, unit in state.events.items():
        known = state.packed.get(slug)
        packed[slug] = (unit, known[1] if known is not None and known[0] is unit
                        else pack(unit, EventUnit))
    state.packed = packed
    body = pack(StateFile(state.code, state.site_key,
                      {slug: data for slug, (_, data) in packed.items()}, state.pages,
                      state.templates, state.files, state.stamps, state.digests), StateFile)
    digest, key = bytes_digest(body), signing_key()
    header = bytes([FORMAT]) + pack(
        Header(FORMAT, state.code, state.files, digest, _signature(key, digest) if key else ""),
        Header)
    return b"".join((MAGIC, _LENGTH.pack(len(header)), header, body))


def _check_target(target: Path) -> None:
    """The state's name taken meanwhile by a folder or a link (see check_state_path)."""
    with suppress(FileNotFoundError):
        mode = os.lstat(target).st_mode
        if not stat.S_ISREG(mode):
            raise StateNotSaved(f"{target} is {_kind_of(mode)}, not a file",
                                "move it away before the next build")


def _removed(target: Path) -> bool:
    """Remove the earlier state after the new one could not be written, so that the next
    build is a full one rather than one from a state of two builds ago; whether none is left."""
    try:
        if stat.S_ISREG(os.lstat(target).st_mode):
            os.unlink(target)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


_TEMPORARY = re.compile(r"\.tmp-([0-9]+)-[A-Za-z0-9_]{8}")


def _remove_stale_temporaries(target: Path) -> None:
    """Temporary states that killed builds left (`._site.state.tmp-<pid>-xxxxxxxx`)."""
    prefix = f".{target.name}"
    with suppress(OSError):
        for entry in os.scandir(target.parent):
            match = (_TEMPORARY.fullmatch(entry.name[len(prefix):])
                     if entry.name.startswith(prefix) else None)
            if (match and entry.is_file(follow_symlinks=False)
                    and not running(int(match.group(1)))):
                with suppress(OSError):
                    os.unlink(entry.path)
