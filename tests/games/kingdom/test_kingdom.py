"""Kingdom (seed 004) as a Swiss event: more hero houses wins, equal houses are a cosmic struggle
(a draw), at most 22 hero houses a game; win 2, draw 1; points, SoS, total hero houses, shared
ranks. Numbers worked by hand in the comments."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction as F

import pytest

from conftest import DEMO_SITE, read_page, score_files
from conftest import error_at

HEADER = "table,player,houses,result"
EV = "data/events/2024-05-18-k"
DEMO = "2026-07-11-kingdom-summer-houses"


def kingdom_event(**keys: object) -> str:
    lines = ['name = "Kingdom test"', "date = 2024-05-18", 'game = "kingdom"']
    lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


# Five players, three rounds (ceil(log2 5) = 3), one bye and one cosmic struggle a round.
#   R1: A 12–8 B (A wins), C 9–9 D (cosmic struggle), E bye.
#   R2: E 10–10 A (cosmic struggle), B 11–6 C (B wins), D bye.
#   R3: A 8–7 D (A wins), C 12–9 E (C wins), B bye.
HAND_WORKED = {
    1: "1,A,12\n1,B,8\n2,C,9\n2,D,9\n,E,,bye\n",
    2: "1,E,10\n1,A,10\n2,B,11\n2,C,6\n,D,,bye\n",
    3: "1,A,8\n1,D,7\n2,C,12\n2,E,9\n,B,,bye\n",
}


def score(tmp_path, round_files=HAND_WORKED, **keys):
    scored, problems = score_files(tmp_path / "s", kingdom_event(**keys), HEADER, round_files)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored


def table(standings) -> list[tuple]:
    """(rank, name, points, sos, houses, tiebreak) per row, exact."""
    return [(r.rank, r.player.name, r.values["points"], r.values["sos"], r.values["houses"],
             r.tiebreak) for r in standings.rows]


def test_final_standings_worked_by_hand(tmp_path):
    """After round 3 (points per round played in brackets):
    A: W, D, W = 2+1+2 = 5 (5/3)    opponents B, E, D    houses 12+10+8 = 30
    B: L, W, bye = 0+2+2 = 4 (4/3)  opponents A, C       houses 8+11 = 19
    C: D, L, W = 1+0+2 = 3 (1)      opponents D, B, E    houses 9+6+12 = 27
    D: D, bye, L = 1+2+0 = 3 (1)    opponents C, A       houses 9+7 = 16
    E: bye, D, L = 2+1+0 = 3 (1)    opponents A, C       houses 10+9 = 19
    SoS: A (4/3 + 1 + 1)/3 = 10/9; B (5/3 + 1)/2 = 4/3; C (1 + 4/3 + 1)/3 = 10/9;
         D (1 + 5/3)/2 = 4/3; E (5/3 + 1)/2 = 4/3.
    On 3 points D and E tie on SoS (4/3) and E's 19 houses beat D's 16; C's SoS 10/9 is lower."""
    scored = score(tmp_path)
    final = scored.standings
    assert final.title == "Final standings" and final.complete and scored.complete
    assert table(final) == [
        (1, "A", 5, F(10, 9), 30, None),
        (2, "B", 4, F(4, 3), 19, None),
        (3, "E", 3, F(4, 3), 19, "houses"),
        (4, "D", 3, F(4, 3), 16, "houses"),
        (5, "C", 3, F(10, 9), 27, "sos"),
    ]
    values = {r.player.name: r.values for r in final.rows}
    assert {n: (v["wins"], v["draws"], v["losses"], v["byes"], v["unpaired_losses"],
                v["rounds_played"]) for n, v in values.items()} == {
        "A": (2, 1, 0, 0, 0, 3), "B": (1, 0, 1, 1, 0, 3), "C": (1, 1, 1, 0, 0, 3),
        "D": (0, 1, 1, 1, 0, 3), "E": (0, 1, 1, 1, 0, 3)}
    assert list(values["A"]) == ["points", "rounds_played", "wins", "draws", "losses", "byes",
                                 "unpaired_losses", "sos", "houses"]
    assert {r.player.name: r.cells["record"] for r in final.rows} == {
        "A": "2–1–0", "B": "2–0–1", "E": "1–1–1", "D": "1–1–1", "C": "1–1–1"}
    assert scored.winner.name == "A"
    assert scored.planned_rounds == 3 and scored.status_line == "Final"


def test_after_round_1_equal_on_all_three_share_a_rank(tmp_path):
    """After round 1: A 2 (SoS: B 0/1 = 0, 12 houses), E 2 (a bye: no opponent, SoS 0, no
    houses), C and D 1 each (SoS: the other's 1/1 = 1, 9 houses each), B 0 (SoS 2/1 = 2, 8).
    A and E tie on points and SoS: A's 12 houses beat E's 0. C and D are equal on points, SoS
    and houses: they share 3rd, and B is 5th."""
    first = score(tmp_path).rounds[0].standings
    assert first.title == "Standings after round 1" and not first.complete
    assert table(first) == [
        (1, "A", 2, F(0), 12, "houses"),
        (2, "E", 2, F(0), 0, "houses"),
        (3, "C", 1, F(1), 9, "shared"),
        (3, "D", 1, F(1), 9, "shared"),
        (5, "B", 0, F(2), 8, None),
    ]


def test_after_round_2_worked_by_hand(tmp_path):
    """After round 2: A 3 (2 rounds), B 2, C 1, D 3 (draw + bye), E 3 (bye + draw).
    SoS: A (B 2/2 + E 3/2)/2 = 5/4; B (A 3/2 + C 1/2)/2 = 1; C (D 3/2 + B 1)/2 = 5/4;
    D (C 1/2) = 1/2; E (A 3/2) = 3/2. On 3 points: E 3/2, A 5/4, D 1/2."""
    second = score(tmp_path).rounds[1].standings
    assert table(second) == [
        (1, "E", 3, F(3, 2), 10, "sos"),
        (2, "A", 3, F(5, 4), 22, "sos"),
        (3, "D", 3, F(1, 2), 9, "sos"),
        (4, "B", 2, F(1), 19, None),
        (5, "C", 1, F(5, 4), 15, None),
    ]


def test_player_pages_show_each_game_with_both_players_houses(tmp_path):
    scored = score(tmp_path)
    a = scored.players["A"]
    assert (a.rank, a.finish, a.points, a.record) == (1, "1st of 5", "5", "2–1–0")
    assert [(g.round_label, g.table, [o.name for o in g.opponents], g.result, g.points)
            for g in a.games] == [
        ("Round 1", "1", ["B"], "Win, 12–8", "2"),
        ("Round 2", "1", ["E"], "Cosmic struggle (draw), 10–10", "1"),
        ("Round 3", "1", ["D"], "Win, 8–7", "2")]
    assert [(g.table, g.opponents, g.result, g.points) for g in scored.players["B"].games][2] == (
        "", (), "Bye", "2")
    assert {e.player.name: (e.points, e.rank) for e in scored.ranking} == {
        "A": (5, 1), "B": (4, 2), "E": (3, 3), "D": (3, 4), "C": (3, 5)}


def test_shared_rank_shows_in_the_finish(tmp_path):
    """One round: C and D draw 9–9 and tie on everything, as do the two winners A and E."""
    scored = score(tmp_path, {1: "1,A,12\n1,B,8\n2,C,9\n2,D,9\n3,E,12\n3,F,8\n"}, rounds=1)
    assert [(r.rank, r.player.name) for r in scored.standings.rows] == [
        (1, "A"), (1, "E"), (3, "C"), (3, "D"), (5, "B"), (5, "F")]
    assert scored.players["C"].finish == "=3rd of 6"
    assert scored.winner is None  # first place is shared


@pytest.mark.parametrize("keys,points", [
    # win 3 / draw 1:  A 3+1+3 = 7, B 0+3+3 = 6, C 1+0+3 = 4, D 1+3+0 = 4, E 3+1+0 = 4
    ({"win_points": 3, "draw_points": 1}, {"A": 7, "B": 6, "C": 4, "D": 4, "E": 4}),
    # win 2 / draw 0:  A 2+0+2 = 4, B 0+2+2 = 4, C 0+0+2 = 2, D 0+2+0 = 2, E 2+0+0 = 2
    ({"draw_points": 0}, {"A": 4, "B": 4, "C": 2, "D": 2, "E": 2}),
    # a draw may be worth a win: win 2 / draw 2:  A 6, B 4, C 4, D 4, E 4
    ({"draw_points": 2}, {"A": 6, "B": 4, "C": 4, "D": 4, "E": 4}),
])
def test_win_and_draw_points_can_be_overridden(tmp_path, keys, points):
    scored = score(tmp_path, **keys)
    assert {r.player.name: r.values["points"] for r in scored.standings.rows} == points
    assert f"cosmic struggle (a draw: equal hero houses) {keys.get('draw_points', 1)}" in (
        scored.standings.explanation)


def test_drop_and_rejoin_as_in_conquest(tmp_path):
    """B misses round 2 and comes back in round 3: an unpaired loss for round 2. D drops after
    round 2. E joins in round 3: unpaired losses for rounds 1 and 2. A lone player at a table
    without a bye (C in round 2) gets an unpaired loss too.
    B: L 0, missed 0, W 2 = 2 over 3 rounds; E: missed, missed, L = 0 over 3 rounds."""
    rounds = {1: "1,A,12\n1,B,8\n2,C,9\n2,D,10\n",
              2: "1,A,11\n1,D,3\n2,C,5\n",
              3: "1,A,6\n1,C,6\n2,B,9\n2,E,4\n"}
    scored, problems = score_files(tmp_path / "s", kingdom_event(rounds=3), HEADER, rounds)
    assert [str(p) for p in problems] == [
        "data/events/2024-05-18-test/round-2.csv:4: warning: C is alone at table 2 and no 'bye': "
        "scored as an unpaired loss (0 points; the 5 hero houses written are not counted) — write "
        "bye in the result column if it was a bye, or add the opponent's row"]
    rows = {r.player.name: r for r in scored.standings.rows}
    assert rows["B"].values["points"] == 2 and rows["B"].values["unpaired_losses"] == 1
    assert rows["B"].values["rounds_played"] == 3 and rows["B"].cells["record"] == "1–0–2"
    assert rows["B"].notes == ("missed round 2 and rejoined: unpaired loss",)
    assert rows["D"].dropped and rows["D"].notes == ("dropped after round 2",)
    assert rows["C"].values["houses"] == 9 + 6  # the lone round's 5 are not counted
    assert (rows["E"].values["points"], rows["E"].values["rounds_played"]) == (0, 3)
    assert rows["E"].notes == ("joined in round 3: unpaired losses for rounds 1–2",)
    absent = scored.rounds[1].tables.absent
    assert [(a.player.name, a.note) for a in absent] == [
        ("B", "absent; rejoined in round 3, so this round counts as an unpaired loss"),
        ("E", "absent; joined in round 3, so this round counts as an unpaired loss")]
    assert [(s.player.name, s.result, s.points) for s in scored.rounds[1].tables.unpaired] == [
        ("C", "Unpaired loss", 0)]


# ---------------------------------------------------------------- through the real CLI


def test_built_pages_and_twins(site):
    site.event("2024-05-18-k", kingdom_event(),
               {n: HEADER + "\n" + text for n, text in HAND_WORKED.items()})
    assert site.build() == 0
    twin = site.json("events/2024-05-18-k/standings.json")
    assert twin["complete"] is True and twin["after_round"] == 3
    assert twin["event"]["game"] == "kingdom" and twin["event"]["format"] == "swiss"
    assert [(r["rank"], r["player"], r["points"], r["sos"], r["houses"], r["tiebreak"])
            for r in twin["standings"]] == [
        (1, "A", 5, 10 / 9, 30, None), (2, "B", 4, 4 / 3, 19, None),
        (3, "E", 3, 4 / 3, 19, "houses"), (4, "D", 3, 4 / 3, 16, "houses"),
        (5, "C", 3, 10 / 9, 27, "sos")]
    first = site.json("events/2024-05-18-k/round-1/standings.json")["standings"]
    assert [(r["rank"], r["player"], r["tiebreak"]) for r in first][2:4] == [
        (3, "C", "shared"), (3, "D", "shared")]
    # After round 2, by hand: A win + draw 3, D draw + bye 3, E bye + draw 3, B loss + win 2,
    # C draw + loss 1. SoS, the mean of the opponents' points per round: E met A (3/2) 1.5;
    # A met B (2/2) and E (3/2) 1.25; D met C (1/2) 0.5; B met A and C (1.5, 0.5) 1.0; C met D
    # and B (1.5, 1.0) 1.25.
    second = site.json("events/2024-05-18-k/round-2/standings.json")
    assert second["after_round"] == 2
    assert [(r["rank"], r["player"], r["points"], r["sos"]) for r in second["standings"]] == [
        (1, "E", 3, 1.5), (2, "A", 3, 1.25), (3, "D", 3, 0.5), (4, "B", 2, 1.0), (5, "C", 1, 1.25)]
    page = site.html("events/2024-05-18-k/round-2/")
    assert page.count("Cosmic struggle (draw)") == 2  # E 10, A 10
    assert '<table class="standings"' not in page
    assert ('<a href="/events/2024-05-18-k/round-2/standings.json" type="application/json">'
            "Standings after round 2 (JSON)</a>") in page
    event = site.html("events/2024-05-18-k/")
    assert '<abbr title="Strength of Schedule">SoS</abbr>' in event and "W–D–L" in event
    assert ('<a href="/events/2024-05-18-k/#standings-heading">Final standings</a>'
            in site.html("events/2024-05-18-k/round-3/"))


def test_names_are_escaped_on_the_round_page(site):
    site.event("2024-05-18-k", kingdom_event(rounds=1),
               {1: HEADER + '\n1,<b>Bo</b>,10,\n1,"Al ""<i>""",10,\n'})
    assert site.build() == 0
    page = site.html("events/2024-05-18-k/round-1/")
    assert "<b>Bo</b>" not in page and "&lt;b&gt;Bo&lt;/b&gt;" in page
    assert "&lt;i&gt;" in page and "<i>" not in page


# ---------------------------------------------------------------- validation messages


def check(site, run_cli, round_text: str, toml: str | None = None, **more: str):
    files = {f"{EV}/event.toml": toml or kingdom_event(), f"{EV}/round-1.csv": round_text, **more}
    site.write(files)
    return run_cli("check", "--source", site.root)


@pytest.mark.parametrize("rows,line,message", [
    ("1,Ann,12,win\n1,Bob,8,\n", 2,
     "result 'win' is not a Kingdom result: expected empty (more hero houses wins, equal houses "
     "are a cosmic struggle) or 'bye' on a player's lone row"),
    ("3,Ann,12\n3,Bob,11\n", 3,
     "table 3: Ann 12 + Bob 11 = 23 hero houses; a Hero House deck makes at most 22"),
    ("1,Ann,23\n1,Bob,0\n", 2,
     "houses '23' is more than 22: a Hero House deck makes at most 22 hero houses"),
    ("1,Ann,5\n1,Bob,6\n1,Cy,7\n", 4,
     "table 1 has 3 players (Ann, Bob, Cy): a Kingdom game is played by two"),
    ("1,Ann,,bye\n1,Bob,6\n", 2,
     "Ann has a bye but Bob is at the same table 1: a bye has no opponent"),
    ("1,Ann,-3\n1,Bob,6\n", 2,
     "houses '-3' is not a whole number, 0 or more (the hero houses the player made, 0 to 22)"),
    ("1,Ann,ten\n1,Bob,6\n", 2,
     "houses 'ten' is not a whole number, 0 or more (the hero houses the player made, 0 to 22)"),
    ("1,Ann,5\n1,Bob,6\n2,Ann,7\n2,Cy,6\n", 4,
     "Ann is in this round twice (also on line 2): a player plays one game per round"),
])
def test_round_file_errors(site, run_cli, rows, line, message):
    result = check(site, run_cli, HEADER + "\n" + rows)
    assert result.code == 1
    assert error_at(result, f"{EV}/round-1.csv:{line}") == message


@pytest.mark.parametrize("keys,line,message", [
    ({"win_points": 2, "draw_points": 3}, 5,
     "draw_points = 3 is more than win_points = 2: a cosmic struggle (a draw) can't be worth more "
     "than a win; expected 2 or less"),
    ({"win_points": 0}, 4,  # the default draw (1) is then worth more: the written key is named
     "draw_points = 1 is more than win_points = 0: a cosmic struggle (a draw) can't be worth more "
     "than a win; expected 0 or less"),
    ({"win_points": -1}, 4, "win_points = -1 is too small: expected 0 or more"),
    ({"draw_points": "one"}, 4,
     "draw_points = 'one' is text: expected a whole number, e.g. draw_points = 1"),
    ({"rounds": 0}, 4, "rounds = 0 is too small: expected 1 or more"),
])
def test_event_toml_errors(site, run_cli, keys, line, message):
    result = check(site, run_cli, HEADER + "\n1,Ann,5\n1,Bob,6\n", kingdom_event(**keys))
    assert result.code == 1
    assert error_at(result, f"{EV}/event.toml:{line}") == message


def test_a_round_beyond_explicit_rounds_is_an_error_and_otherwise_fine(site, run_cli):
    good = HEADER + "\n1,Ann,5\n1,Bob,6\n"
    result = check(site, run_cli, good, kingdom_event(rounds=1), **{f"{EV}/round-2.csv": good})
    assert error_at(result, f"{EV}/round-2.csv:1") == (
        "round 2 is beyond this event's 1 rounds (rounds = 1 in event.toml): raise rounds in "
        "event.toml if it ran longer")
    # Without `rounds` the plan (ceil(log2 2) = 1) grows to the rounds played.
    result = check(site, run_cli, good, kingdom_event())
    assert result.code == 0, result.err


def test_final_with_rounds_to_play_is_a_warning(tmp_path):
    scored, problems = score_files(tmp_path / "s", kingdom_event(status="final"), HEADER,
                                   {1: HAND_WORKED[1]})
    assert [str(p) for p in problems] == [
        'data/events/2024-05-18-test/event.toml:4: warning: status = "final" with 1 of the 3 '
        "planned rounds (3 Swiss rounds: log₂ of 5 players, rounded up): the standings after "
        "round 1 are published as final"]
    assert scored.complete and scored.status_line == "Final after 1 of 3 rounds"
    assert scored.standings.title == "Final standings"


# ---------------------------------------------------------------- the demo event


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from site_builder.cli import main

    source = tmp_path_factory.mktemp("kingdom") / "site"
    shutil.copytree(DEMO_SITE / "data/events" / DEMO, source / "data/events" / DEMO)
    shutil.copy(DEMO_SITE / "data/players.csv", source / "data/players.csv")
    shutil.copy(DEMO_SITE / "site.toml", source / "site.toml")
    out = source.parent / "out"
    assert main(["build", "--source", str(source), "--out", str(out)]) == 0
    return out


def test_demo_cosmic_struggle_is_a_draw_for_both_players(demo):
    """Round 1, table 2: Siobhán O'Neill 10, Kwame Mensah 10 — one point each."""
    page = read_page(demo / f"events/{DEMO}/round-1/index.html")
    groups = re.findall(r'<tbody class="table-group cosmic-struggle">(.*?)</tbody>', page, re.S)
    assert len(groups) == 1
    seats = re.findall(r'<a href="[^"]+">([^<]+)</a></td>\s*<td class="num">(\d+)</td>\s*'
                       r'<td class="result">([^<]+)</td>\s*<td class="num">(\d+)</td>', groups[0])
    assert seats == [("Siobhán O&#39;Neill", "10", "Cosmic struggle (draw)", "1"),
                     ("Kwame Mensah", "10", "Cosmic struggle (draw)", "1")]
    assert '<tr class="winner">' not in groups[0]
    rows = json.loads((demo / f"events/{DEMO}/round-1/standings.json").read_text())["standings"]
    twin = {r["player"]: r for r in rows}
    assert [(twin[n]["draws"], twin[n]["points"]) for n in ("Siobhán O'Neill", "Kwame Mensah")] == [
        (1, 1), (1, 1)]


def test_demo_event_is_ten_players_over_four_rounds(demo):
    twin = json.loads((demo / f"events/{DEMO}/standings.json").read_text())
    assert twin["complete"] is True and twin["after_round"] == 4
    assert len(twin["standings"]) == 10
    assert twin["standings"][0]["player"] == "Pieter van Dijk"
    assert sum(r["draws"] for r in twin["standings"]) >= 2  # at least one cosmic struggle
