"""What a person sees, in real headless Chromium: the demo site served on 127.0.0.1 under a
GitHub Pages project path, links followed by clicking, the bracket on a phone, accessibility."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from conftest import DEMO_BASE, DEMO_SITE, build_demo, served

pytestmark = pytest.mark.browser
BASE = DEMO_BASE
REGIONAL = "2026-06-13-northern-regional-championship"
NOVEMBER = "2026-11-21-november-store-night"
"""The demo's event on the day: round 3 is being played."""


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """The demo built with --base-url /my-league/ and served by site-builder's own server."""
    _, out = build_demo(tmp_path_factory.mktemp("browser"))
    with served(out) as address:
        yield address


def test_event_page_links_to_a_round_and_a_player(page: Page, root: str):
    page.goto(root + f"events/{REGIONAL}/")
    expect(page.locator("h1")).to_have_text("Northern Regional Championship")
    page.get_by_role("navigation", name="Northern Regional Championship").get_by_role(
        "link", name="Round 3", exact=True).click()
    expect(page).to_have_url(root + f"events/{REGIONAL}/round-3/")
    expect(page.locator("h2.round-title")).to_have_text("Round 3")
    first_player = page.locator("table.pairings td a").first
    name = first_player.inner_text()
    first_player.click()
    expect(page).to_have_url(re.compile(re.escape(root) + r"players/[a-z0-9-]+/$"))
    expect(page.locator("h1")).to_have_text(name)
    page.get_by_role("link", name="Northern Regional Championship").first.click()
    expect(page).to_have_url(root + f"events/{REGIONAL}/")


def test_standings_link_from_the_archive_under_the_base_path(page: Page, root: str):
    page.goto(root)
    page.get_by_role("link", name="Events", exact=True).click()
    expect(page).to_have_url(root + "events/")
    page.get_by_role("link", name="Spring Store Championship").click()
    expect(page.locator("table.standings tbody tr").first).to_contain_text("Björn Lindqvist")


def test_bracket_on_a_phone_without_javascript(browser, root: str):
    """On a phone the bracket reads round by round (issue 34, point 7): nothing scrolls
    sideways, neither the page nor the bracket's own box, and everything is there with
    JavaScript off."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(root + f"events/{REGIONAL}/bracket/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    region = page.get_by_role("region", name=re.compile("bracket"))
    assert region.evaluate("el => el.scrollWidth <= el.clientWidth")
    expect(page.locator(".bracket-round")).to_have_count(4)  # QF, SF, Final, Champion
    expect(page.locator(".bracket-game.played")).to_have_count(7)
    champion = page.locator(".bracket-game.champion")
    champion.scroll_into_view_if_needed()
    expect(champion).to_be_in_viewport()
    expect(champion).to_contain_text("Ingrid Haugen")
    context.close()


def test_missing_page_gets_the_404_page_with_working_links(page: Page, root: str):
    response = page.goto(root + "events/no-such-event/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Page not found")
    page.get_by_role("link", name="All events").click()
    expect(page).to_have_url(root + "events/")


ARMAGEDDON = "2026-10-10-armageddon-showdown"
REASCENSION = "2026-04-18-reascension-spring-open"
CHAMPIONSHIP = "2025-12-06-leeds-winter-championship"
INWO = "2026-02-21-inwo-winter-conspiracy"
INWO_H2H = "2026-09-19-inwo-head-to-head-open"
KINGDOM = "2026-07-11-kingdom-summer-houses"


def test_double_elimination_bracket_on_a_phone_without_javascript(browser, root: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(root + f"events/{ARMAGEDDON}/bracket/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ("Winners' bracket", "Losers' bracket", "Final"):
        expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    regions = page.get_by_role("region", name=re.compile("bracket|Final"))
    expect(regions).to_have_count(3)
    expect(page.locator(".champion-line")).to_contain_text("Champion:")
    context.close()


@pytest.mark.parametrize("path", ["", f"events/{REGIONAL}/", f"events/{REGIONAL}/round-7/",
                                  f"events/{REGIONAL}/bracket/", "players/robert-mills/",
                                  "events/", "about/", f"events/{REASCENSION}/",
                                  f"events/{REASCENSION}/round-1/", f"events/{ARMAGEDDON}/bracket/",
                                  f"events/{ARMAGEDDON}/round-4/", f"events/{CHAMPIONSHIP}/",
                                  f"events/{CHAMPIONSHIP}/round-1/", f"events/{CHAMPIONSHIP}/bracket/",
                                  "rankings/", f"events/{INWO}/round-1/", f"events/{INWO}/bracket/",
                                  f"events/{INWO_H2H}/round-3/", f"events/{KINGDOM}/round-1/",
                                  f"events/{NOVEMBER}/", f"events/{NOVEMBER}/round-3/",
                                  f"events/{NOVEMBER}/round-3/slips/"])
def test_pages_have_no_accessibility_violations(page: Page, root: str, path: str):
    page.goto(root + path)
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_no_page_is_wider_than_a_phone(browser, root: str):
    """Wide tables and brackets scroll inside their own box; the page itself never scrolls
    sideways on a 390-pixel phone (visually hidden text in a scrolled table once escaped it)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    events = DEMO_SITE / "data" / "events"  # the page list comes from the demo data
    paths = ["", "events/", "rankings/", "players/"]
    for slug in sorted(p.name for p in events.iterdir() if p.is_dir()):
        rounds = sorted((events / slug).glob("round-*.csv"))
        paths += [f"events/{slug}/", f"events/{slug}/bracket/"]
        paths += [f"events/{slug}/{r.stem}/" for r in rounds]
    too_wide = []
    for path in paths:
        response = page.goto(root + path)
        if response.status == 404:
            continue  # formats without a bracket page
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            too_wide.append((path, width))
    context.close()
    assert too_wide == []


def test_advancement_grid_links_a_winner_to_their_next_bracket(page: Page, root: str):
    page.goto(root + f"events/{CHAMPIONSHIP}/bracket/")
    first = page.locator(".grid-round").first.locator("li.advances").first
    name = first.locator(".name a").inner_text()
    first.locator("a.advance").click()
    target = page.locator(".grid-box:target")
    expect(target).to_have_count(1)
    expect(target).to_contain_text(name)


def test_a_player_finds_their_table_on_a_phone(browser, root: str):
    """On the day: the event page leads to the round being played, whose first screen lists
    every player by name with their table and opponent, nothing cut off at 390 px."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(root + f"events/{NOVEMBER}/")
    banner = page.locator(".now-playing a")
    expect(banner).to_be_in_viewport()
    expect(banner).to_contain_text("Round 3 is being played")
    banner.click()
    expect(page).to_have_url(root + f"events/{NOVEMBER}/round-3/")
    entries = page.locator("ol.by-name li")
    expect(entries).to_have_count(10)
    expect(entries.first).to_be_in_viewport()  # the list starts on the first screen
    mine = entries.filter(has=page.locator(".who", has_text="Zoë Laurent"))
    expect(mine).to_contain_text("Table ")
    expect(mine).to_contain_text("vs ")
    for box in (entries.nth(i).bounding_box() for i in range(10)):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_find_your_name_filters_as_you_type_and_is_whole_without_scripts(browser, root: str):
    """Issue 34, point 8: on a round being played, typing part of a name keeps the lines that
    hold it, accents and case ignored ("zoe" and "ZOË LAU" leave Zoë Laurent's line alone); a
    name that matches nothing says so; with JavaScript off there is no box and the list of 10
    is whole."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(root + f"events/{NOVEMBER}/round-3/")
    box = page.get_by_label("Type part of your name")
    expect(box).to_be_visible()
    entries = page.locator("ol.by-name li")
    box.fill("zoe")
    expect(entries.locator("visible=true")).to_have_count(1)
    expect(entries.locator("visible=true").first.locator(".who")).to_have_text("Zoë Laurent")
    box.fill("ZOË LAU")
    expect(entries.locator("visible=true")).to_have_count(1)
    box.fill("oneill")  # folded as the search page folds: Siobhán O'Neill
    expect(entries.locator("visible=true")).to_have_count(1)
    box.fill("nobody here")
    expect(entries.locator("visible=true")).to_have_count(0)
    expect(page.locator("#name-filter-none")).to_be_visible()
    box.fill("")
    expect(entries.locator("visible=true")).to_have_count(10)
    expect(page.locator("#name-filter-none")).to_be_hidden()
    context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  java_script_enabled=False)
    page = context.new_page()
    page.goto(root + f"events/{NOVEMBER}/round-3/")
    expect(page.locator("#name-filter")).to_be_hidden()
    expect(page.locator("ol.by-name li").locator("visible=true")).to_have_count(10)
    context.close()


def test_the_pairings_print_as_a_wall_list_in_columns(page: Page, root: str):
    page.goto(root + f"events/{NOVEMBER}/round-3/")
    page.emulate_media(media="print")
    assert page.locator("ol.by-name").evaluate("el => getComputedStyle(el).columnCount") == "3"
    expect(page.locator(".site-header")).to_be_hidden()
    page.goto(root + f"events/{NOVEMBER}/round-3/slips/")
    expect(page.locator(".slip")).to_have_count(5)
