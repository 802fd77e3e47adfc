"""What the desk writes, and how nothing of it is lost.

Every accepted result is first appended to the event's journal (`.desk-journal.jsonl` in its
folder: hidden, so no build reads it), flushed and fsynced; then the round file is written under
a temporary name, fsynced and renamed over the old one, and a `done` line follows in the
journal. A desk killed at any moment restarts, replays each result the journal has without its
`done`, and so has every accepted result (`replay`). The journal is read back as data, never
trusted: a line that is not a record of the expected shape is passed over, and a round file it
names must be a plain round file name of that folder.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from ..league.load import ROUND_FILE

JOURNAL = ".desk-journal.jsonl"
MAX_JOURNAL = 64 * 1024 * 1024
"""Bytes of journal read back at a start: far more than any event's desk writes."""


class Journal:
    """The event's journal: one JSON object per line, appended and fsynced."""

    def __init__(self, folder: Path):
        self.path = folder / JOURNAL

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
        # O_NOFOLLOW: a link put where the journal goes is not written through.
        handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            os.write(handle, line)
            os.fsync(handle)
        finally:
            os.close(handle)

    def records(self) -> list[dict[str, Any]]:
        """Every well-formed record, in order; anything else is passed over."""
        try:
            handle = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return []
        try:
            with os.fdopen(handle, "rb") as file:
                data = file.read(MAX_JOURNAL)
        except OSError:
            return []
        records = []
        for line in data.split(b"\n"):
            try:
                record = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                continue  # a line cut short by a kill, or not ours
            if isinstance(record, dict) and isinstance(record.get("kind"), str):
                records.append(record)
        return records


def is_round_file(name: Any) -> bool:
    """A round file's own name, nothing with a folder in it: what a journal may name."""
    return isinstance(name, str) and "/" not in name and "\\" not in name and bool(
        ROUND_FILE.fullmatch(name))


def write_atomically(path: Path, text: str) -> None:
    """`path` holds `text`, or still its old content, whatever happens meanwhile: written
    under a new temporary name beside it, fsynced, renamed over it, and the folder fsynced so
    the rename itself survives a power cut."""
    while True:
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def read_text(path: Path) -> str:
    """A round file's text as the desk edits it (no link followed, no pipe waited on)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(handle, "rb") as file:
        return file.read(MAX_JOURNAL).decode("utf-8")
