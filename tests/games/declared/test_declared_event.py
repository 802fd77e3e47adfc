"""A declared game gets what the seed games get (issue 35, point 1): `pair` forms its rounds by
the Conquest procedure, the cut and single elimination follow, the desk edits its tables, its
standings page says how the order is decided, and the rankings keep chess's half points."""

from __future__ import annotations

import csv
import html
import io

from conftest import registrations
from site_builder.desk import roundfile
from site_builder.rules import games_for

SLUG = "2026-11-20-fnm"
EV = f"data/events/{SLUG}"
FNM = 'name = "FNM"\ndate = 2026-11-20\ngame = "magic"\nswiss_rounds = 2\ncut = 2\n'


def rows(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


def play(path, winners):
    """Each table's player in `winners` wins 2-1; a bye stays."""
    found = rows(path)
    for row in found:
        if row["result"] != "bye":
            won = row["player"] in winners
            row.update(result="win" if won else "loss", games_won="2" if won else "1",
                       games_drawn="0")
    out = io.StringIO()
    writer = csv.DictWriter(out, list(found[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(found)
    path.write_text(out.getvalue())


def test_pair_runs_a_magic_event_through_its_swiss_rounds_and_cut(site, pair, run_cli):
    site.event(EV.split("/")[-1], FNM, {}, **{"players.csv": registrations(
        ["Ann", "Bob", "Cat", "Dan", "Eve"])})
    code, out, err = pair(site, "--seed", "3", slug=SLUG)
    assert (code, err) == (0, "")
    first = rows(site.root / EV / "round-1.csv")
    assert list(first[0]) == ["table", "player", "result", "games_won", "games_drawn"]
    assert sorted(r["result"] for r in first) == ["", "", "", "", "bye"]
    bye = next(r["player"] for r in first if r["result"] == "bye")
    play(site.root / EV / "round-1.csv", {first[0]["player"], first[2]["player"]})
    assert run_cli("check", "--source", site.root).code == 0

    code, out, err = pair(site, "--seed", "3", slug=SLUG)
    assert code == 0, err
    second = rows(site.root / EV / "round-2.csv")
    # The bye goes to the lowest-ranked player without one: never the same player twice.
    assert next(r["player"] for r in second if r["result"] == "bye") != bye
    play(site.root / EV / "round-2.csv", {second[0]["player"], second[2]["player"]})

    code, out, err = pair(site, "--seed", "3", slug=SLUG)
    assert code == 0, err
    assert out.splitlines()[0] == "FNM, Final (round 3):"
    site.build()
    swiss = site.json("events/2026-11-20-fnm/round-2/standings.json")["standings"]
    final = rows(site.root / EV / "round-3.csv")
    assert [r["player"] for r in final] == [swiss[0]["player"], swiss[1]["player"]]


def test_the_desk_asks_a_magic_table_for_its_result_and_games():
    entry = games_for(None)["magic"].entry(None)
    assert [c.column for c in entry.cells] == ["result", "games_won", "games_drawn"]
    assert [(q.label, q.mine, q.theirs) for q in entry.quick] == [("wins", "win", "loss"),
                                                                  ("draw", "draw", "draw")]
    parsed = roundfile.parse("table,player,result,games_won,games_drawn\n1,Ann,,,\n1,Bob,,,\n")
    table = roundfile.read_table(parsed, "1", entry)
    lines = roundfile.table_lines(parsed, table, entry, [[
        {"result": "win", "games_won": "2", "games_drawn": "0"},
        {"result": "loss", "games_won": "1", "games_drawn": "0"}]])
    assert lines == ["1,Ann,win,2,0", "1,Bob,loss,1,0"]
    # Netrunner's rows carry their points: a click on the winner (6-0), or each seat's points.
    netrunner = games_for(None)["netrunner"].entry(None)
    assert [(c.column, c.optional, c.high) for c in netrunner.cells] == [
        ("result", True, None), ("points", True, 6)]
    assert [(q.label, q.mine, q.theirs) for q in netrunner.quick] == [("wins", "win", "loss"),
                                                                      ("draw", "split", "split")]
    parsed = roundfile.parse("table,player,points,result\n1,Ann,,\n1,Bob,,\n")
    lines = roundfile.table_lines(parsed, roundfile.read_table(parsed, "1", netrunner), netrunner,
                                  [[{"points": "4"}, {"points": "1"}]])
    assert lines == ["1,Ann,4,", "1,Bob,1,"]


def test_the_page_says_how_the_order_is_decided(site):
    site.event("2026-11-20-fnm", FNM.replace("cut = 2", "cut = 0"), {
        1: "table,player,result,games_won,games_drawn\n1,Ann,win,2,0\n1,Bob,loss,1,0\n"
           "2,Cat,win,2,0\n2,Dan,loss,1,0\n",
        2: "table,player,result,games_won,games_drawn\n1,Ann,win,2,0\n1,Cat,loss,0,0\n"
           "2,Bob,win,2,0\n2,Dan,loss,0,0\n"})
    assert site.build() == 0
    page = html.unescape(site.html("events/2026-11-20-fnm/"))
    assert ("Equal points are ordered by Opponents' match-win percentage (OMW%: the mean of "
            "your opponents' match-win percentages, each their match points over 3 a round "
            "played and counted as at least 33%)") in page
    assert '<td class="tiebreak">GW% 60.00%</td>' in page  # Bob over Cat: 3 of 5 games


def test_chess_half_points_are_ranked_as_halves(site):
    site.event("2026-11-14-club", 'name = "Club"\ndate = 2026-11-14\ngame = "chess"\n'
                                  "swiss_rounds = 1\n",
               {1: "table,player,result\n1,Ann,½\n1,Bob,½\n2,Cat,1\n2,Dan,0\n,Eve,half-point-bye\n"})
    assert site.build() == 0
    ranking = site.json("rankings/chess.json")["rankings"]
    assert [(r["player"], r["points"]) for r in ranking] == [
        ("Cat", 1), ("Ann", 0.5), ("Bob", 0.5), ("Eve", 0.5), ("Dan", 0)]
    assert ">½</td>" in site.html("rankings/chess/")
    assert "½ pts" in site.html("players/ann/")


def test_an_elimination_player_who_played_no_swiss_round_is_an_error(site, run_cli):
    site.event(SLUG, FNM.replace("cut = 2", "cut = 2"), {
        1: "table,player,result\n1,Ann,win\n1,Bob,loss\n2,Cat,win\n2,Dan,loss\n",
        2: "table,player,result\n1,Ann,win\n1,Cat,loss\n2,Bob,win\n2,Dan,loss\n",
        3: "table,player,result\n1,Ann,loss\n1,Zed,win\n"})
    result = run_cli("check", "--source", site.root)
    assert (result.code, result.err.splitlines()[0]) == (
        1, f"{EV}/round-3.csv:3: Zed plays an elimination round without having played a "
           "Swiss round")


def test_a_cut_larger_than_the_field_and_a_final_off_the_cut_are_warned(site, run_cli):
    site.event(SLUG, FNM, {
        1: "table,player,result\n1,Ann,win\n1,Bob,loss\n2,Cat,win\n2,Dan,loss\n",
        2: "table,player,result\n1,Ann,win\n1,Cat,loss\n2,Bob,win\n2,Dan,loss\n",
        3: "table,player,result\n1,Ann,win\n1,Dan,loss\n"},
        **{"players.csv": registrations(["Ann", "Bob", "Cat", "Dan"])})
    result = run_cli("check", "--source", site.root)
    assert any(line.startswith(f"{EV}/round-3.csv:3: warning: the top-2 cut differs from the "
                               "Swiss standings: ") and "and Dan (Swiss rank 4) did" in line
               for line in result.err.splitlines()), result.err
    site.write({f"{EV}/event.toml": FNM.replace("cut = 2", "cut = 8")})
    site.write({f"{EV}/round-3.csv": "table,player,result\n"})
    (site.root / EV / "round-3.csv").unlink()
    result = run_cli("check", "--source", site.root)
    assert f"{EV}/event.toml:5: warning: a top-8 cut with 4 registered players: everyone " \
           "makes it, and 4 byes fill the bracket (set cut in event.toml to a smaller one)" \
           in result.err.splitlines()


def test_a_bye_counts_its_games_only_where_games_are_recorded(site):
    """MTR Appendix C: a bye is a 2-0 win in games. In an event whose round files give no
    games, that would make a bye the only games anyone has (GW% 100% against the floor of
    everyone who played): there the bye counts none either, and GW% is the floor for all."""
    site.event(SLUG, FNM.replace("swiss_rounds = 2", "swiss_rounds = 1").replace("cut = 2",
                                                                                 "cut = 0"),
               {1: "table,player,result\n1,Ann,win\n1,Bob,loss\n,Cat,bye\n"})
    assert site.build() == 0
    rows = {r["player"]: r["tiebreaks"] for r in
            site.json(f"events/{SLUG}/standings.json")["standings"]}
    assert {name: values["mtg-gw"] for name, values in rows.items()} == {
        "Ann": 0.33, "Bob": 0.33, "Cat": 0.33}
