"""Swiss pairing by the Conquest regulations (seed 001, "Swiss Rounds"), for every two-player
Swiss game (Conquest, Kingdom): pure functions, randomness from the caller's seeded generator
(and a notice of a long pairing on the stream the caller gives, if it gives one).

* Round 1: players are paired at random; with an odd count a random player gets the bye.
* Later rounds: with an odd count, the bye goes to the lowest-ranked player who has not had one.
  "Take the group of players with the most tournament points and pair them at random. If there is
  an odd number of players in that group, pair the remaining player with a random player from the
  group with the next most tournament points. Then pair all remaining players in the second group
  at random. Continue until all players are paired" — and never two players who met before in
  the Swiss rounds.
* When that procedure cannot avoid a rematch, the pairing with the fewest pair-downs (pairs of
  players from different point groups) that avoids every rematch, pair-downs reaching the next
  point group where that can be done (swiss_fallback.py says exactly what it finds, and why it
  is quick). Only when no pairing avoids them all is a rematch paired, as few as possible, and
  reported.

A pairing that runs longer than a second says what it is doing on the `notices` stream (`pair`
passes stderr): thousands of players are paired in seconds, but not at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import groupby
from typing import TextIO

import networkx as nx
import rustworkx as rx

from ..core.notice import Notice
from .swissfallback import fewest_pair_downs as _fewest_pair_downs
from .swissfallback import fewest_rematches as _fewest_rematches


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the pairing sees them, in standings order (best first)."""

    name: str
    points: int
    had_bye: bool = False
    met: frozenset[str] = frozenset()
    """Everyone they played in the Swiss rounds so far."""


@dataclass(slots=True)
class SwissPairing:
    tables: list[tuple[str, str]]
    """Table 1 first: the pairs in the order of their better player's standing."""
    bye: str | None = None
    pair_downs: list[tuple[str, str]] = field(default_factory=list)
    """Pairs of players with different points (better player first)."""
    rematches: list[tuple[str, str]] = field(default_factory=list)
    """Pairs who met before: only when no pairing avoids it."""
    notes: list[str] = field(default_factory=list)


def first_round(names: list[str], rng: random.Random) -> SwissPairing:
    """Round 1: random pairs, and a random bye for an odd count."""
    shuffled = list(names)
    rng.shuffle(shuffled)
    bye = shuffled.pop() if len(shuffled) % 2 else None
    return SwissPairing([(shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled), 2)], bye)


def later_round(entrants: list[Entrant], rng: random.Random,
                notices: TextIO | None = None) -> SwissPairing:
    """A round after the first: the bye, then the seed's pairing by point groups. What a long
    pairing is doing goes to `notices`, if given (see notice.py)."""
    players = list(entrants)
    bye, notes = None, []
    if len(players) % 2:
        bye = _bye(players, notes)
        players = [e for e in players if e.name != bye]
    with Notice(notices, f"Pairing {len(players):,} players", "by point groups") as notice:
        pairs = _by_point_groups(players, rng)
        if pairs is None:
            notice.now("looking for the fewest pair-downs that avoid every rematch")
            pairs = _fewest_pair_downs(players, rng)
            if pairs is not None:
                notes += _rematch_note(pairs, players)
        if pairs is None:
            notice.now("no pairing avoids every rematch; looking for the fewest rematches")
            pairs = _fewest_rematches(players, rng)
            notes.append("no pairing avoids every rematch: paired with as few as possible")
    return _pairing(pairs, players, bye, notes)


def _rematch_note(pairs: list[tuple[Entrant, Entrant]], players: list[Entrant]) -> list[str]:
    """What the organizer is told when the pairing group by group ran into a rematch. Nothing
    when the pairing found is still one the point groups give (as many pair-downs as odd groups
    pass a player down, each to the next group): only the order within the groups changed."""
    levels = sorted({e.points for e in players}, reverse=True)
    needed, carried = 0, 0
    for _, group in groupby(players, key=lambda e: e.points):
        needed += carried
        carried = (len(list(group)) + carried) % 2
    downs = [(a, b) for a, b in pairs if a.points != b.points]
    if len(downs) == needed and all(
            abs(levels.index(a.points) - levels.index(b.points)) == 1 for a, b in downs):
        return []
    return ["pairing within the point groups would repeat an earlier game: paired with the "
            "fewest pair-downs that avoid every rematch"]


def _bye(players: list[Entrant], notes: list[str]) -> str:
    """The lowest-ranked player who has not had a bye (the lowest-ranked, if all have)."""
    for entrant in reversed(players):
        if not entrant.had_bye:
            return entrant.name
    notes.append("everyone has had a bye: the lowest-ranked player gets another")
    return players[-1].name


def _by_point_groups(players: list[Entrant], rng: random.Random) -> list[tuple[Entrant, Entrant]] | None:
    """The seed's procedure, group by group from the top; None when some group cannot be paired
    without a rematch. Within a group the pairing is random: a shuffled order paired first come,
    first served, and a matching of the group only where that leaves players over."""
    pairs: list[tuple[Entrant, Entrant]] = []
    carried: Entrant | None = None
    for _, group in groupby(players, key=lambda e: e.points):
        members = list(group)
        rng.shuffle(members)
        if carried is not None:  # paired down: a random member they have not met
            partners = [m for m in members if m.name not in carried.met]
            if not partners:
                return None
            partner = rng.choice(partners)
            pairs.append((carried, partner))
            members.remove(partner)
            carried = None
        grouped = _pair_group(members)
        if grouped is None:
            return None
        group_pairs, carried = grouped
        pairs += group_pairs
    return pairs if carried is None else None


def _pair_group(members: list[Entrant]) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None] | None:
    """Pairs within one group (already shuffled), and the one left over when it is odd."""
    left = list(members)
    pairs = []
    while len(left) > 1:
        first = left.pop(0)
        partner = next((m for m in left if m.name not in first.met), None)
        if partner is None:
            return _match_group(members)
        left.remove(partner)
        pairs.append((first, partner))
    return pairs, (left[0] if left else None)


EXACT_GROUP = 64
"""Up to this size a group's matching is networkx's, as it always was, so that the same seed
pairs the same way (its choice among equally good matchings is its own); it takes up to a
tenth of a second there, but grows with the cube of the group (a group of 500: over a minute).
Larger groups use rustworkx: the same algorithm, in Rust, a hundred times faster."""


def _match_group(members: list[Entrant]) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None] | None:
    """A pairing of the group without rematches, when first come, first served found none: a
    maximum matching; the order of `members` (shuffled) decides among equally good ones."""
    edges = [(i, j, len(members) * 2 - i - j) for i, a in enumerate(members)
             for j in range(i + 1, len(members)) if members[j].name not in a.met]
    if len(members) <= EXACT_GROUP:
        graph = nx.Graph()
        graph.add_nodes_from(range(len(members)))
        graph.add_weighted_edges_from(edges)
        matched = nx.max_weight_matching(graph, maxcardinality=True)
    else:
        graph = rx.PyGraph()
        graph.add_nodes_from(range(len(members)))
        graph.add_edges_from(edges)
        matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(matched) < len(members) // 2:
        return None
    pairs = [(members[min(i, j)], members[max(i, j)]) for i, j in sorted(map(sorted, matched))]
    used = {i for pair in matched for i in pair}
    over = [m for i, m in enumerate(members) if i not in used]
    return pairs, (over[0] if over else None)


def _pairing(pairs: list[tuple[Entrant, Entrant]], players: list[Entrant], bye: str | None,
             notes: list[str]) -> SwissPairing:
    rank = {e.name: k for k, e in enumerate(players)}
    ordered = sorted(((a, b) if rank[a.name] < rank[b.name] else (b, a) for a, b in pairs),
                     key=lambda pair: rank[pair[0].name])
    return SwissPairing(
        tables=[(a.name, b.name) for a, b in ordered],
        bye=bye,
        pair_downs=[(a.name, b.name) for a, b in ordered if a.points != b.points],
        rematches=[(a.name, b.name) for a, b in ordered if b.name in a.met],
        notes=notes,
    )


