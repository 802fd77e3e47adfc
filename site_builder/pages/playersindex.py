"""Plan stage, the players index: everyone with a history, sorted by family name, with A–Z jump
links; past SPLIT_ABOVE names, one page per letter (a phone scrolls one letter, not thousands).

A family name is told from the name as written: its last word, leaving out suffixes such as
"Jr." ("Mateus Costa" under C, "Cleo B. Fujita" under F). Names are shown as written.
"""

from __future__ import annotations

from string import ascii_uppercase

from ..core.digests import digest
from ..core.model import Person
from ..league.people import fold_letters
from .eventpages import Page

SPLIT_ABOVE = 300
"""More names than this and each letter gets its own page."""
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
OTHER = "#"
"""The group of names whose family name does not start with a letter A–Z."""


def folded(text: str) -> str:
    """For sorting: accents folded ('Élodie' with the Es, 'Søren' with the Ss), case
    ignored."""
    return fold_letters(text).casefold()


def family_name(name: str) -> str:
    words = name.split()
    while len(words) > 1 and words[-1].casefold().rstrip(".,") in SUFFIXES:
        words.pop()
    return words[-1] if words else name


def sort_key(name: str) -> tuple[str, str]:
    """By family name, then by the whole name."""
    return folded(family_name(name)), folded(name)


def initial(name: str) -> str:
    first = folded(family_name(name))[:1].upper()
    return first if first in ascii_uppercase else OTHER


def letter_url(letter: str) -> str:
    """A letter's page. `_` cannot begin a player id (ids are slugs), so no person's page and no
    letter's page can ever share a URL."""
    return f"players/_{'0' if letter == OTHER else letter.lower()}/"


def players_index_pages(people: dict[str, Person], events_of: dict[str, int]) -> list[Page]:
    """`events_of`: person id → how many events they have a result in."""
    listed = sorted((people[pid] for pid in events_of), key=lambda p: (sort_key(p.name), p.id))
    groups: dict[str, list[tuple[Person, int]]] = {}
    for person in listed:
        groups.setdefault(initial(person.name), []).append((person, events_of[person.id]))
    split = len(listed) > SPLIT_ABOVE
    letters = tuple((letter, len(groups.get(letter, ())),
                     letter_url(letter) if split else f"players/#letter-{_anchor(letter)}")
                    for letter in (*ascii_uppercase, OTHER))
    if not split:
        shown = [(letter, _anchor(letter), groups[letter]) for letter, *_ in letters
                 if letter in groups]
        return [_page("players/", None, shown, letters, len(listed))]
    pages = [_page("players/", None, [], letters, len(listed))]
    for letter, people_here in groups.items():
        pages.append(_page(letter_url(letter), letter, [(letter, _anchor(letter), people_here)],
                           letters, len(listed)))
    return pages


def _anchor(letter: str) -> str:
    return "other" if letter == OTHER else letter.lower()


def _page(url: str, letter: str | None, groups: list, letters: tuple, total: int) -> Page:
    context = {"groups": groups, "letters": letters, "letter": letter, "total": total,
               "split": total > SPLIT_ABOVE}
    made_of = digest(*((letter, [(p.id, p.name, count) for p, count in people])
                       for letter, _, people in groups))
    return Page(url, "players.html", context, ("players", letter, total, letters, made_of))
