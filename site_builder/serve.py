"""Serve a built site on loopback the way GitHub Pages does (under its base path, with 404.html),
optionally with live reload: pages that change reload themselves, and data errors show in an
overlay until they are fixed. The reload script is added to pages as they are served; the files
on disk stay exactly what a build writes."""

from __future__ import annotations

import errno
import functools
import http.server
import json
import sys
import threading
import urllib.parse
from pathlib import Path

from .problems import ConfigError, Problem

LIVE = "__live/"
RELOAD_JS = (Path(__file__).parent / "live.js").read_bytes()
KEEPALIVE = 15.0


class LiveState:
    """What browsers are told after each rebuild: the pages that changed and the current errors."""

    def __init__(self, base_path: str):
        self.base_path = base_path
        self.generation = 0
        self.changed: list[str] = []
        self.reload_all = False
        self.errors: list[str] = []
        self.closed = False
        self._condition = threading.Condition()

    def publish(self, changed_files: set[str], problems: list[Problem]) -> None:
        with self._condition:
            self.generation += 1
            self.changed = sorted(self._url(path) for path in changed_files)
            self.reload_all = any(path.startswith("static/") for path in changed_files)
            self.errors = [p.format() for p in problems if p.is_error]
            self._condition.notify_all()

    def close(self) -> None:
        with self._condition:
            self.closed = True
            self._condition.notify_all()

    def _url(self, path: str) -> str:
        if path == "index.html" or path.endswith("/index.html"):
            path = path[: -len("index.html")]
        return self.base_path + path

    def message(self, initial: bool) -> bytes:
        payload = {"initial": initial, "changed": self.changed, "reload_all": self.reload_all,
                   "errors": self.errors}
        return f"data: {json.dumps(payload)}\n\n".encode()

    def wait(self, generation: int, timeout: float) -> int:
        with self._condition:
            self._condition.wait_for(lambda: self.generation != generation or self.closed,
                                     timeout=timeout)
            return self.generation


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Maps `<base path>/x` to `<out>/x`; anything outside the base path, or missing, gets 404.html."""

    def __init__(self, *args, directory: str, base_path: str, live: LiveState | None = None,
                 **kwargs):
        self.base_path = base_path
        self.live = live
        super().__init__(*args, directory=directory, **kwargs)

    def translate_path(self, path: str) -> str:
        clean = urllib.parse.urlsplit(path).path
        if clean == self.base_path.rstrip("/"):
            clean = self.base_path  # the handler then redirects /base to /base/
        if not clean.startswith(self.base_path):
            return str(Path(self.directory) / ".outside-base-path")
        return super().translate_path("/" + clean[len(self.base_path):])

    def do_GET(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        if self.live is not None and path.startswith(self.base_path + LIVE):
            self._live(path[len(self.base_path + LIVE):])
            return
        if self.live is not None:
            page = self._html_file(path)
            if page is not None:
                self._send(200, "text/html; charset=utf-8", self._with_script(page.read_bytes()))
                return
        super().do_GET()

    def _html_file(self, path: str) -> Path | None:
        target = Path(self.translate_path(path))
        if target.is_dir() and path.endswith("/"):
            target = target / "index.html"
        return target if target.suffix == ".html" and target.is_file() else None

    def _with_script(self, html: bytes) -> bytes:
        tag = (f'<script src="{self.base_path}{LIVE}reload.js" data-base="{self.base_path}">'
               "</script>").encode()
        at = html.rfind(b"</body>")
        return html[:at] + tag + html[at:] if at >= 0 else html + tag

    def _live(self, name: str) -> None:
        if name == "reload.js":
            self._send(200, "text/javascript; charset=utf-8", RELOAD_JS)
        elif name == "events":
            self._stream()
        else:
            self.send_error(404)

    def _stream(self) -> None:
        """Server-sent events: the current state at once, then one message per rebuild."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        live = self.live
        try:
            generation = live.generation
            self.wfile.write(b"retry: 1000\n" + live.message(initial=True))
            self.wfile.flush()
            while not live.closed:
                now = live.wait(generation, KEEPALIVE)
                if now == generation:
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    generation = now
                    self.wfile.write(live.message(initial=False))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self._send(404, "text/html; charset=utf-8",
                   self._with_script(body) if self.live is not None else body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a preview must always show the latest build
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A browser that stops reading (a page reloaded or left while it downloads) is not an
        error of ours: the organizer's terminal gets no traceback for it. Others are printed as
        the standard library does."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(out: Path, base_path: str, host: str = "127.0.0.1", port: int = 0,
                live: LiveState | None = None) -> SiteServer:
    handler = functools.partial(SiteHandler, directory=str(out), base_path=base_path, live=live)
    try:
        server = SiteServer((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is in use (another server running?): "
                              "stop it or choose another with --port") from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return server


def serve_in_thread(out: Path, base_path: str, host: str = "127.0.0.1", port: int = 0,
                    live: LiveState | None = None
                    ) -> tuple[SiteServer, threading.Thread]:
    server = make_server(out, base_path, host, port, live)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread
