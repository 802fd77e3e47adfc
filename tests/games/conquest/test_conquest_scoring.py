"""Conquest scoring by hand from the regulations (seed 001): "Tournament Points", "Tiebreakers",
"Pairings" (drops and rejoins) and "Single Elimination Rounds"."""

from __future__ import annotations

from fractions import Fraction as F

from conftest import rows_of, score_event

CUSTOM = {"structure": "custom"}


def score(tmp_path, rounds, **keys):
    scored, problems = score_event(tmp_path / "s", rounds, **{**CUSTOM, **keys})
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored, problems


def test_points_win_5_modified_win_4_loss_0_bye_5(tmp_path):
    scored, _ = score(tmp_path, {1: """
        1,A,win
        1,B,loss
        2,C,modified-win
        2,D,loss
        ,E,bye
        """}, swiss_rounds=1, cut=0)
    points = {r.player.name: r.values["points"] for r in scored.standings.rows}
    assert points == {"A": 5, "E": 5, "C": 4, "B": 0, "D": 0}


def test_every_documented_spelling_of_a_result_scores_as_its_word(tmp_path):
    """docs/games/conquest.md: w, mw or "modified win", l, in capitals or not (issue 34, point
    4): the same points as win 5, modified-win 4, loss 0, bye 5."""
    scored, _ = score(tmp_path, {1: """
        1,A,W
        1,B,l
        2,C,Modified Win
        2,D,L
        3,F,MW
        3,G,loss
        4,H,Win
        4,I,LOSS
        ,E,Bye
        """}, swiss_rounds=1, cut=0)
    points = {r.player.name: r.values["points"] for r in scored.standings.rows}
    assert points == {"A": 5, "H": 5, "E": 5, "C": 4, "F": 4, "B": 0, "D": 0, "G": 0, "I": 0}


def test_sos_and_esos_worked_by_hand(tmp_path):
    """Four players, two rounds.  R1: A beats B, C beats D (modified).  R2: A beats C, B beats D.
    Points/rounds: A 10/2, B 5/2, C 4/2, D 0/2.
    SoS: A = (5/2 + 2)/2 = 9/4;  B = (5 + 0)/2 = 5/2;  C = (0 + 5)/2 = 5/2;  D = (2 + 5/2)/2 = 9/4.
    ESoS: A = (5/2 + 5/2)/2 = 5/2;  B = (9/4 + 9/4)/2 = 9/4;  C = (9/4 + 9/4)/2 = 9/4;
          D = (5/2 + 5/2)/2 = 5/2."""
    scored, _ = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,mw\n2,D,loss\n",
        2: "1,A,win\n1,C,loss\n2,B,win\n2,D,loss\n",
    }, swiss_rounds=2, cut=0)
    assert rows_of(scored.standings) == [
        (1, "A", 10, F(9, 4), F(5, 2), False),
        (2, "B", 5, F(5, 2), F(9, 4), False),
        (3, "C", 4, F(5, 2), F(9, 4), False),
        (4, "D", 0, F(9, 4), F(5, 2), False),
    ]


def test_equal_points_ordered_by_sos_then_esos(tmp_path):
    """After round 1 all winners have 5 and all losers 0; SoS separates nobody (winners met
    0-point players, losers 5-point players), ESoS neither: the seeded draw decides and says so."""
    scored, _ = score(tmp_path, {1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n"}, swiss_rounds=2, cut=0)
    rows = scored.standings.rows
    assert [r.values["points"] for r in rows] == [5, 5, 0, 0]
    assert all(r.tiebreak == "random" for r in rows)


def test_random_tiebreak_is_seeded_and_stable(tmp_path):
    rounds = {1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n3,E,win\n3,F,loss\n"}
    orders = set()
    for seed in range(1, 40):
        scored, _ = score(tmp_path, rounds, swiss_rounds=2, cut=0, seed=seed)
        first = tuple(r.player.name for r in scored.standings.rows[:3])
        again, _ = score(tmp_path, rounds, swiss_rounds=2, cut=0, seed=seed)
        assert first == tuple(r.player.name for r in again.standings.rows[:3])
        orders.add(first)
    assert len(orders) > 1  # the seed really decides


def test_an_opponent_met_twice_counts_twice(tmp_path):
    """A beats B in rounds 1 and 2 (a rematch the data may contain; it warns) and D in round 3.
    Points/rounds: A 15/3, B 5/3, C 10/3, D 0/3, so A's SoS is (5/3 + 5/3 + 0)/3 = 10/9."""
    scored, problems = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n",
        2: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n",
        3: "1,A,win\n1,D,loss\n2,B,win\n2,C,loss\n",
    }, swiss_rounds=3, cut=0)
    sos = {r.player.name: r.values["sos"] for r in scored.standings.rows}
    assert sos["A"] == F(10, 9)
    assert any("already played each other in round 1" in p.message for p in problems)


def test_drop_keeps_the_player_with_points_and_counts_as_opponent(tmp_path):
    scored, _ = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n",
        2: "1,A,win\n1,C,loss\n,D,bye\n",  # B dropped; D gets the bye
    }, swiss_rounds=2, cut=0)
    by_name = {r.player.name: r for r in scored.standings.rows}
    assert by_name["B"].dropped and by_name["B"].values["rounds_played"] == 1
    assert "dropped after round 1" in by_name["B"].notes
    # A's opponents: B (0/1) and C (5/2): SoS = 5/4.
    assert by_name["A"].values["sos"] == F(5, 4)


def test_rejoin_gets_an_unpaired_loss_for_each_missed_round(tmp_path):
    """E misses round 2 and rejoins in round 3: round 2 becomes an unpaired loss (0 points, a
    round played), and the page says so. After round 2 E shows as dropped."""
    scored, _ = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n3,E,win\n3,F,loss\n",
        2: "1,A,win\n1,C,loss\n2,B,win\n2,D,loss\n,F,bye\n",
        3: "1,A,win\n1,E,loss\n2,B,win\n2,C,loss\n3,D,win\n3,F,loss\n",
    }, swiss_rounds=3, cut=0)
    after_2 = {r.player.name: r for r in scored.rounds[1].standings.rows}
    assert after_2["E"].dropped and after_2["E"].values["rounds_played"] == 1
    final = {r.player.name: r for r in scored.standings.rows}
    e = final["E"]
    assert not e.dropped
    assert (e.values["points"], e.values["rounds_played"], e.values["unpaired_losses"]) == (5, 3, 1)
    assert e.notes == ("missed round 2 and rejoined: unpaired loss",)
    assert e.cells["record"] == "1–0–2"
    # A's opponents B (10/3), C (5/3), E (5/3): SoS = 20/9 — E's average counts the missed round.
    assert final["A"].values["sos"] == (F(10, 3) + F(5, 3) + F(5, 3)) / 3
    absent = scored.rounds[1].tables.absent
    assert [(a.player.name, a.note) for a in absent] == [
        ("E", "absent; rejoined in round 3, so this round counts as an unpaired loss")]


def test_late_arrival_gets_unpaired_losses_for_the_rounds_before(tmp_path):
    scored, _ = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n,C,bye\n",
        2: "1,A,win\n1,C,loss\n2,D,win\n2,B,loss\n",
    }, swiss_rounds=2, cut=0)
    d = next(r for r in scored.standings.rows if r.player.name == "D")
    assert (d.values["points"], d.values["rounds_played"]) == (5, 2)
    assert d.notes == ("joined in round 2: unpaired loss for round 1",)


def test_explicit_unpaired_loss_alone_at_a_table(tmp_path):
    scored, _ = score(tmp_path, {1: "1,A,win\n1,B,loss\n2,C,loss\n"}, swiss_rounds=1, cut=0)
    c = next(r for r in scored.standings.rows if r.player.name == "C")
    assert (c.values["points"], c.values["rounds_played"], c.values["unpaired_losses"]) == (0, 1, 1)
    assert c.values["sos"] == 0  # no opponents → 0 (data contract §4)


EIGHT_SWISS = {
    # Swiss: 8 players, 2 rounds; top 4 cut. After round 2: A 10, B 10 (ahead on SoS/ESoS as
    # worked in the test), then 5-point players C, D, E, F, then G, H with 0.
    1: "1,A,win\n1,H,loss\n2,B,win\n2,G,loss\n3,C,win\n3,F,loss\n4,D,win\n4,E,loss\n",
    2: "1,A,win\n1,D,loss\n2,B,win\n2,C,loss\n3,E,win\n3,H,loss\n4,F,win\n4,G,loss\n",
}


def swiss_order(scored):
    return [r.player.name for r in scored.rounds[1].standings.rows]


def test_final_standings_after_a_top_4_cut(tmp_path):
    """Champion, finalist, then the semi-finalists by Swiss rank, then everyone else by Swiss
    rank (regulations, "Single Elimination Rounds"; data contract §4)."""
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(probe)[:4]
    rounds = dict(EIGHT_SWISS)
    rounds[3] = f"1,{s1},loss\n1,{s4},win\n2,{s2},win\n2,{s3},loss\n"
    rounds[4] = f"1,{s4},loss\n1,{s2},mw\n"
    scored, problems = score(tmp_path, rounds, swiss_rounds=2, cut=4)
    assert not [p for p in problems if "cut" in p.message or "Game" in p.message], problems
    names = [r.player.name for r in scored.standings.rows]
    rest = [n for n in swiss_order(probe) if n not in (s1, s2, s3, s4)]
    assert names == [s2, s4, s1, s3] + rest
    finishes = [r.values["finish"] for r in scored.standings.rows[:4]]
    assert finishes == ["Champion", "Finalist", "Semi-finalist", "Semi-finalist"]
    assert [r.values["swiss_rank"] for r in scored.standings.rows[:4]] == [2, 4, 1, 3]
    assert scored.complete and scored.winner.name == s2
    assert [r.label for r in scored.rounds] == ["Round 1", "Round 2", "Semi-finals", "Final"]


def test_bracket_is_seeded_one_against_last_and_projected_before_it_is_played(tmp_path):
    scored, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(scored)[:4]
    semis, final = scored.bracket.rounds
    assert [g.number for g in semis.games] == [1, 2]
    assert [[s.player.name for s in g.slots] for g in semis.games] == [[s1, s4], [s2, s3]]
    assert [s.label for s in final.games[0].slots] == ["Winner of Game 1", "Winner of Game 2"]
    assert not semis.played and scored.bracket.note.startswith("Projected")
    assert not scored.complete


def test_cut_skips_a_player_who_dropped_and_warns_when_the_file_differs(tmp_path):
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    order = swiss_order(probe)
    s1, s2, s3, s4, s5 = order[:5]
    rounds = dict(EIGHT_SWISS)
    rounds[3] = f"1,{s1},win\n1,{s5},loss\n2,{s2},win\n2,{s3},loss\n"  # s4 left out
    _, problems = score(tmp_path, rounds, swiss_rounds=2, cut=4)
    cut_warnings = [p for p in problems if "top-4 cut differs" in p.message]
    assert len(cut_warnings) == 1 and not cut_warnings[0].is_error
    assert f"{s4} (Swiss rank 4) did not play" in cut_warnings[0].message


def test_elimination_pairing_that_is_not_seed_k_against_n_plus_1_minus_k_warns(tmp_path):
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(probe)[:4]
    rounds = dict(EIGHT_SWISS)
    rounds[3] = f"1,{s1},win\n1,{s2},loss\n2,{s3},win\n2,{s4},loss\n"
    _, problems = score(tmp_path, rounds, swiss_rounds=2, cut=4)
    assert any(f"Game 1 pairs seed 1 ({s1}) with seed 2 ({s2})" in p.message for p in problems)


def test_bye_should_go_to_the_lowest_ranked_player_without_one(tmp_path):
    _, problems = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n,E,bye\n",
        2: "1,A,win\n1,C,loss\n2,E,win\n2,B,loss\n,D,bye\n",   # fine: D is lowest without a bye
        3: "1,A,win\n1,E,loss\n2,C,win\n2,D,loss\n,E2,loss\n",
    }, swiss_rounds=3, cut=0)
    assert not [p for p in problems if "bye" in p.message]
    _, problems = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n,E,bye\n",
        2: "1,B,win\n1,D,loss\n2,C,win\n2,E,loss\n,A,bye\n",   # A has 5 points, B and D have 0
    }, swiss_rounds=2, cut=0)
    bye = [p for p in problems if "gets the bye" in p.message]
    assert len(bye) == 1 and "A (rank" in bye[0].message and bye[0].line == 6


def test_second_bye_warns(tmp_path):
    _, problems = score(tmp_path, {
        1: "1,A,win\n1,B,loss\n,C,bye\n",
        2: "1,A,win\n1,B,loss\n,C,bye\n",
    }, swiss_rounds=2, cut=0)
    assert any("C gets a second bye" in p.message for p in problems)


def test_standings_twins_and_page_labels_for_an_in_progress_event(tmp_path):
    scored, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=3, cut=0)
    assert not scored.complete
    assert scored.status_line == "In progress: 2 of 3 rounds played"
    assert scored.standings.title == "Standings after round 2"
    assert scored.standings.complete is False


def test_elimination_bye_without_a_game_number_takes_its_place_in_the_bracket(tmp_path):
    """Seed 4 dropped before the semi-finals and nobody replaced them: seed 1 has a bye, written
    as the contract allows with no table. It becomes Game 1 (seed 1 meets seed 4), and the
    final joins the winners of Games 1 and 2 without a pairing warning."""
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, _ = swiss_order(probe)[:4]
    rounds = dict(EIGHT_SWISS)
    rounds[3] = f"2,{s2},win\n2,{s3},loss\n,{s1},bye\n"
    rounds[4] = f"1,{s1},win\n1,{s2},loss\n"
    scored, problems = score(tmp_path, rounds, swiss_rounds=2, cut=4)
    assert not [p for p in problems if "joins the winners" in p.message]
    semis, final = scored.bracket.rounds
    assert [(g.number, [s.player.name for s in g.slots]) for g in semis.games] == [
        (1, [s1]), (2, [s2, s3])]
    assert [s.result for s in semis.games[0].slots] == ["bye"]
    assert [r.player.name for r in scored.standings.rows[:2]] == [s1, s2]
    games = scored.players[s1].games
    assert (games[-2].round_label, games[-2].result) == ("Semi-finals", "Bye")


# A drops after winning rounds 1 and 2. After round 3: C 15; A 10 (dropped), D 10, G 10;
# B, E, H 5; F 0.
A_DROPS = {
    1: "1,A,win\n1,H,loss\n2,B,win\n2,G,loss\n3,C,win\n3,F,loss\n4,D,win\n4,E,loss\n",
    2: "1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n3,E,win\n3,F,loss\n4,G,win\n4,H,loss\n",
    3: "1,C,win\n1,B,loss\n2,D,win\n2,E,loss\n3,G,win\n3,F,loss\n,H,bye\n",
}


def test_cut_line_moves_down_past_a_dropped_qualifier_but_stays_a_top_4_cut(tmp_path):
    scored, _ = score(tmp_path, A_DROPS, swiss_rounds=3, cut=4)
    standings = scored.rounds[-1].standings
    ranks = {r.player.name: r.rank for r in standings.rows}
    assert ranks["C"] == 1 and ranks["A"] <= 4  # A ranks among the 10-point players
    assert standings.cut_label == "Top 4 cut"
    assert standings.cut_after == 5  # C, D, G and the best 5-point player qualify; A dropped
    qualified = {r.player.name for r in standings.rows[:5]} - {"A"}
    assert {"C", "D", "G"} <= qualified and len(qualified) == 4


def test_projected_bracket_gives_the_top_seed_a_bye_when_fewer_qualify_than_the_cut(tmp_path):
    """Top 8 of 8 players, but A dropped: 7 qualify. Seed 1 would meet seed 8, who is missing,
    so seed 1 has a bye; 2–7, 3–6 and 4–5 play, as the regulations pair them."""
    scored, _ = score(tmp_path, A_DROPS, swiss_rounds=3, cut=8)
    quarters, semis, _ = scored.bracket.rounds
    seed = {s.player.name: int(s.label) for g in quarters.games for s in g.slots}
    assert "A" not in seed and sorted(seed.values()) == list(range(1, 8))
    pairs = {g.number: sorted(seed[s.player.name] for s in g.slots) for g in quarters.games}
    assert pairs == {1: [1], 2: [2, 7], 3: [3, 6], 4: [4, 5]}
    lone = next(g for g in quarters.games if g.number == 1).slots[0]
    assert (lone.result, lone.won) == ("bye", True)
    first_semi = semis.games[0]
    assert first_semi.slots[0].player is not None and seed[first_semi.slots[0].player.name] == 1
    assert first_semi.slots[1].label == "Winner of Game 4"


def test_status_final_before_the_last_round_warns_and_finishes_where_players_stopped(tmp_path):
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(probe)[:4]
    rounds = {**EIGHT_SWISS, 3: f"1,{s1},win\n1,{s4},loss\n2,{s2},win\n2,{s3},loss\n"}
    scored, problems = score(tmp_path, rounds, swiss_rounds=2, cut=4, status="final")
    warning = next(p for p in problems if p.message.startswith('status = "final"'))
    assert warning.line == 7 and not warning.is_error
    assert scored.complete and scored.status_line == "Final after 3 of 4 rounds"
    assert [r.values["finish"] for r in scored.standings.rows[:4]] == [
        "Finalist", "Finalist", "Semi-finalist", "Semi-finalist"]
    assert scored.winner is None


def test_status_in_progress_with_every_round_in_names_no_winner_yet(tmp_path):
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(probe)[:4]
    rounds = {**EIGHT_SWISS, 3: f"1,{s1},win\n1,{s4},loss\n2,{s2},win\n2,{s3},loss\n",
              4: f"1,{s1},win\n1,{s2},loss\n"}
    scored, _ = score(tmp_path, rounds, swiss_rounds=2, cut=4, status="in-progress")
    assert not scored.complete and scored.winner is None
    assert scored.status_line == "In progress: all 4 rounds in, not yet marked final"
    assert scored.standings.title == "Standings after the Final"


def test_rows_placed_by_elimination_show_no_swiss_tiebreak(tmp_path):
    probe, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4)
    s1, s2, s3, s4 = swiss_order(probe)[:4]
    rounds = {**EIGHT_SWISS, 3: f"1,{s1},win\n1,{s4},loss\n2,{s2},win\n2,{s3},loss\n",
              4: f"1,{s1},win\n1,{s2},loss\n"}
    scored, _ = score(tmp_path, rounds, swiss_rounds=2, cut=4)
    assert [r.tiebreak for r in scored.standings.rows[:4]] == [None] * 4
    swiss_rows = {r.player.name: r.tiebreak for r in scored.rounds[1].standings.rows}
    assert [r.tiebreak for r in scored.standings.rows[4:]] == [
        swiss_rows[r.player.name] for r in scored.standings.rows[4:]]


def test_a_final_event_that_skipped_its_elimination_says_so_on_the_bracket_page(tmp_path):
    scored, _ = score(tmp_path, EIGHT_SWISS, swiss_rounds=2, cut=4, status="final")
    assert scored.bracket.rounds == ()
    assert scored.bracket.empty_message.startswith("No elimination rounds were played")
