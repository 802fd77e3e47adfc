"""The desk's secrets: the organizer's token and each seat's code.

One random secret per site, kept in `.desk-secret` at the site's root (created on the first
`desk`, readable by its owner only, never committed: `new` lists it in .gitignore). Everything
else is derived from it with HMAC-SHA256, so a desk restarted after a crash still knows the
codes printed on the slips, and no list of codes is stored anywhere to be stolen or edited:

* the organizer's token: HMAC(secret, "organizer");
* a seat's code: HMAC(secret, event, round, table, player), 80 bits in base 32. It names one
  round: once the next round exists the desk takes no report for it, so the code has expired.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

SECRET_FILE = ".desk-secret"
_HEX = re.compile(r"[0-9a-f]{64}")


class Secrets:
    def __init__(self, key: bytes):
        self._key = key

    @classmethod
    def of_site(cls, source: Path) -> tuple[Secrets, str]:
        """The site's secret, made when there is none or it is not one we wrote (64 hex
        digits). Returns it with a note for the terminal ("" when nothing was said)."""
        path = source / SECRET_FILE
        try:
            handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            with os.fdopen(handle, "rb") as file:
                text = file.read(200).decode("ascii", "replace").strip()
        except OSError:
            text = None
        if text is not None and _HEX.fullmatch(text):
            return cls(bytes.fromhex(text)), ""
        key = secrets.token_bytes(32)
        try:
            os.unlink(path)
        except OSError:
            pass
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(key.hex() + "\n")
        note = ("" if text is None else
                f"note: {SECRET_FILE} was not a desk secret; a new one is made, so slips printed "
                "before need printing again")
        return cls(key), note

    def _mac(self, *parts: str) -> bytes:
        message = "\x00".join(parts).encode("utf-8")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    @property
    def organizer(self) -> str:
        return self._mac("organizer").hex()[:32]

    def is_organizer(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(token.encode(), self.organizer.encode())

    def seat(self, slug: str, round_number: int, table: str, player: str) -> str:
        raw = self._mac("seat", slug, str(round_number), table, player)[:10]
        return base64.b32encode(raw).decode("ascii").lower()

    def is_seat(self, code: str, slug: str, round_number: int, table: str, player: str) -> bool:
        return hmac.compare_digest(code.encode("ascii", "replace"),
                                   self.seat(slug, round_number, table, player).encode())

    def csrf(self, session: str) -> str:
        """The form token of a browser's session: a form from another site cannot know it."""
        return self._mac("csrf", session).hex()[:32]
