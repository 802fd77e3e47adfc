"""Search: the index search.json as the build writes it, and the search page and the header's box
as a person uses them, in real headless Chromium, under a GitHub Pages project path."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from conftest import DEMO_BASE, REPO, build_demo, conquest_event, served, write_files
from site_builder.cli import main
from site_builder.pages.search import fold

BASE = DEMO_BASE
KINGS_DECREE = "2026-05-16-kings-decree-spring-open"
PHONE = {"width": 390, "height": 844}
MARKUP = "<b>Bob</b> & Co"
"""A name that looks like markup: it must reach the page as text."""


def _build(source, out, *extra: str) -> None:
    assert main(["build", "--source", str(source), "--out", str(out), "--base-url", BASE,
                 *extra]) == 0


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo built with --base-url /my-league/: its source and output folders."""
    return build_demo(tmp_path_factory.mktemp("search"))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A small site whose names test the matching: markup, dots, ø and æ, word starts."""
    source = tmp_path_factory.mktemp("search-scratch") / "site"
    write_files(source, {
        "data/events/2024-05-18-test/event.toml": conquest_event("Tests <of> & Night"),
        "data/events/2024-05-18-test/round-1.csv": f"""
            table,player,result
            1,{MARKUP},win
            1,Ann Smith,loss
            2,Hannah Ng,win
            2,Lee Annan,loss
            3,Zoë I. Ivanova,win
            3,Søren Ærø-Nielsen,loss
            """,
    })
    _build(source, source.parent / "out")
    return source.parent / "out"


def _index(out) -> dict:
    return json.loads((out / "search.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def root(demo):
    with served(demo[1]) as address:
        yield address


@pytest.fixture(scope="module")
def scratch_root(scratch):
    with served(scratch) as address:
        yield address


# ---------------------------------------------------------------- the index


def test_the_index_holds_a_player_and_an_event_as_the_data_has_them(demo):
    index = _index(demo[1])
    games = index["games"]
    assert games == sorted(games)
    siobhan = next(p for p in index["players"] if p["u"] == "players/siobhan-oneill/")
    # data/players.csv names her; she played 7 events in 2025 and 2026 (checked in data/events/)
    assert siobhan["n"] == "Siobhán O'Neill" and siobhan["f"] == "siobhan oneill"
    assert [games[g] for g in siobhan["g"]] == ["INWO", "Kingdom", "Warhammer 40,000: Conquest"]
    assert siobhan["y"] == [2025, 2026] and siobhan["c"] == 7
    bjorn = next(p for p in index["players"] if p["n"] == "Björn Lindqvist")
    assert [games[g] for g in bjorn["g"]] == ["SPELLFIRE", "Warhammer 40,000: Conquest"]
    assert (bjorn["f"], bjorn["y"], bjorn["c"]) == ("bjorn lindqvist", [2025, 2026], 3)
    event = next(e for e in index["events"] if e["u"] == f"events/{KINGS_DECREE}/")
    assert event == {"n": "SPELLFIRE: King's Decree (Questing)—Enhanced [75]",
                     "s": "King's Decree Spring Open", "u": f"events/{KINGS_DECREE}/",
                     "f": "spellfire kings decree questing enhanced 75 kings decree spring open",
                     "g": games.index("SPELLFIRE"), "d": "2026-05-16"}
    autumn = next(e for e in index["events"] if e["n"] == "Autumn Store Championship")
    assert "s" not in autumn and games[autumn["g"]] == "Warhammer 40,000: Conquest"


def test_the_index_lists_every_player_page_and_event_page_once_in_order(demo):
    out = demo[1]
    index = _index(out)
    players = {p.parent.name for p in (out / "players").glob("*/index.html")}
    assert {p["u"] for p in index["players"]} == {f"players/{pid}/" for pid in players}
    events = {p.name for p in (out / "events").iterdir() if (p / "index.html").exists()}
    assert {e["u"] for e in index["events"]} == {f"events/{slug}/" for slug in events}
    for kind in ("players", "events"):
        keys = [(e["f"], e["u"]) for e in index[kind]]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert "search.json" not in (out / "sitemap.xml").read_text(encoding="utf-8")


def test_the_index_is_compact_and_byte_identical_in_another_build(demo, tmp_path):
    source, out = demo
    text = (out / "search.json").read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.count("\n") == 1 and '": ' not in text  # no indent
    assert len(text.encode("utf-8")) < 12_000  # 75 players and 13 events
    again = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": "4242"}
    subprocess.run([sys.executable, "-m", "site_builder", "build", "--source", str(source),
                    "--out", str(again), "--base-url", BASE], check=True, env=env,
                   capture_output=True)
    assert (again / "search.json").read_bytes() == (out / "search.json").read_bytes()


def test_a_rebuild_keeps_the_index_current(demo, tmp_path):
    """A respelled player: the next build from the state rewrites the index."""
    source = tmp_path / "site"
    shutil.copytree(demo[0], source)
    out = tmp_path / "out"
    _build(source, out)
    players = source / "data" / "players.csv"
    players.write_text(players.read_text(encoding="utf-8").replace(
        "Siobhán O'Neill,", "Siobhán Ní Néill,Siobhán O'Neill"), encoding="utf-8")
    _build(source, out)
    names = {p["u"]: p for p in _index(out)["players"]}
    assert names["players/siobhan-oneill/"]["n"] == "Siobhán Ní Néill"
    assert names["players/siobhan-oneill/"]["f"] == "siobhan ni neill"
    clean = tmp_path / "clean"
    _build(source, clean, "--clean")
    assert (out / "search.json").read_bytes() == (clean / "search.json").read_bytes()


def test_a_name_that_looks_like_markup_stays_data(scratch):
    index = _index(scratch)
    assert MARKUP in [p["n"] for p in index["players"]]
    assert "Tests <of> & Night" in [e["n"] for e in index["events"]]
    raw = (scratch / "search.json").read_text(encoding="utf-8")
    assert "&amp;" not in raw and "&lt;" not in raw  # JSON, not HTML: the script writes text
    script = (REPO / "themes" / "default" / "static" / "search.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script
    assert "document.write" not in script


def test_folding_ignores_accents_case_and_dots():
    assert fold("Zoë I. Ivanova") == "zoe i ivanova"
    assert fold("Siobhán O'Neill") == "siobhan oneill"
    assert fold("Søren Ærø-Nielsen") == "soren aero nielsen"
    assert fold("GROẞ Łukasz") == "gross lukasz"
    assert fold("Иван Петров") == "иван петров"  # other scripts are kept, not dropped
    assert fold("  <b>Bob</b> & Co ") == "b bob b co"


# ---------------------------------------------------------------- in the browser


def _phone(browser, **options):
    context = browser.new_context(viewport=PHONE, **options)
    return context, context.new_page()


def _results(page: Page):
    return page.locator("#search-results > li")


@pytest.mark.browser
def test_a_name_typed_without_accents_finds_the_player_on_a_phone(browser, root: str):
    context, page = _phone(browser)
    page.goto(root + "search/")
    expect(page.locator("#search-off")).to_be_hidden()  # the no-JavaScript note
    page.get_by_label("Name of a player or event").press_sequentially("siobhan o")
    first = _results(page).first
    expect(first.get_by_role("link")).to_have_text("Siobhán O'Neill")
    expect(first).to_contain_text("Player")
    expect(first).to_contain_text("INWO, Kingdom, Warhammer 40,000: Conquest · 2025–2026 · 7 events")
    expect(page.locator("#search-status")).to_have_text("1 player matches “siobhan o”.")
    expect(page).to_have_url(root + "search/?q=siobhan+o")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.keyboard.press("Tab")  # the Search button
    page.keyboard.press("Tab")  # the first result
    expect(first.get_by_role("link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(root + "players/siobhan-oneill/")
    expect(page.locator("h1")).to_have_text("Siobhán O'Neill")
    context.close()


@pytest.mark.browser
def test_an_event_found_by_part_of_its_name_shows_its_game_and_date(page: Page, root: str):
    page.goto(root + "search/?q=decree%20spr")
    expect(page.get_by_label("Name of a player or event")).to_have_value("decree spr")
    expect(_results(page)).to_have_count(1)
    hit = _results(page).first
    expect(hit.get_by_role("link")).to_have_text("SPELLFIRE: King's Decree (Questing)—Enhanced [75]")
    expect(hit).to_contain_text("Event")
    expect(hit).to_contain_text("King's Decree Spring Open")
    expect(hit).to_contain_text("SPELLFIRE · 16 May 2026")
    hit.get_by_role("link").click()
    expect(page).to_have_url(root + f"events/{KINGS_DECREE}/")


@pytest.mark.browser
def test_nothing_found_says_so_and_many_found_are_capped(page: Page, root: str):
    page.goto(root + "search/")
    box = page.get_by_label("Name of a player or event")
    box.fill("qqzz")
    expect(page.locator("#search-status")).to_have_text("No players or events match “qqzz”.")
    expect(_results(page)).to_have_count(0)
    expect(page.locator("#search-results")).to_be_hidden()
    box.fill("a")
    expect(_results(page)).to_have_count(50)
    expect(page.locator("#search-status")).to_contain_text(": the best 50 are shown.")
    box.fill("")
    expect(_results(page)).to_have_count(0)
    expect(page).to_have_url(root + "search/")


@pytest.mark.browser
def test_word_starts_rank_first_and_every_word_must_match(page: Page, scratch_root: str):
    page.goto(scratch_root + "search/?q=ann")
    links = page.locator("#search-results > li > a")
    expect(links).to_have_text(["Ann Smith", "Lee Annan", "Hannah Ng"])
    box = page.get_by_label("Name of a player or event")
    box.fill("zoe iva")
    expect(links).to_have_text(["Zoë I. Ivanova"])
    box.fill("iva zoë")
    expect(links).to_have_text(["Zoë I. Ivanova"])
    box.fill("zoe smith")
    expect(links).to_have_count(0)
    for query in ("soren aero", "Søren Ærø", "NIELSEN"):
        box.fill(query)
        expect(links).to_have_text(["Søren Ærø-Nielsen"])


@pytest.mark.browser
def test_markup_in_a_name_is_shown_as_text(page: Page, scratch_root: str):
    page.goto(scratch_root + "search/?q=bob")
    link = page.locator("#search-results > li > a")
    expect(link).to_have_text(MARKUP)
    expect(page.locator("#search-results b")).to_have_count(0)
    page.get_by_label("Name of a player or event").fill("tests of")
    expect(link).to_have_text("Tests <of> & Night")
    expect(page.locator("#search-results of")).to_have_count(0)


@pytest.mark.browser
def test_the_search_page_without_javascript_points_to_the_players_index(browser, root: str):
    context, page = _phone(browser, java_script_enabled=False)
    page.goto(root + "search/?q=zoe")
    # In <noscript>, which Playwright's text and role locators skip: found by CSS.
    fallback = page.locator("#search-off")
    expect(fallback).to_be_visible()
    expect(fallback).to_contain_text("Search needs JavaScript")
    fallback.locator("a", has_text="players index").click()
    expect(page).to_have_url(root + "players/")
    expect(page.locator("h1")).to_have_text("Players")
    context.close()


@pytest.mark.browser
def test_the_header_box_fits_a_phone_and_submits_to_the_search_page(browser, root: str):
    for javascript in (False, True):
        context, page = _phone(browser, java_script_enabled=javascript)
        for path in ("", "players/robert-mills/", "events/"):
            page.goto(root + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            box = page.get_by_role("search").get_by_label("Search")
            expect(box).to_be_in_viewport()
        box.fill("lindqvist")
        box.press("Enter")
        expect(page).to_have_url(root + "search/?q=lindqvist")
        if javascript:
            expect(_results(page).first.get_by_role("link")).to_have_text("Björn Lindqvist")
        else:
            expect(page.locator("#search-off")).to_contain_text("Search needs JavaScript")
        context.close()


@pytest.mark.browser
def test_the_index_loads_from_the_base_path_only(page: Page, root: str):
    """Everything the page fetches is the site's own, under /my-league/."""
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(root + "search/?q=zoe")
    expect(_results(page).first).to_be_visible()
    assert requested and all(url.startswith(root) for url in requested), requested
    assert root + "search.json" in requested


@pytest.mark.browser
def test_the_search_page_with_results_has_no_accessibility_violations(page: Page, root: str):
    page.goto(root + "search/?q=an")
    expect(_results(page).first).to_be_visible()
    expect(page.locator("#search-status")).to_contain_text("match")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_the_search_page_names_its_script_and_index_under_the_base_path(demo):
    html = (demo[1] / "search" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<script defer src="/my-league/static/search\.js">', html)
    assert 'data-index="/my-league/search.json"' in html
    assert 'role="status"' in html and 'aria-live="polite"' in html
    home = (demo[1] / "index.html").read_text(encoding="utf-8")
    assert 'action="/my-league/search/"' in home and "search.js" not in home
