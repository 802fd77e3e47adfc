"""Search: the page `search/` and its index `search.json`, every player and event by name.

The index is small on purpose: names, not the text of pages. Each entry carries its name as shown,
its address, its game(s) and year(s), and `f`, the name folded for matching (folded the same way
by themes/default/static/search.js for the query). It is one page with a key like any other, so
`build` and watch mode keep it current; its key holds every value the file shows.

    {"games": [title, …],
     "players": [{"n": name, "u": "players/<id>/", "f": folded, "g": [game index, …],
                  "y": [first year, last year], "c": events}, …],
     "events": [{"n": name, "s": subtitle (only if any), "u": "events/<slug>/", "f": folded,
                 "g": game index, "d": "YYYY-MM-DD"}, …]}
"""

from __future__ import annotations

import re
from functools import partial

from ..core.digests import digest
from .facts import EventFacts
from ..core.jsonfile import dump_json
from ..core.model import Person
from ..league.people import fold_letters
from .eventpages import Page

INDEX_URL = "search.json"

_JOINED = re.compile(r"['’ʼ.]")
_SEPARATORS = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """A name as it is matched: letters folded as people.fold_letters does ('Zoë' → 'zoe',
    'Søren' → 'soren'), case folded, apostrophes and dots removed ("O'Neill" → 'oneill'), other
    punctuation a space. The theme's fold.js folds a query the same way."""
    return " ".join(_SEPARATORS.sub(" ", _JOINED.sub("", fold_letters(text).casefold())).split())


def search_page_set(games: list[str], players: list[tuple], listed: list[tuple]) -> list[Page]:
    """The search page and its index, from the rows of `search_player` and `search_event`,
    sorted."""
    made_of = ("search index", tuple(games), digest(players, listed))
    return [Page("search/", "search.html", {"index_url": INDEX_URL}, ("search",)),
            Page(INDEX_URL, None, key=made_of, in_sitemap=False,
                 data=partial(index_json, games, players, listed))]


def search_player(person: Person, entries: list, of_event: dict[str, tuple[int, int]]) -> tuple:
    """`of_event`: each event's (game index, year), by its slug."""
    played = {of_event[facts.slug] for facts, _, _ in entries}
    titles = sorted({game for game, _ in played})
    years = [year for _, year in played]
    return (fold(person.name), f"players/{person.id}/", person.name, tuple(titles), min(years),
            max(years), len(entries))


def search_event(facts: EventFacts, number: dict[str, int]) -> tuple:
    summary = facts.summary
    return (fold(f"{summary.name} {summary.subtitle}"), summary.url, summary.name,
            summary.subtitle, number[summary.game_title], summary.date.isoformat())


def index_json(games: list[str], players: list[tuple], events: list[tuple]) -> str:
    return dump_json({
        "games": games,
        "players": [{"n": name, "u": url, "f": folded, "g": list(titles), "y": [first, last],
                     "c": count} for folded, url, name, titles, first, last, count in players],
        "events": [{"n": name, **({"s": subtitle} if subtitle else {}), "u": url, "f": folded,
                    "g": game, "d": date} for folded, url, name, subtitle, game, date in events],
    })
