"""Serve a built site on loopback the way GitHub Pages does: under its base path, with 404.html."""

from __future__ import annotations

import errno
import functools
import http.server
import sys
import threading
import urllib.parse
from pathlib import Path

from .problems import ConfigError


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Maps `<base path>/x` to `<out>/x`; anything outside the base path, or missing, gets 404.html."""

    base_path = "/"

    def __init__(self, *args, directory: str, base_path: str, **kwargs):
        self.base_path = base_path
        super().__init__(*args, directory=directory, **kwargs)

    def translate_path(self, path: str) -> str:
        clean = urllib.parse.urlsplit(path).path
        if clean == self.base_path.rstrip("/"):
            clean = self.base_path  # the handler then redirects /base to /base/
        if not clean.startswith(self.base_path):
            return str(Path(self.directory) / ".outside-base-path")
        return super().translate_path("/" + clean[len(self.base_path):])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a preview must always show the latest build
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


def make_server(out: Path, base_path: str, host: str = "127.0.0.1",
                port: int = 0) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(SiteHandler, directory=str(out), base_path=base_path)
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is in use (another server running?): "
                              "stop it or choose another with --port") from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    server.daemon_threads = True
    return server


def serve_in_thread(out: Path, base_path: str, host: str = "127.0.0.1",
                    port: int = 0) -> tuple[http.server.ThreadingHTTPServer, threading.Thread]:
    server = make_server(out, base_path, host, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


def serve(out: Path, base_path: str, host: str, port: int) -> int:
    server = make_server(out, base_path, host, port)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"Serving {out}/ at http://{shown_host}:{server.server_address[1]}{base_path}  "
          "(Ctrl-C to stop)", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
