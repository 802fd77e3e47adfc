"""INWO (seed 003): Percentage of Goal on the seed's worked examples, the groups tiebreak, who
advances from a table, the final places, head-to-head places, and every validation message."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import DEMO_SITE, score_files
from site_builder.core.numbers import decimals
from site_builder.rules.inwo.percentage import (groups_percentage, part_percentage,
                                                percentage_of_goal, special_goal_percentage)

MULTI = "table,player,result,groups,special_pct,advanced"
H2H = "table,player,result,groups,special_pct"
EV = "data/events/2024-05-18-test"


def event(fmt: str = "multiplayer", **keys) -> str:
    lines = ['name = "Conspiracy Night"', "date = 2024-05-18", 'game = "inwo"', f'format = "{fmt}"']
    lines += [f"{k} = {v}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def score(tmp_path, rounds: dict[int, str], fmt: str = "multiplayer", **keys):
    header = MULTI if fmt == "multiplayer" else H2H
    scored, problems = score_files(tmp_path / "site", event(fmt, **keys), header, rounds)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored


def table_of(scored, round_number: int, table: int):
    view = next(r for r in scored.rounds if r.number == round_number)
    return next(t for t in view.tables.tables if t.number == table)


def standings(scored, after: int | None = None) -> list[tuple]:
    s = scored.standings if after is None else next(r for r in scored.rounds if r.number == after).standings
    return [(r.rank, r.player.name, r.values["finish"]) for r in s.rows]


# ---------------------------------------------------------------- the seed's worked examples


def test_gnomes_eight_of_eleven_groups_is_72_7_percent():
    # "six groups (one of which counts double) plus the Illuminati group, for a total of 8. The
    # announced victory condition was 11 groups ... 72.7%": 8 × 100 / 11 = 800/11 = 72.7272…
    assert groups_percentage(8, 11) == Fraction(800, 11)
    assert decimals(groups_percentage(8, 11), 1) == "72.7"


def test_shangri_la_27_of_30_power_is_90_percent():
    assert part_percentage(27, 30) == 90


def test_bermuda_triangle_averages_its_two_parts_each_capped_at_100():
    # 8 of 10 alignments = 80; 33 of 35 Power = 660/7 = 94.2857…; mean = 610/7 = 87.142857…
    assert special_goal_percentage([(8, 10), (33, 35)]) == Fraction(610, 7)
    assert decimals(Fraction(610, 7), 1) == "87.1"
    # 38 Power of 35 is capped at 100: (80 + 100) / 2 = 90, no bonus for the "extra" Power.
    assert special_goal_percentage([(8, 10), (38, 35)]) == 90


def test_percentage_of_goal_is_the_best_of_groups_and_the_special_goal():
    assert percentage_of_goal(8, 11, None) == Fraction(800, 11)
    assert percentage_of_goal(5, 11, Fraction(90)) == 90          # 45.45 by groups, 90 special
    assert percentage_of_goal(10, 11, Fraction(90)) == Fraction(1000, 11)  # 90.909… by groups


# ---------------------------------------------------------------- a table out of time


def test_timed_table_goes_to_the_highest_percentage_of_goal(tmp_path):
    # The three examples at one table when time is called (goal 11): Gnomes 8 groups = 72.73%,
    # Shangri-La 5 groups but 90% of its goal, Bermuda 6 groups and 87.142857% special.
    scored = score(tmp_path, {1: """
        1,Gnomes,time,8,,
        1,Shangri-La,time,5,90,
        1,Bermuda,time,6,87.142857,
        1,Cthulhu,time,3,,
        2,Ann,win,11,,
        2,Bo,,4,,
        3,Cy,win,11,,
        3,Di,,2,,
        """})
    seats = table_of(scored, 1, 1).seats
    assert [(s.player.name, s.place, s.advances, s.why) for s in seats] == [
        ("Shangri-La", "1st", True, "highest Percentage of Goal"),
        ("Bermuda", "2nd", False, ""),
        ("Gnomes", "3rd", False, ""),
        ("Cthulhu", "4th", False, ""),
    ]
    assert [s.percentage for s in seats] == [90, Fraction(87142857, 1000000), Fraction(800, 11),
                                             Fraction(300, 11)]


def test_equal_percentages_fall_to_total_groups_and_full_ties_all_advance(tmp_path):
    # Ann 6 groups + 80% special and Bo 7 groups + 80% special: both 80% exactly; Bo has more
    # groups and advances alone. At table 2 Cy and Di both hold 8 of 11 (72.73%): still tied,
    # both advance.
    scored = score(tmp_path, {1: """
        1,Ann,time,6,80,
        1,Bo,time,7,80,
        1,Eve,time,2,,
        2,Cy,time,8,,
        2,Di,time,8,,
        2,Fay,time,7,,
        3,Gil,win,11,,
        3,Hal,,1,,
        """})
    t1 = table_of(scored, 1, 1).seats
    assert [(s.player.name, s.advances, s.why) for s in t1] == [
        ("Bo", True, "equal percentage, more groups"), ("Ann", False, ""), ("Eve", False, "")]
    t2 = table_of(scored, 1, 2).seats
    assert [(s.player.name, s.place, s.advances, s.why) for s in t2] == [
        ("Cy", "=1st", True, "tied: all advance"), ("Di", "=1st", True, "tied: all advance"),
        ("Fay", "3rd", False, "")]


# ---------------------------------------------------------------- advancement and final places


FOUR_ROUNDS = {
    # Round 1, three tables: a win, a shared victory, a referee's decision (Cal advanced though
    # second), and Dee held back by the referee although she won at table 3.
    1: """
        1,Ann,win,11,,
        1,Cal,,9,,yes
        1,Gus,,3,,
        2,Bo,shared,10,,
        2,Eve,shared,9,,
        2,Hal,,2,,
        3,Dee,win,11,,no
        3,Fin,,8,,yes
        3,Ida,,7,,yes
        """,
    # Round 2, two tables: the round before the final; the top three of each advance.
    2: """
        1,Ann,,9,,
        1,Bo,win,11,,
        1,Cal,,5,,
        1,Eve,,4,,
        2,Fin,win,11,,
        2,Ida,,3,,
        """,
    # The final: Bo wins; 2nd and 3rd by Percentage of Goal when Bo met the goal.
    3: """
        1,Bo,win,11,,
        1,Ann,,6,,
        1,Cal,,8,,
        1,Fin,,2,95,
        1,Ida,,5,,
        """,
}


def test_winners_shared_victories_and_referee_decisions_decide_who_advances(tmp_path):
    scored = score(tmp_path, FOUR_ROUNDS)
    why = {s.player.name: (s.advances, s.why)
           for t in next(r for r in scored.rounds if r.number == 1).tables.tables for s in t.seats}
    assert why == {
        "Ann": (True, "won"), "Cal": (True, "referee: advanced"), "Gus": (False, ""),
        "Bo": (True, "shared victory"), "Eve": (True, "shared victory"), "Hal": (False, ""),
        "Dee": (False, "referee: held back"), "Fin": (True, "referee: advanced"),
        "Ida": (True, "referee: advanced"),
    }
    # Round 2 (two tables): Bo won, Ann (81.82%) and Cal (45.45%) are 2nd and 3rd and go on;
    # Eve is 4th and out. At table 2 Fin won and Ida, second of two, goes on too.
    semi = {s.player.name: s.why for t in next(r for r in scored.rounds if r.number == 2).tables.tables
            for s in t.seats}
    assert semi == {"Bo": "won", "Ann": "top three of the table", "Cal": "top three of the table",
                    "Eve": "", "Fin": "won", "Ida": "top three of the table"}


def test_final_standings_are_places_then_round_out_then_percentage(tmp_path):
    scored = score(tmp_path, FOUR_ROUNDS)
    # Final: Bo won; Fin 95% (special) > Cal 8/11 = 72.73% > Ann 6/11 = 54.55% > Ida 5/11.
    # Out in round 2: Eve. Out in round 1, by Percentage of Goal there: Dee 11/11 = 100%
    # (held back), Gus 3/11 = 27.27%, Hal 2/11 = 18.18%.
    assert standings(scored) == [
        (1, "Bo", "Winner"), (2, "Fin", "2nd"), (3, "Cal", "3rd"), (4, "Ann", "Final table"),
        (5, "Ida", "Final table"), (6, "Eve", "Out in round 2"), (7, "Dee", "Out in round 1"),
        (8, "Gus", "Out in round 1"), (9, "Hal", "Out in round 1")]
    assert scored.complete and scored.winner.name == "Bo"
    assert scored.ranking is None and "not ranked" in scored.ranking_note


def test_standings_after_an_early_round_put_those_still_in_first(tmp_path):
    scored = score(tmp_path, {1: FOUR_ROUNDS[1]})
    assert not scored.complete
    rows = standings(scored, after=1)
    assert rows[:2] == [(1, "Ann", "Through to round 2"), (1, "Bo", "Through to round 2")]
    assert (rows[-1][1], rows[-1][2]) == ("Hal", "Out in round 1")


def test_a_shared_victory_in_the_final_shares_first_place(tmp_path):
    scored = score(tmp_path, {1: """
        1,Ann,shared,9,,
        1,Bo,shared,8,,
        1,Cy,,7,,
        """})
    assert standings(scored) == [(1, "Ann", "Winner (shared victory)"),
                                 (1, "Bo", "Winner (shared victory)"), (3, "Cy", "3rd")]
    assert scored.winner is None


# ---------------------------------------------------------------- head-to-head


H2H_ROUNDS = {
    1: """
        1,Ann,win,12,
        1,Bo,loss,9,
        2,Cy,win,12,
        2,Di,loss,11,
        3,Eve,win,12,
        3,Fay,loss,3,80
        4,Gil,win,12,
        4,Hal,loss,5,
        """,
    2: """
        1,Ann,win,12,
        1,Gil,loss,6,
        2,Cy,loss,10,
        2,Eve,win,12,
        """,
    3: """
        1,Ann,loss,11,
        1,Eve,win,12,
        """,
}


def test_head_to_head_places_semi_finalists_by_percentage_of_goal(tmp_path):
    scored = score(tmp_path, H2H_ROUNDS, fmt="head-to-head")
    # Goal 12 by default. Semi-final losers: Cy 10/12 = 83.33% beats Gil 6/12 = 50% for 3rd.
    # Out in the first round, by Percentage of Goal: Di 11/12 = 91.67%, Fay 80% (special),
    # Bo 9/12 = 75%, Hal 5/12 = 41.67%.
    assert standings(scored) == [
        (1, "Eve", "Champion"), (2, "Ann", "Finalist"), (3, "Cy", "3rd"), (4, "Gil", "4th"),
        (5, "Di", "Quarter-finalist"), (6, "Fay", "Quarter-finalist"),
        (7, "Bo", "Quarter-finalist"), (8, "Hal", "Quarter-finalist")]
    assert scored.winner.name == "Eve"
    pog = {r.player.name: r.values["pog"] for r in scored.standings.rows}
    assert pog["Cy"] == Fraction(250, 3) and pog["Fay"] == 80
    assert [len(r.games) for r in scored.bracket.rounds] == [4, 2, 1]


def test_head_to_head_semi_finalists_with_equal_percentage_share_third(tmp_path):
    rounds = dict(H2H_ROUNDS)
    rounds[2] = rounds[2].replace("1,Gil,loss,6,", "1,Gil,loss,10,")
    scored = score(tmp_path, rounds, fmt="head-to-head")
    assert standings(scored)[2:4] == [(3, "Cy", "=3rd"), (3, "Gil", "=3rd")]


# ---------------------------------------------------------------- validation


@pytest.fixture
def check(site, run_cli):
    def go(rounds: dict[int, str], fmt: str = "multiplayer", header: str | None = None):
        header = header or (MULTI if fmt == "multiplayer" else H2H)
        files = {f"{EV}/event.toml": event(fmt)}
        files.update({f"{EV}/round-{n}.csv": header + "\n" + text.strip() + "\n"
                      for n, text in rounds.items()})
        site.write(files)
        result = run_cli("check", "--source", site.root)
        assert result.code == 1, result.err
        return result
    return go


def error_at(result, location: str) -> str:
    found = [line[len(location) + 2:] for line in result.lines if line.startswith(location + ": ")
             and ": warning: " not in line]
    assert len(found) == 1, result.err
    return found[0]


def test_two_wins_at_a_table(check):
    r = check({1: "1,Ann,win,11,,\n1,Bo,win,11,,\n1,Cy,,3,,"})
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "table 1 has two wins (Ann and Bo): one player wins, or write 'shared' on every player "
        "of a shared victory")


def test_shared_on_one_player_only(check):
    r = check({1: "1,Ann,shared,11,,\n1,Bo,,8,,\n1,Cy,,3,,"})
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "table 1 has 'shared' on Ann only: a shared victory needs 'shared' on each player who "
        "shares it")


def test_negative_groups(check):
    r = check({1: "1,Ann,win,11,,\n1,Bo,,-2,,"})
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "groups '-2' is not a whole number, 0 or more (the groups controlled at the end, bonuses "
        "included; never negative)")


def test_percentage_over_100(check):
    r = check({1: "1,Ann,time,8,,\n1,Bo,time,6,104.5,"})
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "special_pct 104.5 is over 100: a special goal's percentage is at most 100 (each part of "
        "a two-part goal is capped at 100 before the parts are averaged)")


def test_percentage_that_is_not_a_number(check):
    r = check({1: "1,Ann,time,8,,\n1,Bo,time,6,most,"})
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "special_pct 'most' is not a percentage: expected a number from 0 to 100 such as 87.14, "
        "or empty")


def test_unknown_result_word(check):
    r = check({1: "1,Ann,won,11,,\n1,Bo,,6,,"})
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "result 'won' is not an INWO result: expected 'win' for the table's winner, 'shared' on "
        "each player of a shared victory, 'time' on every row of a table that ran out of time, "
        "or empty")


def test_time_on_some_rows_only(check):
    r = check({1: "1,Ann,time,8,,\n1,Bo,,6,,"})
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "table 1 ran out of time but Bo's row lacks 'time': write 'time' on every row of that "
        "table")


def test_a_table_without_a_winner_or_time(check):
    r = check({1: "1,Ann,,8,,\n1,Bo,,6,,"})
    assert error_at(r, f"{EV}/round-1.csv:3").startswith("table 1 has no winner: write 'win'")


def test_a_player_who_did_not_advance_cannot_play_the_next_round(check):
    r = check({1: "1,Ann,win,11,,\n1,Bo,,6,,\n1,Cy,,5,,\n2,Di,win,11,,\n2,Eve,,3,,\n"
                  "3,Fay,win,11,,\n3,Gus,,2,,",
               2: "1,Ann,win,11,,\n1,Bo,,6,,\n1,Di,,5,,\n2,Fay,win,11,,\n2,Gus,,5,,"})
    # Bo was 2nd at table 1 of round 1: the advancing count (one: Ann) contradicts round 2.
    assert error_at(r, f"{EV}/round-2.csv:3") == (
        "Bo plays round 2 but did not advance from table 1 of round 1 (Ann advanced): if the "
        f"referee advanced them, write advanced = yes on line 3 of {EV}/round-1.csv")


def test_held_back_winner_leaving_nobody_to_advance(check):
    r = check({1: "1,Ann,win,11,,no\n1,Bo,,6,,\n1,Cy,,5,,\n2,Di,win,11,,\n2,Eve,,3,,\n"
                  "3,Fay,win,11,,\n3,Gus,,2,,"})
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "table 1: advanced = no on Ann leaves nobody advancing, which contradicts the result "
        "(Ann placed first); mark who goes on with advanced = yes")


def test_head_to_head_loser_cannot_play_on(check):
    r = check({1: "1,Ann,win,12,\n1,Bo,loss,3,\n2,Cy,win,12,\n2,Di,loss,4,",
               2: "1,Bo,win,12,\n1,Cy,loss,9,"}, fmt="head-to-head")
    assert error_at(r, f"{EV}/round-2.csv:2") == (
        "Bo lost at table 1 in round 1 and cannot play round 2: in single elimination only a "
        "round's winners (and byes) go on")


def test_head_to_head_two_winners(check):
    r = check({1: "1,Ann,win,12,\n1,Bo,win,12,"}, fmt="head-to-head")
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "table 1 has two winners (Ann and Bo): one player wins, the other gets a loss")


# ---------------------------------------------------------------- the demo events


def test_demo_events_show_percentage_of_goal_and_why_players_advanced(site):
    import shutil
    for slug in ("2026-02-21-inwo-winter-conspiracy", "2026-09-19-inwo-head-to-head-open"):
        shutil.copytree(DEMO_SITE / "data" / "events" / slug, site.root / "data" / "events" / slug)
    assert site.build() == 0
    round_1 = site.html("events/2026-02-21-inwo-winter-conspiracy/round-1/")
    # Table 3 ran out of time: Gareth Pryce's 90% special goal beats Dmitri Volkov's 87.1429%.
    assert "Out of time: Percentage of Goal decides" in round_1
    assert 'title="exactly 90%">90.00%</td>' in round_1
    assert "87.14%" in round_1 and "highest Percentage of Goal" in round_1
    assert "referee: advanced" in round_1 and "Shared victory" in round_1
    final = site.json("events/2026-02-21-inwo-winter-conspiracy/standings.json")
    top = [(r["rank"], r["player"], r["finish"]) for r in final["standings"][:3]]
    assert top == [(1, "Siobhán O'Neill", "Winner"), (2, "Dmitri Volkov", "2nd"),
                   (3, "Bruno Okafor", "3rd")]
    grid = site.html("events/2026-02-21-inwo-winter-conspiracy/bracket/")
    assert 'id="r2-t3"' in grid and 'href="#r2-t3"' in grid  # advancing players link forward
    h2h = site.json("events/2026-09-19-inwo-head-to-head-open/standings.json")
    assert [r["player"] for r in h2h["standings"][:4]] == [
        "Lucía Ruiz Ortega", "Robert Mills", "Hiro Tanaka", "Siobhán O'Neill"]
