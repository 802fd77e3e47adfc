"""`site-builder pair` for Heresy: Kingdom Come (issue 20, seed 000): Reascension groupings
(3.2.2–3.2.3), Armageddon byes and brackets (4.2.1–4.2.3), rounds in progress in both formats,
and whole events paired from the registrations to the winner."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from conftest import DEMO_SITE
from site_builder.cli import main
from site_builder.rules.heresy.pairing import (Contender, choose_bye, double_round, group_tables,
                                      ranking_order, single_round)

SLUG = "2024-06-01-heresy"
EV = f"data/events/{SLUG}"
TABLE_HEADER = "table,player,result,tau"
MATCH_HEADER = "table,game,player,result,tau"




def event_toml(fmt: str, **keys) -> str:
    lines = ['name = "Heresy night"', "date = 2024-06-01", 'game = "heresy"', f'format = "{fmt}"']
    lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def new_event(site, fmt: str, names, **keys):
    site.write({f"{EV}/event.toml": event_toml(fmt, **keys),
                f"{EV}/players.csv": "player\n" + "".join(f"{n}\n" for n in names)})


def rows_of(path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def write_rows(path, header: str, rows: list[dict[str, str]]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header.split(","), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def build_cleanly(site, run_cli) -> None:
    """`check` finds nothing (no warning either: every round is as the seed asks), and the site
    builds."""
    assert run_cli("check", "--source", site.root).out.splitlines() == ["Checked 1 event: no problems."]
    assert site.build() == 0


def strength(name: str) -> int:
    """P01 is the strongest player, P02 the next, and so on."""
    return int(name[1:])


# ---------------------------------------------------------------- 3.2.2: the groupings


@pytest.mark.parametrize("players,sizes", [
    (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]), (11, [4, 4, 3]),
    (12, [3, 3, 3, 3]), (13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (15, [3, 3, 3, 3, 3]),
    # 31: 31 div 3 − 31 mod 3 = 10 − 1 = 9 threes and 1 four; 32: 10 − 2 = 8 threes, 2 fours.
    (31, [4] + [3] * 9), (32, [4, 4] + [3] * 8)])
def test_the_seeds_grouping_table_with_the_fours_on_top(players, sizes):
    """Seed 3.2.2's table (6 "3 3" … 15 "3 3 3 3 3") read from the bottom table up; the groups
    of four "comprised of the highest-ranking scores" are tables 1 and 2."""
    names = [f"P{k:02d}" for k in range(1, players + 1)]
    tables = group_tables(names)
    assert [len(t) for t in tables] == sizes
    assert [name for t in tables for name in t] == names  # in ranking order, nobody left out


def test_the_best_ranked_sit_at_table_1():
    """Eleven players ranked 1 to 11 (no ties): the top four at table 1, the next four at
    table 2, the last three at table 3, whatever the seed."""
    names = [f"P{k:02d}" for k in range(11, 0, -1)]  # listed worst first
    rank_of = {name: strength(name) for name in names}
    for seed in range(5):
        tables = group_tables(ranking_order(names, rank_of, random.Random(seed)))
        assert tables == [("P01", "P02", "P03", "P04"), ("P05", "P06", "P07", "P08"),
                          ("P09", "P10", "P11")]


def test_equal_standings_are_shuffled_by_the_seed():
    """A alone first; B, C, D share rank 2 and E, F rank 5: each group stays in its place,
    its order drawn from the seed (the same seed, the same order)."""
    rank_of = {"A": 1, "B": 2, "C": 2, "D": 2, "E": 5, "F": 5}
    orders = set()
    for seed in range(30):
        order = ranking_order(list(rank_of), rank_of, random.Random(seed))
        assert order[0] == "A"
        assert set(order[1:4]) == {"B", "C", "D"} and set(order[4:]) == {"E", "F"}
        assert order == ranking_order(list(rank_of), rank_of, random.Random(seed))
        orders.add(tuple(order))
    assert len(orders) == 12  # all 3! × 2! orders of the tied players occur


def test_round_one_is_a_random_draw(site, pair):
    names = [f"P{k:02d}" for k in range(1, 10)]
    new_event(site, "reascension", names)
    tables = set()
    for seed in range(6):
        code, out, err = pair(site, "--dry-run", "--seed", str(seed))
        assert code == 0, err
        tables.add(out.splitlines()[1])  # "  Table 1  …"
    assert len(tables) > 1
    # Without --seed the draw comes from the event: the same file every time.
    assert pair(site)[0] == 0
    written = (site.root / EV / "round-1.csv").read_bytes()
    (site.root / EV / "round-1.csv").unlink()
    assert pair(site)[0] == 0 and (site.root / EV / "round-1.csv").read_bytes() == written


# ---------------------------------------------------------------- Reascension: refusals


def play_tables(path, tau_of=lambda name: 10 - strength(name) % 10) -> None:
    """Type in a Reascension round: the strongest player at each table wins; the others store
    `tau_of(name)`."""
    rows = rows_of(path)
    tables: dict[str, list[dict]] = {}
    for row in rows:
        tables.setdefault(row["table"], []).append(row)
    for seated in tables.values():
        best = min(seated, key=lambda r: strength(r["player"]))
        for row in seated:
            won = row is best
            row["result"], row["tau"] = ("win", "") if won else ("", str(tau_of(row["player"])))
    write_rows(path, TABLE_HEADER, rows)


def test_no_round_after_the_announced_rounds(site, pair):
    new_event(site, "revelations", [f"P{k:02d}" for k in range(1, 7)], rounds=2)
    for number in (1, 2):
        assert pair(site)[0] == 0
        play_tables(site.root / EV / f"round-{number}.csv")
    code, out, err = pair(site)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{EV}/event.toml:5: the event is over: all 2 rounds are in (rounds = 2 in event.toml)",
        "Nothing was written."]


def test_no_round_after_the_seeds_rounds(site, pair):
    """Seed 3.2.3: at least 4 rounds, plus one per full fifteen players: 4 for 6 players."""
    new_event(site, "reascension", [f"P{k:02d}" for k in range(1, 7)])
    for number in range(1, 5):
        assert pair(site)[0] == 0
        play_tables(site.root / EV / f"round-{number}.csv")
    code, _, err = pair(site)
    assert code == 1 and err.splitlines()[0] == (
        f"{EV}/event.toml:1: the event is over: all 4 rounds are in (seed 3.2.3 for 6 players: 4, "
        "plus one per full fifteen players; set rounds in event.toml to announce more)")


def test_fewer_than_six_players_are_not_grouped(site, pair):
    new_event(site, "reascension", [f"P{k:02d}" for k in range(1, 8)])
    assert pair(site)[0] == 0
    play_tables(site.root / EV / "round-1.csv")
    code, out, err = pair(site, "--drop", "P01", "--drop", "P02")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{EV}/round-1.csv: only 5 players left to group for round 2: a Reascension tournament "
        "is for 6 or more (seed 3.1), at tables of 3 and 4", "Nothing was written."]
    assert not (site.root / EV / "round-2.csv").exists()
    assert pair(site, "--drop", "P01")[0] == 0  # six remain: two tables of three


def test_a_late_arrival_joins_at_the_bottom(site, pair):
    """P07 arrives for round 2 with no points: seven players sit 4 3, P07 at table 2."""
    new_event(site, "reascension", [f"P{k:02d}" for k in range(1, 7)])
    assert pair(site)[0] == 0
    play_tables(site.root / EV / "round-1.csv")
    code, out, err = pair(site, "--add", "P07")
    assert code == 0, err
    assert ("7 players at 2 tables (seed 3.2.2): table 1 seats four, the highest-ranked; "
            "table 2 three") in out
    rows = rows_of(site.root / EV / "round-2.csv")
    assert [r["table"] for r in rows] == ["1"] * 4 + ["2"] * 3 and rows[-1]["player"] == "P07"


# ---------------------------------------------------------------- Armageddon: byes (4.2.2)


def test_the_bye_goes_to_the_fewest_lost_games():
    """Ann lost 1 game, Bob 0, Cy 2: Bob has the bye (tau does not come into it)."""
    players = [Contender("Ann", lost_games=1, tau_at_last_loss=6), Contender("Bob"),
               Contender("Cy", lost_games=2, tau_at_last_loss=6)]
    chosen, note = choose_bye(players, random.Random(0), double=False)
    assert chosen.name == "Bob" and note == "bye: Bob (0 games lost; seed 4.2.2)"


def test_equal_lost_games_go_to_the_highest_tau_at_the_last_loss():
    players = [Contender("Ann", lost_games=1, tau_at_last_loss=3),
               Contender("Bob", lost_games=1, tau_at_last_loss=5),
               Contender("Cy", lost_games=1, tau_at_last_loss=4)]
    chosen, note = choose_bye(players, random.Random(0), double=False)
    assert chosen.name == "Bob"
    assert note == "bye: Bob (1 game lost, tau 5 at the last loss; seed 4.2.2)"


def test_then_the_bye_is_drawn_at_random():
    players = [Contender("Ann", lost_games=1, tau_at_last_loss=5),
               Contender("Bob", lost_games=1, tau_at_last_loss=5),
               Contender("Cy", lost_games=2, tau_at_last_loss=7)]
    drawn = {choose_bye(players, random.Random(seed), double=False)[0].name for seed in range(20)}
    assert drawn == {"Ann", "Bob"}
    assert choose_bye(players, random.Random(3), double=False)[1].endswith(
        "; drawn at random among 2 equal; seed 4.2.2)")


def test_nobody_gets_a_second_bye():
    """Bob lost no game but had his bye: it goes to Ann, who lost one."""
    players = [Contender("Ann", lost_games=1, tau_at_last_loss=2), Contender("Bob", had_bye=True),
               Contender("Cy", lost_games=3, tau_at_last_loss=7)]
    draw = single_round(players, random.Random(0))
    assert draw.bye == "Ann" and draw.matches == [("Bob", "Cy")]


def test_double_elimination_byes_go_to_a_player_who_just_lost():
    """Seed 4.2.2: "the eligible player with the fewest lost games who just lost a match". Dan
    won his losers' bracket match 2–0 (1 game lost in all); Eve and Fay just dropped from the
    winners' bracket having lost 3 games and 2: Fay has the bye, though Dan lost fewer."""
    once_beaten = [Contender("Dan", 1, 1, 1), Contender("Eve", 1, 3, 6, just_lost=True),
                   Contender("Fay", 1, 2, 4, just_lost=True)]
    draw = double_round([Contender("Ann"), Contender("Bob")], once_beaten, random.Random(0))
    assert draw.bye == "Fay"
    assert draw.matches == [("Ann", "Bob"), ("Dan", "Eve")]
    assert draw.brackets == ["winners", "losers"]


def test_odd_unbeaten_players_meet_a_once_beaten_one():
    """Six players after round 1: three unbeaten, three once-beaten. Ann and Bob meet in the
    winners' bracket; Cy, the third unbeaten, meets Dan (the scoring files it in the losers'
    bracket); Eve and Fay play the other losers' bracket match. Nobody has a bye."""
    once = [Contender(n, 1, 2, 3, just_lost=True) for n in ("Dan", "Eve", "Fay")]
    draw = double_round([Contender("Ann"), Contender("Bob"), Contender("Cy")], once,
                        random.Random(0))
    assert draw.bye is None
    assert draw.matches == [("Ann", "Bob"), ("Cy", "Dan"), ("Eve", "Fay")]
    assert draw.brackets == ["winners", "losers", "losers"]


def test_the_last_unbeaten_player_waits_for_the_final():
    once = [Contender("Bob", 1, 2, 5, just_lost=True), Contender("Cy", 1, 3, 2),
            Contender("Dan", 1, 2, 1)]
    draw = double_round([Contender("Ann")], once, random.Random(0))
    assert draw.waiting == "Ann" and draw.bye == "Bob" and draw.matches == [("Cy", "Dan")]
    final = double_round([Contender("Ann")], [Contender("Cy", 1, 3, 2)], random.Random(0))
    assert final.matches == [("Ann", "Cy")] and final.brackets == ["final"] and final.bye is None


# ---------------------------------------------------------------- rounds in progress: Reascension

ROUND_1 = "1,P01,win,\n1,P02,,5\n1,P03,,11\n2,P04,win,\n2,P05,,2\n2,P06,,0\n"


def test_a_reascension_round_in_progress(site, run_cli):
    """Round 2 as pair wrote it, table 1 typed in, table 2 still playing."""
    site.write({f"{EV}/event.toml": event_toml("reascension"),
                f"{EV}/round-1.csv": f"{TABLE_HEADER}\n{ROUND_1}",
                f"{EV}/round-2.csv": f"{TABLE_HEADER}\n1,P01,,4\n1,P04,win,\n1,P03,,7\n"
                                     "2,P02,,\n2,P05,,\n2,P06,,\n"})
    assert run_cli("check", "--source", site.root).out.splitlines() == ["Checked 1 event: no problems."]
    assert site.build() == 0
    standings = site.json(f"events/{SLUG}/standings.json")
    assert standings["after_round"] == 1 and not standings["complete"]
    assert [(r["player"], r["points"]) for r in standings["standings"][:3]] == [
        ("P01", 14), ("P04", 14), ("P03", 9)]
    assert not (site.out / f"events/{SLUG}/round-2/standings.json").exists()
    now = site.json(f"events/{SLUG}/round-2/pairings.json")
    assert (now["stage"], now["in_progress"]) == ("tables", True)
    assert [[p["result"] for p in t["players"]] for t in now["tables"]] == [
        ["", "win", ""], [None, None, None]]
    done = site.json(f"events/{SLUG}/round-1/pairings.json")
    assert (done["stage"], done["in_progress"]) == ("tables", False)
    page = " ".join(site.html(f"events/{SLUG}/round-2/").split())
    assert "1 of 2 results in; 1 table still playing." in page
    assert page.count("playing</td>") == 3 and "Tau 4</td>" in page and "Win</td>" in page
    assert "In progress: round 2 of 4 being played" in site.html(f"events/{SLUG}/")
    slips = site.html(f"events/{SLUG}/round-2/slips/")
    assert slips.count('<section class="slip"') == 2
    assert slips.count("Tau stored") == 6 and slips.count("Out of time") == 6


@pytest.mark.parametrize("status,rounds,where,message", [
    (None, {1: "1,P01,win,\n1,P02,,\n1,P03,,11\n2,P04,win,\n2,P05,,2\n2,P06,,0\n",
            2: "1,P01,,\n1,P04,,\n1,P03,,\n2,P02,,\n2,P05,,\n2,P06,,\n"}, "round-1.csv:3",
     "P02 has no result in round 1: write 'win' for the winner or the tau stored at the end of "
     "the game; only the newest round (round 2) may still be in progress"),
    ("final", {1: ROUND_1, 2: "1,P01,,4\n1,P04,win,\n1,P03,,\n2,P02,win,\n2,P05,,1\n2,P06,,1\n"},
     "round-2.csv:4", "P03 has no result, but event.toml says status = \"final\": write 'win' "
     "for the winner or the tau stored at the end of the game, or remove the status until round 2 "
     "is in"),
])
def test_missing_results_outside_the_round_in_progress_are_errors(site, run_cli, status, rounds,
                                                                 where, message):
    keys = {"status": status} if status else {}
    site.write({f"{EV}/event.toml": event_toml("reascension", **keys),
                **{f"{EV}/round-{n}.csv": f"{TABLE_HEADER}\n{text}" for n, text in rounds.items()}})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1 and f"{EV}/{where}: {message}" in result.lines, result.err


def test_a_table_being_played_still_reports_what_typing_cannot_mend(site, run_cli):
    site.write({f"{EV}/event.toml": event_toml("reascension"),
                f"{EV}/round-1.csv": f"{TABLE_HEADER}\n1,P01,win,\n1,P02,win,\n1,P03,,\n"
                                     "2,P04,,\n2,P05,,\n"})
    lines = run_cli("check", "--source", site.root).lines
    assert (f"{EV}/round-1.csv:3: table 1 has two winners (P01 and P02): one player wins a "
            "game") in lines
    assert (f"{EV}/round-1.csv:6: table 2 has 2 players (P04, P05): Heresy tables seat 3 or 4 "
            "(seed 3.2.1)") in lines


# ---------------------------------------------------------------- rounds in progress: Armageddon


def stronger(a: str, b: str, round_number: int) -> str:
    return min(a, b, key=strength)


def match_rows(table: str, winner: str, loser: str, two_one: bool) -> list[dict[str, str]]:
    """A match's game rows: the winner stores 7 tau in each game won; the loser of a game
    stores (their number + the game's) mod 7."""
    order = [(winner, loser), (loser, winner), (winner, loser)] if two_one else \
        [(winner, loser)] * 2
    rows = []
    for game, (won, lost) in enumerate(order, start=1):
        rows.append({"table": table, "game": str(game), "player": won, "result": "win", "tau": "7"})
        rows.append({"table": table, "game": str(game), "player": lost, "result": "loss",
                     "tau": str((strength(lost) + game) % 7)})
    return rows


def play_matches(path, round_number: int, winner_of=stronger) -> None:
    """Type in an Armageddon round as the README says: each match's two waiting rows replaced
    by its game rows. A loser with an odd number takes a game (2–1), an even one none (2–0)."""
    rows, byes, tables = rows_of(path), [], {}
    for row in rows:
        if row["result"] == "bye":
            byes.append(row)
        else:
            tables.setdefault(row["table"], []).append(row["player"])
    games = []
    for table, (a, b) in tables.items():
        winner = winner_of(a, b, round_number)
        loser = b if winner == a else a
        games += match_rows(table, winner, loser, strength(loser) % 2 == 1)
    write_rows(path, MATCH_HEADER, games + byes)


def test_an_armageddon_round_as_pair_writes_it_and_as_it_is_typed_in(site, pair, run_cli):
    new_event(site, "armageddon", ["P01", "P02", "P03", "P04", "P05"])
    code, out, err = pair(site)
    assert code == 0, err
    path = site.root / EV / "round-1.csv"
    lines = path.read_text().splitlines()
    assert lines[0] == MATCH_HEADER
    bye = [line for line in lines if line.endswith(",bye,")]
    assert len(bye) == 1 and bye[0].startswith(",,")  # the contract's `,,Name,bye,`
    matches = [line for line in lines[1:] if line not in bye]
    assert [line.split(",")[0] for line in matches] == ["1", "1", "2", "2"]
    assert all(re.fullmatch(r"[12],,P0[1-5],,", line) for line in matches)  # all else empty
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    now = site.json(f"events/{SLUG}/round-1/pairings.json")
    assert (now["stage"], now["in_progress"]) == ("elimination", True)
    assert now["label"] == "Quarter-finals"  # 5 players: a bracket of 8
    assert [len(t["players"]) for t in now["tables"]] == [2, 2] and len(now["byes"]) == 1
    slips = site.html(f"events/{SLUG}/round-1/slips/")
    assert slips.count('<section class="slip"') == 2
    assert all(slips.count(f"Game {g} won") == 4 and slips.count(f"Game {g} tau") == 4
               for g in (1, 2, 3))
    # Match 1's first game is typed below its waiting rows: still playing, and pair waits.
    table_1 = [line.split(",")[2] for line in matches[:2]]
    game_1 = [f"1,1,{table_1[0]},win,7", f"1,1,{table_1[1]},loss,3"]
    path.write_text("\n".join(lines + game_1) + "\n")
    assert run_cli("check", "--source", site.root).out.splitlines() == ["Checked 1 event: no problems."]
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    assert [t["players"][0]["result"] for t in
            site.json(f"events/{SLUG}/round-1/pairings.json")["tables"]] == [None, None]
    code, _, err = pair(site)
    assert code == 1 and err.splitlines()[0] == (
        f"{EV}/round-1.csv:2: round 1 is still being played ({', '.join(table_1)}, "
        f"{matches[2].split(',')[2]}, {matches[3].split(',')[2]} without a result): enter its "
        "results before pairing round 2")
    # Game 2 in, and match 1's waiting rows deleted: that match is decided, 2–0.
    path.write_text("\n".join([lines[0], *matches[2:], *bye, *game_1, f"1,2,{table_1[0]},win,7",
                               f"1,2,{table_1[1]},loss,5"]) + "\n")
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    tables = site.json(f"events/{SLUG}/round-1/pairings.json")["tables"]
    assert [(p["player"], p["result"]) for p in tables[0]["players"]] == [
        (table_1[0], "win"), (table_1[1], "loss")]
    page = site.html(f"events/{SLUG}/round-1/")
    assert "Won 2–0</td>" in page and "Lost 0–2</td>" in page


MATCH_1 = "1,1,A,win,7\n1,1,B,loss,3\n1,2,A,win,7\n1,2,B,loss,2\n"


@pytest.mark.parametrize("rounds,where,message", [
    ({1: MATCH_1 + "2,,C,,\n2,1,C,win,7\n2,1,D,loss,1\n"}, "round-1.csv:6",
     "the match at table 2 is still waiting for C but D's waiting row is gone: delete both once "
     "the match is over (its games written below them), or keep both while it is played"),
    ({1: MATCH_1 + "2,,C,,\n", 2: "1,,A,,\n1,,B,,\n"}, "round-1.csv:6",
     "table 2 has 1 player (C): an Armageddon match is between two players"),
    ({1: MATCH_1 + "2,,C,,\n2,,D,,\n", 2: "1,,A,,\n1,,C,,\n"}, "round-1.csv:6",
     "C has no result in round 1: replace the rows pair wrote by the match's game rows; only the "
     "newest round (round 2) may still be in progress"),
    ({1: MATCH_1 + "2,1,C,,7\n2,1,D,,\n"}, "round-1.csv:6",
     "C has game 1 but no result: a game's row needs win or loss (only the row pair wrote for a "
     "match being played leaves game, result and tau all empty)"),
    ({1: MATCH_1 + ",,C,,\n"}, "round-1.csv:6",
     "C has no table and no result: seat them at a match's table with an opponent, or write bye "
     "if they have a bye"),
    ({1: MATCH_1 + "2,,C,,\n2,,D,,\n2,1,C,win,7\n2,1,D,win,7\n"}, "round-1.csv:9",
     "game 1 at table 2 has two winners: one player wins a game (an unplayed game is a loss for "
     "both)"),
    ({1: MATCH_1 + "2,,C,,\n2,,D,,\n2,,C,,\n"}, "round-1.csv:8",
     "C has two waiting rows at table 2 (also line 6): pair writes one per player"),
])
def test_waiting_rows_are_accepted_only_as_pair_writes_them(site, run_cli, rounds, where, message):
    site.write({f"{EV}/event.toml": event_toml("armageddon"),
                **{f"{EV}/round-{n}.csv": f"{MATCH_HEADER}\n{text}" for n, text in rounds.items()}})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1 and f"{EV}/{where}: {message}" in result.lines, result.err


# ---------------------------------------------------------------- whole events


def test_a_whole_reascension_event(site, pair, run_cli):
    """Ten players, so 4 rounds (3.2.3) of tables 4 3 3 (3.2.2). The strongest player at each
    table wins, the others store 10 − their number mod 10. P01 wins all four games: 4 × 14 = 56.
    From round 2 on, the four at table 1 are the four with the most points (ties aside)."""
    names = [f"P{k:02d}" for k in range(1, 11)]
    new_event(site, "reascension", names)
    for number in range(1, 5):
        code, out, err = pair(site)
        assert code == 0, err
        assert (f"10 players at 3 tables (seed 3.2.2): table 1 seats four{', the highest-ranked;' if number > 1 else ','} "
                "tables 2–3 three") in out
        rows = rows_of(site.root / EV / f"round-{number}.csv")
        seated = {}
        for row in rows:
            assert row["result"] == row["tau"] == ""
            seated.setdefault(row["table"], []).append(row["player"])
        assert [len(p) for p in seated.values()] == [4, 3, 3]
        assert sorted(p for t in seated.values() for p in t) == names
        if number > 1:
            points = {r["player"]: r["points"] for r in
                      site.json(f"events/{SLUG}/round-{number - 1}/standings.json")["standings"]}
            assert min(points[p] for p in seated["1"]) >= max(
                points[p] for t in ("2", "3") for p in seated[t])
        play_tables(site.root / EV / f"round-{number}.csv")
        assert main(["build", "--source", str(site.root), "--out", str(site.out)]) == 0
    assert "the event is over: all 4 rounds are in" in pair(site)[2]
    build_cleanly(site, run_cli)
    standings = site.json(f"events/{SLUG}/standings.json")
    assert standings["complete"] is True
    assert (standings["standings"][0]["player"], standings["standings"][0]["points"]) == ("P01", 56)
    assert "Winner" in site.html(f"events/{SLUG}/") and "P01" in site.html(f"events/{SLUG}/")
    for number in range(1, 5):
        done = site.json(f"events/{SLUG}/round-{number}/pairings.json")
        assert not done["in_progress"] and sum(p["result"] == "win" for t in done["tables"]
                                               for p in t["players"]) == 3


class Ledger:
    """What the round files say about byes (seed 4.2.2), tallied by the test from the files."""

    def __init__(self):
        self.lost: dict[str, int] = {}
        self.tau_at_last_loss: dict[str, int] = {}
        self.byes: list[str] = []
        self.lost_match_in: dict[str, int] = {}

    def read(self, rows, number: int) -> None:
        tables: dict[str, list[dict]] = {}
        for row in rows:
            if row["result"] == "bye":
                self.byes.append(row["player"])
                continue
            tables.setdefault(row["table"], []).append(row)
            if row["result"] == "loss":
                self.lost[row["player"]] = self.lost.get(row["player"], 0) + 1
                self.tau_at_last_loss[row["player"]] = int(row["tau"])
        for games in tables.values():
            wins: dict[str, int] = {}
            for row in games:
                wins[row["player"]] = wins.get(row["player"], 0) + (row["result"] == "win")
            self.lost_match_in[min(wins, key=wins.get)] = number

    def check_bye(self, rows, number: int, double: bool) -> None:
        """The bye went to an eligible player going on, and nobody eligible lost fewer games,
        or as many with more tau at the last loss."""
        bye = [r["player"] for r in rows if r["result"] == "bye"]
        if not bye:
            return
        going_on = {r["player"] for r in rows} - set(self.byes)
        if double and any(self.lost_match_in.get(p) == number - 1 for p in going_on):
            going_on = {p for p in going_on if self.lost_match_in.get(p) == number - 1}
        assert bye[0] in going_on

        def key(p):
            return self.lost.get(p, 0), -self.tau_at_last_loss.get(p, -1)
        assert key(bye[0]) == min(map(key, going_on))


def run_armageddon(site, pair, names, elimination,
                   winner_of=stronger) -> tuple[int, list[str]]:
    """Pair and play rounds until pair says the event is over: (rounds, pair's outputs)."""
    new_event(site, "armageddon", names, elimination=elimination)
    ledger, outputs = Ledger(), []
    for number in range(1, 20):
        code, out, err = pair(site)
        if code == 1:
            assert "the event is over" in err and "is the champion, nobody is left to meet" in err
            return number - 1, outputs
        assert code == 0, err
        outputs.append(out)
        path = site.root / EV / f"round-{number}.csv"
        ledger.check_bye(rows_of(path), number, elimination == "double")
        play_matches(path, number, winner_of)
        ledger.read(rows_of(path), number)
        assert len(ledger.byes) == len(set(ledger.byes))  # nobody has two byes
    raise AssertionError("the event never ended")


def test_a_whole_single_elimination_event(site, pair, run_cli):
    """Eleven players: 5 matches and a random bye (16 → Round of 16), then 6 → 3 matches,
    3 → a match and the bye to whoever lost fewest games, 2 → the final. The strongest wins."""
    rounds, outputs = run_armageddon(site, pair, [f"P{k:02d}" for k in range(1, 12)], "single")
    assert rounds == 4
    assert [out.splitlines()[0] for out in outputs] == [
        "Heresy night, Round of 16 (round 1):", "Heresy night, Quarter-finals (round 2):",
        "Heresy night, Semi-finals (round 3):", "Heresy night, Final (round 4):"]
    assert sum("bye: " in out for out in outputs) == 2
    build_cleanly(site, run_cli)
    standings = site.json(f"events/{SLUG}/standings.json")["standings"]
    assert (standings[0]["player"], standings[0]["finish"]) == ("P01", "Champion")
    assert standings[1]["finish"] == "Runner-up"
    final = site.json(f"events/{SLUG}/round-4/pairings.json")["tables"][0]["players"]
    assert [p["result"] for p in final] == ["win", "loss"] and final[0]["player"] == "P01"


def test_a_whole_double_elimination_event(site, pair, run_cli):
    """Eight players, as the demo's Armageddon Showdown: 4 winners' bracket matches; then 2
    and 2 losers'; the winners' final and 2 losers'; the unbeaten waits while the three
    once-beaten play down (the bye to the one who just lost, 4.2.2); the losers' final; the
    final. The strongest is unbeaten throughout: 6 rounds."""
    rounds, outputs = run_armageddon(site, pair, [f"P{k:02d}" for k in range(1, 9)], "double")
    assert rounds == 6
    assert "winners' bracket: tables 1, 2, 3, 4" in outputs[0]
    assert "winners' bracket: tables 1, 2\n" in outputs[1]
    assert "losers' bracket: tables 3, 4\n" in outputs[1]
    assert "P01 (unbeaten) waits for the final" in outputs[3] and "bye: " in outputs[3]
    assert "the final: table 1" in outputs[5]
    build_cleanly(site, run_cli)
    standings = site.json(f"events/{SLUG}/standings.json")["standings"]
    assert [(r["player"], r["finish"]) for r in standings[:2]] == [("P01", "Champion"),
                                                                    ("P02", "Runner-up")]
    bracket = site.html(f"events/{SLUG}/bracket/")
    assert "Winners&#39; bracket" in bracket and "Losers&#39; bracket" in bracket
    assert "Final" in bracket


def test_a_double_elimination_final_lost_by_the_unbeaten_player_is_played_again(site, pair,
                                                                               run_cli):
    """P02 beats the unbeaten P01 in the final (round 6): both have one loss, so the final is
    played again (round 7), and P01 wins it."""
    def upset(a, b, number):
        return "P02" if number == 6 else stronger(a, b, number)
    rounds, outputs = run_armageddon(site, pair, [f"P{k:02d}" for k in range(1, 9)], "double",
                                     upset)
    assert rounds == 7 and "the final: table 1" in outputs[6]
    build_cleanly(site, run_cli)
    assert site.json(f"events/{SLUG}/standings.json")["standings"][0]["finish"] == "Champion"
    assert "Round 7 (reset)" in site.html(f"events/{SLUG}/bracket/")


def test_double_elimination_with_six_players(site, pair, run_cli):
    """Six players: the unbeaten are three after round 1, so one of them meets a once-beaten
    player; byes only to players who just lost; the strongest wins."""
    rounds, outputs = run_armageddon(site, pair, [f"P{k:02d}" for k in range(1, 7)], "double")
    assert "(unbeaten) meets" in outputs[1]
    build_cleanly(site, run_cli)
    assert site.json(f"events/{SLUG}/standings.json")["standings"][0]["player"] == "P01"


@pytest.mark.parametrize("elimination,args,message", [
    ("single", ("--add", "P09"), "--add 'P09': nobody joins an Armageddon event after round 1 "
                                 "(it is an elimination)"),
    ("double", ("--drop", "P01"), "--drop 'P01': in double elimination the results cannot show "
     "that a player left (the unbeaten player sits rounds out too); pair the round and record "
     "each match they do not play as lost 0–2 until they are out (games 1 and 2: loss for them, "
     "win for their opponent, tau 0 on both rows)"),
])
def test_armageddon_refusals(site, pair, elimination, args, message):
    new_event(site, "armageddon", [f"P{k:02d}" for k in range(1, 9)], elimination=elimination)
    assert pair(site)[0] == 0
    play_matches(site.root / EV / "round-1.csv", 1)
    code, out, err = pair(site, *args)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"{EV}/round-1.csv: {message}", "Nothing was written."]


def test_a_drop_written_in_drops_csv_is_refused_in_double_elimination_only_while_in(site, pair):
    """A drop the organizer wrote into drops.csv is a drop as --drop is (issue 30, point 6): in
    double elimination pair says so, naming the file, not a --drop nobody gave. Once the
    player is out (two match losses), the line changes nothing and the round is paired."""
    new_event(site, "armageddon", [f"P{k:02d}" for k in range(1, 5)], elimination="double")
    assert pair(site)[0] == 0
    play_matches(site.root / EV / "round-1.csv", 1)
    site.write({f"{EV}/drops.csv": "player,after_round\nP01,1\n"})
    code, out, err = pair(site)
    assert (code, out) == (1, "")
    assert err.splitlines()[0].startswith(
        f"{EV}/round-1.csv: drops.csv lists P01 as gone: in double elimination the results "
        "cannot show that a player left")
    site.write({f"{EV}/drops.csv": "player,after_round\n"})
    assert pair(site)[0] == 0
    play_matches(site.root / EV / "round-2.csv", 2)
    lost = [{r["player"] for r in rows_of(site.root / EV / f"round-{n}.csv")
             if r["result"] == "loss" and r["game"] == "1"} for n in (1, 2)]
    (gone,) = lost[0] & lost[1]  # two match losses: out
    site.write({f"{EV}/drops.csv": f"player,after_round\n{gone},2\n"})
    code, out, err = pair(site)
    assert code == 0, err
    assert f"  not paired: {gone} (drops.csv line 2: dropped after round 2)" in out.splitlines()


def test_a_player_who_drops_in_single_elimination_leaves_the_others_a_bye(site, pair, run_cli):
    """Eight players; after round 1 P01 leaves: the three other winners go on, so one of them
    has the bye (fewest lost games), and the scoring counts P01 out, with a warning."""
    new_event(site, "armageddon", [f"P{k:02d}" for k in range(1, 9)], elimination="single")
    assert pair(site)[0] == 0
    play_matches(site.root / EV / "round-1.csv", 1)
    code, out, err = pair(site, "--drop", "P01")
    assert code == 0, err
    assert "P01 dropped: out of the event" in out and "bye: " in out
    rows = rows_of(site.root / EV / "round-2.csv")
    assert len(rows) == 3 and "P01" not in {r["player"] for r in rows}
    lines = run_cli("check", "--source", site.root).lines
    assert any("P01 is still in but has no match or bye in round 2: counted as out" in line
               for line in lines)


def test_pair_forms_the_demos_double_elimination_rounds(site, pair):
    """The demo's Armageddon Showdown (eight players, double elimination) was written by hand.
    Given its rounds 1 to k − 1, pair forms its round k, table for table, k = 2 … 6: the
    winners' and losers' brackets, the bye to Pieter van Dijk (who just lost the winners'
    final), Tomasz Nowak waiting unbeaten, and the final; then it says the event is over."""
    demo = DEMO_SITE / "data/events/2026-10-10-armageddon-showdown"
    site.write({f"{EV}/event.toml": (demo / "event.toml").read_text(encoding="utf-8"),
                f"{EV}/round-1.csv": (demo / "round-1.csv").read_text(encoding="utf-8")})

    def tables(path) -> dict[str, set[str]]:
        seated: dict[str, set[str]] = {}
        for row in rows_of(path):
            seated.setdefault(row["table"] or "bye", set()).add(row["player"])
        return seated

    for number in range(2, 7):
        code, _, err = pair(site)
        assert code == 0, err
        formed = tables(site.root / EV / f"round-{number}.csv")
        assert formed == tables(demo / f"round-{number}.csv")
        site.write({f"{EV}/round-{number}.csv":
                    (demo / f"round-{number}.csv").read_text(encoding="utf-8")})
    assert "Tomasz Nowak is the champion" in pair(site)[2]
