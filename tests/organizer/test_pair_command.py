"""`site-builder pair` as an organizer runs it on the day (issue 19, points 1–3 and 6): whole
events paired from the registrations to the final with the results typed in between, the seed's
drop example at the cut, every refusal, and the same draw for the same inputs."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from conftest import conquest_event, registrations
from site_builder.cli import main

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"






def rows_of(path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def play(path, winner_of) -> None:
    """Type in the results of a paired round: `winner_of(table rows)` names each table's winner."""
    rows = rows_of(path)
    tables: dict[str, list[dict]] = {}
    for row in rows:
        if row["result"] != "bye":
            tables.setdefault(row["table"], []).append(row)
    for seated in tables.values():
        winner = winner_of(seated)
        for row in seated:
            row["result"] = "win" if row["player"] == winner else "loss"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def first_listed(seated):
    return seated[0]["player"]


def test_a_whole_conquest_event_from_registrations_to_the_final(site, pair):
    names = [f"Player {c}" for c in "ABCDEFGHI"]  # nine: a bye every Swiss round
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=4), {},
               **{"players.csv": registrations(names)})
    met, byes = set(), []
    for number in range(1, 6):
        code, out, err = pair(site)
        assert code == 0, err
        path = site.root / EV / f"round-{number}.csv"
        rows = rows_of(path)
        assert out.splitlines()[-1].startswith(f"Wrote {EV}/round-{number}.csv")
        assert all(row["result"] in ("", "bye") for row in rows)
        if number <= 3:  # Swiss: everyone, a bye for the odd one out, no rematch
            assert sorted(r["player"] for r in rows) == names
            bye = [r for r in rows if r["result"] == "bye"]
            assert len(bye) == 1 and bye[0]["table"] == ""
            byes.append(bye[0]["player"])
            tables = {}
            for r in rows:
                if r["table"]:
                    tables.setdefault(r["table"], []).append(r["player"])
            assert sorted(map(int, tables)) == [1, 2, 3, 4]
            pairs = {frozenset(p) for p in tables.values()}
            assert not pairs & met
            met |= pairs
        play(path, first_listed)  # the player listed first (the better ranked) wins
    assert len(set(byes)) == 3  # never the same player twice
    code, out, err = pair(site)
    assert code == 1 and "the event is over: all 5 planned rounds (3 Swiss rounds and the top 4 " \
                         "elimination rounds) are in, and the final is decided" in err
    assert main(["build", "--source", str(site.root), "--out", str(site.out)]) == 0
    standings = site.json(f"events/{SLUG}/standings.json")
    assert standings["complete"] is True and standings["standings"][0]["finish"] == "Champion"
    swiss = site.json(f"events/{SLUG}/round-3/standings.json")["standings"]
    semis = rows_of(site.root / EV / "round-4.csv")
    assert [(r["table"], r["player"]) for r in semis] == [
        ("1", swiss[0]["player"]), ("1", swiss[3]["player"]),
        ("2", swiss[1]["player"]), ("2", swiss[2]["player"])]
    assert standings["standings"][0]["player"] == swiss[0]["player"]  # seed 1 won every game


def test_the_drop_example_at_the_cut(site, pair):
    """Seed 001, "Player drop example": Steven, sixth after the Swiss rounds, leaves before the top
    8; Eve, ninth, takes the eighth seed, the others move up, and all eight are paired anew."""
    names = [f"P{k:02d}" for k in range(1, 13)]
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=8), {},
               **{"players.csv": registrations(names)})
    for number in (1, 2, 3):
        assert pair(site)[0] == 0
        play(site.root / EV / f"round-{number}.csv", first_listed)
    assert main(["build", "--source", str(site.root), "--out", str(site.out)]) == 0
    ranked = [r["player"] for r in site.json(f"events/{SLUG}/round-3/standings.json")["standings"]]
    steven, eve = ranked[5], ranked[8]
    code, out, err = pair(site, "--drop", steven)
    assert code == 0, err
    seeds = ranked[:5] + ranked[6:9]
    assert seeds[-1] == eve
    games = rows_of(site.root / EV / "round-4.csv")
    assert [(r["table"], r["player"]) for r in games] == [
        (str(k), name) for k in range(1, 5) for name in (seeds[k - 1], seeds[8 - k])]
    assert f"not in the cut (dropped): {steven}" in out
    assert "Quarter-finals (round 4):" in out.splitlines()[0]


def test_game_numbers_follow_the_bracket_and_a_drop_gives_a_bye(site, pair):
    names = [f"P{k}" for k in range(1, 9)]
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=2, cut=8), {},
               **{"players.csv": registrations(names)})
    for number in (1, 2):
        assert pair(site)[0] == 0
        play(site.root / EV / f"round-{number}.csv", first_listed)
    assert pair(site)[0] == 0
    quarters = rows_of(site.root / EV / "round-3.csv")
    # The lower seed wins Games 1 and 3.
    play(site.root / EV / "round-3.csv", lambda seated: seated[1 if seated[0]["table"] in "13" else 0]["player"])
    winners = {r["table"]: r["player"] for r in rows_of(site.root / EV / "round-3.csv") if r["result"] == "win"}
    code, out, err = pair(site, "--drop", winners["2"])
    assert code == 0, err
    semis = rows_of(site.root / EV / "round-4.csv")
    assert [(r["table"], r["player"], r["result"]) for r in semis] == [
        ("1", winners["1"], ""), ("1", winners["4"], ""), ("2", winners["3"], "bye")]
    assert f"{winners['2']} dropped: their opponent has a bye" in out
    assert quarters[0]["table"] == "1"


def test_kingdom_rounds_are_paired_on_its_own_points(site, pair):
    names = ["Ann", "Bob", "Cy", "Di", "Eve"]
    site.write({f"{EV}/event.toml": 'name = "Houses"\ndate = 2024-05-18\ngame = "kingdom"\nrounds = 3\n',
                f"{EV}/players.csv": registrations(names)})
    code, out, err = pair(site)
    assert code == 0, err
    text = (site.root / EV / "round-1.csv").read_text()
    assert text.splitlines()[0] == "table,player,houses,result"
    assert re.search(r"^,(Ann|Bob|Cy|Di|Eve),,bye$", text, re.MULTILINE)
    rows = rows_of(site.root / EV / "round-1.csv")
    for row in rows:  # the first listed at each table makes more hero houses
        if row["result"] != "bye":
            row["houses"] = "12" if row is next(r for r in rows if r["table"] == row["table"]) else "7"
    (site.root / EV / "round-1.csv").write_text(
        "table,player,houses,result\n" + "".join(
            f"{r['table']},{r['player']},{r['houses']},{r['result']}\n" for r in rows))
    code, out, err = pair(site)
    assert code == 0, err
    second = rows_of(site.root / EV / "round-2.csv")
    first_pairs = {frozenset(r["player"] for r in rows if r["table"] == t)
                   for t in {r["table"] for r in rows if r["table"]}}
    second_pairs = {frozenset(r["player"] for r in second if r["table"] == t)
                    for t in {r["table"] for r in second if r["table"]}}
    assert not first_pairs & second_pairs


def test_dry_run_writes_nothing_and_the_draw_is_reproducible(site, pair):
    names = [f"Player {c}" for c in "ABCDEFG"]
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(names)})
    code, first, _ = pair(site, "--dry-run")
    assert code == 0 and first.splitlines()[-1].startswith(f"Dry run: {EV}/round-1.csv not written")
    assert not (site.root / EV / "round-1.csv").exists()
    assert pair(site, "--dry-run")[1] == first
    assert pair(site, "--dry-run", "--seed", "99")[1] != first
    # Another event with the same players is drawn differently.
    other = "2024-05-25-other"
    site.event(other, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(names)})
    assert pair(site, "--dry-run", slug=other)[1].split("\n", 1)[1] != first.split("\n", 1)[1]
    assert pair(site)[0] == 0
    written = (site.root / EV / "round-1.csv").read_bytes()
    (site.root / EV / "round-1.csv").unlink()
    assert pair(site)[0] == 0 and (site.root / EV / "round-1.csv").read_bytes() == written


def test_late_arrivals_and_drops_in_the_swiss_rounds(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(["Ann", "Bob", "Cy", "Di"])})
    assert pair(site, "--drop", "Di", "--add", "Eve", "--add", "Fay")[0] == 0
    players = {r["player"] for r in rows_of(site.root / EV / "round-1.csv")}
    assert players == {"Ann", "Bob", "Cy", "Eve", "Fay"}
    play(site.root / EV / "round-1.csv", first_listed)
    assert pair(site, "--add", "Di")[0] == 0  # Di joins late: an unpaired loss for round 1
    assert {r["player"] for r in rows_of(site.root / EV / "round-2.csv")} == players | {"Di"}


ROUND_1 = "table,player,result\n1,Ann,win\n1,Bob,loss\n2,Cy,win\n2,Di,loss\n"


@pytest.mark.parametrize("setup,args,where,message", [
    ({2: "table,player,result\n1,Ann,\n1,Cy,\n2,Bob,loss\n2,Di,win\n"}, (), f"{EV}/round-2.csv:2",
     "round 2 is still being played (Ann, Cy without a result): enter its results before "
     "pairing round 3"),
    ({2: ROUND_1, 3: ROUND_1}, (), f"{EV}/event.toml:1",
     "the event is over: all 3 planned rounds (3 Swiss rounds) are in"),
    ({}, ("--drop", "Dii"), f"{EV}/round-1.csv",
     "--drop 'Dii': Dii does not play round 1 (did you mean 'Di'?)"),
    ({}, ("--add", "Cy"), f"{EV}/round-1.csv:4", "--add 'Cy': Cy already plays"),
    ({}, ("--drop", "Ann", "--drop", "Bob", "--drop", "Cy"), f"{EV}/round-1.csv",
     "only 1 player left to pair for round 2: a game needs two"),
])
def test_every_refusal_is_a_path_line_message_and_writes_nothing(site, pair, setup, args, where,
                                                                  message):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: ROUND_1, **setup})
    before = sorted(p.name for p in (site.root / EV).iterdir())
    code, out, err = pair(site, *args)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"{where}: {message}", "Nothing was written."]
    assert sorted(p.name for p in (site.root / EV).iterdir()) == before


def test_round_one_needs_registrations(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {})
    code, _, err = pair(site)
    assert code == 1 and err.splitlines()[0] == (
        f"{EV}/players.csv: has no registrations (or is missing): round 1 is paired from the "
        "event's players.csv, one name per row under 'player'")


def test_a_final_event_and_an_event_with_errors_are_refused(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0, status="final"),
               {1: ROUND_1})
    assert pair(site)[2].splitlines()[0] == (
        f"{EV}/event.toml:7: status = \"final\": the event is over, there is no next round to pair")
    site.write({f"{EV}/round-1.csv": ROUND_1.replace("1,Bob,loss", "1,Bob,wn")})
    code, _, err = pair(site)
    assert code == 1 and err.splitlines()[0].startswith(f"{EV}/round-1.csv:3: result 'wn'")


def test_players_join_only_in_the_swiss_rounds_and_games_are_not_paired_elsewhere(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=1, cut=4),
               {1: ROUND_1})
    code, _, err = pair(site, "--add", "Eve")
    assert code == 1 and "--add 'Eve': players join during the Swiss rounds; nobody joins an " \
                         "elimination round" in err
    site.write({"data/events/2024-06-01-sf/event.toml":
                'name = "Sf"\ndate = 2024-06-01\ngame = "spellfire"\n'})
    code, _, err = pair(site, slug="2024-06-01-sf")
    assert code == 1 and err.splitlines()[0] == (
        "data/events/2024-06-01-sf/players.csv: has no registrations (or is missing): round 1 is "
        "paired from the event's players.csv, one name per row under 'player'")


def test_a_round_file_is_never_overwritten(site, tmp_path):
    from site_builder.organizer.pair import Request, plan_next_round, write_round
    from site_builder.core.problems import ConfigError
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {1: ROUND_1})
    planned = plan_next_round(Request(site.root / EV))
    planned.path.write_text("table,player,result\n1,Ann,win\n1,Cy,loss\n")  # typed meanwhile
    with pytest.raises(ConfigError, match="exists already: pair never overwrites a round file"):
        write_round(planned)
    assert planned.path.read_text() == "table,player,result\n1,Ann,win\n1,Cy,loss\n"
    assert sorted(p.name for p in planned.path.parent.iterdir()) == [
        "event.toml", "round-1.csv", "round-2.csv"]


def test_pairings_json_of_a_paired_round(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {1: ROUND_1})
    assert pair(site)[0] == 0
    assert main(["build", "--source", str(site.root), "--out", str(site.out)]) == 0
    pairings = json.loads((site.out / f"events/{SLUG}/round-2/pairings.json").read_text())
    assert pairings["in_progress"] is True and len(pairings["tables"]) == 2
    assert {p["player"] for t in pairings["tables"] for p in t["players"]} == {"Ann", "Bob", "Cy", "Di"}


def test_an_event_that_starts_in_elimination(site, pair):
    """swiss_rounds = 0: six players in a bracket of eight, so two random byes in round 1, games
    numbered at random; then the bracket's own pairing to the final. No Swiss rank separates
    the players who went out in the same round: they share a place."""
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    site.write({f"{EV}/event.toml": 'name = "Knockout"\ndate = 2024-05-18\ngame = "conquest"\n'
                                    'structure = "custom"\nswiss_rounds = 0\n',
                f"{EV}/players.csv": registrations(names)})
    code, out, err = pair(site)
    assert code == 0, err
    first = rows_of(site.root / EV / "round-1.csv")
    byes = [r for r in first if r["result"] == "bye"]
    assert len(byes) == 2 and all(r["table"] for r in byes)  # a bye keeps its Game number
    assert sorted({r["table"] for r in first}) == ["1", "2", "3", "4"]
    assert out.startswith("Knockout, Quarter-finals (round 1):")
    play(site.root / EV / "round-1.csv", first_listed)
    winners = {r["table"]: r["player"] for r in rows_of(site.root / EV / "round-1.csv")
               if r["result"] in ("win", "bye")}
    assert pair(site)[0] == 0
    semis = rows_of(site.root / EV / "round-2.csv")
    assert [(r["table"], r["player"]) for r in semis] == [
        ("1", winners["1"]), ("1", winners["4"]), ("2", winners["2"]), ("2", winners["3"])]
    play(site.root / EV / "round-2.csv", first_listed)
    assert pair(site)[0] == 0
    play(site.root / EV / "round-3.csv", first_listed)
    assert "the event is over" in pair(site)[2]
    assert main(["build", "--source", str(site.root), "--out", str(site.out)]) == 0
    standings = site.json(f"events/{SLUG}/standings.json")["standings"]
    assert [(r["rank"], r["finish"]) for r in standings] == [
        (1, "Champion"), (2, "Finalist"), (3, "Semi-finalist"), (3, "Semi-finalist"),
        (5, "Quarter-finalist"), (5, "Quarter-finalist")]
    assert standings[0]["player"] == winners["1"]


def test_a_reader_that_goes_away_is_no_error(site):
    """`site-builder pair … | head -1`: the reader closes the pipe; nothing is printed about it."""
    import os
    import subprocess
    import sys
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations([f"P{k}" for k in range(40)])})
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    done = subprocess.run([sys.executable, "-m", "site_builder", "pair", EV, "--dry-run"],
                          cwd=site.root, stdout=write, stderr=subprocess.PIPE, text=True)
    os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def test_nobody_left_for_the_final_is_refused(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=1, cut=4), {},
               **{"players.csv": registrations(["Ann", "Bob", "Cy", "Di"])})
    for number in (1, 2):
        assert pair(site)[0] == 0
        play(site.root / EV / f"round-{number}.csv", first_listed)
    finalists = [r["player"] for r in rows_of(site.root / EV / "round-2.csv") if r["result"] == "win"]
    code, out, err = pair(site, "--drop", finalists[0], "--drop", finalists[1])
    assert code == 1 and "Traceback" not in err
    assert err.splitlines() == [f"{EV}/round-2.csv: nobody is left to play round 3",
                                "Nothing was written."]


def test_a_walk_in_event_can_be_paired_from_add_alone(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {})
    code, out, err = pair(site, "--add", "Ann", "--add", "Bob")
    assert code == 0, err
    assert sorted(r["player"] for r in rows_of(site.root / EV / "round-1.csv")) == ["Ann", "Bob"]


def test_a_drop_is_recorded_in_drops_csv_and_the_event_then_checks_clean(site, pair):
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(names)})
    drops = site.root / EV / "drops.csv"
    assert pair(site, "--drop", "Fay")[0] == 0  # round 1: Fay never played, no drop to record
    assert not drops.exists()
    play(site.root / EV / "round-1.csv", first_listed)
    code, out, _ = pair(site, "--drop", "Di", "--dry-run")
    assert code == 0 and not drops.exists() and not (site.root / EV / "round-2.csv").exists()
    code, out, err = pair(site, "--drop", "Di")
    assert code == 0, err
    assert "Di" not in {r["player"] for r in rows_of(site.root / EV / "round-2.csv")}
    assert drops.read_text(encoding="utf-8") == "player,after_round\nDi,1\n"
    assert out.splitlines()[-1] == f"Recorded in {EV}/drops.csv: Di dropped after round 1."
    play(site.root / EV / "round-2.csv", first_listed)
    assert main(["check", "--source", str(site.root)]) == 0
    code, out, err = pair(site, "--drop", "Eve")  # appended to the file there is
    assert code == 0, err
    assert drops.read_text(encoding="utf-8") == "player,after_round\nDi,1\nEve,2\n"
    assert main(["check", "--source", str(site.root), "--strict"]) == 0


def test_a_recorded_name_keeps_its_quotes_and_a_file_without_a_last_line_break(site, pair):
    name = 'Smith, "Ann"'
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": 'player\n"Smith, ""Ann"""\nBob\nCy\nDi\n',
                  "drops.csv": "player,after_round"})
    assert pair(site)[0] == 0
    play(site.root / EV / "round-1.csv", first_listed)
    code, out, err = pair(site, "--drop", name)
    assert code == 0, err
    assert (site.root / EV / "drops.csv").read_text(encoding="utf-8") == (
        'player,after_round\n"Smith, ""Ann""",1\n')
    assert main(["check", "--source", str(site.root)]) == 0


def test_a_round_that_cannot_be_written_records_no_drop(site, pair, monkeypatch):
    from site_builder.organizer import pair as command
    from site_builder.core.problems import ConfigError

    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(["Ann", "Bob", "Cy", "Di", "Eve"])})
    assert pair(site)[0] == 0
    play(site.root / EV / "round-1.csv", first_listed)

    def taken(plan):
        raise ConfigError(f"{plan.path} exists already")
    monkeypatch.setattr(command, "write_round", taken)
    code, out, err = pair(site, "--drop", "Di")
    assert code != 0 and "exists already" in err
    assert not (site.root / EV / "drops.csv").exists()


def test_record_drop_keeps_the_files_own_form(tmp_path):
    """A spreadsheet's drops.csv: its line breaks and column order are kept, and a player listed
    already (they came back, and leave again) has their line rewritten, not a second one."""
    from site_builder.league.drops import record_drop
    path = tmp_path / "drops.csv"
    path.write_bytes(b"After_Round,Player\r\n1,Ann\r\n2,Bob\r\n")
    record_drop(tmp_path, "Ann", 3, line=2)
    record_drop(tmp_path, "Cy", 3)
    assert path.read_bytes() == b"After_Round,Player\r\n3,Ann\r\n2,Bob\r\n3,Cy\r\n"


def test_round_1_says_the_structure_the_event_will_have(site, pair):
    """Issue 34, point 3: before round 1 is played the organizer sees what the event will be.
    A Basic event of 10 registered players (the Basic table: 9 to 16 players, 4 Swiss rounds,
    no cut) says so under round 1's tables; round 2 does not say it again."""
    names = [f"Player {c}" for c in "ABCDEFGHIJ"]
    site.event(SLUG, conquest_event(structure="basic"), {},
               **{"players.csv": registrations(names)})
    code, out, err = pair(site)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-2] == "  Structure: Basic — 10 registered players: 4 Swiss rounds, no cut"
    assert lines[-1].startswith(f"Wrote {EV}/round-1.csv: 5 tables.")
    play(site.root / EV / "round-1.csv", first_listed)
    code, out, err = pair(site)
    assert code == 0, err
    assert "Structure:" not in out
