"""End-to-end builds: the bundled demo under a GitHub Pages sub-path, every link followed, JSON
twins against pages, byte-identical rebuilds, escaping and empty states."""

from __future__ import annotations

import filecmp
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import DEMO_SITE, conquest_event, copy_demo, read_page

BASE = "/my-league/"
EVENTS = sorted(p.name for p in (DEMO_SITE / "data/events").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    from site_builder.cli import main

    source = copy_demo(tmp_path_factory.mktemp("demo") / "site")
    out = source.parent / "out"
    assert main(["build", "--source", str(source), "--out", str(out), "--base-url", BASE]) == 0
    return out


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_demo_data_is_clean(run_cli):
    result = run_cli("check", "--source", DEMO_SITE)
    assert result.code == 0
    assert result.out.splitlines() == [f"Checked {len(EVENTS)} events: no problems."]


def test_every_page_the_contract_lists_exists(demo):
    for page in ("index.html", "404.html", "sitemap.xml", ".nojekyll", "events/index.html",
                 "players/index.html", "about/index.html"):
        assert (demo / page).is_file(), page
    for slug in EVENTS:
        rounds = sorted((DEMO_SITE / "data/events" / slug).glob("round-*.csv"))
        assert (demo / f"events/{slug}/index.html").is_file()
        assert (demo / f"events/{slug}/standings.json").is_file()
        for n in range(1, len(rounds) + 1):
            assert (demo / f"events/{slug}/round-{n}/index.html").is_file()
            # A round still being played has pairings but no standings after it yet.
            in_progress = slug == "2026-11-21-november-store-night" and n == 3
            assert (demo / f"events/{slug}/round-{n}/standings.json").is_file() != in_progress
            assert (demo / f"events/{slug}/round-{n}/pairings.json").is_file()


def test_events_with_a_cut_have_a_bracket_page(demo):
    with_cut = [s for s in EVENTS if (demo / f"events/{s}/bracket/index.html").exists()]
    assert "2026-03-14-spring-store-championship" in with_cut
    assert "2026-06-13-northern-regional-championship" in with_cut
    assert "2025-10-18-autumn-store-championship" not in with_cut


def test_every_internal_link_is_under_the_base_path_and_resolves(demo):
    checked = 0
    for page in demo.rglob("*.html"):
        for link in parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "mailto:")):
                continue
            assert parts.path.startswith(BASE), f"{page.relative_to(demo)}: {link}"
            target = demo / parts.path[len(BASE):]
            if parts.path.endswith("/"):
                target = target / "index.html"
            assert target.is_file(), f"{page.relative_to(demo)} links to missing {link}"
            checked += 1
    assert checked > 1000


def test_json_twin_agrees_with_the_table_on_the_page(demo):
    for slug in EVENTS:
        twin = json.loads((demo / f"events/{slug}/standings.json").read_text())
        html = read_page(demo / f"events/{slug}/index.html")
        table = html[html.index('<table class="standings">'):]
        names_on_page = re.findall(r'<th scope="row" class="player">\s*<a href="[^"]+">([^<]+)</a>', table)
        expected = [row["player"].replace("'", "&#39;") for row in twin["standings"]]
        assert names_on_page == expected, slug
        ranks = [r["rank"] for r in twin["standings"]]
        # competition ranking: a row shares the rank above it or takes its own position (1, 2, 2, 4)
        assert all(rank in (i + 1, ranks[i - 1] if i else 1) for i, rank in enumerate(ranks)), slug


def test_in_progress_event_says_so(demo):
    twin = json.loads((demo / "events/2026-11-21-november-store-night/standings.json").read_text())
    assert twin["complete"] is False and twin["after_round"] == 2
    html = (demo / "events/2026-11-21-november-store-night/index.html").read_text()
    assert "In progress: round 3 of 4 being played" in html and "Current standings" in html
    assert "Round 3 is being played" in read_page(demo / "events/2026-11-21-november-store-night/index.html")


def test_404_uses_absolute_base_prefixed_links(demo):
    links = parse(demo / "404.html").links
    assert f"{BASE}events/" in links and BASE in links
    assert all(link.startswith(BASE) for link in links if not link.startswith("#"))


def test_sitemap_lists_every_html_page_once(demo):
    sitemap = (demo / "sitemap.xml").read_text()
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    pages = sorted(BASE + p.relative_to(demo).parent.as_posix().removeprefix(".") + "/"
                   for p in demo.rglob("index.html"))
    pages = [p.replace("//", "/") for p in pages]
    assert sorted(locs) == sorted(pages)
    assert len(locs) == len(set(locs))


def test_stylesheet_link_is_stable_so_a_css_edit_changes_one_file(demo):
    html = (demo / "index.html").read_text()
    assert f'href="{BASE}static/style.css"' in html


def test_player_page_joins_spellings_through_players_csv(demo):
    """data/players.csv lists "Rob Mills" as an alias of Robert Mills: the November Store Night,
    written with "Rob Mills", is a line of Robert Mills's page. It is being played, so the line
    shows no figures but leads to his row of its current standings, which shows the name as
    written there and links back to his page. "Rob Mills" has no page of his own."""
    html = read_page(demo / "players/robert-mills/index.html")
    assert "<h1>Robert Mills</h1>" in html
    night = "events/2026-11-21-november-store-night/"
    line = re.search(rf'<li><p class="h-event"><a href="{BASE}{night}">November Store Night</a>'
                     r'.*?</li>', html, re.S)
    assert line, "the November Store Night is not on Robert Mills's page"
    assert f'<a href="{BASE}{night}#p-robert-mills">Current standing</a>' in line[0]
    assert "<small>as “Rob Mills”</small>" in line[0]  # the name played under, no record
    event = read_page(demo / night / "index.html")
    row = event[event.index('<tr id="p-robert-mills"'):]
    row = row[:row.index("</tr>")]
    assert f'<a href="{BASE}players/robert-mills/">Rob Mills</a>' in row
    assert not (demo / "players/rob-mills").exists()


def _tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_two_builds_are_byte_identical_whatever_the_hash_seed(demo, tmp_path):
    """A second build in another process, with another string-hash seed, writes the same bytes."""
    source = copy_demo(tmp_path / "site")
    out = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-m", "site_builder", "build", "--source", str(source),
                    "--out", str(out), "--base-url", BASE], check=True, env=env,
                   capture_output=True)
    assert _tree(out) == _tree(demo)
    _, mismatch, errors = filecmp.cmpfiles(demo, out, _tree(demo), shallow=False)
    assert mismatch == [] and errors == []


def test_names_and_reports_are_escaped_everywhere(site):
    nasty = ["<b>Bob</b>", "Robert'); DROP TABLE players;--", 'Zoë "Z" <script>x()</script>']
    quoted = ['"' + name.replace('"', '""') + '"' for name in nasty]
    rows = f"1,{quoted[0]},win\n1,{quoted[1]},loss\n,{quoted[2]},bye\n"
    site.event("2024-05-18-x", conquest_event(name="<i>Cup</i>", structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n" + rows})
    site.write({"content/events/2024-05-18-x.md": "Report <script>alert(1)</script> **bold**\n"})
    assert site.build() == 0
    for page in site.out.rglob("*.html"):
        html = page.read_text()
        assert "<b>Bob</b>" not in html and "<script>" not in html and "<i>Cup</i>" not in html
    event = site.html("events/2024-05-18-x/")
    assert "&lt;b&gt;Bob&lt;/b&gt;" in event and "Robert&#39;); DROP TABLE players;--" in event
    # The standings rows (drawn by the standings table macro) on the event page.
    standings_table = event[event.index('<table class="standings">'):]
    standings_table = standings_table[:standings_table.index("</table>")]
    assert standings_table.count(">&lt;b&gt;Bob&lt;/b&gt;</a>") == 1
    assert ">Robert&#39;); DROP TABLE players;--</a>" in standings_table
    assert "&lt;script&gt;alert(1)&lt;/script&gt; <strong>bold</strong>" in event
    # The round's results: Bob beat Robert at table 1, Zoë had the bye.
    round_page = site.html("events/2024-05-18-x/round-1/")
    results = round_page[round_page.index('<table class="pairings'):]
    for name in ("&lt;b&gt;Bob&lt;/b&gt;", "Robert&#39;); DROP TABLE players;--",
                 "Zoë &#34;Z&#34; &lt;script&gt;x()&lt;/script&gt;"):
        assert results.count(f">{name}</a>") == 1, name
    assert '<h1><a class="title-link" href="/events/2024-05-18-x/">&lt;i&gt;Cup&lt;/i&gt;</a></h1>' \
        in round_page
    standings = site.json("events/2024-05-18-x/standings.json")["standings"]
    assert sorted(r["player"] for r in standings) == sorted(nasty)
    # Each player's page: their name as its heading, the event's name in their history line.
    for row in standings:
        page = site.html(f"players/{row['player_id']}/")
        heading = (row["player"].replace("&", "&amp;").replace("<", "&lt;")
                   .replace(">", "&gt;").replace('"', "&#34;").replace("'", "&#39;"))
        assert f"<h1>{heading}</h1>" in page, row["player"]
        assert '<a href="/events/2024-05-18-x/">&lt;i&gt;Cup&lt;/i&gt;</a>' in page


def test_content_pages_and_markdown_links_under_a_base_path(site):
    site.write({"content/about.md": "# About us\n\nSee [the events](/events/) and [x](https://example.org/).\n",
                "content/guides/index.md": "# Guides\n",
                "content/index.md": "# Welcome\n\nHello.\n"})
    assert site.build("--base-url", "/league/") == 0
    about = site.html("about/")
    assert "<title>About us · Tournament results</title>" in about
    assert '<a href="/league/events/">the events</a>' in about
    assert '<a href="https://example.org/">x</a>' in about
    assert (site.out / "guides/index.html").is_file()
    assert '<a href="/league/about/">About us</a>' in site.html("")  # top-level pages in the nav


def test_a_content_page_may_not_replace_a_generated_one(site, run_cli):
    site.write({"content/events.md": "# Events\n"})
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1
    assert result.lines[0] == ("content/events.md:1: would be published at /events/, which the "
                               "generator uses for its own pages: move or rename it")


def test_an_empty_site_builds_and_says_what_to_do(site):
    assert site.build() == 0
    home = site.html("")
    assert "No events yet." in home and "data/events/&lt;slug&gt;/" in home
    assert "No players yet." in site.html("players/")


def test_an_event_without_rounds_shows_its_registrations(site):
    site.event("2024-05-18-next", conquest_event(name="Next week"), {},
               **{"players.csv": "player,faction\nAda,Orks\nBram,Tau\n"})
    assert site.build() == 0
    page = site.html("events/2024-05-18-next/")
    assert "No results yet." in page and "Registered players (2):" in page and "Ada, Bram" in page
    twin = site.json("events/2024-05-18-next/standings.json")
    assert twin["standings"] == [] and twin["after_round"] == 0 and twin["complete"] is False


def test_base_url_may_be_a_full_url(site):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n"})
    assert site.build("--base-url", "https://me.github.io/league") == 0
    assert '<a href="/league/events/">' in site.html("")
    assert "<loc>https://me.github.io/league/events/2024-05-18-x/</loc>" in (site.out / "sitemap.xml").read_text()


def test_bad_base_url_is_a_clear_error(site, run_cli):
    result = run_cli("build", "--source", site.root, "--out", site.out, "--base-url", "my league")
    assert result.code == 1
    assert result.lines == ["site-builder: --base-url: base_url 'my league' must be a path like "
                            "/my-league/ or a full URL"]


def test_players_index_is_alphabetical_ignoring_accents_and_case(site):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Zara,win\n1,Élodie,loss\n2,eve,win\n2,Ämil,loss\n"})
    assert site.build() == 0
    html = site.html("players/")
    names = re.findall(r'<a href="/players/[^"]+/">([^<]+)</a>', html)
    assert names == ["Ämil", "Élodie", "eve", "Zara"]
    letters = re.findall(r'<h2 id="letter-\w+" class="letter">(\w) ', html)
    assert letters == ["A", "E", "Z"]


def test_pages_are_utf8_with_the_characters_as_written(demo):
    """Pages are UTF-8 as written, declared in their head: a name's accents, a record's en dash,
    the middle dot between the facts of a player's line and curly quotes are the characters
    themselves, as in the JSON twins. Characters HTML gives meaning to stay escaped
    (test_names_and_reports_are_escaped_everywhere)."""
    pages = list(demo.rglob("*.html"))
    assert len(pages) > 100
    for page in pages:
        text = page.read_bytes().decode("utf-8")  # every page decodes
        assert '<meta charset="utf-8">' in text[:200], page
        for entity in ("&#8211;", "&ndash;", "&#246;", "&#183;", "&middot;", "&#8220;", "&ldquo;"):
            assert entity not in text, (page, entity)
    robert = (demo / "players/robert-mills/index.html").read_text(encoding="utf-8")
    assert "<small>3–0–1 · 6 pts · 6 ranking points</small>" in robert
    assert "<small>as “Rob Mills”</small>" in robert  # the November Store Night
    decks = (demo / "decks/conquest/index.html").read_text(encoding="utf-8")
    assert "\u201cReached cut or final\u201d" in decks
    spring = "events/2026-03-14-spring-store-championship"
    assert "Björn Lindqvist" in (demo / spring / "index.html").read_text(encoding="utf-8")
    assert "Björn Lindqvist" in (demo / spring / "standings.json").read_text(encoding="utf-8")


def test_a_themes_script_and_style_keep_their_characters(site):
    """A theme's own characters, in text, <script> and <style> alike, reach the page as written,
    and so do the data's."""
    site.event("2024-05-18-x", conquest_event(name="Café Open", structure="custom",
                                              swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Zoë,win\n1,Bob,loss\n"})
    site.write({"themes/default/templates/base.html":
                '<title>{% block title %}{% endblock %} · {{ site.title }}</title>\n'
                '<style>.next::after { content: "→"; }</style>\n'
                '<script>const arrow = "→";</script>\n'
                '<p>Next →</p>\n{% block main %}{% endblock %}\n'})
    assert site.build() == 0
    page = (site.out / "events/2024-05-18-x/index.html").read_bytes()
    assert '<style>.next::after { content: "→"; }</style>'.encode() in page
    assert '<script>const arrow = "→";</script>'.encode() in page
    assert "<p>Next →</p>".encode() in page
    assert "<title>Café Open · Tournament results</title>".encode() in page
    assert "Zoë".encode() in page


def test_every_page_title_is_plain_text(demo):
    """A <title> is text: markup in it shows up literally in tabs and bookmarks."""
    for page in demo.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        title = html[html.index("<title>") + 7: html.index("</title>")]
        assert "<" not in title and len(title) < 200, f"{page.relative_to(demo)}: {title[:80]!r}"
