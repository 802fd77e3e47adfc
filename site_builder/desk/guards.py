"""Who may reach the desk, and how much they may send: an ASGI middleware in front of every page.

* **Host.** Only requests naming the host the desk listens on are answered (421 otherwise): a
  page of another site that points its own name at this address (DNS rebinding) still names
  its own host. The same rule as `serve` (live/httpguards.Hosts).
* **Size.** A request body over MAX_BODY bytes is refused (413), whether it says its length or
  streams; a body that takes longer than BODY_SECONDS to arrive is cut off.
* **Rate.** Each client address may send RATE writes a second, in bursts of BURST (429 with
  Retry-After past that): a phone that sends a report a hundred times a second is slowed, the
  room is not.
* **Cross-site forms.** A write whose Origin (or, without one, Referer) is another site is
  refused (403); the forms also carry a token of their own (app.py), and the organizer's cookie
  is SameSite=Strict.

Connections are capped and time out in uvicorn's own settings (run.py).
"""

from __future__ import annotations

import time
import urllib.parse

import anyio

from ..live.httpguards import Hosts

MAX_BODY = 64 * 1024
"""Bytes of a form: a SPELLFIRE bracket of nine games is under 4 kB."""
BODY_SECONDS = 10.0
RATE = 20.0
BURST = 60.0

DRAIN = 1024 * 1024
"""Bytes of a refused body read and dropped before the refusal (past it, the connection is
closed unread: a client sending megabytes gets a reset, not our message)."""
TOO_LARGE = f"A form may send at most {MAX_BODY // 1024} kB."

_WRITES = {b"POST", b"PUT", b"PATCH", b"DELETE"}


class Guard:
    def __init__(self, app, hosts: Hosts):
        self.app = app
        self.hosts = hosts
        self.buckets: dict[str, tuple[float, float]] = {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            return await _plain(send, 421, f"This server answers to {self.hosts}, not to "
                                           f"{host[:100]!r}.")
        if scope["method"].encode() in _WRITES:
            refusal = self._refusal(scope, headers)
            if refusal is not None:
                await _drain(receive)
                return await _plain(send, *refusal)
            length = headers.get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                await _drain(receive)
                return await _plain(send, 413, TOO_LARGE)
            body = await _body(receive)
            if body is None:
                return await _plain(send, 413, TOO_LARGE)
            receive = _replaying(body, receive)
        await self.app(scope, receive, send)

    def _refusal(self, scope, headers) -> tuple[int, str] | None:
        origin = headers.get(b"origin") or headers.get(b"referer")
        if origin and origin != b"null":
            netloc = urllib.parse.urlsplit(origin.decode("latin-1")).netloc
            if netloc.lower() != headers.get(b"host", b"").decode("latin-1").lower():
                return 403, "A form from another site cannot write to the desk."
        client = (scope.get("client") or ("?", 0))[0]
        now = time.monotonic()
        tokens, last = self.buckets.get(client, (BURST, now))
        tokens = min(BURST, tokens + (now - last) * RATE)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return 429, "Too many results sent at once: wait a moment and send again."
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 10_000:  # forget the quiet ones
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        return None


async def _body(receive) -> bytes | None:
    """The whole body, read before the application sees it (so a form too large is refused
    here, whether it said its length or not); None when it passes MAX_BODY (the rest drained)
    or does not arrive within BODY_SECONDS."""
    body, more = b"", True
    try:
        with anyio.fail_after(BODY_SECONDS):
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return b""  # the client left: the application sees an empty form
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    if more:
                        await _drain(receive)
                    return None
    except TimeoutError:
        return None
    return body


async def _drain(receive) -> None:
    """Read (and drop) what is left of a refused request's body, up to DRAIN bytes: a refusal
    sent over unread bytes gets the connection reset, and the client never reads it."""
    seen = 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            while seen <= DRAIN:
                message = await receive()
                if message["type"] != "http.request":
                    return
                seen += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return
    except TimeoutError:
        return


def _replaying(body: bytes, receive):
    sent = False

    async def replay():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: the client's disconnect, if it leaves
    return replay


async def _plain(send, status: int, text: str) -> None:
    body = (text + "\n").encode("utf-8")
    headers = [(b"content-type", b"text/plain; charset=utf-8"),
               (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"),
               (b"connection", b"close")]
    if status == 429:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
