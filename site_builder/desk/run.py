"""`site-builder desk`: the site built and watched as `serve` does, and the desk served beside
it by uvicorn, until Ctrl-C.

The first build, the watcher and the terminal lines are `watch`'s (live/loop.py); every rebuild
— after a result saved at the desk or a file saved in an editor — goes through one builder
thread (bulletin.Builder), so two never run at once. Before serving, each event's journal is
replayed (a desk killed mid-write restarts with every accepted result).

Connections: uvicorn answers at most MAX_CONNECTIONS at once (503 past that), drops an idle
keep-alive connection after KEEP_ALIVE seconds, and refuses request heads over MAX_HEAD bytes.
"""

from __future__ import annotations

import errno
import socket
import sys
from pathlib import Path

from ..core.notice import ProgressLine
from ..core.problems import EXIT_OK, ConfigError, ProblemLog, terminal_safe
from ..league.load import EVENTS_DIR, event_folders
from ..live.httpguards import Hosts
from ..live.loop import WatchLoop
from ..live.watch import Watcher
from .app import PREFIX, Desk, make_app
from .bulletin import Builder
from .codes import Secrets
from .eventdesk import replay
from .store import JOURNAL

MAX_CONNECTIONS = 512
KEEP_ALIVE = 5
MAX_HEAD = 32 * 1024
LOOPBACK = "127.0.0.1"


class DeskLoop(WatchLoop):
    def __init__(self, source: Path, out: Path, base_url: str | None, host: str, port: int):
        super().__init__(source, out, base_url)
        self.host, self.port = host, port
        secrets, self.secret_note = Secrets.of_site(source)
        self.desk = Desk(source, out, secrets)

    def run(self) -> int:
        listener = _listen(self.host, self.port)
        builder = Builder(self._rebuilt)
        self.desk.builder = builder
        watcher = Watcher(self.source, builder.request)
        watcher.observe()
        try:
            for line in self._replay():
                _say(terminal_safe(line))
            progress = ProgressLine() if sys.stderr.isatty() else None
            self._attempt(lambda: self.session.build_all(progress=progress), first=True)
            if progress:
                progress.clear()
        except BaseException:
            watcher.stop()
            listener.close()
            raise
        self._configure()
        builder.start()
        watcher.deliver()
        try:
            self._serve(listener)
        finally:
            self.desk.bulletin.close()
            watcher.stop()
            builder.stop()
            self._stop()
        return EXIT_OK

    def _replay(self) -> list[str]:
        said = []
        for folder in event_folders(self.source, ProblemLog()):
            if (folder / JOURNAL).exists():
                said += replay(self.source, folder.name)
        return said

    def _rebuilt(self, changed: list[str]) -> None:
        self._attempt(lambda: self.session.rebuild(changed), changed=changed)
        self._configure()
        self.desk.bulletin.raise_generation()

    def _configure(self) -> None:
        self.desk.configure(self.session.config)

    def _serve(self, listener: socket.socket) -> None:
        import uvicorn

        bound = listener.getsockname()
        app = make_app(self.desk, Hosts(self.host, bound[0], bound[1]))
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=KEEP_ALIVE,
                                h11_max_incomplete_event_size=MAX_HEAD,
                                timeout_graceful_shutdown=2, server_header=False)
        server = uvicorn.Server(config)
        self._announce_desk(bound[1])
        server.run(sockets=[listener])

    def _announce_desk(self, port: int) -> None:
        if self.secret_note:
            _say(terminal_safe(self.secret_note))
        shown = _reachable(self.host)
        origin = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}"
        self.desk.origin = origin
        login = f"{origin}{PREFIX}/login?token={self.desk.secrets.organizer}"
        _say(terminal_safe(f"Site preview: {origin}{self.desk.base_path}"))
        _say(terminal_safe(f"The desk (organizer only, keep this link to yourself): {login}"))
        if self.host != LOOPBACK:
            import segno
            _say("Scan to open the desk on a phone or tablet of the venue's network:")
            segno.make(login, error="l").terminal(out=sys.stderr, compact=True)
        _say(f"Watching data/, content/, themes/ and site.toml; the desk's results are saved "
             f"into the round files ({EVENTS_DIR}/<event>/round-<n>.csv). Ctrl-C to stop.")


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is in use (another desk or server "
                              "running?): stop it or choose another with --port") from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    listener.listen(1024)
    listener.setblocking(False)
    return listener


def _reachable(host: str) -> str:
    """The address phones of the venue's network open: the given one, or for "every address"
    (0.0.0.0) this machine's address on its network (no packet is sent to find it)."""
    if host not in ("0.0.0.0", "::"):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
