"""`site-builder pair` for INWO (seed 003, issue 20): tables of five (six where the count needs
it) whose winners, shared victories, ties and referee decisions go on, the round of two tables
sending its top three of each to the final table; head-to-head single elimination; rounds in
progress for both formats; every refusal; the same draw for the same inputs."""

from __future__ import annotations

import csv
import io
import random

import pytest

from conftest import registrations
from site_builder.rules.inwo.pairing import nearest_fits, seat, table_sizes, what_count_makes

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"
MULTI = "table,player,result,groups,special_pct,goal_pct,advanced"
H2H = "table,player,result,groups,special_pct,goal_pct"


def inwo_event(fmt: str = "multiplayer", **keys: str) -> str:
    lines = ['name = "Cup"', "date = 2024-05-18", 'game = "inwo"', f'format = "{fmt}"']
    return "\n".join(lines + [f'{k} = "{v}"' for k, v in keys.items()]) + "\n"






def rows_of(path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def tables_in(rows) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in rows:
        found.setdefault(row["table"], []).append(row["player"])
    return found


def write_rows(path, rows) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def play_tables(path, shared: tuple[str, ...] = ()) -> None:
    """Type in a multi-player round: at each table the first listed wins with 11 groups (the first
    two share the victory at the tables in `shared`); the others hold 9, 8, 7 … groups, so places
    follow the order the table is listed in."""
    rows = rows_of(path)
    for seated in _by_table(rows).values():
        for k, row in enumerate(seated):
            if k == 0 or (k == 1 and row["table"] in shared):
                row["result"], row["groups"] = ("shared" if row["table"] in shared else "win"), "11"
            else:
                row["groups"] = str(10 - k)
    write_rows(path, rows)


def play_games(path) -> None:
    """Type in a head-to-head round: the first listed at each table wins, 12 groups to 7."""
    rows = rows_of(path)
    for seated in _by_table(rows).values():
        if len(seated) == 2:
            seated[0]["result"], seated[0]["groups"] = "win", "12"
            seated[1]["result"], seated[1]["groups"] = "loss", "7"
    write_rows(path, rows)


def _by_table(rows) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for row in rows:
        found.setdefault(row["table"], []).append(row)
    return found


def multi_round(text: str) -> str:
    return MULTI + "\n" + "\n".join(line.strip() for line in text.strip().splitlines()) + "\n"


# ---------------------------------------------------------------- table sizes (pure)


def test_table_sizes_for_five_to_thirty_players():
    """Five at a table, six where the count needs it (as few sixes as possible); counts no mix
    of fives and sixes seats are None."""
    expected = {
        5: [5], 6: [6], 7: None, 8: None, 9: None, 10: [5, 5], 11: [5, 6], 12: [6, 6],
        13: None, 14: None, 15: [5, 5, 5], 16: [5, 5, 6], 17: [5, 6, 6], 18: [6, 6, 6],
        19: None, 20: [5] * 4, 21: [5, 5, 5, 6], 22: [5, 5, 6, 6], 23: [5, 6, 6, 6],
        24: [6, 6, 6, 6], 25: [5] * 5, 26: [5] * 4 + [6], 27: [5, 5, 5, 6, 6],
        28: [5, 5, 6, 6, 6], 29: [5, 6, 6, 6, 6], 30: [5] * 6,
    }
    assert {n: table_sizes(n) for n in range(5, 31)} == expected
    assert [table_sizes(n) for n in range(0, 5)] == [None] * 5


def test_the_seeds_250_players_reach_two_tables_in_round_three():
    """"Five players per table, limited to the first 250": 50 tables; one winner each leaves 50
    (10 tables), then 10 (two tables: "there will only be two tables at this point"), whose top
    three each make the final table of six."""
    assert table_sizes(250) == [5] * 50
    assert table_sizes(50) == [5] * 10
    assert table_sizes(10) == [5, 5]
    # "Winners, shared victories and ties all advance, so some tables may have six players in
    # later rounds": one shared victory among the 50 tables sends 51 on.
    assert table_sizes(51) == [5] * 9 + [6]


def test_the_nearest_counts_that_fit_and_what_they_make():
    assert nearest_fits(7) == (6, 10)
    assert nearest_fits(13) == (12, 15)
    assert nearest_fits(19) == (18, 20)
    assert nearest_fits(3) == (None, 5)
    assert what_count_makes(6) == "6 make one table, the final"
    assert what_count_makes(11) == (
        "11 make two tables, the top three of each going to the final table")
    assert what_count_makes(16) == "16 make 3 tables: 2 of five, 1 of six"
    assert what_count_makes(18) == "18 make 3 tables of six"


def test_seating_is_random_reproducible_and_fills_every_seat():
    names = [f"P{k:02d}" for k in range(16)]
    first = seat(names, [5, 5, 6], {}, random.Random(4))
    assert first == seat(names, [5, 5, 6], {}, random.Random(4))
    assert [len(t) for t in first] == [5, 5, 6]
    assert sorted(n for t in first for n in t) == names
    draws = {seat(names, [5, 5, 6], {}, random.Random(s))[0] for s in range(20)}
    assert len(draws) == 20  # table 1 differs every time


def test_players_who_advanced_from_the_same_table_sit_apart():
    """Ann and Bo shared a victory at table 1, Cy, Di and Eve tied at table 4: in the next round
    none of them sits with a player from their own table, whatever the draw."""
    came_from = {"Ann": 1, "Bo": 1, "Cy": 4, "Di": 4, "Eve": 4}
    names = list(came_from) + [f"W{k}" for k in range(10)]
    came_from.update({f"W{k}": 10 + k for k in range(10)})
    for s in range(40):
        for table in seat(names, [5, 5, 5], came_from, random.Random(s)):
            origins = [came_from[name] for name in table]
            assert len(origins) == len(set(origins)), (s, table)


def test_more_players_from_one_table_than_tables_spread_as_far_as_they_go():
    came_from = {f"S{k}": 1 for k in range(5)} | {f"W{k}": 10 + k for k in range(5)}
    for s in range(20):
        counts = sorted(sum(name.startswith("S") for name in t)
                        for t in seat(list(came_from), [5, 5], came_from, random.Random(s)))
        assert counts == [2, 3]


# ---------------------------------------------------------------- whole events


def test_a_whole_multiplayer_event_from_registrations_to_the_final(site, pair):
    names = [f"Player {k:02d}" for k in range(1, 51)]
    site.event(SLUG, inwo_event(), {}, **{"players.csv": registrations(names)})
    code, out, err = pair(site)
    assert code == 0, err
    first = rows_of(site.root / EV / "round-1.csv")
    assert (site.root / EV / "round-1.csv").read_text().splitlines()[0] == \
        "table,player,result,groups,goal_pct,advanced"  # the contract's columns
    assert sorted(r["player"] for r in first) == names
    assert all(r["result"] == r["groups"] == "" for r in first)
    assert [len(t) for t in tables_in(first).values()] == [5] * 10
    play_tables(site.root / EV / "round-1.csv", shared=("1",))
    winners = {t[0] for t in tables_in(first).values()}
    sharing = set(tables_in(first)["1"][:2])

    code, out, err = pair(site)
    assert code == 0, err
    second = tables_in(rows_of(site.root / EV / "round-2.csv"))
    # Only those who went on: the ten winners and the second of the shared victory; eleven make
    # a table of five and one of six.
    assert {n for t in second.values() for n in t} == winners | sharing
    assert [len(t) for t in second.values()] == [5, 6]
    assert all(len(sharing & set(t)) == 1 for t in second.values())  # the two sit apart
    assert "two tables: the top three of each go on to the final table" in out
    play_tables(site.root / EV / "round-2.csv")

    code, out, err = pair(site)
    assert code == 0, err
    assert out.startswith("Cup, Final table (round 3):")
    final = tables_in(rows_of(site.root / EV / "round-3.csv"))
    assert list(final) == ["1"]
    assert set(final["1"]) == {n for t in second.values() for n in t[:3]}  # the top three of each
    play_tables(site.root / EV / "round-3.csv")
    winner, runner_up = final["1"][:2]

    code, out, err = pair(site)
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == (
        f"{EV}/round-3.csv:2: round 3 was the final (a single table) and {winner} won it: the "
        "event is over, there is no next round to pair")
    assert site.build() == 0
    standings = site.json(f"events/{SLUG}/standings.json")
    assert standings["complete"] is True
    assert [(r["rank"], r["player"], r["finish"]) for r in standings["standings"][:2]] == [
        (1, winner, "Winner"), (2, runner_up, "2nd")]
    pairings = site.json(f"events/{SLUG}/round-2/pairings.json")
    assert (pairings["stage"], pairings["in_progress"]) == ("tables", False)
    assert [len(t["players"]) for t in pairings["tables"]] == [5, 6]


def test_a_whole_head_to_head_event_from_registrations_to_the_final(site, pair):
    """Eleven players: a bracket of 16, so five random byes in round 1 and three games, the eight
    numbered at random; then Game i meets the i-th from the end, to the final."""
    names = [f"Player {k:02d}" for k in range(1, 12)]
    site.event(SLUG, inwo_event("head-to-head"), {}, **{"players.csv": registrations(names)})
    code, out, err = pair(site)
    assert code == 0, err
    assert out.startswith("Cup, Round of 16 (round 1):")
    first = rows_of(site.root / EV / "round-1.csv")
    assert (site.root / EV / "round-1.csv").read_text().splitlines()[0] == \
        "table,player,result,groups,goal_pct"  # the contract's columns
    assert sorted(r["player"] for r in first) == names
    byes = [r for r in first if r["result"] == "bye"]
    assert len(byes) == 5 and all(r["table"] for r in byes)
    assert sorted(tables_in(first), key=int) == [str(k) for k in range(1, 9)]
    labels = ["Quarter-finals", "Semi-finals", "Final"]
    for number, label in zip((2, 3, 4), labels):
        play_games(site.root / EV / f"round-{number - 1}.csv")
        went_on = {int(r["table"]): r["player"]
                   for r in rows_of(site.root / EV / f"round-{number - 1}.csv")
                   if r["result"] in ("win", "bye")}
        code, out, err = pair(site)
        assert code == 0, err
        assert out.startswith(f"Cup, {label} (round {number}):")
        games = tables_in(rows_of(site.root / EV / f"round-{number}.csv"))
        last = len(went_on)
        assert games == {str(i): [went_on[i], went_on[last + 1 - i]]
                         for i in range(1, last // 2 + 1)}
    play_games(site.root / EV / "round-4.csv")
    champion = rows_of(site.root / EV / "round-4.csv")[0]["player"]
    code, _, err = pair(site)
    assert code == 1 and err.splitlines()[0] == (
        f"{EV}/round-4.csv:2: round 4 was the final and {champion} won it: the event is over, "
        "there is no next round to pair")
    assert site.build() == 0
    standings = site.json(f"events/{SLUG}/standings.json")["standings"]
    assert (standings[0]["player"], standings[0]["finish"]) == (champion, "Champion")
    assert site.json(f"events/{SLUG}/round-1/pairings.json")["stage"] == "elimination"


# ---------------------------------------------------------------- who is seated next


REFEREE_ROUND = """
    1,Ann,win,11,,,
    1,Cal,,9,,,yes
    1,Gus,,3,,,
    1,Hal,,2,,,
    1,Kim,,1,,,
    2,Dee,win,11,,,no
    2,Fin,,8,,,yes
    2,Ida,,7,,,yes
    2,Jo,,6,,,
    2,Lu,,5,,,
    3,Bo,shared,10,,,
    3,Eve,shared,9,,,
    3,Max,,4,,,
    3,Ned,,3,,,
    3,Oz,,2,,,
"""


def test_referee_decisions_decide_who_is_seated_next(site, pair):
    """Cal, Fin and Ida advanced by the referee's decision, Dee held back although she won, Bo and
    Eve by their shared victory: those six, and only they, make the final table."""
    site.event(SLUG, inwo_event(), {1: multi_round(REFEREE_ROUND)})
    code, out, err = pair(site)
    assert code == 0, err
    final = tables_in(rows_of(site.root / EV / "round-2.csv"))
    assert list(final) == ["1"] and sorted(final["1"]) == ["Ann", "Bo", "Cal", "Eve", "Fin", "Ida"]


def test_the_round_of_two_tables_sends_its_top_three_and_ties_for_third(site, pair):
    """Table 1's third place is shared (Cy and Di both 8 of 11 groups): the seed's "ties all
    advance" sends four from it and three from table 2, seven at the final table."""
    site.event(SLUG, inwo_event(), {1: multi_round("""
        1,Ann,win,11,,,
        1,Bo,,9,,,
        1,Cy,,8,,,
        1,Di,,8,,,
        1,Eve,,2,,,
        2,Fay,win,11,,,
        2,Gil,,7,,,
        2,Hal,,6,,,
        2,Ida,,5,,,
        2,Jo,,4,,,
        2,Kim,,3,,,
        """)})
    code, out, err = pair(site)
    assert code == 0, err
    final = tables_in(rows_of(site.root / EV / "round-2.csv"))
    assert sorted(final["1"]) == ["Ann", "Bo", "Cy", "Di", "Fay", "Gil", "Hal"]


# ---------------------------------------------------------------- refusals


THIRTEEN_GO_ON = """
    1,A1,shared,11,,,
    1,A2,shared,11,,,
    1,A3,shared,11,,,
    1,A4,shared,11,,,
    1,A5,shared,11,,,
    2,B1,shared,11,,,
    2,B2,shared,11,,,
    2,B3,shared,11,,,
    2,B4,shared,11,,,
    2,B5,shared,11,,,
    3,C1,win,11,,,
    3,C2,,5,,,yes
    3,C3,,4,,,yes
    3,C4,,3,,,
    3,C5,,2,,,
"""
FINAL_SHARED = "1,Ann,shared,11,,,\n1,Bo,shared,11,,,\n1,Cy,,7,,,\n1,Di,,6,,,\n1,Eve,,5,,,"
TWO_TABLES = """
    1,Ann,win,11,,,
    1,Bo,,9,,,
    1,Cy,,8,,,
    1,Di,,7,,,
    1,Eve,,6,,,
    2,Fay,win,11,,,
    2,Gil,,9,,,
    2,Hal,,8,,,
    2,Ida,,7,,,
    2,Jo,,6,,,
"""


@pytest.mark.parametrize("fmt,rounds,players,args,where,message", [
    ("multiplayer", {}, [f"P{k}" for k in range(7)], (), f"{EV}/players.csv",
     "7 players do not make tables of five or six (the seed seats five at a table, six where the "
     "count needs it): register 3 more (players.csv, or --add NAME: 10 make two tables, the top "
     "three of each going to the final table), or drop 1 (--drop NAME: 6 make one table, the "
     "final); or write the round 1 file by hand with the tables you choose"),
    ("multiplayer", {}, ["Ann", "Bo", "Cy"], (), f"{EV}/players.csv",
     "3 players do not make tables of five or six (the seed seats five at a table, six where the "
     "count needs it): register 2 more (players.csv, or --add NAME: 5 make one table, the "
     "final); or write the round 1 file by hand with the tables you choose"),
    ("multiplayer", {1: THIRTEEN_GO_ON}, None, (), f"{EV}/round-1.csv",
     "round 1 sends 13 players on (winners, shared victories, ties and the referee's decisions) "
     "and 13 do not make tables of five or six (the seed seats five at a table, six where the "
     "count needs it): the referee can advance 2 more (advanced = yes on their rows in "
     "round-1.csv: 15 make 3 tables of five), or hold 1 back (advanced = no, or --drop a player "
     "who leaves: 12 make two tables, the top three of each going to the final table); or write "
     "the round 2 file by hand with the tables you choose"),
    ("multiplayer", {1: FINAL_SHARED}, None, (), f"{EV}/round-1.csv:2",
     "round 1 was the final (a single table) and Ann and Bo shared the victory: the event is "
     "over, there is no next round to pair"),
    ("multiplayer", {1: TWO_TABLES}, None, ("--drop", "Ann", "--drop", "Bo", "--drop", "Cy",
                                            "--drop", "Fay", "--drop", "Gil"), f"{EV}/round-1.csv",
     "only 1 player left for the final table: a game needs two"),
    ("multiplayer", {1: TWO_TABLES}, None, ("--add", "Zed"), f"{EV}/round-1.csv",
     "--add 'Zed': INWO rounds after the first are played by those who went on from the round "
     "before; nobody joins later"),
    ("multiplayer", {1: TWO_TABLES.replace("2,Gil,,9", "2,Gil,,").replace("2,Jo,,6", "2,Jo,,")},
     None, (), f"{EV}/round-1.csv:8",
     "round 1 is still being played (Gil, Jo without a result): enter its results before pairing "
     "round 2"),
    ("head-to-head", {1: "1,Ann,win,12,,\n1,Bo,loss,9,,"}, None, (), f"{EV}/round-1.csv:2",
     "round 1 was the final and Ann won it: the event is over, there is no next round to pair"),
    ("head-to-head", {1: "1,Ann,win,12,,\n1,Bo,loss,9,,\n2,Cy,win,12,,\n2,Di,loss,3,,"}, None,
     ("--add", "Eve"), f"{EV}/round-1.csv",
     "--add 'Eve': INWO rounds after the first are played by those who went on from the round "
     "before; nobody joins later"),
])
def test_every_refusal_is_a_path_line_message_and_writes_nothing(site, pair, fmt, rounds, players,
                                                                  args, where, message):
    header = MULTI if fmt == "multiplayer" else H2H
    extra = {"players.csv": registrations(players)} if players else {}
    site.event(SLUG, inwo_event(fmt), {n: header + "\n" + "\n".join(
        line.strip() for line in text.strip().splitlines()) + "\n" for n, text in rounds.items()},
        **extra)
    before = sorted(p.name for p in (site.root / EV).iterdir())
    code, out, err = pair(site, *args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{where}: {message}", "Nothing was written."]
    assert sorted(p.name for p in (site.root / EV).iterdir()) == before


# ---------------------------------------------------------------- the same draw


@pytest.mark.parametrize("fmt", ["multiplayer", "head-to-head"])
def test_the_draw_is_reproducible_by_seed(site, pair, fmt):
    site.event(SLUG, inwo_event(fmt), {},
               **{"players.csv": registrations([f"Player {k:02d}" for k in range(1, 21)])})
    code, first, _ = pair(site, "--dry-run")
    assert code == 0 and pair(site, "--dry-run")[1] == first
    assert pair(site, "--dry-run", "--seed", "7")[1] == pair(site, "--dry-run", "--seed", "7")[1]
    assert pair(site, "--dry-run", "--seed", "7")[1] != first
    assert pair(site)[0] == 0
    written = (site.root / EV / "round-1.csv").read_bytes()
    (site.root / EV / "round-1.csv").unlink()
    assert pair(site)[0] == 0 and (site.root / EV / "round-1.csv").read_bytes() == written


# ---------------------------------------------------------------- rounds in progress


ROUND_2_PLAYING = """
    1,Ann,win,11,,,
    1,Bo,,7,,,
    1,Cal,,6,,,
    1,Eve,,5,,,
    1,Fin,,4,,,
    1,Ida,,3,,,
    2,Kim,,,,,
    2,Lu,,,,,
    2,Max,win,,,,
    2,Ned,,8,,,
    2,Oz,,4,,,
"""
ROUND_1_ELEVEN = """
    1,Ann,win,11,,,
    1,Pam,,2,,,
    1,Quin,,1,,,
    1,Ray,,1,,,
    1,Sal,,1,,,
    2,Bo,shared,11,,,
    2,Cal,shared,11,,,
    2,Eve,shared,11,,,
    2,Fin,shared,11,,,
    2,Ida,shared,11,,,
    3,Kim,win,11,,,
    3,Lu,,9,,,yes
    3,Max,,9,,,yes
    3,Ned,,9,,,yes
    3,Oz,,9,,,yes
"""


@pytest.fixture
def playing(site):
    """Round 2 of two tables being played: table 1's groups are all in, table 2's not yet (Max's
    win is typed, three players' groups are missing)."""
    return site.event(SLUG, inwo_event(), {1: multi_round(ROUND_1_ELEVEN),
                                           2: multi_round(ROUND_2_PLAYING)})


def test_a_multiplayer_round_in_progress_keeps_the_standings_of_the_round_before(playing, run_cli):
    assert run_cli("check", "--source", playing.root).out.splitlines() == ["Checked 1 event: no problems."]
    assert playing.build() == 0
    standings = playing.json(f"events/{SLUG}/standings.json")
    assert (standings["after_round"], standings["complete"]) == (1, False)
    assert "In progress: round 2 being played" in playing.html(f"events/{SLUG}/")
    assert not (playing.out / f"events/{SLUG}/round-2/standings.json").exists()
    page = " ".join(playing.html(f"events/{SLUG}/round-2/").split())
    assert "1 of 2 results in; 1 table still playing." in page
    assert "Find your name" in page
    assert (('<span class="where">Table 2</span> <span class="against">vs <span class="name">Kim</span>, '
            '<span class="name">Lu</span>, <span class="name">Max</span>, <span class="name">Oz</span>'
            '</span>')
            in page)
    # Table 1 is decided: places by groups; table 2 shows "playing" for all five, Max's typed
    # win included.
    assert "1st: win, 11 groups" in page
    assert "2nd: 7 groups, 63.64% of goal, top three of the table" in page
    assert page.count("playing</td>") == 5


def test_pairings_json_and_slips_of_a_multiplayer_round_in_progress(playing):
    assert playing.build() == 0
    now = playing.json(f"events/{SLUG}/round-2/pairings.json")
    assert (now["stage"], now["label"], now["in_progress"]) == ("tables", "Round 2", True)
    assert [[p["result"] for p in t["players"]] for t in now["tables"]] == [
        ["win", "", "", "", "", ""], [None] * 5]
    slips = playing.html(f"events/{SLUG}/round-2/slips/")
    assert slips.count('<section class="slip"') == 2
    table_2 = slips[slips.index('aria-label="Table 2"'):]
    assert table_2.count("Win / shared victory") == 5
    assert table_2.count("Groups controlled:") == 5 and table_2.count("Special goal %:") == 5


def test_pair_seats_the_final_once_the_round_of_two_tables_is_in(playing, pair):
    typed = (ROUND_2_PLAYING.replace("2,Kim,,,", "2,Kim,,7,").replace("2,Lu,,,", "2,Lu,,9,")
             .replace("2,Max,win,,", "2,Max,win,11,"))
    playing.write({f"{EV}/round-2.csv": multi_round(typed)})
    code, out, err = pair(playing)
    assert code == 0, err
    final = tables_in(rows_of(playing.root / EV / "round-3.csv"))
    assert sorted(final["1"]) == ["Ann", "Bo", "Cal", "Lu", "Max", "Ned"]


@pytest.mark.parametrize("rounds,where,message", [
    ({1: ROUND_1_ELEVEN.replace("1,Pam,,2", "1,Pam,,"), 2: ROUND_2_PLAYING}, "round-1.csv:3",
     "Pam has no groups in round 1: only the newest round (round 2) may still be in progress; "
     "write the groups they controlled when the game ended"),
    ({1: ROUND_1_ELEVEN.replace("3,Kim,win,11", "3,Kim,win,")}, "round-1.csv:12", None),
])
def test_only_the_newest_round_may_wait_for_groups(site, run_cli, rounds, where, message):
    """The newest round may wait for groups; an earlier one may not (the second case: round 1
    alone is the round being played, so Kim's missing groups are no error)."""
    site.event(SLUG, inwo_event(), {n: multi_round(text) for n, text in rounds.items()})
    result = run_cli("check", "--source", site.root)
    if message is None:
        assert result.code == 0, result.err
    else:
        assert result.code == 1 and f"{EV}/{where}: {message}" in result.lines, result.err


def test_a_final_event_with_groups_missing_is_an_error(site, run_cli):
    site.event(SLUG, inwo_event(status="final"), {1: multi_round(ROUND_1_ELEVEN),
                                                  2: multi_round(ROUND_2_PLAYING)})
    result = run_cli("check", "--source", site.root)
    assert (f"{EV}/round-2.csv:8: Kim has no groups, but event.toml says status = \"final\": "
            "write the results of round 2, or remove the status until they are in") in result.lines


H2H_ROUND_1 = "1,Ann,win,12,,\n1,Bo,loss,9,,\n2,Cy,win,12,,\n2,Di,loss,3,,\n" \
              "3,Eve,win,12,,\n3,Fay,loss,8,,\n4,Gil,win,12,,\n4,Hal,loss,5,,\n"


def test_a_head_to_head_round_in_progress(site, run_cli):
    """The semi-finals: Game 1 decided, Game 2 being played."""
    site.event(SLUG, inwo_event("head-to-head"), {
        1: H2H + "\n" + H2H_ROUND_1,
        2: H2H + "\n1,Ann,win,12,,\n1,Gil,loss,10,,\n2,Cy,,,,\n2,Eve,,,,\n"})
    assert run_cli("check", "--source", site.root).code == 0
    assert site.build() == 0
    assert "In progress: Semi-finals (round 2 of 3) being played" in site.html(f"events/{SLUG}/")
    now = site.json(f"events/{SLUG}/round-2/pairings.json")
    assert (now["stage"], now["label"], now["in_progress"]) == ("elimination", "Semi-finals", True)
    assert [[(p["player"], p["result"]) for p in t["players"]] for t in now["tables"]] == [
        [("Ann", "win"), ("Gil", "loss")], [("Cy", None), ("Eve", None)]]
    assert site.json(f"events/{SLUG}/standings.json")["after_round"] == 1
    slips = site.html(f"events/{SLUG}/round-2/slips/")
    assert slips.count('<section class="slip"') == 2
    assert slips.count('<span class="box" aria-hidden="true"></span>Win') == 4
    assert slips.count('<span class="box" aria-hidden="true"></span>Loss') == 4


@pytest.mark.parametrize("rounds,where,message", [
    ({1: H2H_ROUND_1.replace("1,Bo,loss", "1,Bo,"), 2: "1,Ann,,,,\n1,Gil,,,,\n"}, "round-1.csv:3",
     "Bo has no result in round 1: only the newest round (round 2) may still be in progress; "
     "write win or loss"),
    ({1: H2H_ROUND_1 + "5,Ida,,,,\n"}, "round-1.csv:10",
     "Ida is alone at table 5 with no result: add the opponent's row, or write bye if it is a bye"),
])
def test_missing_head_to_head_results_outside_the_round_in_progress(site, run_cli, rounds, where,
                                                                    message):
    site.event(SLUG, inwo_event("head-to-head"),
               {n: H2H + "\n" + text for n, text in rounds.items()})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1 and f"{EV}/{where}: {message}" in result.lines, result.err
