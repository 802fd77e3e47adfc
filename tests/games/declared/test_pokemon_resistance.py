"""Opponents' win percentage (resistance), its opponents' version and head-to-head in the
shipped Pokémon game (site_builder/rules/declared/shipped/pokemon.toml; tiebreaks.py
pokemon_win, pokemon-owp, pokemon-oowp; ranking.py _head_to_head).

Sources: the Play! Pokémon Tournament Rules Handbook (§5.3.3, §5.3.3.1, §5.5.1.1, §5.6.1;
https://www.pokemon.com/static-assets/content-assets/cms2/pdf/play-pokemon/rules/play-pokemon-tournament-rules-handbook-en.pdf),
as quoted with its example tables in OpenTourney's "Pokémon TCG Tiebreak Research" notes; and
Xander Pero, "All about tiebreakers in the Pokémon TCG", rk9.gg, 2021-05-25
(https://rk9.gg/article/20210525-all-about-tiebreakers-in-the-pokemon-tcg).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import ScratchSite

from site_builder.core.problems import ProblemLog
from site_builder.league.load import assign_event_ids, load_event
from site_builder.league.people import load_directory
from site_builder.rules.declared.tally import Record, Result
from site_builder.rules.declared.tiebreaks import pokemon_win
from site_builder.rules.registry import games_for

POKEMON = games_for(None)["pokemon"].declaration
CHOICE = next(c for c in POKEMON.tiebreaks if c.name == "pokemon-owp")
FLOOR, CAP = CHOICE.get("floor"), CHOICE.get("dropped_cap")


def record(results: str, dropped: bool = False) -> Record:
    """A record from letters, round by round: w (a win), t (a tie), l (a loss), b (a bye)."""
    words = {"w": "win", "t": "tie", "l": "loss", "b": "bye"}
    outcome = {"win": "win", "tie": "draw", "loss": "loss", "bye": "win"}
    found = [Result(n, words[c], outcome[words[c]], POKEMON.points_of(words[c]),
                    against=None if c == "b" else f"opponent {n}")
             for n, c in enumerate(results, start=1)]
    return Record("player", found, dropped=dropped)


def test_the_shipped_floor_and_cap():
    """Handbook §5.3.3.1: "a minimum win percentage of 25% and a maximum win percentage of
    100%", and for a competitor who dropped "a maximum win percentage of 75%"."""
    assert (FLOOR, CAP) == (F(1, 4), F(3, 4))


@pytest.mark.parametrize("results,expected", [
    ("wllll", F(25, 100)),   # 1/5 = 20%, raised to 25%
    ("wwwll", F(60, 100)),
    ("wwwww", F(100, 100)),
])
def test_handbook_table_completed(results, expected):
    """Handbook §5.3.3.1, its table for a competitor who completes a 5-round event: 1 win →
    25%, 3 wins → 60%, 5 wins → 100%."""
    assert pokemon_win(record(results), FLOOR, CAP) == expected


@pytest.mark.parametrize("results,expected", [
    ("wllll", F(25, 100)),
    ("wwwll", F(60, 100)),
    ("wwwww", F(75, 100)),   # would be 100% uncapped
])
def test_handbook_table_dropped(results, expected):
    """Handbook §5.3.3.1, its table for a competitor who dropped (wins over the rounds they
    played, at least 25%, at most 75%): 1/5 → 25%, 3/5 → 60%, 5/5 → 75%."""
    assert pokemon_win(record(results, dropped=True), FLOOR, CAP) == expected


def test_rk9_three_one_one_is_seventy_percent():
    """rk9.gg: "if an opponent finished 3–1–1, their contribution is (1 + 1 + 1 + 0.5 + 0) / 5
    = 70%" (a tie half a win)."""
    assert pokemon_win(record("wwwtl"), FLOOR, CAP) == F(70, 100)


def test_rk9_a_bye_counts_neither_as_a_win_nor_a_round():
    """rk9.gg: "if one of your opponents received a Bye and finished 2-1, then they would
    contribute a 1-1 score (50%)"; handbook §5.6.1: a bye "does not count as a round played
    when calculating that competitor's win percentage". (Counted as a win and a round it
    would be 2/3; as a win only, 100%.)"""
    assert pokemon_win(record("bwl"), FLOOR, CAP) == F(1, 2)


# ---------------------------------------------------------------- through round files


def standings(tmp_path, rounds: dict[int, str]) -> list:
    site = ScratchSite(tmp_path / "site")
    slug = "2024-05-18-pokemon"
    toml = (f'name = "Resistance"\ndate = 2024-05-18\ngame = "pokemon"\n'
            f"swiss_rounds = {len(rounds)}\ncut = 0\n")
    site.event(slug, toml, {n: "table,player,result\n" + text for n, text in rounds.items()})
    log = ProblemLog()
    event = load_event(site.root, site.root / "data/events" / slug, log)
    assert event is not None and not log.has_errors(), log.problems
    assign_event_ids(event, load_directory(site.root, log), log)
    assert not log.has_errors(), log.problems
    return list(event.ruleset.score(event).standings.rows)


def by_name(rows) -> dict:
    return {row.player.name: row for row in rows}


def test_rk9_bye_example_through_round_files(tmp_path):
    """rk9.gg's example as an event: Opal has a bye in round 1, beats Quinn in round 2 and
    loses to Pia in round 3 (2-1 with the bye). Pia, whose only opponent is Opal, has Opal's
    1-1 as her resistance: 50%."""
    rows = by_name(standings(tmp_path, {1: ",Opal,bye\n", 2: "1,Opal,w\n1,Quinn,l\n",
                                        3: "1,Pia,w\n1,Opal,l\n"}))
    assert rows["Opal"].values["points"] == 6
    assert rows["Pia"].values["tiebreaks"]["pokemon-owp"] == F(1, 2)


def round_robin(first: str, second: str) -> dict[int, str]:
    """Four players, three rounds, everyone meets everyone: `first` beats `second` in round 1,
    then loses to C and to D; `second` loses to D and beats C; C and D tie."""
    rounds = {1: "1,X,w\n1,Y,l\n2,C,t\n2,D,t\n",
              2: "1,X,l\n1,C,w\n2,Y,l\n2,D,w\n",
              3: "1,X,l\n1,D,w\n2,Y,w\n2,C,l\n"}
    return {n: text.replace("X", first).replace("Y", second) for n, text in rounds.items()}


@pytest.mark.parametrize("first,second", [("A", "B"), ("B", "A")])
def test_two_tied_who_met_are_ordered_by_their_match(tmp_path, first, second):
    """Handbook §5.5.1.1: "If exactly two competitors are tied in the final standings and those
    competitors played each other during the tournament, then the winner of that match is
    ranked higher than the loser."

    Worked by hand (win %: wins, a tie half, over rounds played; none near the 25% floor):
    A and B (`first` and `second`) each win one and lose two: 3 points, 1/3. C: W, L, T: 4 points, 1/2. D: W, W, T: 7
    points, 5/6. In a round robin each plays the three others, so OWP(A) = OWP(B) = (1/3 + 1/2
    + 5/6)/3 = 5/9; OWP(C) = (1/3 + 1/3 + 5/6)/3 = 1/2; OWP(D) = (1/3 + 1/3 + 1/2)/3 = 7/18.
    OOWP, the mean of the opponents' OWP: A and B (5/9 + 1/2 + 7/18)/3 = 13/27; C (5/9 + 5/9
    + 7/18)/3 = 1/2; D (5/9 + 5/9 + 1/2)/3 = 29/54. A and B are level on everything before
    head-to-head, so whoever won their round-1 match is 3rd; run both ways, so that the seeded
    draw cannot be what orders them."""
    rows = standings(tmp_path, round_robin(first, second))
    assert [(r.rank, r.player.name, r.values["points"], r.values["tiebreaks"]["pokemon-owp"],
             r.values["tiebreaks"]["pokemon-oowp"]) for r in rows] == [
        (1, "D", 7, F(7, 18), F(29, 54)),
        (2, "C", 4, F(1, 2), F(1, 2)),
        (3, first, 3, F(5, 9), F(13, 27)),
        (4, second, 3, F(5, 9), F(13, 27)),
    ]
    assert rows[2].tiebreak == "head-to-head"
    assert (rows[2].values["tiebreaks"]["head-to-head"],
            rows[3].values["tiebreaks"]["head-to-head"]) == (3, 0)


def test_three_tied_are_not_ordered_by_head_to_head(tmp_path):
    """Handbook §5.5.1.1: "If more than two competitors are tied in the final standings, then
    the order in which they appear will be randomly determined."

    Five players, a round robin over five rounds, one bye a round (a bye is 3 points and out of
    every win %). A beats B and C, loses to D and E; B beats D and E, loses to C; C beats D,
    loses to E; D and E tie. Points: A, B and C 9 (two wins and a bye), D 7, E 10. Win % (four
    games each): A, B, C 1/2; D 3/8; E 5/8. In a round robin OWP(X) is the mean of everyone
    else's win %, so A, B and C share OWP 1/2, and so OOWP too: three tied on everything
    though A beat both others. Head-to-head is left out (0 each) and the draw decides."""
    rows = standings(tmp_path, {
        1: "1,A,w\n1,B,l\n2,C,w\n2,D,l\n,E,bye\n",
        2: "1,A,w\n1,C,l\n2,B,w\n2,E,l\n,D,bye\n",
        3: "1,A,l\n1,D,w\n2,C,l\n2,E,w\n,B,bye\n",
        4: "1,A,l\n1,E,w\n2,B,w\n2,D,l\n,C,bye\n",
        5: "1,B,l\n1,C,w\n2,D,t\n2,E,t\n,A,bye\n",
    })
    tied = [r for r in rows if r.player.name in "ABC"]
    assert {r.player.name: r.values["points"] for r in rows} == \
        {"A": 9, "B": 9, "C": 9, "D": 7, "E": 10}
    # OWP(D) = (1/2 + 1/2 + 1/2 + 5/8)/4 = 17/32, OWP(E) = (3 * 1/2 + 3/8)/4 = 15/32; so
    # OOWP of A, B and C = (1/2 + 1/2 + 17/32 + 15/32)/4 = 1/2
    assert [(r.values["tiebreaks"]["pokemon-owp"], r.values["tiebreaks"]["pokemon-oowp"])
            for r in tied] == [(F(1, 2), F(1, 2))] * 3
    assert [r.values["tiebreaks"]["head-to-head"] for r in tied] == [0, 0, 0]
    assert [r.tiebreak for r in tied] == ["random"] * 3
    assert [r.rank for r in tied] == [2, 3, 4]
