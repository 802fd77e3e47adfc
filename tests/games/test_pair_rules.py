"""The pairing procedures of seed 001 ("Swiss Rounds", "Single Elimination Rounds", "Progression
Cut") as pure functions: the seed's example, the bye, rematches, and Game numbering."""

from __future__ import annotations

import itertools
import random

import pytest

from site_builder.rules import bracketpairing as elimination
from site_builder.rules import swisspairing as swiss
from site_builder.rules.swisspairing import Entrant


def test_the_seeds_pairing_example():
    """John, Stella and Laramy have 15 points, Kyle alone 10: two of the three play each other
    and the third is paired down with Kyle (whichever two, at random)."""
    entrants = [Entrant("John", 15), Entrant("Stella", 15), Entrant("Laramy", 15),
                Entrant("Kyle", 10), Entrant("Ann", 5), Entrant("Bo", 5)]
    seen = set()
    for seed in range(40):
        pairing = swiss.later_round(entrants, random.Random(seed))
        top = [pair for pair in pairing.tables if set(pair) <= {"John", "Stella", "Laramy"}]
        down = [pair for pair in pairing.tables if "Kyle" in pair]
        assert len(top) == 1 and len(down) == 1 and down[0][1] == "Kyle"
        assert ("Ann", "Bo") in pairing.tables and pairing.bye is None
        assert pairing.pair_downs == down and not pairing.rematches
        seen.add(down[0][0])
    assert seen == {"John", "Stella", "Laramy"}  # each of the three was the one paired down


def test_tables_run_from_the_top_of_the_standings():
    entrants = [Entrant(name, points) for name, points in
                [("A", 10), ("B", 10), ("C", 5), ("D", 5), ("E", 0), ("F", 0)]]
    pairing = swiss.later_round(entrants, random.Random(1))
    assert pairing.tables == [("A", "B"), ("C", "D"), ("E", "F")]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    entrants = [Entrant("A", 10), Entrant("B", 5), Entrant("C", 5), Entrant("D", 0, had_bye=False),
                Entrant("E", 0, had_bye=True)]
    assert swiss.later_round(entrants, random.Random(3)).bye == "D"
    everyone_had_one = [Entrant(e.name, e.points, True) for e in entrants]
    pairing = swiss.later_round(everyone_had_one, random.Random(3))
    assert pairing.bye == "E" and "everyone has had a bye" in pairing.notes[0]


def test_round_one_is_random_with_a_random_bye():
    names = [f"P{i}" for i in range(9)]
    byes = {swiss.first_round(names, random.Random(seed)).bye for seed in range(30)}
    assert len(byes) > 3
    pairing = swiss.first_round(names, random.Random(7))
    assert len(pairing.tables) == 4 and pairing.bye is not None
    assert sorted([n for pair in pairing.tables for n in pair] + [pairing.bye]) == sorted(names)


def _min_pair_downs(entrants: list[Entrant]) -> int | None:
    """By brute force over every perfect matching with no rematch: the fewest pairs across
    point groups among those whose pair-downs reach no further than they must — the next group
    when some such pairing avoids every rematch (the seed floats the odd player to "the group
    with the next most tournament points"; swiss_fallback.py) — None when every pairing has a
    rematch. tests/games/test_swiss_fallback.py checks the reach and the rest exhaustively."""
    totals = sorted({e.points for e in entrants}, reverse=True)
    found: list[tuple[int, int]] = []  # (pair-downs, longest reach) of each pairing

    def walk(left: list[Entrant], downs: int, longest: int) -> None:
        if not left:
            found.append((downs, longest))
            return
        first, rest = left[0], left[1:]
        for k, other in enumerate(rest):
            if other.name not in first.met:
                reach = abs(totals.index(first.points) - totals.index(other.points))
                walk(rest[:k] + rest[k + 1:], downs + (reach > 0), max(longest, reach))

    walk(entrants, 0, 0)
    if not found:
        return None
    needed = max(1, min(longest for _, longest in found))
    return min(downs for downs, longest in found if longest <= needed)


def met(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for a, b in pairs:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)
    return {name: frozenset(names) for name, names in found.items()}


def test_a_forced_rematch_is_avoided_with_the_fewest_pair_downs():
    """A and B (the only 10s) met, and so did the 5s C and D: the seed's procedure, group by
    group, has no way round it. The pairing that avoids every rematch with the fewest pair-downs
    is A–C or A–D with B taking the other (two pair-downs); E–F stay together."""
    history = met([("A", "B"), ("C", "D"), ("A", "E"), ("B", "F")])
    entrants = [Entrant(n, p, met=history.get(n, frozenset())) for n, p in
                [("A", 10), ("B", 10), ("C", 5), ("D", 5), ("E", 0), ("F", 0)]]
    pairing = swiss.later_round(entrants, random.Random(0))
    assert not pairing.rematches
    assert len(pairing.pair_downs) == _min_pair_downs(entrants) == 2
    assert ("E", "F") in pairing.tables
    assert pairing.notes == ["pairing within the point groups would repeat an earlier game: "
                             "paired with the fewest pair-downs that avoid every rematch"]


def test_a_pairing_the_point_groups_give_says_nothing_of_rematches(monkeypatch):
    """Issue 34, point 4: A, B, C have 10 points, D, E, F 5; A met B and all of D, E, F. Where
    the group-by-group procedure pairs B–C first, A is passed down to no one and it fails, and
    the pairing with the fewest pair-downs is found: A–C, with B passed down. That is just what
    the point groups give (one odd group, one pair-down to the next group), so the organizer
    is told nothing about rematches. Both ways are taken over 20 seeds."""
    history = met([("A", "B"), ("A", "D"), ("A", "E"), ("A", "F")])
    entrants = [Entrant(n, p, met=history.get(n, frozenset())) for n, p in
                [("A", 10), ("B", 10), ("C", 10), ("D", 5), ("E", 5), ("F", 5)]]
    fell_back = []
    real = swiss._fewest_pair_downs
    monkeypatch.setattr(swiss, "_fewest_pair_downs",
                        lambda *a: fell_back.append(1) or real(*a))
    for seed in range(20):
        pairing = swiss.later_round(entrants, random.Random(seed))
        assert ("A", "C") in pairing.tables and not pairing.rematches
        assert [a for a, _ in pairing.pair_downs] == ["B"]
        assert pairing.notes == []
    assert 0 < len(fell_back) < 20


@pytest.mark.parametrize("seed", range(25))
def test_random_histories_get_the_fewest_pair_downs_or_the_seeds_own_pairing(seed):
    """Eight players with random points and histories: never a rematch when a pairing without
    one exists, and when the group-by-group procedure fails, no more pair-downs than needed."""
    rng = random.Random(seed)
    names = list("ABCDEFGH")
    played = [pair for pair in itertools.combinations(names, 2) if rng.random() < 0.3]
    history = met(played)
    entrants = sorted((Entrant(n, rng.choice([0, 5, 10]), met=history.get(n, frozenset()))
                       for n in names), key=lambda e: -e.points)
    pairing = swiss.later_round(entrants, random.Random(seed))
    best = _min_pair_downs(entrants)
    paired = sorted(n for pair in pairing.tables for n in pair)
    assert paired == sorted(names)
    if best is None:
        assert pairing.rematches and "as few as possible" in pairing.notes[-1]
    else:
        assert not pairing.rematches
        if pairing.notes:  # the fallback: optimal
            assert len(pairing.pair_downs) == best


def test_when_every_pairing_has_a_rematch_it_is_paired_and_said():
    history = met(list(itertools.combinations("ABCD", 2)))
    entrants = [Entrant(n, 5, met=history[n]) for n in "ABCD"]
    pairing = swiss.later_round(entrants, random.Random(0))
    assert len(pairing.rematches) == 2 and "no pairing avoids every rematch" in pairing.notes[-1]


def test_a_cut_pairs_the_highest_seed_with_the_lowest():
    seeds = [f"S{k}" for k in range(1, 9)]
    games = elimination.cut_round(seeds, 8)
    assert [(g.number, g.players) for g in games] == [
        (1, ("S1", "S8")), (2, ("S2", "S7")), (3, ("S3", "S6")), (4, ("S4", "S5"))]
    # Six qualified for a top 8: seeds 1 and 2 have byes.
    short = elimination.cut_round(seeds[:6], 8)
    assert [(g.number, g.players) for g in short] == [
        (1, ("S1",)), (2, ("S2",)), (3, ("S3", "S6")), (4, ("S4", "S5"))]


def test_game_numbers_across_three_elimination_rounds():
    """Quarter-finals 1–4; the semi-finals pair the winners of Games 1 and 4 (new Game 1) and
    of Games 2 and 3 (new Game 2); the final is Game 1."""
    quarters = elimination.cut_round([f"S{k}" for k in range(1, 9)], 8)
    winners = {1: "S8", 2: "S2", 3: "S3", 4: "S5"}  # two upsets
    semis = elimination.next_round([(g.number, winners[g.number]) for g in quarters], set())
    assert [(g.number, g.players) for g in semis] == [(1, ("S8", "S5")), (2, ("S2", "S3"))]
    final = elimination.next_round([(1, "S5"), (2, "S2")], set())
    assert [(g.number, g.players) for g in final] == [(1, ("S5", "S2"))]


def test_a_winner_who_drops_gives_the_next_opponent_a_bye():
    semis = elimination.next_round([(1, "A"), (2, "B"), (3, "C"), (4, "D")], {"D"})
    assert [(g.number, g.players) for g in semis] == [(1, ("A",)), (2, ("B", "C"))]


def test_an_event_that_starts_in_elimination_gets_random_byes_to_a_power_of_two():
    names = [f"P{i}" for i in range(6)]
    games = elimination.opening_round(names, random.Random(5))
    assert sorted(len(g.players) for g in games) == [1, 1, 2, 2]  # 8-bracket: two byes
    assert [g.number for g in games] == [1, 2, 3, 4]
    assert sorted(n for g in games for n in g.players) == sorted(names)
    numbers_of_byes = {tuple(g.number for g in elimination.opening_round(names, random.Random(s))
                             if len(g.players) == 1) for s in range(20)}
    assert len(numbers_of_byes) > 2  # byes land on random Game numbers
