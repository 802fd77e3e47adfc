"""Shared Swiss helpers: the seed's pairing procedure and the tiebreak labels."""

from __future__ import annotations

from site_builder.rules.swiss import pairing_departures
from site_builder.rules.tiebreaks import decided_by, shared_ranks

# Regulations, "Swiss Rounds", pairing example: John, Stella and Laramy have 15 points, Kyle is
# the only player with 10. John is paired against Stella; Laramy floats down to Kyle.
POINTS = {"John": 15, "Stella": 15, "Laramy": 15, "Kyle": 10, "Mo": 5, "Nia": 5}


def test_the_seed_pairing_example_is_a_valid_swiss_pairing():
    pairs = [("John", "Stella"), ("Laramy", "Kyle"), ("Mo", "Nia")]
    assert pairing_departures(POINTS, pairs) == []


def test_any_random_choice_within_the_group_is_valid_too():
    assert pairing_departures(POINTS, [("John", "Kyle"), ("Stella", "Laramy"), ("Mo", "Nia")]) == []


def test_skipping_a_point_group_departs_from_the_seed():
    found = pairing_departures(POINTS, [("John", "Stella"), ("Laramy", "Mo"), ("Kyle", "Nia")])
    assert found[0] == ("Laramy", "Laramy (15 points) was paired with Mo (5 points) although "
                                  "players with 10 points were between them")


def test_floating_two_players_from_an_even_group_departs_from_the_seed():
    points = {"A": 10, "B": 10, "C": 5, "D": 5}
    found = pairing_departures(points, [("A", "C"), ("B", "D")])
    assert len(found) == 1
    assert found[0][1].startswith("A with C, B with D: 2 of the 10-point players were paired down")


def test_decided_by_names_the_deepest_tiebreak_a_row_needed():
    keys = [(10, 3, 1, 7), (5, 2, 1, 3), (5, 1, 9, 1), (5, 1, 2, 4), (5, 1, 2, 9), (0, 0, 0, 0)]
    labels = decided_by(keys, (None, "sos", "esos", "random"))
    assert labels == [None, "sos", "esos", "random", "random", None]


def test_decided_by_names_rows_tied_on_every_level():
    keys = [(9, 2), (9, 2), (9, 1), (3, 0)]
    assert decided_by(keys, (None, "wins"), tied="shared") == ["shared", "shared", "wins", None]


def test_shared_ranks():
    assert shared_ranks([(9,), (7,), (7,), (3,)]) == [1, 2, 2, 4]


def test_schedule_equals_the_fraction_definitions():
    """The integer pass gives exactly Conquest's SoS and ESoS as defined with Fractions."""
    from fractions import Fraction
    from site_builder.rules.tiebreaks import extended_sos, mean, schedule, strength_of_schedule
    opponents = {"A": ["B", "C", "B"], "B": ["A", "A"], "C": ["A"], "D": []}
    points = {"A": 13, "B": 5, "C": 4, "D": 5}
    rounds = {"A": 3, "B": 2, "C": 3, "D": 1}
    sos = strength_of_schedule(opponents, points, rounds)
    assert sos["A"] == mean([Fraction(5, 2), Fraction(4, 3), Fraction(5, 2)])
    result = schedule(opponents, points, rounds)
    assert result.sos == sos and result.esos == extended_sos(opponents, sos)
    order = sorted(points, key=lambda p: (result.sos_key[p], result.esos_key[p]))
    assert order == sorted(points, key=lambda p: (sos[p], result.esos[p]))


def _records_from_scratch(played, k):
    """The definition records_after follows (module docstring): every round 1..last of a player,
    a MISSED unpaired loss where they were absent, dropped when absent from round k."""
    from site_builder.rules.swiss import MISSED, Game
    attended = {}
    for number in sorted(r for r in played if r <= k):
        for name, game in played[number].items():
            attended.setdefault(name, {})[number] = game
    return {name: (name, [games.get(r) or Game(r, MISSED, 0) for r in range(1, max(games) + 1)],
                   max(games) < k, min(games))
            for name, games in attended.items()}


def test_records_brought_forward_round_by_round_equal_records_counted_from_scratch():
    """records_after adds one round at a time to the records before it (a corrected first round
    re-scores every later round in one pass each): late joiners, rejoiners, drops and a round
    with no file give the records, totals and order of the definition."""
    import random
    from site_builder.rules.swiss import Game, records_after
    rng = random.Random(7)
    players = [f"P{i}" for i in range(9)]
    for trial in range(60):
        played = {}
        for number in range(1, 7):
            if number == 4 and trial % 3 == 0:
                continue  # no round 4 file: everyone is absent from it
            present = [p for p in players if rng.random() < 0.75]
            rng.shuffle(present)
            games = {}
            for a, b in zip(present[::2], present[1::2]):
                a_wins = rng.random() < 0.5
                games[a] = Game(number, "win" if a_wins else "loss", 5 if a_wins else 0, 1, b)
                games[b] = Game(number, "loss" if a_wins else "win", 0 if a_wins else 5, 1, a)
            if len(present) % 2:
                games[present[-1]] = Game(number, "bye", 5)
            played[number] = games
        for k in range(1, 7):
            records = records_after(played, k)
            expected = _records_from_scratch(played, k)
            assert list(records) == list(expected)
            for name, record in records.items():
                assert (record.name, record.games, record.dropped, record.first_round) == expected[name]
                games = expected[name][1]
                assert record.points == sum(g.points for g in games)
                assert record.opponents == [g.opponent for g in games if g.opponent]
                assert record.kinds == {kind: sum(g.kind == kind for g in games)
                                        for kind in {g.kind for g in games}}


def test_rematches_name_each_repeat_with_the_round_the_pair_first_met():
    from site_builder.rules.swiss import Game, rematches

    def round_of(number, *pairs):
        games = {}
        for a, b in pairs:
            games[a] = Game(number, "win", 5, 1, b)
            games[b] = Game(number, "loss", 0, 1, a)
        return games

    played = {1: round_of(1, ("Ann", "Bob"), ("Cy", "Di")),
              2: round_of(2, ("Ann", "Cy"), ("Bob", "Di")),
              3: round_of(3, ("Bob", "Ann"), ("Di", "Cy")),
              4: round_of(4, ("Ann", "Bob"), ("Cy", "Di"))}
    played[2]["Eve"] = Game(2, "bye", 5)
    assert rematches(played) == {1: [], 2: [], 3: [("Ann", "Bob", 1), ("Cy", "Di", 1)],
                                 4: [("Ann", "Bob", 1), ("Cy", "Di", 1)]}
