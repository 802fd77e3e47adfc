"""The speed benchmark (`make bench`): a full build of a large synthetic archive, and how long one
round-file change takes to be republished in watch mode. Prints the figures and writes them to
bench/results.json.

    python bench/run.py [--events 1000] [--runs 7]

Two edits are timed, from the file's write to the last changed page written, through the real
watcher (its debounce included) and the incremental rebuild:

* new round: the organizer saves the next round of today's event (the newest, in progress, with
  a round still to come, so it does not count in the rankings yet);
* correction: a result is corrected in an old, finished event (which also moves the rankings).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import synth  # noqa: E402

from site_builder.build import build  # noqa: E402
from site_builder.project import Project  # noqa: E402
from site_builder.watch import Watcher  # noqa: E402

WORK = ROOT / "bench" / "archive"
TARGET_SECONDS = 0.2
TARGET_SPEEDUP = 20


def archive(events: int) -> Path:
    """The synthetic archive, regenerated only when the generator or its arguments change."""
    stamp = hashlib.sha256((ROOT / "bench" / "synth.py").read_bytes() + str(events).encode()).hexdigest()
    source = WORK / "site"
    if (WORK / "stamp").exists() and (WORK / "stamp").read_text() == stamp:
        return source
    print(f"generating a synthetic archive of {events} events…", flush=True)
    synth.write_archive(source, events)
    (WORK / "stamp").write_text(stamp)
    return source


class Timed:
    """The watcher's callback, recording when each rebuild finished."""

    def __init__(self, project: Project):
        self.project = project
        self.done = threading.Event()
        self.finished = 0.0
        self.report = None

    def __call__(self, batch: list[str]) -> None:
        self.report = self.project.rebuild(batch)
        self.finished = time.perf_counter()
        self.done.set()

    def edit(self, action) -> tuple[float, object]:
        self.done.clear()
        started = time.perf_counter()
        action()
        if not self.done.wait(timeout=120):
            raise RuntimeError("no rebuild within two minutes")
        time.sleep(0.3)  # let stray events of the same edit settle before the next one
        return self.finished - started, self.report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    source = archive(args.events)
    events = sorted((source / "data" / "events").iterdir())
    newest = events[-1]
    rounds = sorted(newest.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    last_round, next_round = rounds[-1], rounds[-2]
    held_back = {path: path.read_bytes() for path in (last_round, next_round)}
    for path in held_back:  # today's event is in progress: two rounds still to come
        path.unlink()

    out = WORK / "out"
    shutil.rmtree(out, ignore_errors=True)
    print("full build…", flush=True)
    started = time.perf_counter()
    result = build(source, out)
    full = time.perf_counter() - started
    pages = sum(1 for p in result.pages if p.template)
    files = result.files
    print(f"  {full:.1f}s for {len(result.scored)} events, {pages} pages, {files} files", flush=True)

    shutil.rmtree(out)
    project = Project(source, out)
    project.build_all()
    timed = Timed(project)
    watcher = Watcher(source, timed)
    watcher.start()
    time.sleep(0.5)
    try:
        new_round, phases = [], []
        for _ in range(args.runs):
            seconds, report = timed.edit(lambda: _write(next_round, held_back[next_round]))
            new_round.append(seconds)
            phases.append(report.phases)
            print(f"  new round   {seconds:.3f}s  {report.line()}  {_phases(report)}", flush=True)
            timed.edit(next_round.unlink)
        finished = events[len(events) // 2]
        swiss = sorted(finished.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))[0]
        original = swiss.read_text(encoding="utf-8")
        correction = []
        for run in range(args.runs):
            text = _swap_table_one(original) if run % 2 == 0 else original
            seconds, report = timed.edit(lambda: _write(swiss, text.encode("utf-8")))
            correction.append(seconds)
            print(f"  correction  {seconds:.3f}s  {report.line()}  {_phases(report)}", flush=True)
        _write(swiss, original.encode("utf-8"))
    finally:
        watcher.stop()
        for path, data in held_back.items():
            _write(path, data)

    results = {
        "archive": {"events": len(result.scored), "pages": pages, "files": files,
                    "people": len(result.site.people)},
        "full_build_seconds": round(full, 2),
        "watch_new_round_seconds": {"median": round(statistics.median(new_round), 3),
                                    "max": round(max(new_round), 3), "runs": len(new_round)},
        "watch_correction_seconds": {"median": round(statistics.median(correction), 3),
                                     "max": round(max(correction), 3), "runs": len(correction)},
        "speedup_new_round": round(full / statistics.median(new_round), 1),
        "speedup_correction": round(full / statistics.median(correction), 1),
        "targets": {"republish_seconds": TARGET_SECONDS, "speedup": TARGET_SPEEDUP},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "system": platform.platform(terse=True)},
    }
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


def _phases(report) -> str:
    return " ".join(f"{name} {seconds:.3f}" for name, seconds in report.phases.items())


def _write(path: Path, data: bytes) -> None:
    """Save as editors do: a temporary file renamed over the old one."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _swap_table_one(text: str) -> str:
    """Table 1's winner and loser trade results (the correction of a mis-entered result)."""
    lines = text.splitlines()
    first, second = lines[1].split(","), lines[2].split(",")
    first[2], second[2] = second[2], first[2]
    lines[1], lines[2] = ",".join(first), ",".join(second)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
