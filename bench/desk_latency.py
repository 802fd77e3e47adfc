"""How long from a result entered at the desk to the public page showing it.

Runs a real `site-builder desk` on a scratch league holding a 10-player Conquest event (and,
with --archive DIR, every event of that archive beside it), forms each round at the desk and
enters each table's result with one click, then polls the public round page the desk serves
until that table no longer says "playing". Prints each round's times and the median and worst.

    python bench/desk_latency.py                       # the event alone
    python bench/desk_latency.py --archive /tmp/arch   # beside the 1,000-event bench archive
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests" / "desk"), str(HERE.parent / "tests")]
from deskrun import NAMES, csrf_of, fingerprint_of, league, seats_of, start_desk  # noqa: E402

SLUG = "2026-11-26-desk-night"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--archive", type=Path, help="a site whose data/events to add")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="desk-latency-"))
    if args.archive:
        shutil.copytree(args.archive / "data", root / "data")
        if (args.archive / "site.toml").exists():
            shutil.copy(args.archive / "site.toml", root / "site.toml")
    league(root, SLUG, 'name = "Desk Night"\ndate = 2026-11-26\ngame = "conquest"\n', NAMES[:10])
    started = time.perf_counter()
    desk = start_desk(root, timeout=600)
    print(f"desk ready in {time.perf_counter() - started:.1f}s "
          f"({len(list((root / 'data' / 'events').iterdir()))} events)")
    times = []
    client, public = desk.client(), httpx.Client(base_url=desk.origin, timeout=30)
    try:
        page = client.get(f"/_desk/e/{SLUG}").text
        for number in range(1, args.rounds + 1):
            page = client.post(f"/_desk/e/{SLUG}/next", data={
                "csrf": csrf_of(page), "round": str(number - 1)}).text
            url = f"/events/{SLUG}/round-{number}/"
            _wait(lambda: public.get(url).status_code == 200)
            for table, seats in seats_of(root / "data" / "events" / SLUG /
                                         f"round-{number}.csv").items():
                playing = public.get(url).text.count(">playing<")
                clicked = time.perf_counter()
                page = client.post(f"/_desk/e/{SLUG}/table", data={
                    "csrf": csrf_of(page), "round": str(number), "table": table,
                    "fp": fingerprint_of(page, table), "quick": "0:0"}).text
                _wait(lambda: public.get(url).text.count(">playing<") <= playing - 2)
                times.append(time.perf_counter() - clicked)
            print(f"round {number}: " + " ".join(f"{t * 1000:.0f}" for t in times[-5:]) + " ms")
    finally:
        client.close()
        public.close()
        desk.stop()
        shutil.rmtree(root, ignore_errors=True)
    print(f"result entered → public page shows it: median {statistics.median(times) * 1000:.0f} ms,"
          f" worst {max(times) * 1000:.0f} ms over {len(times)} results")


def _wait(ready, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit("the page did not change in time")
        time.sleep(0.01)


if __name__ == "__main__":
    main()
