"""The fallback of the Swiss pairing (swiss.py), for a round the seed's procedure cannot pair
without a rematch: the pairing with no rematch and the fewest pair-downs; when none avoids every
rematch, the one with the fewest rematches.

What "fewest pair-downs" means here, from seed 001 ("Swiss Rounds"): players are paired "with
the same number of tournament points", and the odd one of a group "with a random player from the
group of players with the next most tournament points". So a pair-down reaches the next point
group. Only when no pairing of that kind avoids every rematch may pair-downs reach two groups,
then three, and so on: among the pairings with no rematch whose pair-downs reach at most k point
groups, k the smallest for which there is one, the fallback finds one with the fewest pair-downs,
then the least reach, then at random. (A pair-down reaching past a group is what `check` warns
about, rules/swiss.py's pairing_departures; a pairing that saved one pair-down by reaching past
a group, where pair-downs to the next group could avoid every rematch, would be warned about.)

Exact, and quick for thousands of players: a maximum-weight perfect matching (Edmonds' blossom
algorithm, rustworkx) on a graph whose large point groups are cut down first (_cut_down says why
that loses nothing): a few dozen players of each group, and every pair within k groups of each
other that has not met. r below is the most opponents any player has among those to pair: at
most the rounds played, so at a real event large groups are always cut down.
"""

from __future__ import annotations

import random
from itertools import groupby
from typing import TYPE_CHECKING

import rustworkx as rx

if TYPE_CHECKING:
    from .swisspairing import Entrant

Pair = tuple["Entrant", "Entrant"]


def fewest_pair_downs(players: list[Entrant], rng: random.Random) -> list[Pair] | None:
    """No rematch, the fewest pair-downs within the smallest reach k (see above); None when
    every pairing has a rematch."""
    groups = _point_groups(players, rng)
    most_met = _most_met(players)
    paired: list[Pair] = []
    kept: list[list[Entrant]] = []
    for members in groups:
        stay, pairs = _cut_down(members, most_met)
        kept.append(stay)
        paired += pairs
    for reach in range(1, max(len(groups), 2)):
        matched = _match(kept, reach, rng, allow_rematches=False)
        if matched is not None:
            return paired + matched
    return None


def fewest_rematches(players: list[Entrant], rng: random.Random) -> list[Pair]:
    """The fewest rematches, then the fewest pair-downs and the least reach. Only reached when
    someone has met at least half of the others (else Dirac gives a pairing without rematch),
    so a small event: every pair is an edge."""
    groups = _point_groups(players, rng)
    matched = _match(groups, max(len(groups) - 1, 1), rng, allow_rematches=True)
    assert matched is not None  # every pair is an edge: some pairing always exists
    return matched


def _point_groups(players: list[Entrant], rng: random.Random) -> list[list[Entrant]]:
    """The point groups, top first, each in a random order (who stays, who is paired at once,
    and which of equally good pairings is made: all at random, as the seed pairs)."""
    groups = [list(group) for _, group in groupby(players, key=lambda e: e.points)]
    for members in groups:
        rng.shuffle(members)
    return groups


def _most_met(players: list[Entrant]) -> int:
    """r: the most opponents any player has among those to pair (dropped ones do not count)."""
    names = {e.name for e in players}
    return max((len(e.met & names) for e in players), default=0)


def _cut_down(members: list[Entrant], most_met: int) -> tuple[list[Entrant], list[Pair]]:
    """A group of 8r + 8 or more: the 4r + 4 (or 4r + 5, for an even rest) who stay for the
    matching, and the rest paired among themselves at once. A smaller group stays whole.

    Why no pairing is lost. (1) Dirac: a group of at least 2r + 2 can be paired among itself
    without a rematch (everyone may play at least half the others). (2) A best pairing pairs
    down at most r + 1 players of such a group to each side: among r + 2 partners on one side,
    two have not met (each met at most r), and pairing those two together, the group's two
    with the rest of their group (1), saves a pair-down and reaches less far. (Were so many
    paired down that the rest fell below 2r + 2, two of them and their partners would all be
    free to swap outright.) (3) So a best pairing, at the same cost, can pair down only players
    who stay: each of its at most 2r + 2 pair-downs finds one who stays and has not met the
    partner, and the at least 2r + 2 who stay and are not paired down pair among themselves by
    (1). tests/games/test_swiss_fallback.py checks it against a matching of every player."""
    stay = 4 * most_met + 4
    stay += (len(members) - stay) % 2
    if len(members) - stay < 4 * most_met + 4:
        return members, []
    pairs = _pair_up(members[stay:])
    return (members, []) if pairs is None else (members[:stay], pairs)


def _pair_up(members: list[Entrant]) -> list[Pair] | None:
    """All of an even group, no rematch: first come, first served; each two it leaves over
    (who met: every one left over met all who came after) take the places of a pair (a, b)
    as (x, a) and (y, b). With at least 3r + 2 players such a pair exists: a pair neither way
    round uses up two of the at most 2r - 2 opponents x and y have among the pairs, and there
    are at least r pairs. None if none is found (not with these sizes)."""
    left, pairs, over = list(members), [], []
    while left:
        first = left.pop(0)
        k = next((k for k, other in enumerate(left) if other.name not in first.met), None)
        if k is None:
            over.append(first)
        else:
            pairs.append((first, left.pop(k)))
    for x, y in zip(over[::2], over[1::2]):
        swap = next(((k, way) for k, (a, b) in enumerate(pairs)
                     if (way := _may_take(x, y, a, b))), None)
        if swap is None:
            return None
        k, way = swap
        a, b = pairs[k]
        pairs[k:k + 1] = [(x, a), (y, b)] if way == 1 else [(x, b), (y, a)]
    return pairs


def _may_take(x: Entrant, y: Entrant, a: Entrant, b: Entrant) -> int:
    """1 if x may play a and y b, 2 if x may play b and y a, 0 if neither."""
    if a.name not in x.met and b.name not in y.met:
        return 1
    return 2 if b.name not in x.met and a.name not in y.met else 0


NOISE_BITS = 16
NOISE = 1 << NOISE_BITS
"""Each pair's random draw, below one group of reach however many pairs there are: it only
chooses among pairings equally good otherwise (getrandbits: a twentieth of the time randrange
takes, which was a third of the fallback's time on 2,000 players)."""


def _match(groups: list[list[Entrant]], reach: int, rng: random.Random,
           allow_rematches: bool) -> list[Pair] | None:
    """A perfect matching of the groups' players of least cost, pairs at most `reach` groups
    apart; None if there is none. The costs are integers weighed so that one rematch outweighs
    any number of pair-downs, one pair-down any reach, one group of reach any random draw."""
    players = [e for members in groups for e in members]
    level = [k for k, members in enumerate(groups) for _ in members]
    count, pairs = len(players), len(players) // 2
    per_reach = NOISE * pairs + 1
    per_down = per_reach * (reach * pairs + 1)
    per_rematch = per_down * (pairs + 1)
    top = 2 * per_rematch
    edges, degree = [], [0] * count
    for i, a in enumerate(players):
        for j in range(i + 1, count):
            apart = level[j] - level[i]
            if apart > reach:
                break  # the players run by group: the rest are further still
            rematch = players[j].name in a.met
            if rematch and not allow_rematches:
                continue
            cost = (per_rematch * rematch + (per_down + per_reach * apart if apart else 0)
                    + rng.getrandbits(NOISE_BITS))
            edges.append((i, j, top - cost))
            degree[i] += 1
            degree[j] += 1
    if count % 2 or 0 in degree:
        return None  # someone has nobody to play within this reach (quick to see, common)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(count))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(matched) < pairs:
        return None
    return [(players[i], players[j]) for i, j in matched]
