"""The build's digests: of bytes, and of values with a stable repr. Equal inputs, equal digests,
in every process: what decides whether a page or an event is drawn again."""

from __future__ import annotations

import hashlib
from typing import Any


def bytes_digest(data: bytes) -> str:
    """The build's one digest: 32 hexadecimal characters of BLAKE2b."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def digest(*parts: Any) -> str:
    """A short digest of values that have a stable repr (strings, numbers, tuples, dates,
    frozen dataclasses of those): equal values, equal digests, in every process."""
    return bytes_digest(repr(parts).encode("utf-8"))
