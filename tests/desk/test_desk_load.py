"""Many phones at once: a 200-player Conquest event, round 1 formed at the desk, and every seat
of its 100 tables reporting the agreed result at the same moment from its own client. The desk
ends with the round file an organizer would have typed, each table's result saved once.

The figures (seconds, reports per second, latency, 429 retries) are printed, with or without
-s."""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import statistics
import threading
import time
from collections import Counter
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
SAVED = "Every player sent the same result: it is saved. Thank you!"
WAITING = ("Your report is in. The table's result is saved when every player has sent the same; "
           "the organizer sees any difference.")


def type_by_hand(round_file: Path) -> None:
    """What an organizer types into (a copy of) the round file, table after table:
    `table,player,` becomes `table,player,win` for the table's first-listed seat, else `loss`."""
    seats = seats_of(round_file)
    lines = round_file.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines[1:], start=1):
        table, _, rest = line.partition(",")
        if table and line.endswith(","):
            lines[i] = line + ("win" if seats[table][0] == rest[:-1] else "loss")
            round_file.write_text("\n".join(lines), encoding="utf-8")


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[max(0, math.ceil(len(ordered) * 0.95) - 1)]
    return f"median {statistics.median(ordered) * 1000:.0f} ms, 95th percentile {p95 * 1000:.0f} ms"


def journal_records(folder: Path) -> list[dict]:
    path = folder / ".desk-journal.jsonl"
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    return records


def test_two_hundred_phones_report_a_hundred_tables_at_once(tmp_path, capsys):
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
        by_hand = tmp_path / "by-hand" / round_file.name
        by_hand.parent.mkdir()
        shutil.copyfile(round_file, by_hand)
        type_by_hand(by_hand)
        tables = seats_of(round_file)
        assert len(tables) == 100 and all(len(seats) == 2 for seats in tables.values())

        secrets = Secrets.of_site(tmp_path)[0]
        seats = [(table, index, player) for table, players in tables.items()
                 for index, player in enumerate(players)]
        assert len(seats) == 200
        phones = [httpx.Client(base_url=desk.origin, timeout=60) for _ in range(WORKERS)]
        local = threading.local()
        lock = threading.Lock()
        posts: list[float] = []
        gets: list[float] = []
        statuses: list[int] = []
        retries = 0
        notes: list[str] = []
        pool_ids = iter(range(WORKERS))

        def client() -> httpx.Client:
            if not hasattr(local, "client"):
                with lock:
                    local.client = phones[next(pool_ids)]
            return local.client

        def timed(phone: httpx.Client, method: str, url: str, **kwargs) -> httpx.Response:
            start = time.perf_counter()
            response = phone.request(method, url, **kwargs)
            with lock:
                (posts if method == "POST" else gets).append(time.perf_counter() - start)
                statuses.append(response.status_code)
            return response

        def report(seat: tuple[str, int, str]) -> None:
            nonlocal retries
            table, index, player = seat
            phone = client()
            code = secrets.seat(SLUG, 1, table, player)
            url = f"/_desk/p/{SLUG}/1/{table}/{index}/{code}"
            opened = timed(phone, "GET", url)
            assert opened.status_code == 200, opened.text
            form = {"csrf": csrf_of(opened.text), "round": "1", "table": table,
                    "fp": fingerprint_of(opened.text, table), "quick": "0:0"}
            while True:
                sent = timed(phone, "POST", url, data=form)
                if sent.status_code != 429:
                    break
                with lock:
                    retries += 1
                time.sleep(float(sent.headers.get("retry-after", "1")))
            assert sent.status_code == 303, sent.text
            shown = timed(phone, "GET", sent.headers["location"])
            assert shown.status_code == 200
            note = re.search(r'<p class="saved" role="status">(.*?)</p>', shown.text)[1]
            with lock:
                notes.append(html.unescape(note))

        started = time.perf_counter()
        with ThreadPoolExecutor(WORKERS) as pool:
            for future in [pool.submit(report, seat) for seat in seats]:
                future.result()
        seconds = time.perf_counter() - started

        assert not [s for s in statuses if s >= 500]
        assert round_file.read_bytes() == by_hand.read_bytes()
        results = [r for r in journal_records(folder) if r.get("kind") == "result"]
        assert len(results) == 100 and all(r["by"] == "phones" for r in results)
        assert sorted(r["table"] for r in results) == sorted(tables)  # each table once
        # one seat of each table hears its report is in, the other that the result is saved
        assert sorted(set(notes)) == [SAVED, WAITING]
        assert notes.count(SAVED) == notes.count(WAITING) == 100

        with capsys.disabled():  # shown with or without -s
            print(f"\n[desk load] 200 reports (100 tables, {WORKERS} clients at once): "
                  f"{seconds:.2f} s, {200 / seconds:.1f} reports/s; the report POSTs "
                  f"({len(posts)}): {figures(posts)}; the page GETs ({len(gets)}): "
                  f"{figures(gets)}; 429 retries: {retries}; "
                  f"statuses: {dict(sorted(Counter(statuses).items()))}")
    finally:
        for phone in phones:
            phone.close()
        if organizer is not None:
            organizer.close()
        desk.stop()
