"""Pages weigh what they show (issue 33): a round page carries the round and leads to the
standings (the event page's table, the round's JSON twin) instead of repeating them; a player
page is one line per event, newest first, its finish leading to the player's row of the event's
standings. Checked on the demo built under a GitHub Pages project path, links followed to the
files they name."""

from __future__ import annotations

import csv
import html
import json
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import DEMO_BASE, DEMO_SITE, build_demo

AUTUMN = "2025-10-18-autumn-store-championship"  # Conquest, 3 rounds, final
NOVEMBER = "2026-11-21-november-store-night"  # Conquest, rounds 1-2 done, round 3 being played
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    return build_demo(tmp_path_factory.mktemp("weight"))[1]


class Page(HTMLParser):
    """What these tests read of a page: every id, the classes of its tables, and each link,
    <time> and <li> with the classes of the elements around it and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.tables: list[str] = []
        self.found: list[dict] = []  # {"tag", "attrs", "within": [(tag, class)…], "text"}
        self._stack: list[tuple[str, str, dict | None]] = []

    @classmethod
    def of(cls, path: Path) -> Page:
        page = cls()
        page.feed(path.read_text(encoding="utf-8"))
        page.close()
        return page

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        if tag == "table":
            self.tables.append(found.get("class") or "")
        record = None
        if tag in ("a", "time", "li"):
            record = {"tag": tag, "attrs": found, "text": "",
                      "within": [(t, c) for t, c, _ in self._stack]}
            self.found.append(record)
        if tag not in VOID:
            self._stack.append((tag, found.get("class") or "", record))

    def handle_startendtag(self, tag, attrs):
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])

    def handle_endtag(self, tag):
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, _, record in self._stack:
            if record is not None:
                record["text"] += data

    def elements(self, tag: str, *within: tuple[str, str]) -> list[dict]:
        """The `tag` elements inside elements (tag, class) as given, outermost first."""
        return [r for r in self.found if r["tag"] == tag
                and all(any(t == wt and (not wc or wc in c.split()) for t, c in r["within"])
                        for wt, wc in within)]


def local(out: Path, href: str) -> tuple[Path, str]:
    """The built file a site link names, and its fragment."""
    parts = urlsplit(href)
    assert parts.path.startswith(DEMO_BASE), href
    path = out / parts.path.removeprefix(DEMO_BASE)
    return (path / "index.html" if parts.path.endswith("/") else path), parts.fragment


# ---------------------------------------------------------------- round pages


@pytest.mark.parametrize("slug, number, heading, twin_title", [
    (AUTUMN, 1, "Final standings", "Standings after round 1"),
    (AUTUMN, 2, "Final standings", "Standings after round 2"),
    (AUTUMN, 3, "Final standings", "Final standings"),
    (NOVEMBER, 2, "Current standings", "Standings after round 2"),
])
def test_a_finished_round_page_leads_to_the_standings_instead_of_repeating_them(
        out, slug, number, heading, twin_title):
    page = Page.of(out / f"events/{slug}/round-{number}/index.html")
    assert "standings" not in " ".join(page.tables).split()
    assert "pairings" in " ".join(page.tables).split()  # the round's results are still there
    links = page.elements("a", ("p", "round-standings"))
    assert [link["text"] for link in links] == [heading, f"{twin_title} (JSON)"]
    event, fragment = local(out, links[0]["attrs"]["href"])
    assert event == out / f"events/{slug}/index.html" and fragment == "standings-heading"
    assert "standings-heading" in Page.of(event).ids
    twin, _ = local(out, links[1]["attrs"]["href"])
    assert twin == out / f"events/{slug}/round-{number}/standings.json"
    data = json.loads(twin.read_text(encoding="utf-8"))
    assert data["after_round"] == number and data["standings"]


def test_a_round_being_played_has_no_standings_links_yet(out):
    page = Page.of(out / f"events/{NOVEMBER}/round-3/index.html")
    assert page.elements("a", ("p", "round-standings")) == []
    assert not (out / f"events/{NOVEMBER}/round-3/standings.json").exists()


# ---------------------------------------------------------------- player pages


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))


def events_played() -> dict[str, set[str]]:
    """For each name written in the demo's round files (a data/players.csv alias under the
    person's name), the events whose rounds name them, read from the data; people named as
    officials in any event.toml are left out (their pages list the events they ran as well)."""
    data = DEMO_SITE / "data"
    name_of = {}
    for row in rows(data / "players.csv"):
        for alias in filter(None, (a.strip() for a in row["aliases"].split(";"))):
            name_of[alias] = row["name"]
    officials, played = set(), {}
    for folder in sorted(p for p in (data / "events").iterdir() if p.is_dir()):
        info = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))
        for key in ("organizer", "coordinator"):
            officials.add(info.get(key))
        officials.update(info.get("judges", []))
        for round_file in folder.glob("round-*.csv"):
            for row in rows(round_file):
                name = row["player"].strip()
                played.setdefault(name_of.get(name, name), set()).add(folder.name)
    return {name: events for name, events in played.items() if name not in officials}


def test_a_player_page_is_one_line_per_event_newest_first_leading_to_their_row(out):
    played = events_played()
    assert len(played["Robert Mills"]) == 13  # every event of the demo, one as "Rob Mills"
    pages = sorted(p for p in (out / "players").iterdir() if p.is_dir())
    checked = 0
    for folder in pages:
        page = Page.of(folder / "index.html")
        text = (folder / "index.html").read_text(encoding="utf-8")
        name = html.unescape(text[text.index("<h1>") + 4:text.index("</h1>")])
        if name not in played:
            continue  # an official: their pages list the events they ran too
        lines = page.elements("li", ("ol", "history"))
        events = [local(out, a["attrs"]["href"])[0].parent.name
                  for a in page.elements("a", ("ol", "history"), ("p", "h-event"))]
        assert len(lines) == len(events) == len(played[name]), folder.name
        assert set(events) == played[name], folder.name
        dates = [t["attrs"]["datetime"] for t in page.elements("time", ("ol", "history"))]
        assert len(dates) == len(lines) and dates == sorted(dates, reverse=True), folder.name
        finishes = page.elements("a", ("p", "h-result"), ("strong", ""))
        assert len(finishes) == len(lines), folder.name  # each played a finished round
        for event, finish in zip(events, finishes):
            target, fragment = local(out, finish["attrs"]["href"])
            assert target == out / f"events/{event}/index.html", (folder.name, event)
            assert fragment == f"p-{folder.name}"
            assert fragment in Page.of(target).ids, (folder.name, event)
        checked += 1
    assert checked > 60


# ---------------------------------------------------------------- weight


def test_round_and_player_pages_stay_small(out):
    """Measured on the demo built under /my-league/ when the standings left the round pages
    and the games the player pages: Autumn round 2 5,570 bytes (9,651 before, with its
    standings table), Robert Mills's page, the demo's largest player page, 7,315 bytes (41,770
    before, with the games of his ten latest events and a rank chart each)."""
    round_page = out / f"events/{AUTUMN}/round-2/index.html"
    assert round_page.stat().st_size < 6_000
    sizes = {p.parent.name: p.stat().st_size for p in (out / "players").glob("*/index.html")}
    largest = max(sizes, key=sizes.get)
    assert sizes[largest] < 8_000, (largest, sizes[largest])
