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
