"""The build state: what the last build made, kept in memory by a watch session and in one file
beside the output between runs (`_site.state` for `_site`).

It holds each event's key and facts (facts.py), each published file's record (the key it was
made from, the templates it was drawn with, its size and time on disk), the digests of the
templates then, and the stamps of the input files hashed. A state that is missing, unreadable,
of another version of the tool, or of an output folder that is not the one it describes is
ignored: the build is then a full one, never a wrong one.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .facts import EventFacts
from .inputs import FileDigests, bytes_digest

FORMAT = 3


class PageRecord(NamedTuple):
    """A published page as the build that drew it left it. (A named tuple: a large site's
    state holds tens of thousands, and tuples are what pickle reads and writes fastest.)"""

    key: str
    """The digest of the page's key and the site's settings (see engine.page_key)."""
    templates: tuple[str, ...]
    size: int
    mtime_ns: int
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
    digests: FileDigests = field(default_factory=FileDigests)


def state_file(out: Path) -> Path:
    return out.parent / f"{out.name}.state"


def load_state(out: Path, code: str) -> BuildState | None:
    """The state beside `out`, if it is usable: made by this code for this output folder, and
    whole (its digest checks). A short header comes first, so a state of another version or of
    a folder since deleted is turned down before the rest is read."""
    try:
        with open(state_file(out), "rb") as handle:
            header = pickle.load(handle)
            if (not isinstance(header, tuple) or len(header) != 4 or header[0] != FORMAT
                    or header[1] != code or not _describes(header[2], out)):
                return None
            body = handle.read()
        if bytes_digest(body) != header[3]:
            return None
        state = pickle.loads(body)
    except Exception:  # noqa: BLE001 - damaged in any way: the build is a full one
        return None
    return state if isinstance(state, BuildState) and state.files == header[2] else None


def _describes(files: dict[str, int], out: Path) -> bool:
    """Whether the output folder still holds the files the state says were published besides
    the pages (static files, sitemap, markers), at their sizes. (Each page's own record is
    checked when the build plans it: a page edited or deleted by hand is drawn again.)"""
    root = os.fspath(out)
    for path, size in files.items():
        try:
            if os.stat(f"{root}/{path}").st_size != size:
                return False
        except OSError:
            return False
    return True


def save_state(out: Path, state: BuildState) -> None:
    """Written to a temporary file and renamed into place: never half a state."""
    target = state_file(out)
    temporary = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    with open(temporary, "wb") as handle:
        body = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.dump((FORMAT, state.code, state.files, bytes_digest(body)), handle,
                    protocol=pickle.HIGHEST_PROTOCOL)
        handle.write(body)
    os.replace(temporary, target)


def page_on_disk(out: Path, path: str, record: PageRecord) -> bool:
    """Whether the published page is the one the record describes: same size, and written in
    the same second. (Whole seconds: an output folder restored from an archive, as the GitHub
    Pages workflow restores it from its cache, keeps the times only to the second. A hand edit
    comes later than the second the build wrote the page.)"""
    try:
        info = os.stat(f"{os.fspath(out)}/{path}")
    except OSError:
        return False
    return (info.st_size == record.size
            and info.st_mtime_ns // 1_000_000_000 == record.mtime_ns // 1_000_000_000)
