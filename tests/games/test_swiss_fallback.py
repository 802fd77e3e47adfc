"""The Swiss fallback (pair/swiss_fallback.py) finds what it says it finds, checked against an
exhaustive search on every small case hypothesis draws, and against the whole graph on larger
events where it cuts groups down; and a long pairing says what it is doing, on stderr only."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.core import notice
from site_builder.rules import swisspairing as swiss
from site_builder.rules import swissfallback as swiss_fallback
from site_builder.rules.swisspairing import Entrant


def _event(draw, players: int, groups: int, density: float) -> list[Entrant]:
    """Players in standings order, with random points (some groups may be empty) and a random
    history of who met whom."""
    names = [f"P{k}" for k in range(players)]
    points = [draw(st.integers(0, groups - 1)) * 5 for _ in names]
    met: dict[str, set[str]] = {n: set() for n in names}
    for i in range(players):
        for j in range(i + 1, players):
            if draw(st.floats(0, 1)) < density:
                met[names[i]].add(names[j])
                met[names[j]].add(names[i])
    order = sorted(range(players), key=lambda k: -points[k])
    return [Entrant(names[k], points[k], met=frozenset(met[names[k]])) for k in order]


def _matchings(players: list[Entrant]):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for more in _matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *more]


def _levels(players: list[Entrant]) -> dict[str, int]:
    totals = sorted({e.points for e in players}, reverse=True)
    return {e.name: totals.index(e.points) for e in players}


def _measure(pairs, level) -> tuple[int, int, int, int]:
    """(rematches, pair-downs, total reach, longest reach) of a pairing."""
    reaches = [abs(level[a.name] - level[b.name]) for a, b in pairs]
    return (sum(b.name in a.met for a, b in pairs), sum(r > 0 for r in reaches), sum(reaches),
            max(reaches, default=0))


def _exhaustive(players: list[Entrant]):
    """What the fallback should find, from every perfect matching: (k, pair-downs, reach) with
    no rematch, k the smallest reach within which one exists; else (rematches, pair-downs,
    reach), the fewest rematches first."""
    level = _levels(players)
    measured = [_measure(pairs, level) for pairs in _matchings(players)]
    clean = [m for m in measured if m[0] == 0]
    if not clean:
        return None, min(m[:3] for m in measured)
    k = max(1, min(m[3] for m in clean))
    return (k, *min(m[1:3] for m in clean if m[3] <= k)), None


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_every_small_case_gets_what_an_exhaustive_search_finds(data):
    """Up to ten players, up to four point groups, histories from none to dense: no rematch
    whenever a pairing avoids them all, pair-downs reaching no further than they must, and
    within that reach the fewest pair-downs, then the least reach; otherwise the fewest
    rematches (then pair-downs, then reach), as before."""
    size = data.draw(st.integers(1, 5)) * 2
    players = _event(data.draw, size, data.draw(st.integers(1, 4)),
                     data.draw(st.sampled_from([0.1, 0.3, 0.5, 0.8])))
    seed = data.draw(st.integers(0, 2**32))
    clean, forced = _exhaustive(players)
    level = _levels(players)
    found = swiss_fallback.fewest_pair_downs(players, random.Random(seed))
    if clean is None:
        assert found is None
        rematched = swiss_fallback.fewest_rematches(players, random.Random(seed))
        assert sorted(n for pair in rematched for n in (pair[0].name, pair[1].name)) == \
            sorted(e.name for e in players)
        assert _measure(rematched, level)[:3] == forced
        return
    assert found is not None
    assert sorted(n for pair in found for n in (pair[0].name, pair[1].name)) == \
        sorted(e.name for e in players)
    rematches, downs, reach, longest = _measure(found, level)
    assert rematches == 0 and longest <= clean[0] and (downs, reach) == clean[1:]


@st.composite
def _large_events(draw):
    """Large point groups (cut down by the fallback) between small ones whose players have all
    met each other, after a few random rounds: up to about 400 players."""
    sizes = draw(st.lists(st.one_of(st.integers(1, 4), st.integers(20, 90)), min_size=2,
                          max_size=8))
    names = [f"P{k}" for k in range(sum(sizes))]
    if len(names) % 2:
        names.append("Last")
        sizes[-1] += 1
    rng = random.Random(draw(st.integers(0, 2**32)))
    met: dict[str, set[str]] = {n: set() for n in names}
    points, start = {}, 0
    for k, size in enumerate(sizes):
        group = names[start:start + size]
        points.update(dict.fromkeys(group, 5 * (len(sizes) - k)))
        if size <= 4:  # a tight group: they all met
            for a in group:
                met[a].update(b for b in group if b != a)
        start += size
    for _ in range(draw(st.integers(1, 3))):  # random rounds over everyone
        order = rng.sample(names, len(names))
        for a, b in zip(order[::2], order[1::2]):
            met[a].add(b)
            met[b].add(a)
    return [Entrant(n, points[n], met=frozenset(met[n])) for n in names]


@settings(max_examples=60, deadline=None)
@given(_large_events(), st.integers(0, 2**32))
def test_cutting_large_groups_down_loses_nothing(players, seed):
    """On events too large to search exhaustively, the fallback (which pairs most of a large
    group at once and matches the rest) does as well as a matching over every player: the same
    smallest reach, pair-downs and total reach."""
    level = _levels(players)
    groups = swiss_fallback._point_groups(players, random.Random(seed))
    whole = None
    for reach in range(1, max(len(groups), 2)):
        whole = swiss_fallback._match(groups, reach, random.Random(seed), allow_rematches=False)
        if whole is not None:
            break
    found = swiss_fallback.fewest_pair_downs(players, random.Random(seed))
    if whole is None:
        assert found is None
        return
    assert found is not None
    assert sorted(n for pair in found for n in (pair[0].name, pair[1].name)) == \
        sorted(e.name for e in players)
    rematches, downs, total, longest = _measure(found, level)
    assert rematches == 0 and longest <= reach
    assert (downs, total) == _measure(whole, level)[1:3]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_group_big_enough_is_paired_up_without_a_rematch(data):
    """Dirac: an even group of at least 3r + 2, each having met at most r of it, is paired up
    among itself by first come, first served and swaps, whatever the order."""
    most_met = data.draw(st.integers(1, 6))
    size = data.draw(st.integers(3 * most_met + 2, 4 * most_met + 12)) // 2 * 2
    names = [f"P{k}" for k in range(size)]
    met: dict[str, set[str]] = {n: set() for n in names}
    for _ in range(most_met):  # r rounds: at most r opponents each; cliques make it harder
        order = data.draw(st.permutations(names))
        for a, b in zip(order[::2], order[1::2]):
            met[a].add(b)
            met[b].add(a)
    group = [Entrant(n, 10, met=frozenset(met[n])) for n in data.draw(st.permutations(names))]
    pairs = swiss_fallback._pair_up(group)
    assert pairs is not None
    assert sorted(n for a, b in pairs for n in (a.name, b.name)) == sorted(names)
    assert not any(b.name in a.met for a, b in pairs)


def test_the_lone_leader_reaches_two_groups_only_when_one_will_not_do():
    """The leader has met everyone with 10 points: paired down to the 5s (reach 2), and only
    they; the 10s pair among themselves, though one long pair-down elsewhere could save one."""
    tens = [f"T{k}" for k in range(4)]
    players = ([Entrant("Leader", 15, met=frozenset(tens))]
               + [Entrant(t, 10, met=frozenset({"Leader"})) for t in tens]
               + [Entrant(f"F{k}", 5) for k in range(3)])
    pairing = swiss.later_round(players, random.Random(2))
    assert not pairing.rematches
    leader = next(pair for pair in pairing.tables if "Leader" in pair)
    assert leader[1].startswith("F")
    assert len(pairing.pair_downs) == 1


def _needs_the_fallback(size: int) -> list[Entrant]:
    group = [f"G{k}" for k in range(size - 2)]
    return ([Entrant("Leader", 15, met=frozenset(group))]
            + [Entrant(n, 10, met=frozenset({"Leader"})) for n in group] + [Entrant("Last", 5)])


def test_a_slow_pairing_says_what_it_is_doing_in_one_plain_line(monkeypatch):
    monkeypatch.setattr(notice, "SLOW_SECONDS", 0)
    notices = io.StringIO()
    quiet = swiss.later_round(_needs_the_fallback(40), random.Random(1))
    told = swiss.later_round(_needs_the_fallback(40), random.Random(1), notices)
    assert notices.getvalue() == "Pairing 40 players: by point groups…\n"
    assert told == quiet  # the notice changes nothing


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_notice_follows_the_pairing_and_is_rubbed_out(monkeypatch):
    monkeypatch.setattr(notice, "SLOW_SECONDS", 0)
    terminal = _Terminal()
    swiss.later_round(_needs_the_fallback(40), random.Random(1), terminal)
    assert terminal.getvalue() == (
        "\r" "Pairing 40 players: by point groups…\033[K"
        "\r" "Pairing 40 players: looking for the fewest pair-downs that avoid every rematch…"
        "\033[K" "\r\033[K")


def test_a_quick_pairing_says_nothing():
    notices = _Terminal()
    swiss.later_round(_needs_the_fallback(40), random.Random(1), notices)
    assert notices.getvalue() == ""


def test_a_pair_down_does_not_skip_a_group_to_save_another():
    """The 10s A, C, D cannot pair by the seed's procedure without a rematch. Pairing C with
    the lone 0 (G) past the 5s would need one pair-down; the seed floats to "the group with
    the next most tournament points", so a 10 plays a 5 and a 5 plays G: two, each to the next
    group, and nothing `check` calls a departure from the seed beyond the extra float."""
    from site_builder.rules.swiss import pairing_departures
    history = {"A": "CEG", "C": "ADEF", "D": "CF", "B": "F", "E": "ACF", "F": "BCDEG", "H": "",
               "G": "AF"}
    points = {"A": 10, "C": 10, "D": 10, "B": 5, "E": 5, "F": 5, "H": 5, "G": 0}
    players = [Entrant(n, points[n], met=frozenset(history[n])) for n in "ACDBEFHG"]
    for seed in range(10):
        pairing = swiss.later_round(players, random.Random(seed))
        assert not pairing.rematches and len(pairing.pair_downs) == 2
        assert all(points[a] - points[b] == 5 for a, b in pairing.pair_downs)
        departures = pairing_departures(points, pairing.tables)
        assert not any("between them" in message for _, message in departures)


def test_pair_says_it_on_stderr_and_writes_the_same_round(site, pair, monkeypatch):
    """`pair` passes stderr: a long pairing (here every pairing: SLOW_SECONDS = 0) is said
    there as one plain line when stderr is not a terminal; the round file is the same bytes."""
    from conftest import conquest_event
    site.event("2024-05-18-cup", conquest_event(structure="custom", swiss_rounds=3, cut=0), {
        1: "table,player,result\n1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n",
        2: "table,player,result\n1,A,win\n1,C,loss\n2,B,win\n2,D,loss\n"})
    written = site.root / "data/events/2024-05-18-cup/round-3.csv"
    code, out, err = pair(site, "--seed", "5", slug="2024-05-18-cup")
    assert code == 0 and "Pairing" not in err
    assert "fewest pair-downs" in out  # A met B and C: the fallback pairs A with D
    quiet = written.read_bytes()
    written.unlink()
    monkeypatch.setattr(notice, "SLOW_SECONDS", 0)
    code, out, err = pair(site, "--seed", "5", slug="2024-05-18-cup")
    assert code == 0 and err.count("Pairing 4 players: by point groups…\n") == 1
    # Reading and scoring a large event, and checking the round, are said as well.
    assert err.count("data/events/2024-05-18-cup: reading the event…\n") == 1
    assert err.count("data/events/2024-05-18-cup: checking round 3 as check would…\n") == 1
    assert written.read_bytes() == quiet
