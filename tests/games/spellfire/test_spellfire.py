"""SPELLFIRE (seed 002, "Scoring" and "SPELLFIRE Scoring System"), worked by hand: the seed's
example, round multipliers, the final, officials, scored and unscored events, ties, the
"another chance" rule and every validation message."""

from __future__ import annotations


import pytest

from conftest import score_files
from spellfire_events import HEADER, NINE, bracket, event
from site_builder.core.model import Round
from site_builder.core.problems import ProblemLog
from site_builder.rules.spellfire.rows import GameRow
from site_builder.rules.spellfire.scoring import brackets, score_rounds


def score(tmp_path, rounds, **keys):
    scored, problems = score_files(tmp_path / "s", event(**keys), HEADER, rounds)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored, problems


def points(scored) -> dict[str, int]:
    return {r.player.name: r.values["points"] for r in scored.standings.rows}


def test_the_seeds_worked_example_a_fifth_round_final():
    """Mike, Jim and John in the championship round (5th bracket). Jim: 4+3+6+5 = 18 realms,
    third, 2 × 5 = 10; John: 4+6+4+5 = 19, runner-up, 3 × 5 = 15; Mike: 5 × 5 = 25."""
    games = [(1, "Mike", 6, True), (1, "Jim", 4, False), (1, "John", 4, False),
             (2, "John", 6, True), (2, "Mike", 5, False), (2, "Jim", 3, False),
             (3, "Jim", 6, True), (3, "Mike", 4, False), (3, "John", 4, False),
             (4, "Mike", 6, True), (4, "Jim", 5, False), (4, "John", 5, False)]
    rows = tuple(GameRow(i + 2, 1, g, p, r, w, None) for i, (g, p, r, w) in enumerate(games))
    final = brackets(Round(5, "round-5.csv", rows), ProblemLog())
    after = score_rounds([final], 5, {})[0]
    assert {n: (s.realms, s.points) for n, s in after.items()} == {
        "Mike": (21, 25), "John": (19, 15), "Jim": (18, 10)}
    assert after["John"].rounds[0].arithmetic == "3 × 5 = 15"


def test_round_multipliers_and_final_points(tmp_path):
    """Round 1 (× 1): bracket winners 4, seconds 3, thirds 2 (bracket 1: B has 2 + 6 + 2 = 10
    realms, C 1 + 1 + 1 = 3; bracket 2: D 3 + 3 = 6, F 1 + 1 = 2). The final is round 2, a single
    bracket: winner 5 × 2 = 10, runner-up 3 × 2 = 6, third 2 × 2 = 4. Totals add up the rounds:
    A 4 + 10 = 14, E 4 + 6 = 10, H 4 + 4 = 8."""
    scored, _ = score(tmp_path, NINE)
    totals = points(scored)
    assert (totals["A"], totals["E"], totals["H"]) == (14, 10, 8)
    assert (totals["B"], totals["C"], totals["D"], totals["F"]) == (3, 2, 3, 2)
    assert [r.values["finish"] for r in scored.standings.rows[:3]] == ["Winner", "Runner-up", "Third"]
    assert scored.winner.name == "A" and scored.complete
    final_lines = scored.rounds[1].tables[0].lines
    assert [(l.player.name, l.arithmetic) for l in final_lines] == [
        ("A", "5 × 2 = 10"), ("E", "3 × 2 = 6"), ("H", "2 × 2 = 4")]


def test_in_progress_winners_are_through(tmp_path):
    scored, _ = score(tmp_path, {1: NINE[1]})
    finishes = {r.player.name: r.values["finish"] for r in scored.standings.rows}
    assert finishes["A"] == "Through to round 2" and finishes["B"] == "Out in round 1"
    assert not scored.complete and scored.winner is None


def test_three_rounds_multiply_by_three_in_the_final(tmp_path):
    """27 players: 9 brackets, then 3, then the final. The champion won every round:
    4 × 1 + 4 × 2 + 5 × 3 = 27."""
    names = [f"P{n:02d}" for n in range(1, 28)]
    r1 = "".join(bracket(b + 1, names[3 * b: 3 * b + 3], [names[3 * b]] * 2) for b in range(9))
    winners = names[::3]
    r2 = "".join(bracket(b + 1, winners[3 * b: 3 * b + 3], [winners[3 * b]] * 2) for b in range(3))
    r3 = bracket(1, winners[::3], [winners[0]] * 2)
    scored, _ = score(tmp_path, {1: r1, 2: r2, 3: r3})
    assert points(scored)["P01"] == 27
    assert points(scored)["P10"] == 4 + 8 + 9   # runner-up of the final: 3 × 3
    assert len(scored.standings.rows) == 27


def test_coordinator_and_judge_points(tmp_path):
    """9 players: the coordinator earns 9, each other judge 9 // 2 = 4; a judge who played (I)
    forfeits them; the coordinator named among the judges counts once."""
    scored, _ = score(tmp_path, NINE, coordinator="Greg", judges=["Greg", "Hana", "I"])
    officials = [(o.player.name, o.role, o.points) for o in scored.standings.officials]
    assert officials == [("Greg", "coordinator", 9), ("Hana", "judge", 4)]
    ranking = {e.player.name: (e.points, e.role) for e in scored.ranking}
    assert ranking["Greg"] == (9, "coordinator") and ranking["Hana"] == (4, "judge")
    assert "I" in ranking and ranking["I"][1] == "player"


def test_an_official_listed_under_another_spelling_still_forfeits(tmp_path):
    scored, _ = score(tmp_path, NINE, judges=["i"])  # same person id as player "I"
    assert scored.standings.officials == ()


def test_fewer_than_nine_players_is_unscored(tmp_path):
    eight = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"]) + bracket(2, ["E", "F", "G", "H"], ["E", "E"]),
             2: bracket(1, ["A", "E", "B"], ["A", "A"])}
    scored, _ = score(tmp_path, eight)
    assert scored.ranking is None
    assert scored.ranking_note == ("unscored: 8 players, and a scored SPELLFIRE tournament needs "
                                   "9 or more")
    assert scored.status_line == "Final · unscored"
    assert scored.standings.meta == {"scored": False}


def test_another_chance_when_a_round_leaves_two(tmp_path):
    """Two brackets of four leave two winners: the best-placed eliminated player (a second, on
    3 points) may play the final. It is accepted and marked."""
    eight = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"]) + bracket(2, ["E", "F", "G", "H"], ["E", "E"]),
             2: bracket(1, ["A", "E", "B"], ["A", "A"])}
    scored, problems = score(tmp_path, eight)
    assert not [p for p in problems if "another chance" in p.message]
    b = next(r for r in scored.standings.rows if r.player.name == "B")
    assert b.values["another_chance"] is True and b.notes == ("another chance in round 2",)
    final_box = scored.bracket.extra.rounds[1].boxes[0]
    assert [e.badge for e in final_box.entries if e.player.name == "B"] == ["another chance"]


def test_another_chance_for_a_lower_placed_player_warns(tmp_path):
    eight = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"]) + bracket(2, ["E", "F", "G", "H"], ["E", "E"]),
             2: bracket(1, ["A", "E", "D"], ["A", "A"])}   # D placed 4th (1 point); B, F had 3
    _, problems = score(tmp_path, eight)
    warning = next(p for p in problems if "another chance" in p.message)
    assert "B, F scored more so far (3 points)" in warning.message and not warning.is_error


def test_tied_realms_share_the_better_place_and_warn(tmp_path):
    """B and C both end on 6 unrazed realms over the bracket: they share 2nd, 3 points each."""
    rows = "1,1,A,6,win\n1,1,B,3,\n1,1,C,3,\n1,2,A,6,win\n1,2,B,3,\n1,2,C,3,\n"
    scored, problems = score(tmp_path, {1: rows})
    assert points(scored) == {"A": 5, "B": 3, "C": 3}  # a single bracket is the final: 5 × 1
    warning = next(p for p in problems if "tie on" in p.message)
    assert warning.message == ("bracket 1: B and C tie on 6 unrazed realms, so they share 2nd "
                               "place's points; a 'place' column lets the judge settle it")
    assert [l.place for l in scored.rounds[0].tables[0].lines] == ["1st", "=2nd (tied)", "=2nd (tied)"]


def test_a_place_column_settles_the_tie(tmp_path):
    rows = ("1,1,A,6,win,1\n1,1,B,3,,3\n1,1,C,3,,2\n1,2,A,6,win,1\n1,2,B,3,,3\n1,2,C,3,,2\n")
    scored, problems = score_files(tmp_path / "s", event(), HEADER + ",place", {1: rows})
    assert not [p for p in problems if p.is_error or "tie on" in p.message]
    assert points(scored) == {"A": 5, "C": 3, "B": 2}


# ---------------------------------------------------------------- validation


def check(site, run_cli, rounds: dict[int, str], header: str = HEADER):
    ev = "data/events/2026-01-10-sf"
    site.write({f"{ev}/event.toml": event(), **{f"{ev}/round-{n}.csv": f"{header}\n{t}"
                                                for n, t in rounds.items()}})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1, result.err
    return [line.removeprefix(f"{ev}/") for line in result.lines]


@pytest.mark.parametrize("text,expected", [
    ("1,1,A,6,win\n1,1,B,6,win\n1,1,C,2,\n",
     "round-1.csv:4: game 1 of bracket 1 has 2 winners (A, B): write 'win' for the one player who won it"),
    ("1,1,A,6,\n1,1,B,3,\n1,1,C,2,\n",
     "round-1.csv:4: game 1 of bracket 1 has no winner: write 'win' for the one player who won it"),
    ("1,1,A,6,win\n1,1,B,3,\n1,1,C,2,\n1,2,A,6,win\n1,2,B,3,\n1,2,C,2,\n1,3,B,6,win\n1,3,A,3,\n1,3,C,2,\n",
     "round-1.csv:8: bracket 1 has a game 3 after A won two games in game 2: the bracket ends when a "
     "player has won two"),
    ("1,1,A,6,win\n1,1,B,3,\n1,2,A,6,win\n1,2,B,3,\n",
     "round-1.csv:5: bracket 1 has 2 players (A, B): SPELLFIRE brackets have 3 players, or 4 to balance"),
    ("".join(f"1,1,{p},{6 if p == 'A' else 1},{'win' if p == 'A' else ''}\n" for p in "ABCDE"),
     "round-1.csv:6: bracket 1 has 5 players (A, B, C, D, E): SPELLFIRE brackets have 3 players, or "
     "4 to balance"),
    ("1,1,A,6,win\n1,1,B,3,\n1,1,C,2,\n1,2,A,6,win\n1,2,B,3,\n",
     "round-1.csv:5: game 2 of bracket 1 has no row for C: every player of the bracket has realms in "
     "every game"),
    ("1,1,A,6,win\n1,1,B,3,\n1,1,C,2,\n1,2,A,6,win\n1,2,B,3,\n1,2,C,2,\n2,1,A,6,win\n2,1,D,3,\n2,1,E,2,\n",
     "round-1.csv:8: A plays in bracket 2 and bracket 1: a player plays one bracket per round"),
    ("1,1,A,6,won\n1,1,B,3,\n1,1,C,2,\n",
     "round-1.csv:2: result 'won' is not a SPELLFIRE result: expected 'win' for the game's winner, "
     "empty for the others"),
    ("1,1,A,6,win\n1,1,B,-3,\n1,1,C,2,\n", "round-1.csv:3: realms '-3' is not a whole number, 0 or more"),
])
def test_validation_messages(site, run_cli, text, expected):
    assert expected in check(site, run_cli, {1: text})


def test_a_bracket_nobody_has_won_is_an_error_before_the_newest_round(site, run_cli):
    """A round in progress is no longer an error (rules.pairings): a bracket with nobody on two
    wins is accepted in the newest round only."""
    unfinished = "1,1,A,6,win\n1,1,B,3,\n1,1,C,2,\n"
    lines = check(site, run_cli, {1: unfinished, 2: bracket(1, ["A", "B", "C"], ["A", "A"])})
    assert ("round-1.csv:4: bracket 1 ends with nobody on two wins (A 1, B 0, C 0): it is played "
            "until one player has won two games; only the newest round (round 2) may still be in "
            "progress") in lines


def test_place_must_be_complete_and_start_with_the_winner(site, run_cli):
    two_games = "1,1,A,6,win,{a}\n1,1,B,3,,{b}\n1,1,C,3,,{c}\n1,2,A,6,win,{a}\n1,2,B,3,,{b}\n1,2,C,3,,{c}\n"
    lines = check(site, run_cli, {1: two_games.format(a="", b="2", c="3")}, HEADER + ",place")
    assert ("round-1.csv:3: bracket 1 gives 'place' to only some of its rows: give each player one "
            "place on all their rows, or leave the column empty") in lines
    lines = check(site, run_cli, {1: two_games.format(a="2", b="1", c="3")}, HEADER + ",place")
    assert ("round-1.csv:2: bracket 1 places A, who won two games, 2: the bracket's winner is 1st"
            ) in lines


def test_only_bracket_winners_advance(site, run_cli):
    lines = check(site, run_cli, {1: NINE[1], 2: bracket(1, ["A", "E", "B"], ["A", "A"])})
    assert ("round-2.csv:4: B did not win a bracket in round 1 and cannot play round 2: only bracket "
            "winners advance") in lines


def test_nothing_follows_the_final(site, run_cli):
    lines = check(site, run_cli, {1: bracket(1, ["A", "B", "C"], ["A", "A"]),
                                  2: bracket(1, ["A", "B", "C"], ["A", "A"])})
    assert "round-2.csv:1: round 1 was a single bracket, the final: no round 2 follows it" in lines


def test_shorthand_event_names(tmp_path):
    scored, _ = score(tmp_path, NINE, tournament="King's Decree", victory="enhanced", deck_size=75,
                      variants=["Questing"])
    assert scored.display_name == "SPELLFIRE: King's Decree (Questing)—Enhanced [75]"
    scored, _ = score(tmp_path, NINE)
    assert scored.display_name == "SPELLFIRE: Championship—Standard [55]"


# ---------------------------------------------------------------- found in review


def test_a_half_entered_round_is_not_the_final(tmp_path):
    """18 players in six brackets: round 2 so far holds one bracket of three winners, the other
    three winners are still to be entered, so round 2 is not the final and nobody has won yet."""
    names = [f"P{n:02d}" for n in range(1, 19)]
    r1 = "".join(bracket(b + 1, names[3 * b: 3 * b + 3], [names[3 * b]] * 2) for b in range(6))
    winners = names[::3]
    scored, problems = score(tmp_path, {1: r1, 2: bracket(1, winners[:3], [winners[0]] * 2)})
    assert not scored.complete and scored.winner is None
    assert any("won a bracket in round 1 but do not play round 2" in p.message for p in problems)
    assert scored.rounds[1].label == "Round 2"


def test_a_newcomer_cannot_take_the_another_chance_place(site, run_cli):
    ev = "data/events/2026-01-10-sf"
    site.write({f"{ev}/event.toml": event(),
                f"{ev}/round-1.csv": HEADER + "\n" + bracket(1, ["A", "B", "C"], ["A", "A"])
                + bracket(2, ["D", "E", "F", "G"], ["D", "D"]),
                f"{ev}/round-2.csv": HEADER + "\n" + bracket(1, ["A", "D", "Zoe"], ["A", "A"])})
    result = run_cli("check", "--source", site.root)
    assert (f"{ev}/round-2.csv:4: Zoe plays round 2 without having played round 1: only bracket "
            "winners advance (and \"another chance\" goes to an eliminated player)") in result.lines


def test_fourth_in_a_four_player_final_is_fourth_everywhere(tmp_path):
    scored, _ = score(tmp_path, {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"])})
    assert scored.standings.rows[3].values["finish"] == "Fourth"
    assert scored.players["D"].finish == "Fourth"


def test_spellfire_events_keep_their_own_name_beside_the_shorthand(tmp_path):
    scored, _ = score(tmp_path, NINE)
    assert (scored.display_name, scored.subtitle) == ("SPELLFIRE: Championship—Standard [55]",
                                                      "Winter Open")


def test_unscored_reason_keeps_the_games_name(tmp_path):
    eight = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"]) + bracket(2, ["E", "F", "G", "H"], ["E", "E"])}
    scored, _ = score(tmp_path, eight)
    assert dict(scored.details)["Scoring"] == ("Unscored: 8 players, and a scored SPELLFIRE "
                                               "tournament needs 9 or more")
