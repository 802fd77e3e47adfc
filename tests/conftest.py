"""Shared test helpers: scratch sites written into tmp_path and built with the real CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from site_builder.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEMO_SITE = FIXTURES / "demo"
"""The demo league as the tests know it: a copy of examples/northern-league/ made for them, so
that the example can change, or go, without breaking a test."""
DEMO_BASE = "/my-league/"
"""The GitHub Pages project path the browser tests build the demo under."""


def copy_demo(destination: Path, with_theme: bool = False) -> Path:
    """A copy of the tests' demo league (data, content, site.toml) at `destination`; with
    `with_theme`, a copy of the default theme as the site's own (themes/default)."""
    for name in ("data", "content"):
        shutil.copytree(DEMO_SITE / name, destination / name)
    shutil.copy(DEMO_SITE / "site.toml", destination / "site.toml")
    if with_theme:
        shutil.copytree(REPO / "themes", destination / "themes")
    return destination


def build_demo(root: Path, *extra: str) -> tuple[Path, Path]:
    """A copy of the demo under `root`, built with --base-url DEMO_BASE: (source, out)."""
    source = copy_demo(root / "site")
    out = root / "out"
    assert main(["build", "--source", str(source), "--out", str(out), "--base-url", DEMO_BASE,
                 *extra]) == 0
    return source, out


@contextmanager
def served(out: Path, base: str = DEMO_BASE):
    """A built site served by site-builder's own server on 127.0.0.1: its root URL."""
    from site_builder.live.serve import serve_in_thread
    server, _ = serve_in_thread(out, base)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{base}"
    finally:
        server.shutdown()
        server.server_close()


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write {relative path: text or bytes} under root; text is dedented."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def conquest_event(name: str = "Test event", date: str = "2024-05-18", **keys: object) -> str:
    """An event.toml for a Conquest event; keys are written as given (strings quoted)."""
    lines = [f'name = "{name}"', f"date = {date}", 'game = "conquest"']
    for key, value in keys.items():
        lines.append(f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {value}")
    return "\n".join(lines) + "\n"


@dataclass
class CliRun:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.err.splitlines()


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run the CLI in-process. `--source DIR` runs it from inside DIR (as `--source .`), the way
    an organizer works, so problems print as data/events/…:line (a --source that is not a
    folder is passed as it is)."""
    def run(*args: str | os.PathLike) -> CliRun:
        argv = [str(a) for a in args]
        if "--source" in argv and Path(argv[argv.index("--source") + 1]).is_dir():
            at = argv.index("--source") + 1
            monkeypatch.chdir(argv[at])
            argv[at] = "."
        code = main(argv)
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)
    return run


@pytest.fixture
def site(tmp_path):
    """A scratch site folder; `site.write({...})` adds files, `site.build()` builds it."""
    return ScratchSite(tmp_path / "site")


class ScratchSite:
    def __init__(self, root: Path):
        self.root = root
        (root / "data/events").mkdir(parents=True, exist_ok=True)  # what makes a folder a site
        self.out = root.parent / "out"

    def write(self, files: dict[str, str | bytes]) -> ScratchSite:
        write_files(self.root, files)
        return self

    def event(self, slug: str, toml: str, rounds: dict[int, str], **extra: str) -> ScratchSite:
        files = {f"data/events/{slug}/event.toml": toml}
        files.update({f"data/events/{slug}/round-{n}.csv": text for n, text in rounds.items()})
        files.update({f"data/events/{slug}/{name}": text for name, text in extra.items()})
        return self.write(files)

    def build(self, *extra: str) -> int:
        return main(["build", "--source", str(self.root), "--out", str(self.out), *extra])

    def json(self, relative: str) -> dict:
        return json.loads((self.out / relative).read_text(encoding="utf-8"))

    def html(self, relative: str) -> str:
        path = self.out / relative
        return read_page(path / "index.html" if path.is_dir() else path)


@pytest.fixture
def pair(capsys, monkeypatch, request):
    """Run `site-builder pair` in-process from inside the site's folder, as an organizer does:
    (exit code, stdout, stderr). The event is the test module's `EV` unless `slug` names one."""
    def run(site, *args: str, slug: str | None = None):
        monkeypatch.chdir(site.root)
        capsys.readouterr()  # what the test printed before is not this command's output
        code = main(["pair", f"data/events/{slug}" if slug else request.module.EV, *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


def registrations(names) -> str:
    """An event's players.csv registering these names."""
    return "player\n" + "".join(f"{name}\n" for name in names)


class Running:
    """`python -m site_builder ARGS` in a subprocess (watch, serve), its stderr collected line by
    line as an organizer's terminal shows it."""

    def __init__(self, *args: str | os.PathLike):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "site_builder", *map(str, args)],
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def mark(self) -> int:
        """Where the output is now: `wait_for(..., since=mark)` looks at later lines only."""
        return len(self.lines)

    def wait_for(self, pattern: str, timeout: float = 30.0, since: int = 0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines[since:]:
                if re.search(pattern, line):
                    return line
            if self.process.poll() is not None:
                self._reader.join(timeout=5)
                raise AssertionError(f"{self.process.args[3]} exited:\n" + "\n".join(self.lines))
            time.sleep(0.05)
        raise AssertionError(f"no line matching {pattern!r} in:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        """Ctrl-C, and the exit code; all output read."""
        self.process.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()  # the test fails; no process is left running behind it
            raise
        self.finish()
        return code

    def finish(self) -> None:
        """After the process has ended: the rest of its output read."""
        self._reader.join(timeout=5)
        self.process.stderr.close()


def read_page(path: Path) -> str:
    """A built HTML page (UTF-8, as every page is written)."""
    return path.read_text(encoding="utf-8")


def copy_fixture(name: str, destination: Path) -> Path:
    shutil.copytree(FIXTURES / name, destination)
    return destination


def score_event(root: Path, rounds: dict[int, str], registrations: str | None = None, **keys):
    """Load one Conquest event from CSV texts with the real loader and score it.

    Returns (ScoredEvent or None, problems)."""
    return score_files(root, conquest_event(**keys), "table,player,result", rounds, registrations)


def score_files(root: Path, event_toml: str, header: str, rounds: dict[int, str],
                registrations: str | None = None):
    """Write one event (event.toml and round files with `header`) under root, load it with the
    real loader and score it. Returns (ScoredEvent or None, problems)."""
    from site_builder.league.load import EVENTS_DIR, assign_event_ids, load_event
    from site_builder.league.people import load_directory
    from site_builder.core.problems import ProblemLog
    from site_builder.rules import RULESETS

    slug = "2024-05-18-test"
    files = {f"data/events/{slug}/event.toml": event_toml}
    files.update({f"data/events/{slug}/round-{n}.csv": header + "\n" + textwrap.dedent(text).lstrip("\n")
                  for n, text in rounds.items()})
    if registrations is not None:
        files[f"data/events/{slug}/players.csv"] = registrations
    shutil.rmtree(root, ignore_errors=True)
    write_files(root, files)
    log = ProblemLog()
    event = load_event(root, root / EVENTS_DIR / slug, log)
    if event is not None:
        assign_event_ids(event, load_directory(root, log), log)
    if event is None or log.has_errors():
        return None, log.problems
    scored = RULESETS[event.info.game].score(event)
    return scored, log.problems + list(scored.warnings)


def rows_of(standings) -> list[tuple]:
    """(rank, name, points, sos, esos, dropped) for compact comparisons; exact values."""
    return [(r.rank, r.player.name, r.values["points"], r.values["sos"], r.values["esos"], r.dropped)
            for r in standings.rows]


# ---------------------------------------------------------------- real browser (Playwright)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


def require_chromium() -> None:
    """Skip (with the reason) where Debian's Chromium is missing, unless CI demands it."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("REQUIRE_BROWSER"):
        pytest.fail(f"{CHROMIUM} is missing and REQUIRE_BROWSER is set: run 'make chromium'")
    pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: make chromium)")


def pytest_collection_modifyitems(items) -> None:
    """A browser test is a slow one: `make test-fast` (-m "not slow") leaves it out."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    require_chromium()
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def error_at(result, location: str) -> str:
    """The message of the one error reported at `location` ('path:line')."""
    found = [line[len(location) + 2:] for line in result.lines if line.startswith(location + ": ")
             and ": warning: " not in line]
    assert len(found) == 1, result.err
    return found[0]
