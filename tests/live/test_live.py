"""`site-builder serve` as an organizer uses it: the real command in a subprocess, a page open in
headless Chromium, data changed on disk behind it."""

from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import sys
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from conftest import Running, conquest_event, write_files

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # real servers on 127.0.0.1, with deadlines waited out
EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"


class Served(Running):
    """`python -m site_builder serve` on a free port."""

    def __init__(self, source, out, base_url: str | None = "/league/"):
        super().__init__("serve", "--source", source, "--out", out, "--port", "0",
                         *(["--base-url", base_url] if base_url else []))
        line = self.wait_for(r"^Serving .* at (http://\S+)")
        self.url = re.search(r"(http://\S+)", line).group(1)


@pytest.fixture
def served(tmp_path):
    write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(name="Cup", structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": ROUND_1,
    })
    server = Served(tmp_path / "site", tmp_path / "out")
    server.source = tmp_path / "site"
    yield server
    if server.process.poll() is None:
        server.stop()


def test_the_page_reloads_itself_with_the_new_result(served, page: Page):
    page.goto(served.url + "events/2024-05-18-cup/round-1/")
    winners = page.locator("table.pairings tr.winner a")
    expect(winners).to_have_text(["Ada", "Cleo"])
    (served.source / EV / "round-1.csv").write_text(ROUND_1.replace("1,Ada,win\n1,Bram,loss",
                                                                    "1,Ada,loss\n1,Bram,win"))
    expect(winners).to_have_text(["Bram", "Cleo"], timeout=10_000)
    served.wait_for(r"round-1\.csv: \d+ pages rendered")


def test_a_broken_file_shows_an_overlay_until_it_is_fixed(served, page: Page):
    page.goto(served.url + "events/2024-05-18-cup/")
    overlay = page.locator("#site-builder-problems")
    expect(overlay).to_have_count(0)
    (served.source / EV / "round-1.csv").write_text(ROUND_1.replace("2,Cleo,win", "2,Cleo,wn"))
    expect(overlay).to_be_visible(timeout=10_000)
    expect(overlay).to_contain_text(f"{EV}/round-1.csv:4: result 'wn' is not a Conquest result")
    assert served.wait_for(r"round-1\.csv:4: result 'wn'")
    expect(page.locator("h1")).to_have_text("Cup")  # the last good page is still there
    # The fix changes this page (Cleo's points), so it clears the overlay and reloads itself;
    # going elsewhere before that reload is done would race it.
    with page.expect_navigation(timeout=10_000):
        (served.source / EV / "round-1.csv").write_text(ROUND_1.replace("2,Cleo,win", "2,Cleo,mw"))
    expect(overlay).to_have_count(0)
    page.goto(served.url + "events/2024-05-18-cup/round-1/")
    expect(page.locator("table.pairings")).to_contain_text("Modified win")


def test_pages_on_disk_carry_no_reload_script(served):
    html = (served.source.parent / "out" / "events/2024-05-18-cup/index.html").read_text()
    assert "__live" not in html


def test_ctrl_c_stops_cleanly(served):
    assert served.stop() == 130
    time.sleep(0.2)
    assert served.lines[-1] == "stopped"
    assert not any("Traceback" in line for line in served.lines)


TGKILL = getattr(ctypes.CDLL(None), "tgkill", None) if sys.platform.startswith("linux") else None
"""Sends a signal to one thread of a process (Linux, C library 2.30 or later)."""


@pytest.mark.skipif(TGKILL is None, reason="needs Linux's tgkill to pick the thread")
def test_ctrl_c_handed_to_another_thread_still_stops(served):
    """The system may deliver Ctrl-C to any thread of the process (it hung CI's teardown once,
    with the main thread asleep in a wait that nothing ended). Deliver it to a thread other
    than the main one: it must stop the command."""
    pid = served.process.pid
    others = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid)
    assert others  # the watcher's and the server's threads
    assert TGKILL(pid, others[-1], signal.SIGINT) == 0
    assert served.process.wait(timeout=10) == 130
    served.finish()
    assert served.lines[-1] == "stopped"


def test_kill_stops_as_cleanly_as_ctrl_c(served):
    served.process.terminate()  # SIGTERM
    assert served.process.wait(timeout=10) == 130
    served.finish()
    assert served.lines[-1] == "stopped"


def test_a_write_failure_is_a_message_and_the_next_change_catches_up(served):
    out = served.source.parent / "out"
    new = "2024-06-01-open"
    (out / "events" / new).write_text("in the way")  # a file where the new event's folder goes
    write_files(served.source, {
        f"data/events/{new}/event.toml": conquest_event(name="Open", structure="custom",
                                                        swiss_rounds=2, cut=0),
        f"data/events/{new}/round-1.csv": ROUND_1,
    })
    served.wait_for(r"could not write the site: .*2024-06-01-open.* next change writes everything")
    assert (out / "events" / new).read_text() == "in the way"
    (out / "events" / new).unlink()
    (served.source / EV / "round-2.csv").write_text(
        "table,player,result\n1,Ada,win\n1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n")
    served.wait_for(r"round-2\.csv: \d+ pages rendered")
    assert "Open" in (out / "events" / new / "index.html").read_text()
    assert served.process.poll() is None  # still serving


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_an_edited_base_url_moves_the_served_site(served):
    assert _status(served.url) == 200
    # --base-url on the command line wins over site.toml: this test's server has none of it.
    served.process.send_signal(signal.SIGINT)
    served.process.wait(timeout=10)
    served.finish()
    (served.source / "site.toml").write_text('base_url = "/league/"\n')
    server = Served(served.source, served.source.parent / "out", base_url=None)
    try:
        assert _status(server.url) == 200 and server.url.endswith("/league/")
        origin = server.url.removesuffix("/league/")
        since = server.mark()
        (served.source / "site.toml").write_text('base_url = "/cup-2024/"\n')
        server.wait_for(r"base_url changed: now serving at http://127\.0\.0\.1:\d+/cup-2024/",
                        since=since)
        assert _status(origin + "/cup-2024/events/2024-05-18-cup/") == 200
        assert _status(origin + "/league/events/2024-05-18-cup/") == 404
    finally:
        assert server.stop() == 130


def test_a_first_build_with_errors_serves_a_page_that_says_so(tmp_path):
    source = write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(name="Cup", structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": ROUND_1.replace("2,Cleo,win", "2,Cleo,wn"),
    })
    server = Served(source, tmp_path / "out")
    try:
        line = server.wait_for(r"errors?, nothing of it applied")
        assert "nothing is published until they are fixed" in line
        assert "last good site" not in "\n".join(server.lines)
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(server.url, timeout=10)
        assert answer.value.code == 503 and b"No site yet" in answer.value.read()
        since = server.mark()
        (source / EV / "round-1.csv").write_text(ROUND_1)
        server.wait_for(r"round-1\.csv: \d+ pages rendered", since=since)
        assert _status(server.url + "events/2024-05-18-cup/") == 200
    finally:
        assert server.stop() == 130


def _first_live_message(url: str) -> dict:
    """The state the overlay shows: the first server-sent message of /__live/events."""
    with urllib.request.urlopen(url + "__live/events", timeout=10) as stream:
        for line in stream:
            if line.startswith(b"data: "):
                return json.loads(line[6:])
    raise AssertionError("no message")


def test_a_template_that_raises_is_in_the_overlay_and_serving_goes_on(served):
    template = served.source / "themes/default/templates/404.html"
    template.parent.mkdir(parents=True)
    since = served.mark()
    template.write_text('{% extends "base.html" %}{% block main %}{{ 1 // 0 }}{% endblock %}')
    served.wait_for(r"nothing of it applied", since=since)
    errors = _first_live_message(served.url)["errors"]
    assert len(errors) == 1 and "404.html:1: ZeroDivisionError" in errors[0]
    since = served.mark()
    template.write_text('{% extends "base.html" %}{% block main %}<h1>Lost</h1>{% endblock %}')
    served.wait_for(r"404\.html: \d+ pages? rendered", since=since)
    assert _first_live_message(served.url)["errors"] == []
