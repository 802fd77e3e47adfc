"""A real desk for the tests: `site-builder desk` run as the organizer runs it (a process of its
own, uvicorn on 127.0.0.1, a free port), its links read from what it prints, and an HTTP client
that holds the organizer's cookie. Scratch leagues with an event of each game, and the same
event run by hand (`pair`, then results typed into the round file) to compare with."""

from __future__ import annotations

import csv
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from site_builder.cli import main

NAMES = ["Ada Byron", "Bram Stoker", "Cleo Park", "Dmitri Volkov", "Eun-ji Seo", "Farah Aziz",
         "Gus Lind", "Hana Mori", "Ivo Novak", "Jun Ito", "Kofi Mensah", "Lena Roth"]


def league(root: Path, slug: str, toml: str, players: list[str]) -> Path:
    """A league folder with one event: its event.toml and registrations."""
    folder = root / "data" / "events" / slug
    folder.mkdir(parents=True)
    (root / "site.toml").write_text('title = "Desk League"\n', encoding="utf-8")
    (folder / "event.toml").write_text(toml, encoding="utf-8")
    (folder / "players.csv").write_text("player\n" + "".join(f"{p}\n" for p in players),
                                        encoding="utf-8")
    return folder


@dataclass
class RunningDesk:
    process: subprocess.Popen
    source: Path
    origin: str = ""
    login: str = ""
    lines: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None

    @property
    def token(self) -> str:
        return self.login.rsplit("=", 1)[1]

    def client(self, organizer: bool = True) -> httpx.Client:
        client = httpx.Client(base_url=self.origin, follow_redirects=True, timeout=30)
        if organizer:
            assert client.get(self.login).status_code == 200
        return client

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._close()

    def _close(self) -> None:
        if self.reader is not None:
            self.reader.join(timeout=10)
        if self.process.stderr is not None:
            self.process.stderr.close()


def start_desk(source: Path, *extra: str, timeout: float = 60) -> RunningDesk:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "desk", "--source", str(source), "--out",
         str(source / "_site"), "--port", "0", *extra],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    desk = RunningDesk(process, source)
    ready = threading.Event()

    def read() -> None:
        for line in process.stderr:
            desk.lines.append(line.rstrip("\n"))
            if m := re.match(r"Site preview: (http://[^/]+)", line):
                desk.origin = m[1]
            if m := re.search(r"(http://\S+/_desk/login\?token=\w+)", line):
                desk.login = m[1]
                ready.set()
        ready.set()
    desk.reader = threading.Thread(target=read, daemon=True)
    desk.reader.start()
    if not ready.wait(timeout) or not desk.login:
        desk.kill()
        raise AssertionError("the desk did not start:\n" + "\n".join(desk.lines))
    return desk


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="(\w+)"', html)[1]


def fingerprint_of(html: str, table: str) -> str:
    at = html.index(f'name="table" value="{table}"')
    return re.search(r'name="fp" value="(\w+)"', html[at:])[1]


def seats_of(round_file: Path) -> dict[str, list[str]]:
    """Table → its players in file order (a name once), from a round file."""
    tables: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(round_file.read_text(encoding="utf-8"))):
        if row["table"] and row["player"] not in tables.setdefault(row["table"], []):
            tables[row["table"]].append(row["player"])
    return tables


def pair_by_hand(folder: Path) -> Path:
    """`site-builder pair` as the organizer runs it in a terminal: the new round file."""
    before = set(folder.glob("round-*.csv"))
    assert main(["pair", str(folder)]) == 0
    (new,) = set(folder.glob("round-*.csv")) - before
    return new


def wait_for(predicate, timeout: float = 20.0, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("timed out waiting")
