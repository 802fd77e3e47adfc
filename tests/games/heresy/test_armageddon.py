"""Heresy Armageddon (seed 000, section 4): best-of-three matches, single and double
elimination derived from the results, final places, byes (4.2.2) and validation."""

from __future__ import annotations

import pytest

from conftest import score_files

HEADER = "table,game,player,result,tau"


def event(elimination: str = "single", **keys) -> str:
    lines = ['name = "Armageddon test"', "date = 2024-06-02", 'game = "heresy"',
             'format = "armageddon"', f'elimination = "{elimination}"']
    lines += [f'{k} = "{v}"' for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def match(table: int, winner: str, loser: str, score: str) -> str:
    """Rows of a match the winner takes `score` ("2-0" or "2-1"); the loser's game comes second."""
    games = [(winner, loser)] * 2 if score == "2-0" else [(winner, loser), (loser, winner), (winner, loser)]
    rows = []
    for number, (w, lo) in enumerate(games, start=1):
        rows += [f"{table},{number},{w},win,7", f"{table},{number},{lo},loss,{number + 2}"]
    return "\n".join(rows) + "\n"


def score(tmp_path, rounds, elimination="single", **keys):
    scored, problems = score_files(tmp_path / "s", event(elimination, **keys), HEADER, rounds)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored, problems


SINGLE = {
    1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-1") + match(3, "E", "F", "2-0")
       + match(4, "G", "H", "2-1"),
    2: match(1, "A", "C", "2-1") + match(2, "G", "E", "2-0"),
    3: match(1, "A", "G", "2-1"),
}


def test_single_elimination_places(tmp_path):
    """Champion A, runner-up G; the semi-finalists out in round 2 by games won (C won 2 + 1 = 3,
    E 2 + 0 = 2); the quarter-finalists out in round 1: D and H won a game each and share 5th,
    B and F won none and share 7th."""
    scored, _ = score(tmp_path, SINGLE)
    places = [(r.rank, r.player.name, r.values["finish"]) for r in scored.standings.rows]
    assert places == [(1, "A", "Champion"), (2, "G", "Runner-up"),
                      (3, "C", "Out in the Semi-finals"), (4, "E", "Out in the Semi-finals"),
                      (5, "D", "Out in the Quarter-finals"), (5, "H", "Out in the Quarter-finals"),
                      (7, "B", "Out in the Quarter-finals"), (7, "F", "Out in the Quarter-finals")]
    a = scored.standings.rows[0].values
    assert (a["matches_won"], a["games_won"], a["games_lost"]) == (3, 6, 2)
    assert scored.complete and scored.winner.name == "A"
    assert [r.label for r in scored.rounds] == ["Quarter-finals", "Semi-finals", "Final"]


def test_single_elimination_bracket_tree(tmp_path):
    scored, _ = score(tmp_path, SINGLE)
    quarters, semis, final = scored.bracket.rounds
    assert [[s.player.name for s in g.slots] for g in quarters.games] == [
        ["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"]]
    assert [(s.player.name, s.result, s.won) for s in final.games[0].slots] == [
        ("A", "2–1", True), ("G", "1–2", False)]
    assert final.games[0].slots[0].detail == "tau 7 · 4 · 7"
    assert scored.bracket.champion.name == "A"


def test_in_progress_single_elimination(tmp_path):
    scored, _ = score(tmp_path, {1: SINGLE[1]})
    assert not scored.complete and scored.status_line == "In progress: 4 players still in"
    assert [r.values["finish"] for r in scored.standings.rows[:4]] == ["Still in"] * 4
    assert scored.winner is None


DOUBLE = {
    1: match(1, "A", "B", "2-1") + match(2, "C", "D", "2-0"),
    2: match(1, "A", "C", "2-0") + match(2, "B", "D", "2-1"),   # D's second loss: out
    3: match(1, "C", "B", "2-1"),                               # B out
    4: match(1, "C", "A", "2-1"),                               # the unbeaten A loses the final
    5: match(1, "A", "C", "2-0"),                               # reset: C's second loss
}


def test_double_elimination_brackets_are_read_from_the_results(tmp_path):
    scored, _ = score(tmp_path, DOUBLE, elimination="double")
    parts = {name: [(r.label, [[s.player.name for s in g.slots] for g in r.games]) for r in rounds]
             for name, rounds in scored.bracket.extra.parts}
    assert parts == {
        "Winners' bracket": [("Round 1", [["A", "B"], ["C", "D"]]), ("Round 2", [["A", "C"]])],
        "Losers' bracket": [("Round 2", [["B", "D"]]), ("Round 3", [["C", "B"]])],
        "Final": [("Round 4", [["C", "A"]]), ("Round 5 (reset)", [["A", "C"]])],
    }


def test_double_elimination_places(tmp_path):
    scored, _ = score(tmp_path, DOUBLE, elimination="double")
    places = [(r.rank, r.player.name, r.values["finish"], r.values["eliminated_in"])
              for r in scored.standings.rows]
    assert places == [(1, "A", "Champion", None), (2, "C", "Runner-up", 5),
                      (3, "B", "Out in round 3", 3), (4, "D", "Out in round 2", 2)]
    after_4 = [(r.player.name, r.values["finish"]) for r in scored.rounds[3].standings.rows]
    assert after_4[:2] == [("C", "Still in (one loss)"), ("A", "Still in (one loss)")]


def test_unplayed_games_recorded_as_losses_for_both(tmp_path):
    """4.2.5: time ran out in game 1, which A led on tau: A wins the match; games 2 and 3 are
    recorded as losses for both players."""
    rows = "1,1,A,win,5\n1,1,B,loss,3\n1,2,A,loss,0\n1,2,B,loss,0\n1,3,A,loss,0\n1,3,B,loss,0\n"
    scored, _ = score(tmp_path, {1: rows})
    by_name = {r.player.name: r.values for r in scored.standings.rows}
    assert by_name["A"]["finish"] == "Champion"
    assert (by_name["A"]["games_won"], by_name["A"]["games_lost"]) == (1, 2)
    assert (by_name["B"]["games_won"], by_name["B"]["games_lost"]) == (0, 3)


BYES = {
    # Round 1: A beats B 2-0 (A lost no game), C beats D 2-1 (C lost one), E has a bye.
    1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-1") + ",,E,bye,\n",
}


def test_bye_to_the_player_with_fewest_lost_games_is_quiet(tmp_path):
    _, problems = score(tmp_path, {**BYES, 2: match(1, "C", "E", "2-0") + ",,A,bye,\n"})
    assert not [p for p in problems if "bye" in p.message]


def test_bye_to_a_player_with_more_lost_games_warns(tmp_path):
    _, problems = score(tmp_path, {**BYES, 2: match(1, "A", "E", "2-0") + ",,C,bye,\n"})
    warning = next(p for p in problems if "gets the bye" in p.message)
    assert warning.message.startswith("C (1 games lost) gets the bye, but A (0 lost)")
    assert warning.path.endswith("round-2.csv") and warning.line == 6 and not warning.is_error


def test_second_bye_warns(tmp_path):
    _, problems = score(tmp_path, {**BYES, 2: match(1, "A", "C", "2-0") + ",,E,bye,\n"})
    assert any(p.message == "E gets a second bye: no player may receive more than one bye "
                            "(seed 4.2.2)" for p in problems)


def test_double_elimination_bye_goes_to_a_player_who_just_lost(tmp_path):
    rounds = {1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-1") + match(3, "E", "F", "2-0"),
              2: match(1, "A", "C", "2-0") + match(2, "B", "D", "2-1") + ",,E,bye,\n"}
    _, problems = score(tmp_path, rounds, elimination="double")
    warning = next(p for p in problems if "without having just lost" in p.message)
    assert "F (2 lost)" in warning.message


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("text,line,message", [
    ("1,1,A,win,7\n1,1,B,win,7\n", 3,
     "game 1 at table 1 has two winners: one player wins a game (an unplayed game is a loss for both)"),
    ("1,1,A,win,7\n1,1,B,loss,3\n1,2,A,win,7\n", 4,
     "game 2 at table 1 has no row for B: write both players' result and tau"),
    ("1,1,A,win,7\n1,1,B,loss,3\n1,2,A,loss,2\n1,2,B,win,7\n", 5,
     "the match at table 1 is tied 1–1: the player with more game wins takes the match, so record "
     "the deciding game (seed 4.2.5–4.2.7 for time)"),
    ("1,1,A,win,7\n1,1,B,loss,3\n1,1,C,loss,3\n", 4,
     "table 1 has 3 players (A, B, C): an Armageddon match is between two players"),
    ("1,1,A,win,7\n1,1,A,win,7\n1,1,B,loss,2\n", 3, "A has two rows for game 1 at table 1 (also line 2)"),
    ("1,4,A,win,7\n1,4,B,loss,2\n", 2, "game '4' is not a game of a best-of-three match: expected 1, 2 or 3"),
    ("1,1,A,win,7\n1,1,B,loss,2\n,1,C,bye,\n", 4, "C has a bye in game 1: a bye is one row with no game number"),
    ("1,1,A,win,7\n1,1,B,loss,2\n1,,C,bye,\n", 4,
     "C has a bye at table 1, where a match is played: a bye has no opponent"),
    ("1,1,A,win,7\n1,1,B,loss,2\n2,1,A,win,7\n2,1,C,loss,2\n", 4,
     "A plays more than one match this round (table 1, table 2)"),
    ("1,1,A,won,7\n1,1,B,loss,2\n", 2,
     "result 'won' is not an Armageddon result: expected win or loss for each game, or bye"),
    ("1,1,A,win,\n1,1,B,loss,2\n", 2,
     "A has no tau: expected the tau stored at the end of game 1 (a whole number, 0 or more)"),
])
def test_validation_messages(site, run_cli, text, line, message):
    ev = "data/events/2024-06-02-a"
    site.write({f"{ev}/event.toml": event(), f"{ev}/round-1.csv": f"{HEADER}\n{text}"})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert f"{ev}/round-1.csv:{line}: {message}" in result.lines, result.err


def test_a_player_who_is_out_cannot_play_again(site, run_cli):
    ev = "data/events/2024-06-02-a"
    site.write({f"{ev}/event.toml": event("double"),
                f"{ev}/round-1.csv": HEADER + "\n" + match(1, "A", "B", "2-0") + match(2, "C", "D", "2-0"),
                f"{ev}/round-2.csv": HEADER + "\n" + match(1, "A", "C", "2-0") + match(2, "B", "D", "2-0"),
                f"{ev}/round-3.csv": HEADER + "\n" + match(1, "C", "D", "2-0")})
    result = run_cli("check", "--source", site.root)
    assert f"{ev}/round-3.csv:2: D went out in round 2 (second match loss) and cannot play round 3" in result.lines


# ---------------------------------------------------------------- found in review


def test_an_early_cross_bracket_match_is_not_the_final(tmp_path):
    """Six players: after round 1 three are unbeaten, so round 2 pairs unbeaten E with
    once-beaten B. Only the match of the last two players is the final."""
    rounds = {1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-0") + match(3, "E", "F", "2-0"),
              2: match(1, "A", "C", "2-0") + match(2, "E", "B", "2-0") + match(3, "D", "F", "2-0")}
    scored, _ = score(tmp_path, rounds, elimination="double")
    parts = dict(scored.bracket.extra.parts)
    assert "Final" not in parts
    assert [[s.player.name for s in g.slots] for g in parts["Losers' bracket"][0].games] == [
        ["E", "B"], ["D", "F"]]


def test_several_byes_in_one_round_are_compared_with_the_players_who_play(tmp_path):
    """Round 2 of 5 single-elimination survivors after a bye: the three who lost fewest games
    get byes; nobody playing lost fewer, so there is no warning."""
    rounds = {1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-0") + match(3, "E", "F", "2-1")
                 + match(4, "G", "H", "2-1") + match(5, "I", "J", "2-1"),
              2: ",,A,bye,\n,,C,bye,\n,,E,bye,\n" + match(1, "G", "I", "2-1")}
    _, problems = score(tmp_path, rounds)
    assert not [p for p in problems if "bye" in p.message]


def test_a_one_nil_match_counts_its_unplayed_games_as_lost_for_byes(tmp_path):
    """4.2.5: time in game 1; the unplayed games count as losses for both players, for byes. A
    won 1–0 (so 2 unplayed games lost), C and E won 2–1 (1 lost each, tau 4 at the loss): C may
    get the bye. Without the unplayed games A would look unbeaten in games and the check warn."""
    rounds = {1: "1,1,A,win,5\n1,1,B,loss,3\n" + match(2, "C", "D", "2-1") + match(3, "E", "F", "2-1"),
              2: ",,C,bye,\n" + match(1, "A", "E", "2-0")}
    _, problems = score(tmp_path, rounds)
    assert not [p for p in problems if "bye" in p.message]


def test_an_unplayed_game_may_leave_tau_empty(tmp_path):
    rows = "1,1,A,win,5\n1,1,B,loss,3\n1,2,A,loss,\n1,2,B,loss,\n1,3,A,loss,\n1,3,B,loss,\n"
    scored, _ = score(tmp_path, {1: rows})
    assert scored.standings.rows[0].player.name == "A"


def test_a_duplicate_bye_row_is_an_error(site, run_cli):
    ev = "data/events/2024-06-02-a"
    site.write({f"{ev}/event.toml": event(),
                f"{ev}/round-1.csv": f"{HEADER}\n" + match(1, "A", "B", "2-0") + ",,C,bye,\n,,C,bye,\n"})
    result = run_cli("check", "--source", site.root)
    assert f"{ev}/round-1.csv:7: C has two bye rows this round (also line 6): a bye is one row" in result.lines


def test_a_bad_row_does_not_also_make_its_table_look_short(site, run_cli):
    ev = "data/events/2024-06-02-a"
    site.write({f"{ev}/event.toml": event(),
                f"{ev}/round-1.csv": f"{HEADER}\n1,1,A,win,7\n1,1,B,loss,x\n"})
    result = run_cli("check", "--source", site.root)
    assert result.lines == [f"{ev}/round-1.csv:3: tau 'x' is not a whole number, 0 or more", "1 error."]


def test_final_status_with_players_still_in_warns(tmp_path):
    _, problems = score(tmp_path, {1: DOUBLE[1]}, elimination="double", status="final")
    assert any(p.message.startswith('status = "final" but 4 players are still in') for p in problems)
