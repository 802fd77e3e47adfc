"""The site the desk serves, while builds replace its pages: phones poll the public round page
while the desk rebuilds it, and every answer must be one whole version of the page, its
Content-Length its size (found by bench/desk_latency.py beside a 1,000-event archive: a page
replaced between the server's stat and its read came cut short, and the phone dropped it)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from deskrun import league, start_desk

pytestmark = pytest.mark.slow

SLUG = "2026-11-26-preview-night"
CONQUEST = 'name = "Preview Night"\ndate = 2026-11-26\ngame = "conquest"\n'


def test_a_page_replaced_while_it_is_served_is_always_sent_whole(tmp_path):
    league(tmp_path, SLUG, CONQUEST, ["Ann", "Bob", "Cid", "Dee"])
    desk = start_desk(tmp_path)
    try:
        page = tmp_path / "_site" / "events" / SLUG / "index.html"
        assert page.is_file()
        # Versions of different sizes, swapped in by a rename as a build does.
        versions = [page.read_bytes() + b"<!--" + b"x" * (n * 997) + b"-->" for n in range(1, 5)]
        stop = threading.Event()

        def rebuild() -> None:
            n = 0
            while not stop.is_set():
                temporary = page.with_name(".index.html.tmp")
                temporary.write_bytes(versions[n % len(versions)])
                os.replace(temporary, page)
                n += 1

        writer = threading.Thread(target=rebuild)
        writer.start()
        client = desk.client(organizer=False)

        def fetch(_: int) -> tuple[int, int, bytes]:
            response = client.get(f"/events/{SLUG}/")  # httpx refuses a body of another length
            return response.status_code, int(response.headers["content-length"]), response.content

        try:
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(fetch, range(400)))
        finally:
            stop.set()
            writer.join()
            client.close()
        assert {status for status, _, _ in answers} == {200}
        assert all(length == len(body) for _, length, body in answers)
        assert {body for _, _, body in answers} <= set(versions)
    finally:
        desk.kill()
