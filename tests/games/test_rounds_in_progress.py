"""Rounds in progress (issue 19, point 4): the newest round file may have empty results; it is
shown as its pairings, with each result once in, and the standings stay those after the last
complete round. An earlier round with a missing result is an error."""

from __future__ import annotations

import re

import pytest

from conftest import conquest_event, read_page

EV = "data/events/2024-05-18-cup"
SLUG = "2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,mw\n2,Dan,loss\n3,Eve,win\n3,Finn,loss\n,Gus,bye\n"
ROUND_2_PLAYING = ("table,player,result\n1,Ada,\n1,Cleo,\n2,Eve,win\n2,Gus,loss\n3,Bram,\n"
                   "3,Dan,loss\n,Finn,bye\n")


@pytest.fixture
def cup(site):
    return site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
                      {1: ROUND_1, 2: ROUND_2_PLAYING})


def test_a_round_in_progress_checks_clean_and_keeps_the_standings_of_the_round_before(cup, run_cli):
    assert run_cli("check", "--source", cup.root).out.splitlines() == ["Checked 1 event: no problems."]
    assert cup.build() == 0
    standings = cup.json(f"events/{SLUG}/standings.json")
    assert (standings["after_round"], standings["complete"]) == (1, False)
    assert sorted(r["player"] for r in standings["standings"] if r["points"] == 5) == [
        "Ada", "Eve", "Gus"]
    assert sorted(r["player"] for r in standings["standings"] if r["points"] == 4) == ["Cleo"]
    event_page = cup.html(f"events/{SLUG}/")
    assert "In progress: round 2 of 3 being played" in event_page
    assert "Round 2 is being played" in event_page
    assert not (cup.out / f"events/{SLUG}/round-2/standings.json").exists()


def test_the_round_page_shows_pairings_by_name_and_by_table(cup):
    assert cup.build() == 0
    page = cup.html(f"events/{SLUG}/round-2/")
    assert "1 of 3 results in; 2 tables still playing · 1 bye." in " ".join(page.split())
    by_name = page[page.index('<ol class="by-name"'):page.index("</ol>")]
    names = [line.split(">")[1].split("<")[0] for line in by_name.split('<span class="who">')[1:]]
    assert names == ["Ada", "Bram", "Cleo", "Dan", "Eve", "Finn", "Gus"]
    assert ('<span class="where">Table 1</span> <span class="against">vs '
            '<span class="name">Cleo</span></span>') in by_name
    assert '<span class="where">Bye</span></li>' in by_name  # Finn: no opponent
    by_table = page[page.index('<table class="pairings">'):]
    # Table 3 has one result (Dan's loss) but not Bram's: still playing, no result shown yet.
    assert by_table.count("playing</td>") == 4 and "Win</td>" in by_table
    assert "Standings after this round appear once every result is in." in page


def test_pairings_json_of_a_round_in_progress_and_of_a_complete_round(cup):
    assert cup.build() == 0
    now = cup.json(f"events/{SLUG}/round-2/pairings.json")
    assert (now["round"], now["stage"], now["in_progress"]) == (2, "swiss", True)
    assert now["tables"] == [
        {"table": 1, "players": [{"player": "Ada", "player_id": "ada", "result": None},
                                 {"player": "Cleo", "player_id": "cleo", "result": None}]},
        {"table": 2, "players": [{"player": "Eve", "player_id": "eve", "result": "win"},
                                 {"player": "Gus", "player_id": "gus", "result": "loss"}]},
        {"table": 3, "players": [{"player": "Bram", "player_id": "bram", "result": None},
                                 {"player": "Dan", "player_id": "dan", "result": None}]}]
    assert now["byes"] == [{"player": "Finn", "player_id": "finn"}]
    done = cup.json(f"events/{SLUG}/round-1/pairings.json")
    assert done["in_progress"] is False
    assert [p["result"] for t in done["tables"] for p in t["players"]] == [
        "win", "loss", "modified-win", "loss", "win", "loss"]


def test_result_slips_list_every_table_with_what_to_record(cup):
    assert cup.build() == 0
    slips = cup.html(f"events/{SLUG}/round-2/slips/")
    assert slips.count('<section class="slip"') == 3
    table_1 = slips[slips.index('aria-label="Table 1"'):slips.index('aria-label="Table 2"')]
    assert "Ada" in table_1 and "Cleo" in table_1 and table_1.count("Modified win") == 2


def test_once_every_result_is_in_the_round_is_scored(cup):
    cup.write({f"{EV}/round-2.csv": ROUND_2_PLAYING.replace("1,Ada,\n1,Cleo,", "1,Ada,win\n1,Cleo,loss")
               .replace("3,Bram,\n", "3,Bram,win\n")})
    assert cup.build() == 0
    assert cup.json(f"events/{SLUG}/standings.json")["after_round"] == 2
    assert cup.json(f"events/{SLUG}/round-2/pairings.json")["in_progress"] is False
    assert not (cup.out / f"events/{SLUG}/round-2/slips").exists()


@pytest.mark.parametrize("rounds,line,message", [
    ({1: ROUND_1.replace("1,Bram,loss", "1,Bram,"), 2: ROUND_2_PLAYING}, "round-1.csv:3",
     "Bram has no result in round 1: only the newest round (round 2) may still be in progress; "
     "write the result"),
    ({1: ROUND_1, 2: ROUND_2_PLAYING + ",Hal,\n"}, "round-2.csv:9",
     "Hal has no table and no result: seat them at a table with an opponent, or write bye if they "
     "have a bye"),
    ({1: ROUND_1, 2: ROUND_2_PLAYING + "4,Hal,\n"}, "round-2.csv:9",
     "Hal is alone at table 4 with no result: add the opponent's row, or write bye if it is a bye"),
])
def test_missing_results_outside_the_round_in_progress_are_errors(site, run_cli, rounds, line,
                                                                 message):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), rounds)
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert f"{EV}/{line}: {message}" in result.lines, result.err


def test_a_final_event_with_results_missing_is_an_error(site, run_cli):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0, status="final"),
               {1: ROUND_1, 2: ROUND_2_PLAYING})
    result = run_cli("check", "--source", site.root)
    assert (f"{EV}/round-2.csv:2: Ada has no result, but event.toml says status = \"final\": write "
            "the results of round 2, or remove the status until they are in") in result.lines


def test_round_one_just_paired(site):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: "table,player,result\n1,Ada,\n1,Bram,\n,Cleo,bye\n"})
    assert site.build() == 0
    page = site.html(f"events/{SLUG}/")
    assert "Round 1 is being played" in page
    assert "Standings appear here once round 1's results are in." in page
    assert "In progress: round 1 of 3 being played" in page


def test_an_elimination_round_in_progress(site):
    """Top 4 after two Swiss rounds of eight: the semi-finals being played."""
    swiss_1 = "table,player,result\n" + "".join(
        f"{t},{a},win\n{t},{b},loss\n" for t, (a, b) in enumerate(
            [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")], start=1))
    swiss_2 = "table,player,result\n" + "".join(
        f"{t},{a},win\n{t},{b},loss\n" for t, (a, b) in enumerate(
            [("A", "C"), ("E", "G"), ("B", "D"), ("F", "H")], start=1))
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=2, cut=4),
               {1: swiss_1, 2: swiss_2, 3: "table,player,result\n1,A,\n1,F,\n2,E,win\n2,C,loss\n"})
    assert site.build() == 0
    page = site.html(f"events/{SLUG}/")
    assert "In progress: Semi-finals (round 3 of 4) being played" in page
    pairings = site.json(f"events/{SLUG}/round-3/pairings.json")
    assert (pairings["stage"], pairings["label"]) == ("elimination", "Semi-finals")
    assert "Game 1" in read_page(site.out / f"events/{SLUG}/round-3/index.html")


KINGDOM_EV = "data/events/2024-06-01-houses"


def kingdom_event() -> str:
    return 'name = "Houses"\ndate = 2024-06-01\ngame = "kingdom"\nrounds = 3\n'


def test_kingdom_rounds_in_progress(site, run_cli):
    site.write({f"{KINGDOM_EV}/event.toml": kingdom_event(),
                f"{KINGDOM_EV}/round-1.csv": "table,player,houses\n1,Ann,12\n1,Bob,8\n2,Cy,9\n2,Di,9\n",
                # Table 1 half entered, table 2 not yet: both still playing.
                f"{KINGDOM_EV}/round-2.csv": "table,player,houses\n1,Ann,10\n1,Cy,\n2,Bob,\n2,Di,\n"})
    assert run_cli("check", "--source", site.root).code == 0
    assert site.build() == 0
    pairings = site.json("events/2024-06-01-houses/round-2/pairings.json")
    assert pairings["in_progress"] is True
    assert [p["result"] for t in pairings["tables"] for p in t["players"]] == [None] * 4
    done = site.json("events/2024-06-01-houses/round-1/pairings.json")
    assert [p["result"] for t in done["tables"] for p in t["players"]] == ["win", "loss", "draw", "draw"]
    assert site.json("events/2024-06-01-houses/standings.json")["after_round"] == 1
    # An empty houses cell in an earlier round is an error.
    site.write({f"{KINGDOM_EV}/round-1.csv": "table,player,houses\n1,Ann,12\n1,Bob,\n2,Cy,9\n2,Di,9\n"})
    result = run_cli("check", "--source", site.root)
    assert (f"{KINGDOM_EV}/round-1.csv:3: Bob has no result in round 1: only the newest round "
            "(round 2) may still be in progress; write the result") in result.lines


def test_every_player_of_a_round_in_progress_has_a_page_and_the_round_shows_the_game(site):
    """A newcomer's first round links to their page, which exists and says they are playing
    round 2 (no rank yet, so no link to a standings row); a regular's page leads to their row of
    the current standings (Ada: won round 1, 1–0–0, 5 points, of the 7 players of round 1), with
    no figures of its own, and the round page shows both games being played."""
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: ROUND_1, 2: ROUND_2_PLAYING.replace(",Finn,bye\n", "4,Finn,\n4,Newcomer,\n")})
    assert site.build() == 0
    event = site.html(f"events/{SLUG}/")
    newcomer = site.html("players/newcomer/")
    assert f'<a href="/events/{SLUG}/">' in newcomer and "in progress</span>" in newcomer
    assert "<strong>playing round 2</strong>" in newcomer
    assert "#p-newcomer" not in newcomer and 'id="p-newcomer"' not in event
    ada = site.html("players/ada/")
    assert f'<strong><a href="/events/{SLUG}/#p-ada">Current standing</a></strong></p>' in ada
    row = event[event.index('<tr id="p-ada"'):]
    assert re.search(r"<td[^>]*>1–0–0</td>", row[:row.index("</tr>")])
    round_2 = site.html(f"events/{SLUG}/round-2/")
    by_table = round_2[round_2.index('<table class="pairings">'):]
    games = re.findall(r'<tbody class="table-group( playing)?">(.*?)</tbody>', by_table, re.S)
    tables = {re.search(r'<th scope="rowgroup" rowspan="2" class="num">(\d+)</th>', body)[1]:
              (bool(playing), re.findall(r'<a href="/players/[^"]+/">([^<]+)</a>', body))
              for playing, body in games}
    assert tables["1"] == (True, ["Ada", "Cleo"])
    assert tables["4"] == (True, ["Finn", "Newcomer"])
    assert '<a href="/players/newcomer/">Newcomer</a>' in round_2
