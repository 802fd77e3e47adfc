"""The desk in real headless Chromium: the organizer runs a round at a laptop (1280 px), players
report from phones (390 px), the wall on a projector keeps itself current, and the pages pass
axe. The screenshots in docs/images/desk-*.png are taken here. The desk is a real
`site-builder desk` process (deskrun.start_desk), each test its own scratch league."""

from __future__ import annotations

import csv
import io
import os
import re
from contextlib import ExitStack
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from deskrun import NAMES, csrf_of, fingerprint_of, league, seats_of, start_desk
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser

CONQUEST = 'name = "Desk Night"\ndate = 2026-11-26\ngame = "conquest"\n'
SLUG = "2026-11-26-desk-night"
EVENT = f"/_desk/e/{SLUG}"
DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WALL = {"width": 1280, "height": 720}
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
"""Where `make screenshots` (SITE_BUILDER_SCREENSHOTS=1) puts them for the docs; otherwise they
are taken into a scratch folder, so a test run leaves the repository as it was (the slips' QR
codes differ at every run)."""


# ------------------------------------------------------------------ helpers


def results_of(round_file: Path) -> dict[tuple[str, str], str]:
    """(table, player) → the result column, from a round file."""
    rows = csv.DictReader(io.StringIO(round_file.read_text(encoding="utf-8")))
    return {(row["table"], row["player"]): row["result"] for row in rows}


def typed(text: str, results: dict[str, tuple[int, bool]]) -> str:
    """A round file's text as an organizer would type the results into it: table → (winning
    seat, modified win), each empty result of those tables filled in, every other line as it
    is."""
    seats: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        seats.setdefault(row["table"], []).append(row["player"])
    lines = text.split("\n")
    for i, line in enumerate(lines[1:], start=1):
        table, _, rest = line.partition(",")
        if table not in results or not line.endswith(","):
            continue
        winner, modified = results[table]
        won = seats[table].index(rest[:-1]) == winner
        lines[i] = line + ("loss" if not won else "modified-win" if modified else "win")
    return "\n".join(lines)


def organizer(browser: Browser, desk, viewport=DESK,
              color_scheme="light") -> tuple[BrowserContext, Page]:
    """A browser context logged in at the desk (the link the desk printed), on the event."""
    context = browser.new_context(viewport=viewport, color_scheme=color_scheme)
    page = context.new_page()
    page.goto(desk.login)
    expect(page).to_have_url(desk.origin + "/_desk/")
    page.get_by_role("link", name="Desk Night").click()
    expect(page).to_have_url(desk.origin + EVENT)
    return context, page


def seat_links(page: Page, desk) -> dict[tuple[str, int], str]:
    """(table, seat index) → the seat's report URL, read from the slips page's seat links."""
    page.goto(desk.origin + f"{EVENT}/slips")
    links = {}
    for href in page.locator("a.seat-link").evaluate_all("links => links.map(a => a.href)"):
        m = re.search(rf"/_desk/p/{SLUG}/\d+/(\w+)/(\d+)/\w+$", href)
        assert m, href
        links[(m[1], int(m[2]))] = href
    assert links, "the slips page has no seat links"
    return links


def http_save(client, table: str, quick: str) -> None:
    """A table's result entered at the desk over HTTP (another organizer's laptop)."""
    page = client.get(EVENT).text
    answer = client.post(f"{EVENT}/table", data={
        "csrf": csrf_of(page), "round": "1", "table": table,
        "fp": fingerprint_of(page, table), "quick": quick})
    assert answer.status_code == 200, answer.text


def http_form_round_1(client) -> None:
    page = client.get(EVENT).text
    answer = client.post(f"{EVENT}/next", data={"csrf": csrf_of(page), "round": "0"})
    assert answer.status_code == 200 and "Round 1 is formed" in answer.text, answer.text


def http_phones_on(client) -> None:
    page = client.get(EVENT).text
    assert client.post(f"{EVENT}/phones", data={"csrf": csrf_of(page), "on": "1"}).status_code == 200


def serious(results) -> list[str]:
    """axe's critical and serious violations, one line each (rule, impact, where)."""
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"])
            for v in results.response["violations"] if v["impact"] in ("critical", "serious")]


@pytest.fixture
def desk(tmp_path):
    league(tmp_path, SLUG, CONQUEST, NAMES[:10])
    running = start_desk(tmp_path)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def contexts(desk):
    """Browser contexts the test opens, closed before the desk stops (an open wall holds a
    stream to it)."""
    with ExitStack() as stack:
        yield stack


# ------------------------------------------------------------------ 1. a round at the desk


def test_an_organizer_runs_a_round_of_ten_players_in_six_clicks(browser, desk, contexts):
    context, page = organizer(browser, desk)
    contexts.callback(context.close)
    clicks = 0

    def click(locator) -> None:
        nonlocal clicks
        locator.click()
        clicks += 1

    click(page.get_by_role("button", name="Form round 1"))
    expect(page.locator("p.saved")).to_contain_text("Round 1 is formed: 5 tables.")
    expect(page.locator("span.to-go")).to_have_text("5 tables to go")
    round_file = desk.source / "data" / "events" / SLUG / "round-1.csv"
    tables = seats_of(round_file)
    assert list(tables) == ["1", "2", "3", "4", "5"]
    formed = round_file.read_text(encoding="utf-8")
    expect(page.locator("details.desk-table.waiting")).to_have_count(5)

    # Table n: seat n % 2 wins; at table 3 it is a modified win.
    results = {table: (int(table) % 2, table == "3") for table in tables}
    for left, (table, (winner, modified)) in enumerate(results.items(), start=1):
        left = len(tables) - left
        label = f"{tables[table][winner]} {'modified win' if modified else 'wins'}"
        click(page.locator(f"details#t{table}").get_by_role("button", name=label, exact=True))
        expect(page.locator(f"details#t{table}")).to_have_class(re.compile(r"\bdone\b"))
        expect(page.locator(f"details#t{table} .tick")).to_have_text("✓")
        if left:
            expect(page.locator("span.to-go")).to_have_text(
                f"{left} table{'s' if left != 1 else ''} to go")
            expect(page.locator("p.saved")).to_have_text(
                f"Table {table} saved. {left} table{'s' if left != 1 else ''} to go.")
    expect(page.locator("span.all-in")).to_have_text("every result is in")
    expect(page.locator("span.to-go")).to_have_count(0)
    expect(page.get_by_role("button", name="Form round 2")).to_be_visible()

    # The file is the one pair wrote, each result filled in, nothing else changed.
    assert round_file.read_text(encoding="utf-8") == typed(formed, results)
    got = results_of(round_file)
    for table, (winner, modified) in results.items():
        for seat, player in enumerate(tables[table]):
            want = "loss" if seat != winner else "modified-win" if modified else "win"
            assert got[(table, player)] == want, (table, player)
    assert len(got) == 10
    assert clicks == 1 + 5  # one forms the round, one per table enters its result


# ------------------------------------------------------------------ 2. phones


def test_two_phones_report_a_table_and_the_organizer_settles_a_difference(browser, desk, contexts):
    context, desk_page = organizer(browser, desk)
    contexts.callback(context.close)
    desk_page.get_by_role("button", name="Turn on").click()
    expect(desk_page.locator("p.saved")).to_have_text("Reports from phones are on.")
    desk_page.get_by_role("button", name="Form round 1").click()
    expect(desk_page.locator("span.to-go")).to_have_text("5 tables to go")
    round_file = desk.source / "data" / "events" / SLUG / "round-1.csv"
    tables = seats_of(round_file)
    formed = round_file.read_text(encoding="utf-8")
    links = seat_links(desk_page, desk)
    assert sorted(links) == [(t, s) for t in "12345" for s in (0, 1)]

    phones = []
    for _ in range(2):
        phone_context = browser.new_context(viewport=PHONE)
        contexts.callback(phone_context.close)
        phones.append(phone_context.new_page())
    first, second = phones

    # (a) Table 1: both send "<seat 0> wins": the second send saves the table.
    ada, bram = tables["1"]
    first.goto(links[("1", 0)])
    expect(first.locator("h1")).to_have_text("Table 1")
    expect(first.get_by_text("You are")).to_contain_text(f"You are {ada}, playing {bram}.")
    first.get_by_role("button", name=f"{ada} wins", exact=True).click()
    expect(first.locator("p.saved[role=status]")).to_contain_text("Your report is in.")
    assert results_of(round_file)[("1", ada)] == ""  # one seat's word is not enough
    second.goto(links[("1", 1)])
    expect(second.get_by_text("You are")).to_contain_text(f"You are {bram}, playing {ada}.")
    expect(second.locator("section.others")).to_contain_text(f"{ada}: {ada} win; {bram} loss")
    second.get_by_role("button", name=f"{ada} wins", exact=True).click()
    expect(second.locator("p.saved[role=status]")).to_have_text(
        "Every player sent the same result: it is saved. Thank you!")
    assert {k: v for k, v in results_of(round_file).items() if k[0] == "1"} == {
        ("1", ada): "win", ("1", bram): "loss"}
    first.reload()
    expect(first.get_by_text("This table's result is in.")).to_be_visible()
    expect(first.get_by_role("button", name="Send")).to_have_count(0)

    # (b) Table 2: each claims the win: nothing is written, each sees the other's report.
    cleo, dmitri = tables["2"]
    first.goto(links[("2", 0)])
    first.get_by_role("button", name=f"{cleo} wins", exact=True).click()
    expect(first.locator("p.saved[role=status]")).to_contain_text("Your report is in.")
    second.goto(links[("2", 1)])
    second.get_by_role("button", name=f"{dmitri} wins", exact=True).click()
    expect(second.locator("p.saved[role=status]")).to_contain_text(
        "the organizer sees any difference")
    before = round_file.read_text(encoding="utf-8")
    assert {k: v for k, v in results_of(round_file).items() if k[0] == "2"} == {
        ("2", cleo): "", ("2", dmitri): ""}
    expect(second.locator("section.others")).to_contain_text(f"{cleo}: {cleo} win; {dmitri} loss")
    expect(second.locator("section.others")).to_contain_text(f"You: {cleo} loss; {dmitri} win")
    first.reload()
    expect(first.locator("section.others")).to_contain_text(f"{dmitri}: {cleo} loss; {dmitri} win")
    expect(first.locator("section.others")).to_contain_text(f"You: {cleo} win; {dmitri} loss")

    desk_page.goto(desk.origin + EVENT)
    phones_section = desk_page.locator("#phones")
    expect(phones_section.get_by_role("heading", name="Waiting for you")).to_be_visible()
    waiting = phones_section.locator("ul.queue > li")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Table 2")
    expect(waiting).to_contain_text("the reports differ; 2 of 2 sent.")
    assert round_file.read_text(encoding="utf-8") == before
    waiting.locator("li", has_text=f"{dmitri} says:").get_by_role("button", name="Accept this").click()
    expect(desk_page.locator("p.saved")).to_have_text("Table 2's report accepted.")
    expect(desk_page.locator("#phones ul.queue")).to_have_count(0)
    expect(desk_page.locator("span.to-go")).to_have_text("3 tables to go")
    assert {k: v for k, v in results_of(round_file).items() if k[0] == "2"} == {
        ("2", cleo): "loss", ("2", dmitri): "win"}
    assert round_file.read_text(encoding="utf-8") == typed(formed, {"1": (0, False),
                                                                    "2": (1, False)})


# ------------------------------------------------------------------ 3. the wall

SSE_PROBE = """(() => {
  const Original = window.EventSource;
  window.sseMessages = 0;
  window.EventSource = function (url, init) {
    const source = new Original(url, init);
    source.addEventListener("message", () => { window.sseMessages += 1; });
    return source;
  };
  window.EventSource.prototype = Original.prototype;
})();"""
"""Counts the wall's server-sent events, so a test acts only once the wall listens."""


def test_the_wall_updates_itself_without_a_reload(browser, desk, contexts):
    context = browser.new_context(viewport=WALL)
    contexts.callback(context.close)
    context.add_init_script(SSE_PROBE)
    wall = context.new_page()
    client = desk.client()
    contexts.callback(client.close)
    wall.goto(desk.origin + f"/_desk/wall/{SLUG}")
    expect(wall.locator("#wall .empty")).to_contain_text("No round yet")
    wall.wait_for_function("window.sseMessages >= 1")  # the stream's hello: it listens
    wall.evaluate("window.marker = 1")

    http_form_round_1(client)  # round 1 appears on the wall
    items = wall.locator("#wall ol.wall-tables > li")
    expect(items).to_have_count(5)
    expect(wall.locator("#wall .to-go")).to_have_text("5 tables to go")
    expect(wall.locator("#wall .timer .clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(wall.locator("#wall")).to_have_attribute("data-updated", re.compile(r"^\d+$"))
    updated = wall.locator("#wall").get_attribute("data-updated")
    expect(wall.locator("#wall li.done")).to_have_count(0)

    tables = seats_of(desk.source / "data" / "events" / SLUG / "round-1.csv")
    http_save(client, "3", "0:0")
    table_3 = items.nth(2)
    expect(table_3).to_have_class(re.compile(r"\bdone\b"))
    expect(table_3.locator(".tick")).to_have_text("✓")
    expect(table_3.locator(".names")).to_have_text(" – ".join(tables["3"]))
    expect(wall.locator("#wall .to-go")).to_have_text("4 tables to go")
    expect(wall.locator("#wall li.done")).to_have_count(1)
    assert wall.locator("#wall").get_attribute("data-updated") != updated

    assert wall.evaluate("window.marker") == 1  # the same page all along: never reloaded
    assert wall.url == desk.origin + f"/_desk/wall/{SLUG}"


def test_a_result_saved_while_the_wall_connects_shows_on_it(browser, desk, contexts):
    context = browser.new_context(viewport=WALL)
    contexts.callback(context.close)
    context.add_init_script(SSE_PROBE)
    client = desk.client()
    contexts.callback(client.close)
    http_form_round_1(client)
    wall = context.new_page()
    held = []  # the wall's stream, held back until the result is saved
    wall.route("**/_desk/stream", lambda route: held.append(route))
    wall.goto(desk.origin + f"/_desk/wall/{SLUG}")
    items = wall.locator("#wall ol.wall-tables > li")
    expect(items).to_have_count(5)
    for _ in range(200):
        if held:
            break
        wall.wait_for_timeout(25)
    assert held, "the wall never opened its stream"
    http_save(client, "3", "0:0")  # a phone's report, a moment after the wall was drawn
    held[0].continue_()
    wall.wait_for_function("window.sseMessages >= 1")  # the wall listens now
    expect(items.nth(2)).to_have_class(re.compile(r"\bdone\b"), timeout=5000)
    expect(wall.locator("#wall .to-go")).to_have_text("4 tables to go")


# ------------------------------------------------------------------ a round in the middle


@pytest.fixture(scope="module")
def mid_round(tmp_path_factory):
    """A desk mid-round, for the screenshots and axe: phones on, round 1 formed, tables 1 and
    2 in, table 3's players disagreeing (the organizer's queue), tables 4 and 5 playing."""
    root = tmp_path_factory.mktemp("mid-round")
    league(root, SLUG, CONQUEST, NAMES[:10])
    running = start_desk(root)
    client = None
    try:
        client = running.client()
        http_phones_on(client)
        http_form_round_1(client)
        http_save(client, "1", "0:0")
        http_save(client, "2", "1:1")
        slips = client.get(f"{EVENT}/slips").text
        links = {(m[1], int(m[2])): running.origin + m[0] for m in re.finditer(
            rf"/_desk/p/{SLUG}/1/(\w+)/(\d+)/\w+", slips)}
        phone = running.client(organizer=False)
        try:
            for seat in (0, 1):
                page = phone.get(links[("3", seat)]).text
                answer = phone.post(links[("3", seat)], data={
                    "csrf": csrf_of(page), "round": "1", "table": "3",
                    "fp": fingerprint_of(page, "3"), "quick": f"{seat}:0"})
                assert answer.status_code == 200, answer.text
        finally:
            phone.close()
        yield running, links
    finally:
        if client is not None:
            client.close()
        running.stop()


def desk_page(browser, running, contexts, color_scheme="light") -> Page:
    context, page = organizer(browser, running, color_scheme=color_scheme)
    contexts.callback(context.close)
    expect(page.locator("span.to-go")).to_have_text("3 tables to go")
    return page


def phone_page(browser, url, contexts, color_scheme="light") -> Page:
    context = browser.new_context(viewport=PHONE, color_scheme=color_scheme)
    contexts.callback(context.close)
    page = context.new_page()
    page.goto(url)
    expect(page.locator("h1")).to_have_text("Table 4")
    return page


@pytest.fixture
def mid_contexts():
    with ExitStack() as stack:
        yield stack


# ------------------------------------------------------------------ 4. screenshots


def test_screenshots_for_the_docs(browser, mid_round, mid_contexts, tmp_path):
    running, links = mid_round
    IMAGES = DOCS_IMAGES if os.environ.get("SITE_BUILDER_SCREENSHOTS") else tmp_path
    IMAGES.mkdir(parents=True, exist_ok=True)
    page = desk_page(browser, running, mid_contexts)
    page.screenshot(path=IMAGES / "desk-1280.png", full_page=False)

    phone = phone_page(browser, links[("4", 0)], mid_contexts)
    phone.screenshot(path=IMAGES / "desk-phone-390.png", full_page=False)

    context = browser.new_context(viewport=WALL)
    mid_contexts.callback(context.close)
    wall = context.new_page()
    wall.goto(running.origin + f"/_desk/wall/{SLUG}")
    expect(wall.locator("#wall li.done")).to_have_count(2)
    wall.screenshot(path=IMAGES / "desk-wall-1280.png", full_page=False)

    page.goto(running.origin + f"{EVENT}/slips")
    expect(page.locator("section.desk-slip")).to_have_count(5)
    page.screenshot(path=IMAGES / "desk-slips-1280.png", full_page=True)

    for name in ("desk-1280", "desk-phone-390", "desk-wall-1280", "desk-slips-1280"):
        assert (IMAGES / f"{name}.png").stat().st_size > 5_000, name


def test_the_phone_page_fits_a_phone(browser, mid_round, mid_contexts):
    """Nothing of a player's report page is cut off or scrolls sideways at 390 px."""
    _, links = mid_round
    page = phone_page(browser, links[("4", 0)], mid_contexts)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for control in page.locator("main button, main select, main input:not([type=hidden])").all():
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box


def test_a_table_whose_result_is_in_folds_to_one_line(browser, mid_round, mid_contexts):
    running, _ = mid_round
    page = desk_page(browser, running, mid_contexts)
    done, summary = page.locator("details#t1"), page.locator("details#t1 > summary")
    expect(done).to_have_class(re.compile(r"\bdone\b"))
    assert done.evaluate("el => el.open") is False
    assert done.bounding_box()["height"] < summary.bounding_box()["height"] + 40


# ------------------------------------------------------------------ 5. accessibility

SCHEMES = ["light", "dark"]


@pytest.mark.parametrize("color_scheme", SCHEMES)
def test_the_desk_event_page_has_no_serious_accessibility_violations(browser, mid_round,
                                                                      mid_contexts, color_scheme):
    running, _ = mid_round
    page = desk_page(browser, running, mid_contexts, color_scheme)
    expect(page.locator("#phones ul.queue > li")).to_have_count(1)  # Accept buttons shown
    assert serious(Axe().run(page)) == []


@pytest.mark.parametrize("color_scheme", SCHEMES)
def test_the_phone_page_has_no_serious_accessibility_violations(browser, mid_round, mid_contexts,
                                                                color_scheme):
    """A player's phone in its dark mode too (a dark room, a phone set to follow it)."""
    _, links = mid_round
    page = phone_page(browser, links[("4", 0)], mid_contexts, color_scheme)
    assert serious(Axe().run(page)) == []
