"""Sharing and following: the Atom feeds (the site's and each game's) and the link-preview tags
(Open Graph, Twitter cards) of every page.

The feeds are read the way a feed reader reads them (feedparser) and checked against RFC 4287
with the standard library's XML parser: the namespace, the elements a feed and an entry must
have, unique ids, no build time. The demo's own facts are known by hand: its newest event,
November Store Night (2026-11-21), is playing round 3 of 4.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import feedparser
import pytest

from conftest import DEMO_SITE, copy_demo
from site_builder.build import build
from site_builder.pages.facts import EventLabel, EventSummary
from site_builder.pages.feeds import FEED_SIZE, entries

A = "{http://www.w3.org/2005/Atom}"
BASE = "/my-league/"
HOST = "https://example.org/league/"
NEWEST = "2026-11-21-november-store-night"
AUTUMN = "2025-10-18-autumn-store-championship"
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})")
"""An RFC 3339 date-time, as atom:updated must be."""


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo built under a path-only base_url."""
    source = copy_demo(tmp_path_factory.mktemp("feeds") / "site")
    out = source.parent / "out"
    build(source, out, base_url=BASE)
    return out


def atom(path: Path) -> ET.Element:
    """The feed, checked well-formed Atom: the elements RFC 4287 requires, unique ids, entries
    newest first and the feed's `updated` its newest entry's."""
    feed = ET.fromstring(path.read_bytes())
    assert feed.tag == A + "feed"
    for element in (feed, *feed.findall(A + "entry")):
        for required in ("id", "title", "updated"):
            assert len(element.findall(A + required)) == 1, (required, element)
        assert re.match(r"[a-z][a-z0-9+.-]*:", element.findtext(A + "id")), "an id is absolute"
        assert TIME.fullmatch(element.findtext(A + "updated"))
    assert feed.find(f"{A}author/{A}name").text  # so entries need no author of their own
    entries_ = feed.findall(A + "entry")
    for entry in entries_:
        assert entry.find(f"{A}link[@rel='alternate']") is not None
        assert entry.findtext(A + "summary")
    ids = [e.findtext(A + "id") for e in entries_]
    assert len(ids) == len(set(ids)), "entry ids are unique"
    dates = [e.findtext(A + "updated") for e in entries_]
    assert dates == sorted(dates, reverse=True)
    assert feed.findtext(A + "updated") == dates[0]
    return feed


def read(path: Path) -> feedparser.FeedParserDict:
    parsed = feedparser.parse(path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    return parsed


def output_file(out: Path, href: str, base: str = BASE) -> Path:
    assert href.startswith(base), href
    relative = href[len(base):]
    return out / (relative + "index.html" if relative.endswith("/") or not relative else relative)


# ---------------------------------------------------------------- the feeds


def test_the_site_feed_follows_every_event_newest_first(demo):
    feed = read(demo / "feed.xml")
    atom(demo / "feed.xml")
    events = sorted(p.name for p in (DEMO_SITE / "data/events").iterdir() if p.is_dir())
    links = [e.link for e in feed.entries]
    assert [link for link in links if not link.rstrip("/").split("/")[-1].startswith("round-")] == \
        [f"{BASE}events/{slug}/" for slug in reversed(events)]
    newest = feed.entries[0]
    assert newest.title == "November Store Night"
    assert newest.updated == "2026-11-21T00:00:00Z" == feed.feed.updated
    assert "In progress: round 3 of 4 being played" in newest.summary
    assert "Won by" not in newest.summary
    # The rounds whose results are in, newest first; round 3 is being played.
    assert [e.title for e in feed.entries[1:3]] == ["Round 2 results: November Store Night",
                                                    "Round 1 results: November Store Night"]
    assert feed.entries[1].link == f"{BASE}events/{NEWEST}/round-2/"
    assert not any("Round 3 results" in e.title for e in feed.entries)
    assert not any("round-" in link for link in links[3:]), "only an event in progress has rounds"
    assert feed.feed.title == "Northern Card Game League"


def test_a_finished_event_names_its_winner(demo):
    standings = json.loads((demo / f"events/{AUTUMN}/standings.json").read_text(encoding="utf-8"))
    assert standings["complete"]
    winner = standings["standings"][0]["player"]
    assert winner == "Zoë Laurent"
    entry = next(e for e in read(demo / "feed.xml").entries if e.link.endswith(f"/{AUTUMN}/"))
    assert entry.summary.endswith(f"Won by {winner}.")
    assert entry.summary.startswith("Warhammer 40,000: Conquest, 18 October 2025")
    assert entry.updated == "2025-10-18T00:00:00Z"


def test_each_game_has_its_own_feed_of_its_events(demo):
    games = {json.loads((demo / f"events/{slug}/standings.json").read_text())["event"]["game"]
             for slug in (p.name for p in (demo / "events").iterdir() if p.is_dir())}
    assert games == {"conquest", "heresy", "inwo", "kingdom", "spellfire"}
    for game in games:
        atom(demo / f"events/{game}.xml")
    conquest = read(demo / "events/conquest.xml")
    assert conquest.feed.title == "Northern Card Game League · Warhammer 40,000: Conquest"
    slugs = [e.link.split("/")[3] for e in conquest.entries]
    assert slugs[0] == NEWEST and AUTUMN in slugs
    assert all(json.loads((demo / f"events/{s}/standings.json").read_text())["event"]["game"]
               == "conquest" for s in slugs)
    heresy = read(demo / "events/heresy.xml")
    assert [e.link for e in heresy.entries][0] == f"{BASE}events/2026-10-10-armageddon-showdown/"
    assert heresy.feed.updated == "2026-10-10T00:00:00Z"


def test_every_link_of_a_feed_leads_to_a_published_page(demo):
    for feed in (demo / "feed.xml", *(demo / "events").glob("*.xml")):
        root = atom(feed)
        hrefs = [link.get("href") for link in root.iter(A + "link")]
        assert f"{BASE}{feed.relative_to(demo).as_posix()}" in hrefs  # rel="self"
        for href in hrefs:
            assert output_file(demo, href).is_file(), f"{feed.name}: {href}"


@pytest.fixture(scope="module")
def hosted(tmp_path_factory) -> Path:
    """The demo built under a full base_url."""
    source = copy_demo(tmp_path_factory.mktemp("hosted") / "site")
    build(source, source.parent / "out", base_url=HOST)
    return source.parent / "out"


def test_ids_are_tag_uris_without_a_host_and_urls_with_one(demo, hosted):
    ids = [e.findtext(A + "id") for e in atom(demo / "feed.xml").iter(A + "entry")]
    assert ids[0] == f"tag:northern-card-game-league,2026-11-21:events/{NEWEST}/"
    assert ids[1] == f"tag:northern-card-game-league,2026-11-21:events/{NEWEST}/round-2/"
    root = atom(hosted / "feed.xml")
    assert root.findtext(A + "id") == "https://example.org/league/feed.xml"
    entry = root.find(A + "entry")
    assert entry.findtext(A + "id") == f"https://example.org/league/events/{NEWEST}/"
    assert entry.find(A + "link").get("href") == entry.findtext(A + "id")
    for link in root.iter(A + "link"):
        assert output_file(hosted, link.get("href"), HOST).is_file()


def test_feeds_have_no_build_time_and_the_same_bytes_every_build(demo, tmp_path):
    """Two builds from nothing, and one from the state after an in-progress round changed: each
    feed is the same bytes as a clean build gives."""
    source = copy_demo(tmp_path / "site")
    build(source, tmp_path / "a", base_url=BASE)
    feeds = ["feed.xml", *(f"events/{p.name}" for p in (demo / "events").glob("*.xml"))]
    for name in feeds:
        assert (tmp_path / "a" / name).read_bytes() == (demo / name).read_bytes(), name
    dates = set(re.findall(r"\d{4}-\d{2}-\d{2}", (tmp_path / "a/feed.xml").read_text()))
    assert dates <= {p.name[:10] for p in (source / "data/events").iterdir()}  # no build time
    # November Store Night without its round being played: rounds 1 and 2 in, and a new status.
    (source / f"data/events/{NEWEST}/round-3.csv").unlink()
    build(source, tmp_path / "a", base_url=BASE)
    build(source, tmp_path / "b", base_url=BASE, clean=True)
    for name in feeds:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    entries_ = read(tmp_path / "a/feed.xml").entries[:4]
    assert [e.title for e in entries_[:3]] == [
        "November Store Night", "Round 2 results: November Store Night",
        "Round 1 results: November Store Night"]
    assert entries_[0].summary.endswith("In progress: 2 of 4 rounds played.")
    assert "round-" not in entries_[3].link


def test_names_are_escaped_and_the_feed_still_parses(site):
    site.write({
        "data/events/2024-05-18-fish/event.toml": (
            'name = "Fish & <Chips> \\"Cup\\""\ndate = 2024-05-18\ngame = "conquest"\n'
            'structure = "custom"\nswiss_rounds = 1\ncut = 0\nlocation = "O\'Neill\'s <pub>"\n'),
        "data/events/2024-05-18-fish/round-1.csv":
            'table,player,result\n1,Ann & <Bob>,win\n1,"Zed ""Q"" O\'Neil",loss\n',
    })
    assert site.build() == 0
    raw = (site.out / "feed.xml").read_text(encoding="utf-8")
    assert "Ann &amp; &lt;Bob&gt;" in raw and "<Bob>" not in raw
    assert "Fish &amp; &lt;Chips&gt;" in raw
    entry = read(site.out / "feed.xml").entries[0]
    assert entry.title == 'Fish & <Chips> "Cup"'
    assert entry.summary.endswith("Won by Ann & <Bob>.")
    atom(site.out / "events/conquest.xml")
    head = Head.of(site.out / "events/2024-05-18-fish/index.html")
    assert head.meta["og:title"] == 'Fish & <Chips> "Cup" · Tournament results'
    assert head.meta["og:description"].endswith("Won by Ann & <Bob>.")
    page = (site.out / "events/2024-05-18-fish/index.html").read_text(encoding="utf-8")
    assert 'content="Fish &amp; &lt;Chips&gt; &#34;Cup&#34; · Tournament results"' in page
    assert "<Bob>" not in page and "<Chips>" not in page
    player = Head.of(site.out / "players/zed-q-o-neil/index.html")
    assert player.meta["og:title"] == 'Zed "Q" O\'Neil · Tournament results'


def test_a_character_xml_cannot_carry_is_replaced(site):
    """A vertical tab in a name is not even escapable in XML 1.0: it shows as U+FFFD."""
    site.write({"data/events/2024-05-18-vt/event.toml": (
                    'name = "VT"\ndate = 2024-05-18\ngame = "conquest"\nstructure = "custom"\n'
                    'swiss_rounds = 1\ncut = 0\n'),
                "data/events/2024-05-18-vt/round-1.csv": "table,player,result\n1,Ann\x0bB,win\n"
                                                         "1,Zed,loss\n"})
    assert site.build() == 0
    atom(site.out / "feed.xml")
    assert read(site.out / "feed.xml").entries[0].summary.endswith("Won by Ann\ufffdB.")


def test_a_site_without_events_has_no_feed(site):
    (site.root / "data/events").mkdir(parents=True, exist_ok=True)
    assert site.build() == 0
    assert not (site.out / "feed.xml").exists()


def summary(number: int, complete: bool = True, status: str = "Final",
            rounds_in: tuple[int, ...] = ()) -> EventSummary:
    date = dt.date(2020, 1, 1) + dt.timedelta(days=number)
    slug = f"{date.isoformat()}-e{number}"
    label = EventLabel(slug, f"events/{slug}/", f"E{number}", "", date, "Kingdom", complete)
    return EventSummary(slug, f"events/{slug}/", f"E{number}", date, "kingdom", "Kingdom", status,
                        complete, 4, None, None, "", label, rounds_in)


def test_a_feed_holds_the_newest_entries_only():
    events = [summary(n) for n in range(80, 0, -1)]
    events[0] = summary(80, False, "In progress: round 3 of 4 being played", (1, 2))
    found = entries(events)
    assert len(found) == FEED_SIZE
    assert [e.title for e in found[:3]] == ["E80", "Round 2 results: E80", "Round 1 results: E80"]
    assert found[-1].title == f"E{80 - FEED_SIZE + 3}"


def test_an_event_in_progress_lists_the_rounds_whose_results_are_in(tmp_path):
    """Read from the rounds themselves, whatever the status line says: an Armageddon event
    ("4 players still in") lists its rounds too."""
    source = copy_demo(tmp_path / "site")
    armageddon = source / "data/events/2026-10-10-armageddon-showdown"
    rounds = sorted(armageddon.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    rounds[-1].unlink()  # the last round not played yet: the event is in progress
    build(source, tmp_path / "out", base_url=BASE)
    titles = [entry.title for entry in feedparser.parse(
        (tmp_path / "out/events/heresy.xml").read_bytes()).entries]
    shown = [t for t in titles if "Armageddon Showdown" in t]
    assert shown[1:] == [f"Round {n} results: {shown[0]}" for n in range(len(rounds) - 1, 0, -1)]


# ---------------------------------------------------------------- link previews


class Head(HTMLParser):
    """A page's <meta> tags by property or name, and its <link rel="alternate"> feeds."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.feeds: list[tuple[str, str]] = []

    @classmethod
    def of(cls, path: Path) -> Head:
        head = cls()
        head.feed(path.read_text(encoding="utf-8"))
        return head

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "meta" and ("property" in found or "name" in found):
            self.meta[found.get("property") or found["name"]] = found.get("content")
        if tag == "link" and found.get("rel") == "alternate":
            assert found["type"] == "application/atom+xml"
            self.feeds.append((found["title"], found["href"]))


def test_every_page_links_the_site_feed_and_has_preview_tags(demo):
    """Open Graph tags on every page; Twitter's card reads them, so it gets its kind only
    (twitter:title and twitter:description would say the og: values again)."""
    for page in demo.rglob("*.html"):
        head = Head.of(page)
        assert ("Northern Card Game League", f"{BASE}feed.xml") in head.feeds, page
        for key in ("og:title", "og:description", "og:type", "og:site_name", "twitter:card"):
            assert head.meta.get(key), (page, key)
        assert head.meta["twitter:card"] == "summary", page
        assert "twitter:title" not in head.meta and "twitter:description" not in head.meta, page
        assert head.meta["og:description"] == head.meta["description"]
        assert head.meta["og:title"].endswith(" · Northern Card Game League"), page
        assert "og:url" not in head.meta, "no og:url without the site's host"


def test_an_event_in_progress_previews_its_status(demo):
    head = Head.of(demo / f"events/{NEWEST}/index.html")
    assert head.meta["og:title"] == "November Store Night · Northern Card Game League"
    assert head.meta["og:description"] == (
        "Warhammer 40,000: Conquest, 21 November 2026, The Warp Gate Games Café, Leeds. "
        "In progress: round 3 of 4 being played.")
    assert ("Northern Card Game League · Warhammer 40,000: Conquest",
            f"{BASE}events/conquest.xml") in head.feeds


def test_a_finished_event_previews_its_winner(demo):
    head = Head.of(demo / f"events/{AUTUMN}/index.html")
    assert head.meta["og:title"] == "Autumn Store Championship · Northern Card Game League"
    assert head.meta["og:description"].startswith("Warhammer 40,000: Conquest, 18 October 2025")
    assert head.meta["og:description"].endswith("Won by Zoë Laurent.")
    spellfire = Head.of(demo / "events/2025-12-06-leeds-winter-championship/index.html")
    assert spellfire.meta["og:description"].startswith(
        "Leeds Winter Championship: SPELLFIRE, 6 December 2025")


def test_round_and_player_pages_preview_what_they_show(demo):
    playing = Head.of(demo / f"events/{NEWEST}/round-3/index.html")
    assert playing.meta["og:title"] == \
        "Round 3 · November Store Night · Northern Card Game League"
    assert playing.meta["og:description"].startswith(
        "Round 3 of November Store Night, Warhammer 40,000: Conquest, 21 November 2026: the "
        "pairings and the results so far.")
    done = Head.of(demo / f"events/{AUTUMN}/round-2/index.html")
    assert "Round 2 of Autumn Store Championship" in done.meta["og:description"]
    assert done.meta["og:description"].endswith("Won by Zoë Laurent.")
    player = Head.of(demo / "players/zoe-laurent/index.html")
    assert player.meta["og:title"] == "Zoë Laurent · Northern Card Game League"
    assert player.meta["og:description"].startswith("Tournament history of Zoë Laurent: ")
    ranking = Head.of(demo / "rankings/conquest/index.html")
    assert ("Northern Card Game League · Warhammer 40,000: Conquest",
            f"{BASE}events/conquest.xml") in ranking.feeds


def test_og_url_is_absolute_when_the_site_has_a_host(hosted):
    event = Head.of(hosted / f"events/{NEWEST}/index.html")
    assert event.meta["og:url"] == f"https://example.org/league/events/{NEWEST}/"
    assert Head.of(hosted / "index.html").meta["og:url"] == HOST
    assert "og:url" not in Head.of(hosted / "404.html").meta  # served at any address
    assert ("Northern Card Game League", "/league/feed.xml") in event.feeds
