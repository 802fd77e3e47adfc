"""A build shared between worker processes writes the same bytes as one done in one process.

Large builds load, score and draw events in forked workers, then draw the pages across events
in workers too (site_builder/build/pool.py); the demo alone has too few events for that, so this
test adds small events until there are enough."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, conquest_event, copy_demo, write_files
from site_builder.build.pool import SERIAL_BELOW

NAMES = ["Ada", "Bram", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


BOTH_BUILDS = """
import sys
import time
from pathlib import Path
from site_builder.build.engine import Engine
source, out = Path(sys.argv[1]), Path(sys.argv[2])
for name, parallel in (("shared", True), ("alone", False)):
    result = Engine(source, out / name, parallel=parallel).build()
    print(name, result.events, result.rendered)
"""


@pytest.mark.slow
def test_workers_write_what_one_process_writes(tmp_path):
    """Both builds run in a new process: workers are forked only by a process that runs no
    other threads, and the test process may have some (browsers, watchers)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("workers are used only with two cores or more")
    source = copy_demo(tmp_path / "site")
    for n in range(SERIAL_BELOW):  # enough events, whatever the demo holds
        players = NAMES[n % 3:] + NAMES[: n % 3]
        rows = "".join(f"{t + 1},{players[2 * t]},{'win' if (n + t) % 2 else 'loss'}\n"
                       f"{t + 1},{players[2 * t + 1]},{'loss' if (n + t) % 2 else 'win'}\n"
                       for t in range(4))
        slug = f"2023-{1 + n // 28:02d}-{1 + n % 28:02d}-night-{n}"
        write_files(source, {
            f"data/events/{slug}/event.toml": conquest_event(
                name=f"Night {n}", date=f"2023-{1 + n // 28:02d}-{1 + n % 28:02d}",
                structure="custom", swiss_rounds=1, cut=0),
            f"data/events/{slug}/round-1.csv": "table,player,result\n" + rows})
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-c", BOTH_BUILDS, str(source), str(out)],
                         capture_output=True, text=True, cwd=REPO, timeout=300)
    assert run.returncode == 0, run.stderr
    (_, shared_events, shared_rendered), (_, events, rendered) = (
        line.split() for line in run.stdout.splitlines())
    assert shared_events == events and int(events) > SERIAL_BELOW
    assert shared_rendered == rendered and int(rendered) > 300
    assert tree(out / "shared") == tree(out / "alone")


# ---------------------------------------------------------------- a killed build's workers

def children(pid: int) -> set[int]:
    """The live processes whose parent is `pid`, from /proc/*/stat (a zombie is not alive)."""
    found = set()
    for entry in os.listdir("/proc"):
        state = _stat(int(entry)) if entry.isdigit() else None
        if state is not None and state[1] == pid and state[0] != "Z":
            found.add(int(entry))
    return found


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process; None once it is gone. The name, in parentheses, may
    hold spaces and parentheses itself: the fields after it are read from the last one."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0].decode(), int(fields[1])


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if (state := _stat(pid)) is not None and state[0] != "Z"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_of_a_killed_build_exit(tmp_path):
    """SIGKILL of `build --clean` while its workers run: they must not live on, reparented and
    blocked on a queue nobody writes to any more (they did, 72 MB each, for minutes)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("workers are used only with two cores or more")
    source = tmp_path / "site"
    subprocess.run([sys.executable, str(REPO / "bench/synth.py"), str(source), "--events", "60"],
                   check=True, capture_output=True, timeout=120)
    build = subprocess.Popen([sys.executable, "-m", "site_builder", "build", "--clean",
                              "--source", str(source), "--out", str(tmp_path / "out")],
                             cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and build.poll() is None and time.monotonic() < deadline:
            workers |= children(build.pid)  # the pool forks one worker a core, one by one
            time.sleep(0.005)
        assert len(workers) >= 2, "the build finished without forking workers"
    finally:
        build.kill()
        build.wait()
    killed = time.monotonic()
    while alive(workers) and time.monotonic() - killed < 5:
        time.sleep(0.05)
    left = alive(workers)
    for pid in left:  # no process is left running behind the test
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers still running 5 s after their build was killed: {sorted(left)}"
