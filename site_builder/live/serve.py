"""Serve a built site on loopback the way GitHub Pages does (under its base path, with 404.html),
optionally with live reload: pages that change reload themselves, and data errors show in an
overlay until they are fixed. The reload script is added to pages as they are served; the files
on disk stay exactly what a build writes. Until the session's first good build there are no
files: every page is then a "No site yet" placeholder that turns into the site once built.
Which requests it answers at all, how many at once and how soon they must arrive: httpguards.py."""

from __future__ import annotations

import errno
import functools
import http.server
import json
import sys
import threading
import urllib.parse
from pathlib import Path

from .httpguards import GuardedHandler, GuardedServer
from ..core.problems import ConfigError, Problem
from ..build.write import has_site

LIVE = "__live/"
RELOAD_JS = (Path(__file__).parent / "live.js").read_bytes()
KEEPALIVE = 15.0
PLACEHOLDER = b"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No site yet</title>
<style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;
margin:3rem auto;padding:0 1rem}</style></head>
<body>
<h1>No site yet</h1>
<p>The first build has errors, so nothing has been published yet. Fix the errors listed below;
this page reloads itself when the site is built.</p>
</body>
</html>
"""


class LiveState:
    """What browsers are told after each rebuild: the pages that changed, the current errors,
    and whether a good site exists. It also holds the base path the server answers under, which
    a rebuild may change (site.toml's base_url)."""

    def __init__(self, base_path: str):
        self.base_path = base_path
        self.generation = 0
        self.changed: list[str] = []
        self.reload_all = False
        self.errors: list[str] = []
        self.built = False  # nothing published yet
        self.closed = False
        self._condition = threading.Condition()

    def publish(self, changed_files: set[str], problems: list[Problem], built: bool = True
                ) -> None:
        """`built`: a good site is on disk (this build's, or the last good one it keeps). False
        while the session's builds have all had errors, so browsers are not told of a last good
        version that does not exist."""
        with self._condition:
            self.generation += 1
            self.changed = sorted(self._url(path) for path in changed_files)
            self.reload_all = any(path.startswith("static/") for path in changed_files)
            self.errors = [p.format() for p in problems if p.is_error]
            self.built = built
            self._condition.notify_all()

    def set_base_path(self, path: str) -> None:
        """Serve under `path` from the next request on; open pages move there at the next
        message (live.js)."""
        with self._condition:
            self.base_path = path

    def close(self) -> None:
        with self._condition:
            self.closed = True
            self._condition.notify_all()

    def _url(self, path: str) -> str:
        if path == "index.html" or path.endswith("/index.html"):
            path = path[: -len("index.html")]
        return self.base_path + path

    def message(self, initial: bool) -> bytes:
        with self._condition:  # one publish's state, not half of two
            payload = {"initial": initial, "generation": self.generation, "base": self.base_path,
                       "changed": self.changed, "reload_all": self.reload_all,
                       "errors": self.errors, "built": self.built}
        return f"data: {json.dumps(payload)}\n\n".encode()

    def wait(self, generation: int, timeout: float) -> int:
        with self._condition:
            self._condition.wait_for(lambda: self.generation != generation or self.closed,
                                     timeout=timeout)
            return self.generation


class SiteHandler(GuardedHandler, http.server.SimpleHTTPRequestHandler):
    """Maps `<base path>/x` to `<out>/x`; anything outside the base path, or missing, gets 404.html.
    With live reload the base path is read from `live` at each request (a rebuild may change
    it); without, it is the fixed `base_path`. GuardedHandler has checked the request first
    (its host, its size, its deadline)."""

    def __init__(self, *args, directory: str, base_path: str, live: LiveState | None = None,
                 **kwargs):
        self.fixed_base_path = base_path
        self.base_path = base_path
        self.live = live
        self.answered = False
        super().__init__(*args, directory=directory, **kwargs)

    def translate_path(self, path: str) -> str:
        clean = urllib.parse.urlsplit(path).path
        if clean == self.base_path.rstrip("/"):
            clean = self.base_path  # the handler then redirects /base to /base/
        if not clean.startswith(self.base_path):
            return str(Path(self.directory) / ".outside-base-path")
        return super().translate_path("/" + clean[len(self.base_path):])

    def do_GET(self) -> None:
        # One base path for the whole request, even if a rebuild changes it meanwhile.
        self.base_path = self.live.base_path if self.live is not None else self.fixed_base_path
        self.answered = False
        path = urllib.parse.urlsplit(self.path).path
        if "\0" in urllib.parse.unquote(path):  # no file can have this name: a wrong request
            self.send_error(400, "NUL in the path")
            return
        try:
            self._answer(path)
        except (OSError, ValueError):
            # A name the file system refuses (too long, unencodable) names no page: 404. Once
            # a status line is out there is no answering again (mostly a browser that left).
            if self.answered:
                raise
            self.send_error(404)

    do_HEAD = do_GET  # the same status and headers, Content-Length included; no body (_send)

    def _answer(self, path: str) -> None:
        live = self.live
        if live is not None and path.startswith(self.base_path + LIVE):
            self._live(path[len(self.base_path + LIVE):])
        elif live is not None and path.endswith(("/", ".html")) and not has_site(self.directory):
            self._placeholder()
        elif live is not None and (page := self._html_file(path)) is not None:
            self._send(200, "text/html; charset=utf-8", self._with_script(page.read_bytes()))
        else:
            self._file()

    def _file(self) -> None:
        """The standard library's do_GET and do_HEAD in one, so both send the same headers."""
        source = self.send_head()
        if source is not None:
            with source:
                if self.command != "HEAD":
                    self.copyfile(source, self.wfile)

    def list_directory(self, path: str) -> None:
        """GitHub Pages lists no folders: one without index.html is a page that is not there."""
        self.send_error(404)
        return None

    def _html_file(self, path: str) -> Path | None:
        target = Path(self.translate_path(path))
        if target.is_dir() and path.endswith("/"):
            target = target / "index.html"
        return target if target.suffix == ".html" and target.is_file() else None


    def _placeholder(self) -> None:
        """Every page until the session's first good build (the first one had errors, so nothing
        was written): the reload script's overlay lists the errors, and the page reloads itself
        once the site is built. It tells the script which generation it was served at."""
        attribute = f' data-placeholder="{self.live.generation}"'
        self._send(503, "text/html; charset=utf-8", self._with_script(PLACEHOLDER, attribute))

    def _with_script(self, html: bytes, attributes: str = "") -> bytes:
        tag = (f'<script src="{self.base_path}{LIVE}reload.js" data-base="{self.base_path}"'
               f"{attributes}></script>").encode()
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
        if self.command == "HEAD":
            return
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

    def send_response(self, code: int, message: str | None = None) -> None:
        self.answered = True  # from here on a failure cannot become another answer
        super().send_response(code, message)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code == 404 and self.live is not None and not has_site(self.directory):
            self._placeholder()
            return
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


class SiteServer(GuardedServer):
    def handle_error(self, request, client_address) -> None:
        """A browser that stops reading (a page reloaded or left while it downloads) is not an
        error of ours: the organizer's terminal gets no traceback for it. Others are printed as
        the standard library does."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def served_url(server, base_path: str) -> str:
    """The address to open the preview at, as the terminal shows it."""
    host = server.server_address[0]
    shown_host = f"[{host}]" if ":" in host else host
    return f"http://{shown_host}:{server.server_address[1]}{base_path}"


def make_server(out: Path, base_path: str, host: str = "127.0.0.1", port: int = 0,
                live: LiveState | None = None) -> SiteServer:
    """Serves `out` under `base_path`; with live reload, `live` holds the base path from then on
    (LiveState.set_base_path moves the site while it is served)."""
    if live is not None:
        live.set_base_path(base_path)
    handler = functools.partial(SiteHandler, directory=str(out), base_path=base_path, live=live)
    try:
        server = SiteServer((host, port), handler, host)
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
