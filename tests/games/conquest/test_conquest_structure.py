"""The Basic and Advanced structure tables (regulations, "Tournament Structures"), at every
boundary, and how an event's registered player count picks its row."""

from __future__ import annotations

import pytest

from conftest import score_event
from site_builder.rules.conquest.structure import structure_for

BASIC = [  # (players, swiss rounds, cut) on both sides of every boundary of the seed's table
    (4, 3, 0), (8, 3, 0), (9, 4, 0), (16, 4, 0), (17, 4, 4), (24, 4, 4), (25, 5, 4), (40, 5, 4),
    (41, 5, 8), (44, 5, 8), (45, 6, 8), (76, 6, 8), (77, 6, 16), (148, 6, 16), (149, 7, 16),
    (1000, 7, 16),
]
ADVANCED = [
    (9, 4, 4), (12, 4, 4), (13, 4, 8), (24, 4, 8), (25, 5, 8), (40, 5, 8), (41, 6, 8), (76, 6, 8),
    (77, 6, 16), (148, 6, 16), (149, 6, 32), (288, 6, 32), (289, 7, 32), (512, 7, 32),
    (513, 8, 32), (2000, 8, 32),
]


@pytest.mark.parametrize("players,rounds,cut", BASIC)
def test_basic_structure(players, rounds, cut):
    assert structure_for("basic", players) == (rounds, cut, False)


@pytest.mark.parametrize("players,rounds,cut", ADVANCED)
def test_advanced_structure(players, rounds, cut):
    assert structure_for("advanced", players) == (rounds, cut, False)


@pytest.mark.parametrize("structure,players,expected", [
    ("basic", 3, (3, 0, True)), ("advanced", 8, (4, 4, True))])
def test_below_the_table_uses_its_first_row_and_says_so(structure, players, expected):
    assert structure_for(structure, players) == expected


def test_registered_players_decide_the_row(tmp_path):
    """players.csv lists 17 registrations, so Basic gives 4 Swiss rounds and a top-4 cut even
    though only two players have a result yet."""
    registrations = "player\n" + "\n".join(f"P{i}" for i in range(1, 18)) + "\n"
    scored, _ = score_event(tmp_path / "s", {1: "1,P1,win\n1,P2,loss\n"},
                            registrations=registrations, structure="basic")
    assert scored.planned_rounds == 6
    assert dict(scored.details)["Structure"] == ("Basic — 17 registered players: 4 Swiss rounds, "
                                                 "top 4 cut")


def test_without_registrations_everyone_in_a_round_counts(tmp_path):
    rounds = {1: "".join(f"{t},P{2 * t - 1},win\n{t},P{2 * t},loss\n" for t in range(1, 5)) + ",P9,bye\n"}
    scored, _ = score_event(tmp_path / "s", rounds, structure="basic")
    assert dict(scored.details)["Structure"].startswith("Basic — 9 registered players: 4 Swiss rounds")


def test_advanced_below_nine_players_warns(tmp_path):
    _, problems = score_event(tmp_path / "s", {1: "1,A,win\n1,B,loss\n"}, structure="advanced")
    warning = next(p for p in problems if "structure starts at" in p.message)
    assert not warning.is_error and warning.path.endswith("event.toml")
    assert "advanced structure starts at 9 registered players and this event has 2" in warning.message
