"""Heresy: Kingdom Come, Reascension and Revelations, worked by hand from the seed (000):
3.3 (points), 3.2.2 (groupings), 3.2.3 (rounds), 5.2.2 (Revelations), and every validation
message for multiplayer round files."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from conftest import score_files
from site_builder.rules.heresy.multiplayer import groupings, minimum_rounds

HEADER = "table,player,result,tau"


def heresy_event(fmt: str = "reascension", **keys) -> str:
    lines = ['name = "Heresy test"', "date = 2024-06-01", 'game = "heresy"', f'format = "{fmt}"']
    lines += [f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in keys.items()]
    return "\n".join(lines).replace("'", '"') + "\n"


def score(tmp_path, round_files, fmt="reascension", **keys):
    scored, problems = score_files(tmp_path / "s", heresy_event(fmt, **keys), HEADER, round_files)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored, problems


def rows(scored):
    return {r.player.name: r for r in scored.standings.rows}


SEVEN = {
    # Round 1: table 1 Ann wins; table 2 ran out of time.
    1: "1,Ann,win,\n1,Bob,,5\n1,Cat,,11\n1,Dan,,0\n2,Eve,time,4\n2,Fay,time,12\n2,Gus,time,7\n",
    # Round 2: the four highest after round 1 (Ann 14, Fay 11, Cat 9, Gus 9) sit at the four.
    2: "1,Ann,,3\n1,Fay,win,9\n1,Gus,,8\n1,Cat,,2\n2,Bob,,6\n2,Eve,win,9\n2,Dan,,1\n",
}


def test_reascension_points_worked_by_hand(tmp_path):
    """Tau goal 9, win 14 (3.2.5, 3.3.1).
    Round 1: Ann win 14; Bob 5; Cat min(11, 9) = 9; Dan 0; out of time (3.3.3): Eve 4 + 2 = 6,
    Fay min(12, 9) + 2 = 11, Gus 7 + 2 = 9.
    Round 2: Fay win 14, Ann 3, Gus 8, Cat 2; Eve win 14, Bob 6, Dan 1.
    Totals: Fay 25, Eve 20, Ann 17, Gus 17, Cat 11, Bob 11, Dan 1."""
    scored, problems = score(tmp_path, SEVEN)
    assert {n: r.values["points"] for n, r in rows(scored).items()} == {
        "Fay": 25, "Eve": 20, "Ann": 17, "Gus": 17, "Cat": 11, "Bob": 11, "Dan": 1}
    assert [p for p in problems if "3.2.2" in p.message] == []
    round_1 = scored.rounds[0].tables
    assert [(s.player.name, s.points, s.how) for s in round_1[1].seats] == [
        ("Fay", 11, "tau 12, capped at 9, + 2 for time"), ("Gus", 9, "tau 7, + 2 for time"),
        ("Eve", 6, "tau 4, + 2 for time")]
    assert round_1[1].timed and not round_1[0].timed


def test_ties_broken_by_wins_then_opponents_average(tmp_path):
    """Ann and Gus have 17: Ann has a win, Gus none, so Ann is ahead on wins.
    Cat and Bob have 11 and no wins. Opponents' average is the mean over each opponent at each
    table of their points per round: Cat met Ann, Bob, Dan, then Ann, Fay, Gus:
    (17/2 + 11/2 + 1/2 + 17/2 + 25/2 + 17/2) / 6 = 44/6; Bob met Ann, Cat, Dan, then Eve, Dan:
    (17/2 + 11/2 + 1/2 + 20/2 + 1/2) / 5 = 5."""
    scored, _ = score(tmp_path, SEVEN)
    order = [(r.rank, r.player.name, r.tiebreak) for r in scored.standings.rows]
    assert order == [(1, "Fay", None), (2, "Eve", None), (3, "Ann", "wins"), (4, "Gus", "wins"),
                     (5, "Cat", "opponents"), (6, "Bob", "opponents"), (7, "Dan", None)]
    assert rows(scored)["Cat"].values["opponents_average"] == F(44, 6)
    assert rows(scored)["Bob"].values["opponents_average"] == 5


def test_equal_totals_share_a_rank_when_no_tiebreak_separates(tmp_path):
    """Two tables of three, identical results: Ann and Dan 14 with a win each and opponents
    averaging 5; the four others 5 points, no wins, opponents averaging (14 + 5)/2."""
    scored, _ = score(tmp_path, {1: "1,Ann,win,\n1,Bob,,5\n1,Cat,,5\n2,Dan,win,\n2,Eve,,5\n2,Fay,,5\n"})
    assert [r.rank for r in scored.standings.rows] == [1, 1, 3, 3, 3, 3]
    assert {r.tiebreak for r in scored.standings.rows} == {"shared"}
    assert scored.players["Bob"].finish == "=3rd of 6"


def test_revelations_goal_7_win_11(tmp_path):
    """5.2.2: tau goal 7, a win scores 11; out of time: min(tau, 7) + 2."""
    scored, _ = score(tmp_path, {1: "1,Ann,win,7\n1,Bob,,9\n1,Cat,,3\n2,Dan,time,8\n2,Eve,time,2\n2,Fay,time,7\n"},
                      fmt="revelations")
    points = {n: r.values["points"] for n, r in rows(scored).items()}
    assert points == {"Ann": 11, "Bob": 7, "Cat": 3, "Dan": 9, "Eve": 4, "Fay": 9}


def test_tau_goal_and_win_points_override(tmp_path):
    scored, problems = score(tmp_path, {1: "1,Ann,win,\n1,Bob,,13\n1,Cat,,4\n"}, tau_goal=12, win_points=20)
    assert {n: r.values["points"] for n, r in rows(scored).items()} == {"Ann": 20, "Bob": 12, "Cat": 4}
    assert not [p for p in problems if "win_points" in p.message]


def test_a_custom_goal_without_win_points_scales_the_award_and_says_so(tmp_path):
    """3.3.1: change the goal and the win award changes too: 14 × 12/9 = 18.67, so 19."""
    scored, problems = score(tmp_path, {1: "1,Ann,win,\n1,Bob,,13\n1,Cat,,4\n"}, tau_goal=12)
    assert rows(scored)["Ann"].values["points"] == 19
    warning = next(p for p in problems if p.message.startswith("win_points not set"))
    assert warning.line == 5 and not warning.is_error


@pytest.mark.parametrize("players,pattern", [
    (6, "3 3"), (7, "3 4"), (8, "4 4"), (9, "3 3 3"), (10, "3 3 4"), (11, "3 4 4"),
    (12, "3 3 3 3"), (13, "3 3 3 4"), (14, "3 3 4 4"), (15, "3 3 3 3 3")])
def test_groupings_table_of_seed_3_2_2(players, pattern):
    threes, fours = groupings(players)
    assert " ".join(["3"] * threes + ["4"] * fours) == pattern
    assert 3 * threes + 4 * fours == players


@pytest.mark.parametrize("players,rounds", [(6, 4), (14, 4), (15, 5), (29, 5), (30, 6), (45, 7)])
def test_minimum_rounds_of_seed_3_2_3(players, rounds):
    assert minimum_rounds(players) == rounds


def table_rows(sizes: list[int], prefix: str = "P") -> str:
    """Tables of the given sizes, the first seat of each winning, players numbered in order."""
    lines, n = [], 0
    for table, size in enumerate(sizes, start=1):
        for seat in range(size):
            n += 1
            lines.append(f"{table},{prefix}{n},{'win' if seat == 0 else ''},{'' if seat == 0 else seat}")
    return "\n".join(lines) + "\n"


def test_four_groups_of_four_departs_from_3_2_2(tmp_path):
    _, problems = score(tmp_path, {1: table_rows([4, 4, 4, 4])})
    warning = next(p for p in problems if "3.2.2" in p.message)
    assert warning.message == ("16 players sit at 4 tables of four; seed 3.2.2 seats them at "
                               "1 table of four and 4 tables of three")


def test_fours_must_be_the_highest_ranking_players(tmp_path):
    """After round 1 the winners P1 and P5 lead; in round 2 the table of four holds the bottom
    players instead."""
    round_2 = "1,P2,win,\n1,P3,,1\n1,P6,,1\n1,P7,,1\n2,P1,win,\n2,P4,,1\n2,P5,,1\n"
    _, problems = score(tmp_path, {1: table_rows([4, 3]), 2: round_2})
    warning = next(p for p in problems if "highest-ranking" in p.message)
    assert warning.path.endswith("round-2.csv") and "P1" in warning.message


def test_too_few_players_and_too_few_rounds_warn(tmp_path):
    _, problems = score(tmp_path, {1: "1,Ann,win,\n1,Bob,,5\n1,Cat,,1\n"}, rounds=3)
    messages = [p.message for p in problems if not p.is_error]
    assert "3 players: a Reascension tournament is for 6 or more (seed 3.1)" in messages
    assert any(m.startswith("rounds = 3 is fewer than seed 3.2.3 asks for 3 players: at least 4")
               for m in messages)


def test_points_grid_has_a_row_per_player_and_a_column_per_round(tmp_path):
    scored, _ = score(tmp_path, SEVEN)
    grid = next(s for s in scored.sections if s.title == "Points by round").data
    assert grid.rounds == (1, 2)
    fay = next(r for r in grid.rows if r.player.name == "Fay")
    assert (fay.rank, fay.cells, fay.total) == (1, ((11, False), (14, True)), 25)


def test_in_progress_until_the_seed_minimum_of_rounds(tmp_path):
    scored, _ = score(tmp_path, SEVEN)
    assert not scored.complete and scored.status_line == "In progress: 2 of 4 rounds played"
    assert dict(scored.details)["Rounds"] == "4 (seed 3.2.3 for 7 players)"


# ---------------------------------------------------------------- validation


def check(site, run_cli, round_text: str, fmt="reascension"):
    ev = "data/events/2024-06-01-h"
    site.write({f"{ev}/event.toml": heresy_event(fmt), f"{ev}/round-1.csv": round_text})
    result = run_cli("check", "--source", site.root)
    errors = [line.split(": ", 1) for line in result.lines if ": warning: " not in line and ".csv:" in line]
    return result.code, {where.removeprefix(f"{ev}/"): message for where, message in errors}


@pytest.mark.parametrize("text,where,message", [
    ("1,A,win,\n1,B,,1\n", "round-1.csv:3",
     "table 1 has 2 players (A, B): Heresy tables seat 3 or 4 (seed 3.2.1)"),
    ("1,A,win,\n1,B,,1\n1,C,,1\n1,D,,1\n1,E,,1\n", "round-1.csv:6",
     "table 1 has 5 players (A, B, C, D, E): Heresy tables seat 3 or 4 (seed 3.2.1)"),
    ("1,A,win,\n1,B,win,\n1,C,,1\n", "round-1.csv:3",
     "table 1 has two winners (A and B): one player wins a game"),
    ("1,A,win,\n1,B,time,3\n1,C,time,1\n", "round-1.csv:2",
     "table 1 has a winner (A) and 'time': a game that ran out of time has no winner"),
    ("1,A,time,4\n1,B,,3\n1,C,time,1\n", "round-1.csv:3",
     "table 1 ran out of time but B's row lacks 'time': write 'time' on every row of that table"),
    ("1,A,,4\n1,B,,3\n1,C,,1\n", "round-1.csv:4",
     "table 1 has no winner: write 'win' for the player who won, or 'time' on every row if the "
     "game ran out of time"),
    ("1,A,win,\n1,B,,-2\n1,C,,1\n", "round-1.csv:3", "tau '-2' is not a whole number, 0 or more"),
    ("1,A,win,\n1,B,,2.5\n1,C,,1\n", "round-1.csv:3", "tau '2.5' is not a whole number, 0 or more"),
    # An empty result and tau is a seat still being played (test_pair_heresy); 'time' needs tau.
    ("1,A,time,4\n1,B,time,\n1,C,time,1\n", "round-1.csv:3",
     "B has no tau: expected the tau stored at the end of the game (a whole number, 0 or more)"),
    ("1,A,win,\n1,B,,1\n1,C,,1\n2,A,,2\n2,D,win,\n2,E,,0\n", "round-1.csv:5",
     "A is at table 2 and at table 1 (line 2): a player sits at one table per round"),
    ("1,A,won,\n1,B,,1\n1,C,,1\n", "round-1.csv:2",
     "result 'won' is not a Heresy result: expected 'win' for the table's winner, 'time' on every "
     "row of a table that ran out of time, or empty"),
])
def test_validation_messages(site, run_cli, text, where, message):
    code, errors = check(site, run_cli, f"{HEADER}\n{text}")
    assert code == 1
    assert errors[where] == message


def test_grouping_warning_names_who_should_sit_at_the_fours(tmp_path):
    """16 players: after round 1 the four table winners lead on 14. Round 2 seats the four
    lowest at the one table of four."""
    winners = ["P1", "P5", "P8", "P11", "P14"]
    round_1 = table_rows([4, 3, 3, 3, 3])
    others = [f"P{n}" for n in range(1, 17) if f"P{n}" not in winners]
    lowest = others[-4:]
    rest = [p for p in winners + others if p not in lowest]
    lines = [f"1,{p},{'win' if i == 0 else ''},{'' if i == 0 else 1}" for i, p in enumerate(lowest)]
    for t in range(4):
        group = rest[3 * t: 3 * t + 3]
        lines += [f"{t + 2},{p},{'win' if i == 0 else ''},{'' if i == 0 else 1}" for i, p in enumerate(group)]
    _, problems = score(tmp_path, {1: round_1, 2: "\n".join(lines) + "\n"})
    warning = next(p for p in problems if "highest-ranking" in p.message)
    assert "should sit at them rather than" in warning.message
    assert any(w in warning.message.split("should")[0] for w in winners)
