"""The renderer's caches of drawn strings: entries that leave oldest first beyond a budget,
and the packed ids that key runs of rows."""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Sequence
from itertools import chain
from typing import Any


class RecentStrings:
    """Entries of (what the entry keeps alive, a string), the oldest leaving first once the
    strings add up to more than `characters`, or the entries number more than `entries`.

    Oldest put, not least recently used: marking an entry used (OrderedDict.move_to_end) hashes
    its key again, and the renderer's keys are deep view objects whose hash is computed in
    Python. That made a Swiss round's rendering 10% slower; the budgets are rarely reached."""

    __slots__ = ("entries", "chars", "characters", "limit")

    def __init__(self, characters: int, entries: int):
        self.entries: OrderedDict[Any, tuple[Any, str]] = OrderedDict()
        self.chars = 0
        self.characters, self.limit = characters, entries

    def get(self, key: Any) -> tuple[Any, str] | None:
        return self.entries.get(key)

    def add(self, key: Any, entry: tuple[Any, str]) -> None:
        """A key just looked up and missed: not looked up again to replace an old entry, as
        each look at a deep key hashes it again."""
        self.entries[key] = entry
        self.chars += len(entry[1])
        while len(self.entries) > 1 and (self.chars > self.characters
                                         or len(self.entries) > self.limit):
            self.chars -= len(self.entries.popitem(last=False)[1][1])


def packed_ids(items: Sequence[Any]) -> tuple[int, bytes] | None:
    """The ids of a list's items as one bytes string, with the items' width: tuples of `width`
    objects give the ids of their objects, `width` ids an item; other objects their own id, and
    width -1. None for a list mixing the two, or tuples of different lengths: no run of it can
    be told from the same objects grouped otherwise."""
    if not items:
        return 0, b""
    shapes = set(map(type, items))
    if shapes == {tuple}:
        widths = set(map(len, items))
        if len(widths) != 1:
            return None
        return widths.pop(), array("Q", map(id, chain.from_iterable(items))).tobytes()
    if tuple in shapes:
        return None
    return -1, array("Q", map(id, items)).tobytes()
