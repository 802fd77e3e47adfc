"""Atom feeds: the whole site's (`feed.xml`) and each game's (`events/<game>.xml`), planned from
the events' summaries like the archive.

Each event is an entry: its page, its date, and who won it or how far it is. An event in
progress also has an entry per round whose results are in ("Round 2 results: …"), linking to
that round's page. There is no build time anywhere, so the same events give the same bytes: an
entry's `updated` is its event's date, and a feed's is its newest entry's. Ids are the pages'
absolute URLs when base_url names a host, else `tag:` URIs made of the site's title and the
event's date (`tag:northern-card-game-league,2026-11-21:events/2026-11-21-x/`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple
from xml.sax.saxutils import escape, quoteattr

from ..league.config import SiteConfig
from .facts import EventSummary
from ..league.people import slugify
from .eventpages import Page
from ..core.dates import long_date

FEED_SIZE = 50
"""Entries per feed, the newest: a reader polls the feed, and the archive holds the rest."""
ATOM = "http://www.w3.org/2005/Atom"

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot carry, even escaped."""


class Entry(NamedTuple):
    path: str
    """The page it links to, relative to the site root."""
    title: str
    date: dt.date
    summary: str


class Feed(NamedTuple):
    path: str
    title: str
    home: str
    """The page the feed follows (its `alternate` link), relative to the site root."""
    since: dt.date
    """The site's oldest event: the date of the feed's `tag:` id."""
    entries: tuple[Entry, ...]
    """Newest first."""


def feed_pages(config: SiteConfig, summaries: Sequence[EventSummary]) -> list[Page]:
    """The site's feed and each game's, from the events' summaries (newest first). A site with
    no events yet has no feed."""
    if not summaries:
        return []
    since = min(s.date for s in summaries)
    feeds = [Feed("feed.xml", config.title, "", since, entries(summaries))]
    games: dict[str, list[EventSummary]] = defaultdict(list)
    for summary in summaries:
        games[summary.game].append(summary)
    feeds += [Feed(game_feed(game), f"{config.title} · {group[0].game_title}", "events/", since,
                   entries(group)) for game, group in sorted(games.items())]
    return [Page(feed.path, None, key=("feed", feed), in_sitemap=False,
                 data=partial(atom, config, feed)) for feed in feeds]


def game_feed(game: str) -> str:
    """The path of a game's feed, beside its events: events/conquest.xml."""
    return f"events/{game}.xml"


def entries(summaries: Sequence[EventSummary]) -> tuple[Entry, ...]:
    """The FEED_SIZE newest entries: each event, and after an event in progress its rounds with
    results in, the newest first."""
    found: list[Entry] = []
    for summary in summaries[:FEED_SIZE]:
        title = f"{summary.name} ({summary.subtitle})" if summary.subtitle else summary.name
        found.append(Entry(summary.url, title, summary.date, describe(summary)))
        if not summary.complete:
            when = f"{summary.game_title}, {long_date(summary.date)}"
            found += [Entry(f"{summary.url}round-{n}/", f"Round {n} results: {title}",
                            summary.date, f"{when}: the results of round {n} are in. "
                                          f"{summary.status}.")
                      for n in reversed(summary.rounds_in)]
    return tuple(found[:FEED_SIZE])


def describe(summary: EventSummary) -> str:
    """'Conquest, 18 October 2025, Leeds: 8 players. Won by Zoë Laurent.'"""
    where = f", {summary.location}" if summary.location else ""
    players = f"{summary.players} player{'' if summary.players == 1 else 's'}"
    outcome = f"Won by {summary.winner.name}" if summary.winner else summary.status
    return f"{summary.game_title}, {long_date(summary.date)}{where}: {players}. {outcome}."


def atom(config: SiteConfig, feed: Feed) -> str:
    """The feed as Atom (RFC 4287), every value escaped."""
    updated = feed.entries[0].date if feed.entries else feed.since
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f"<feed xmlns={_attr(ATOM)} xml:lang={_attr(config.language)}>",
        f"  <id>{_text(ident(config, feed.since, feed.path))}</id>",
        f"  <title>{_text(feed.title)}</title>",
        f"  <updated>{_time(updated)}</updated>",
        f"  <link rel=\"self\" type=\"application/atom+xml\" href={_href(config, feed.path)}/>",
        f"  <link rel=\"alternate\" type=\"text/html\" href={_href(config, feed.home)}/>",
        f"  <author><name>{_text(config.title)}</name></author>",
        "  <generator>site-builder</generator>",
    ]
    for entry in feed.entries:
        lines += [
            "  <entry>",
            f"    <id>{_text(ident(config, entry.date, entry.path))}</id>",
            f"    <title>{_text(entry.title)}</title>",
            f"    <link rel=\"alternate\" type=\"text/html\" href={_href(config, entry.path)}/>",
            f"    <updated>{_time(entry.date)}</updated>",
            f"    <summary>{_text(entry.summary)}</summary>",
            "  </entry>",
        ]
    lines += ["</feed>", ""]
    return "\n".join(lines)


def ident(config: SiteConfig, date: dt.date, path: str) -> str:
    """A stable, unique id: the page's absolute URL when base_url names a host, else a tag: URI
    (RFC 4151) of the site's title, the date and the page's path under the site."""
    if config.base_url.origin:
        return config.base_url.absolute(path)
    authority = slugify(config.title)[:63].strip("-") or "site-builder"
    return f"tag:{authority},{date.isoformat()}:{path}"


def _href(config: SiteConfig, path: str) -> str:
    """Absolute when base_url names a host, else the path under it (readers resolve it against
    the feed's own address)."""
    return _attr(config.base_url.absolute(path))


def _time(date: dt.date) -> str:
    return f"{date.isoformat()}T00:00:00Z"


def _text(value: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", value))


def _attr(value: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", value))
