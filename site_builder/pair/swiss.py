"""Swiss pairing by the Conquest regulations (seed 001, "Swiss Rounds"), for every two-player
Swiss game (Conquest, Kingdom): pure functions, randomness from the caller's seeded generator.

* Round 1: players are paired at random; with an odd count a random player gets the bye.
* Later rounds: with an odd count, the bye goes to the lowest-ranked player who has not had one.
  "Take the group of players with the most tournament points and pair them at random. If there is
  an odd number of players in that group, pair the remaining player with a random player from the
  group with the next most tournament points. Then pair all remaining players in the second group
  at random. Continue until all players are paired" — and never two players who met before in
  the Swiss rounds.
* When that procedure cannot avoid a rematch, the pairing with the fewest pair-downs (pairs of
  players from different point groups) that avoids every rematch is found as a minimum-cost
  perfect matching (Edmonds' blossom algorithm, networkx). Only when no pairing avoids them all
  is a rematch paired, as few as possible, and reported.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import groupby

import networkx as nx


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


def later_round(entrants: list[Entrant], rng: random.Random) -> SwissPairing:
    """A round after the first: the bye, then the seed's pairing by point groups."""
    players = list(entrants)
    bye, notes = None, []
    if len(players) % 2:
        bye = _bye(players, notes)
        players = [e for e in players if e.name != bye]
    pairs = _by_point_groups(players, rng)
    if pairs is None:
        pairs = _fewest_pair_downs(players, rng, allow_rematches=False)
        if pairs is not None:
            notes.append("no pairing by point groups avoids a rematch: paired with the fewest "
                         "pair-downs that avoids them all")
    if pairs is None:
        pairs = _fewest_pair_downs(players, rng, allow_rematches=True)
        notes.append("no pairing avoids every rematch: paired with as few as possible")
    return _pairing(pairs, players, bye, notes)


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


def _match_group(members: list[Entrant]) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None] | None:
    """A pairing of the group without rematches, when first come, first served found none: a
    maximum matching; the order of `members` (shuffled) decides among equally good ones."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(members)))
    for i, a in enumerate(members):
        for j in range(i + 1, len(members)):
            if members[j].name not in a.met:
                graph.add_edge(i, j, weight=len(members) * 2 - i - j)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matched) < len(members) // 2:
        return None
    pairs = [(members[min(i, j)], members[max(i, j)]) for i, j in sorted(map(sorted, matched))]
    used = {i for pair in matched for i in pair}
    over = [m for i, m in enumerate(members) if i not in used]
    return pairs, (over[0] if over else None)


BAND = 30
"""Players are matched with those at most this many places away in the standings (and everyone
of their own point group): Edmonds' algorithm in Python takes seconds on a dense graph of a few
hundred players, and the fewest pair-downs never need partners far down the standings. The band
widens to everyone when it leaves someone unmatched."""
PAIR_DOWN = 1_000
REMATCH = 1_000_000


def _fewest_pair_downs(players: list[Entrant], rng: random.Random,
                       allow_rematches: bool) -> list[tuple[Entrant, Entrant]] | None:
    """A perfect matching of minimum cost: each rematch costs REMATCH (or is not allowed), each
    pair-down PAIR_DOWN plus the point groups it crosses, and a random fraction settles ties."""
    groups = {points: k for k, points in enumerate(dict.fromkeys(e.points for e in players))}
    noise = [[rng.random() for _ in players] for _ in players]
    for band in (BAND, len(players)):
        graph = nx.Graph()
        graph.add_nodes_from(range(len(players)))
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                b = players[j]
                near = j - i <= band or a.points == b.points
                rematch = b.name in a.met
                if not near or (rematch and not allow_rematches):
                    continue
                apart = abs(groups[a.points] - groups[b.points])
                cost = (REMATCH if rematch else 0) + (PAIR_DOWN + apart if apart else 0) + noise[i][j]
                graph.add_edge(i, j, weight=2 * REMATCH * len(players) - cost)
        matched = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matched) == len(players) // 2:
            return [(players[min(i, j)], players[max(i, j)]) for i, j in matched]
    return None


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
