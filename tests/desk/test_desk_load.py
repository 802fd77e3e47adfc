"""Many phones at once: a 200-player Conquest event, round 1 formed at the desk, and every seat
of its 100 tables reporting the agreed result at the same moment from its own client. The desk
ends with the round file an organizer would have typed, each table's result saved once.

The figures (seconds, reports per second, latency, 429 retries) are printed: run with -s to
see them."""

from __future__ import annotations

import json
import shutil
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from deskrun import csrf_of, fingerprint_of, league, seats_of, start_desk
from site_builder.desk.codes import Secrets

pytestmark = pytest.mark.slow

SLUG = "2026-11-26-big-night"
CONQUEST = 'name = "Big Night"\ndate = 2026-11-26\ngame = "conquest"\n'
PLAYERS = [f"Player {n:03d}" for n in range(1, 201)]
WORKERS = 64


def typed_by_hand(round_file: Path) -> bytes:
    """The round file as an organizer types the same results into it, line by line, in order:
    `table,player,` becomes `table,player,win` for the table's first-listed seat, else `loss`."""
    seats = seats_of(round_file)
    lines = round_file.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines[1:], start=1):
        table, _, rest = line.partition(",")
        if table and line.endswith(","):
            lines[i] = line + ("win" if seats[table][0] == rest[:-1] else "loss")
    return "\n".join(lines).encode("utf-8")


def journal_records(folder: Path) -> list[dict]:
    path = folder / ".desk-journal.jsonl"
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    return records


def test_two_hundred_phones_report_a_hundred_tables_at_once(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, PLAYERS)
    desk = start_desk(tmp_path)
    organizer = None
    phones: list[httpx.Client] = []
    try:
        organizer = desk.client()
        page = organizer.get(f"/_desk/e/{SLUG}").text
        answer = organizer.post(f"/_desk/e/{SLUG}/next", data={"csrf": csrf_of(page),
                                                               "round": "0"})
        assert answer.status_code == 200 and "Round 1 is formed: 100 tables" in answer.text
        answer = organizer.post(f"/_desk/e/{SLUG}/phones", data={"csrf": csrf_of(answer.text),
                                                                 "on": "1"})
        assert answer.status_code == 200 and "Reports from phones are on" in answer.text
        round_file = folder / "round-1.csv"
        expected = typed_by_hand(round_file)
        tables = seats_of(round_file)
        assert len(tables) == 100 and all(len(seats) == 2 for seats in tables.values())

        secrets = Secrets.of_site(tmp_path)[0]
        seats = [(table, index, player) for table, players in tables.items()
                 for index, player in enumerate(players)]
        assert len(seats) == 200
        phones = [httpx.Client(base_url=desk.origin, timeout=60) for _ in range(WORKERS)]
        local = threading.local()
        lock = threading.Lock()
        latencies: list[float] = []
        statuses: list[int] = []
        retries = 0
        notes: list[str] = []
        pool_ids = iter(range(WORKERS))

        def client() -> httpx.Client:
            if not hasattr(local, "client"):
                with lock:
                    local.client = phones[next(pool_ids)]
            return local.client

        def timed(method, url, **kwargs) -> httpx.Response:
            start = time.perf_counter()
            response = method(url, **kwargs)
            with lock:
                latencies.append(time.perf_counter() - start)
                statuses.append(response.status_code)
            return response

        def report(seat: tuple[str, int, str]) -> None:
            nonlocal retries
            table, index, player = seat
            phone = client()
            code = secrets.seat(SLUG, 1, table, player)
            url = f"/_desk/p/{SLUG}/1/{table}/{index}/{code}"
            opened = timed(phone.get, url)
            assert opened.status_code == 200, opened.text
            form = {"csrf": csrf_of(opened.text), "round": "1", "table": table,
                    "fp": fingerprint_of(opened.text, table), "quick": "0:0"}
            while True:
                sent = timed(phone.post, url, data=form)
                if sent.status_code != 429:
                    break
                with lock:
                    retries += 1
                time.sleep(float(sent.headers.get("retry-after", "1")))
            assert sent.status_code == 303, sent.text
            shown = timed(phone.get, sent.headers["location"])
            assert shown.status_code == 200
            with lock:
                notes.append(shown.text)

        started = time.perf_counter()
        with ThreadPoolExecutor(WORKERS) as pool:
            for future in [pool.submit(report, seat) for seat in seats]:
                future.result()
        seconds = time.perf_counter() - started

        assert not [s for s in statuses if s >= 500]
        assert round_file.read_bytes() == expected
        results = [r for r in journal_records(folder) if r.get("kind") == "result"]
        assert len(results) == 100 and all(r["by"] == "phones" for r in results)
        assert sorted(r["table"] for r in results) == sorted(tables)  # each table once
        assert sum("it is saved" in n for n in notes) == 100
        assert sum("Your report is in" in n for n in notes) == 100

        posts = sorted(latencies)
        print(f"\n[desk load] 200 reports (100 tables, {WORKERS} clients): {seconds:.2f} s, "
              f"{200 / seconds:.1f} reports/s; {len(latencies)} requests, median "
              f"{statistics.median(posts) * 1000:.0f} ms, 95th percentile "
              f"{posts[int(len(posts) * 0.95) - 1] * 1000:.0f} ms; 429 retries: {retries}")
    finally:
        for phone in phones:
            phone.close()
        if organizer is not None:
            organizer.close()
        desk.stop()
