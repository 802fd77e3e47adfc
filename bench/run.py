"""The speed benchmark (`make bench`): a full build of synthetic archives of 300 and 1,000
events, the weight of their pages, and how long one round-file change takes to be republished
in watch mode on each (it must not grow with the archive). Prints the figures and writes them
to bench/results.json.

    python bench/run.py [--events 300 1000] [--runs 7]

Three edits are timed, from the file's write to the last changed page written, through the real
watcher (its debounce included) and the incremental rebuild. Every timed write has results never
seen before in the session (a seeded variant of the file), as an organizer's new round has: a
cache of earlier content cannot answer for it.

* Swiss round: the organizer saves the next Swiss round of today's event (the newest with 100+
  players and a top cut, in progress): every player's record moves, so all their pages are
  re-rendered;
* cut round: the next elimination round of that event (a semi-final: four players' pages move);
* correction: a result is corrected in an old, finished event (which also moves the rankings).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import platform
import random
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
from site_builder.live.session import Session  # noqa: E402
from site_builder.live.watch import Watcher  # noqa: E402

WORK = ROOT / "bench" / "archive"
TARGET_SECONDS = (0.2, 0.3)
"""The republish targets on the 300-event archive and on larger ones (issue 33)."""


def archive(events: int) -> Path:
    """The synthetic archive of that many events (each size in its own folder), regenerated only
    when the generator changes."""
    work = WORK / str(events)
    work.mkdir(parents=True, exist_ok=True)
    stamp = hashlib.sha256((ROOT / "bench" / "synth.py").read_bytes() + str(events).encode()).hexdigest()
    source = work / "site"
    if (work / "stamp").exists() and (work / "stamp").read_text() == stamp:
        return source
    print(f"generating a synthetic archive of {events} events…", flush=True)
    synth.write_archive(source, events)
    (work / "stamp").write_text(stamp)
    return source


class Timed:
    """The watcher's callback, recording when each rebuild finished."""

    def __init__(self, session: Session):
        self.session = session
        self.done = threading.Event()
        self.finished = 0.0
        self.noticed = 0.0
        self.report = None

    def __call__(self, batch: list[str]) -> None:
        self.noticed = time.perf_counter()
        self.report = self.session.rebuild(batch)
        self.finished = time.perf_counter()
        self.done.set()

    def edit(self, action) -> tuple[float, float, object]:
        """Seconds from the edit to the last page written, of which the watcher's share (the
        debounce), and the rebuild's report."""
        self.done.clear()
        started = time.perf_counter()
        action()
        if not self.done.wait(timeout=120):
            raise RuntimeError("no rebuild within two minutes")
        time.sleep(0.3)  # let stray events of the same edit settle before the next one
        return self.finished - started, self.noticed - started, self.report


def todays_event(events: list[Path]) -> tuple[list[Path], Path, Path]:
    """The newest large event with a top cut, as today's: its round files, its last Swiss round
    and its semi-final. Swiss rounds pair everyone still in (drops aside); elimination rounds only
    the cut, so the last round with more than half of round 1's rows is the last Swiss round."""
    for folder in reversed(events):
        rounds = sorted(folder.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
        sizes = [len(path.read_bytes().splitlines()) for path in rounds]
        if len(rounds) < 3 or sizes[0] < 100:
            continue
        last_swiss = max(i for i, size in enumerate(sizes) if size > sizes[0] // 2)
        if last_swiss < len(rounds) - 2:  # at least a semi-final and a final after it
            return rounds, rounds[last_swiss], rounds[-2]
    raise SystemExit("the synthetic archive has no event of 100+ players with a top cut")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[300, 1000],
                        help="archive sizes: the republish time must not grow with the archive")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    results = {str(events): bench(events, args.runs) for events in args.events}
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print()
    for events, figures in results.items():
        for kind, timed in figures["watch_seconds"].items():
            met = timed["median"] < TARGET_SECONDS[int(events) > 300]
            print(f"{events:>5} events  {kind:<12} median {timed['median']:.3f}s  "
                  f"({figures['speedup'][kind]}x faster than a full build of "
                  f"{figures['full_build_seconds']:.1f}s) — {'meets' if met else 'misses'} "
                  f"the target (<{TARGET_SECONDS[int(events) > 300]}s)")
        weight = figures["page_weight"]
        print(f"{events:>5} events  output {weight['total_bytes'] / 1e6:.1f} MB; median page "
              f"{weight['median_bytes']:,} B; round pages {weight['median_round']:,} B; player "
              f"pages {weight['median_player']:,} B")


def bench(events_wanted: int, runs: int) -> dict:
    """One archive size: the full build, the page weights, and the timed edits."""
    source = archive(events_wanted)
    work = source.parent
    args = argparse.Namespace(runs=runs)
    events = sorted((source / "data" / "events").iterdir())
    rounds, swiss_round, cut_round = todays_event(events)
    originals = {path: path.read_bytes() for path in rounds}
    # Today's event is in progress: its last Swiss round and the elimination rounds are to come.
    held_back = rounds[rounds.index(swiss_round):]
    for path in held_back:
        path.unlink()

    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    print("full build…", flush=True)
    started = time.perf_counter()
    result = build(source, out, clean=True)
    full = time.perf_counter() - started
    archive_size = {"events": result.events, "pages": result.pages, "files": result.files}
    print(f"  {full:.1f}s for {archive_size['events']} events, {archive_size['pages']} pages, "
          f"{archive_size['files']} files", flush=True)

    weights = page_weights(out)
    print("  largest pages (bytes as written · gzipped, as GitHub Pages serves them):")
    for row in weights["largest"]:
        print(f"    {row['bytes']:>9,} · {row['gzip']:>7,}  {row['page']}")

    session = Session(source, out)  # starts from the state the full build left beside `out`
    session.build_all()
    os.sync()  # the full build's writes settle before anything is timed
    timed = Timed(session)
    watcher = Watcher(source, timed)
    watcher.start()
    cpu_before = _cpu_times()
    time.sleep(0.5)
    timings: dict[str, list[float]] = {"swiss_round": [], "cut_round": [], "correction": []}
    try:
        def add_and_remove(kind: str, path: Path) -> None:
            for run in range(args.runs):
                text = _variant(originals[path].decode("utf-8"), run)
                seconds, noticed, report = timed.edit(lambda: _write(path, text.encode("utf-8")))
                timings[kind].append(seconds)
                print(f"  {kind:<12}{seconds:.3f}s  {report.line()}  watch {noticed:.3f} "
                      f"{_phases(report)}", flush=True)
                timed.edit(path.unlink)

        add_and_remove("swiss_round", swiss_round)
        for path in held_back[:held_back.index(cut_round)]:  # on to the semi-finals
            timed.edit(lambda path=path: _write(path, originals[path]))
        add_and_remove("cut_round", cut_round)

        finished = events[len(events) // 2]
        swiss = sorted(finished.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))[0]
        original = swiss.read_text(encoding="utf-8")
        try:
            for run in range(args.runs):  # each run corrects another table of the original
                text = _swap_table(original, run + 1)
                seconds, noticed, report = timed.edit(lambda: _write(swiss, text.encode("utf-8")))
                timings["correction"].append(seconds)
                print(f"  {'correction':<12}{seconds:.3f}s  {report.line()}  watch {noticed:.3f} "
                      f"{_phases(report)}", flush=True)
        finally:
            _write(swiss, original.encode("utf-8"))
    finally:
        watcher.stop()
        stolen = _stolen_share(cpu_before, _cpu_times())
        for path, data in originals.items():
            _write(path, data)

    results = {
        "archive": archive_size,
        "page_weight": weights,
        "full_build_seconds": round(full, 2),
        "watch_seconds": {kind: {"median": round(statistics.median(values), 3),
                                 "min": round(min(values), 3), "max": round(max(values), 3),
                                 "runs": len(values),
                                 "each": [round(v, 3) for v in values]}
                          for kind, values in timings.items()},
        "speedup": {kind: round(full / statistics.median(values), 1)
                    for kind, values in timings.items()},
        "targets": {"republish_seconds": TARGET_SECONDS[events_wanted > 300]},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "cpu_stolen_during_watch_runs": stolen,
                    "system": platform.platform(terse=True)},
    }
    if stolen is not None:
        print(f"CPU time taken by other guests of this virtual machine during the timed edits: "
              f"{stolen}")
    return results


def page_weights(out: Path, largest: int = 8) -> dict:
    """What a phone downloads: the largest HTML pages of the archive, as written and gzipped,
    the median page, the median round and player page, and every file's bytes together."""
    sizes = sorted(((path.stat().st_size, path) for path in out.rglob("*.html")), reverse=True)
    rows = [{"page": path.relative_to(out).as_posix(), "bytes": size,
             "gzip": len(gzip.compress(path.read_bytes(), 6))} for size, path in sizes[:largest]]
    rounds = sorted(size for size, path in sizes if path.parent.name.startswith("round-"))
    players = sorted(size for size, path in sizes if path.parent.parent.name == "players"
                     and not path.parent.name.startswith("_"))
    total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    return {"largest": rows, "median_bytes": sizes[len(sizes) // 2][0] if sizes else 0,
            "median_round": statistics.median(rounds) if rounds else 0,
            "median_player": statistics.median(players) if players else 0,
            "total_bytes": total, "pages": len(sizes)}


def _cpu_times() -> list[int] | None:
    """The machine's CPU time counters (Linux /proc/stat), or None elsewhere."""
    try:
        return [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None


def _stolen_share(before: list[int] | None, after: list[int] | None) -> str | None:
    """How much of the CPU time the hypervisor gave other guests (steal, the 8th counter) while
    the edits were timed: on a shared virtual machine the figures above are only comparable
    between runs with little of it."""
    if not before or not after or len(before) < 8:
        return None
    spent = [b - a for a, b in zip(before, after)]
    return f"{100 * spent[7] / max(1, sum(spent[:8])):.0f}%"


def _phases(report) -> str:
    return " ".join(f"{name} {seconds:.3f}" for name, seconds in report.phases.items())


def _write(path: Path, data: bytes) -> None:
    """Save as editors do: a temporary file renamed over the old one."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _tables(lines: list[str]) -> dict[str, list[int]]:
    """Table number → the indexes of its lines (after the header)."""
    tables: dict[str, list[int]] = {}
    for index, line in enumerate(lines[1:], start=1):
        tables.setdefault(line.split(",")[0], []).append(index)
    return tables


def _swap_table(text: str, table: int) -> str:
    """That table's winner and loser trade results (the correction of a mis-entered result)."""
    lines = text.splitlines()
    rows = _tables(lines)[str(table)]
    first, second = (lines[i].split(",") for i in rows)
    first[2], second[2] = second[2], first[2]
    lines[rows[0]], lines[rows[1]] = ",".join(first), ",".join(second)
    return "\n".join(lines) + "\n"


def _variant(text: str, run: int) -> str:
    """The round with other results, different for every run: each game's winner and whether
    the win was modified are drawn from the run's seed, except in the first two games, where they
    are the run number's base-4 digits (so even a two-game round gets 16 distinct variants)."""
    lines = text.splitlines()
    rng = random.Random(run)
    games = [rows for rows in _tables(lines).values() if len(rows) == 2]
    for position, rows in enumerate(games):
        choice = (run >> (2 * position)) & 3 if position < 2 else rng.randrange(4)
        winner, loser = rows if choice & 1 == 0 else reversed(rows)
        for index, result in ((winner, "modified-win" if choice & 2 else "win"), (loser, "loss")):
            cells = lines[index].split(",")
            cells[2] = result
            lines[index] = ",".join(cells)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
