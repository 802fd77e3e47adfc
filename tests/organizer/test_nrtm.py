"""NRTM in and out (issue 35, point 4): `site-builder import` makes an event folder of a
declared game from an NRTM JSON file as Cobra exports it, with a report of what it could not
carry; every two-player Swiss event's twins include `nrtm.json`. Round trip: import, build,
export, compare.

The file below is shaped as Cobra's exporter writes a double-sided Swiss event
(Project-NISEI/cobra app/services/nrtm_json.rb; byes as a seat with "id": null, the bye in
player1 or player2; SoS as a string, as a 2018 Cobra export has it). Its results are Cobra's
own "three person tourney example" (spec/services/sos_calculator_spec.rb): laurie 12 points,
SoS 1.5, ESoS 5.25; dan 9, 1.5, 5.25; johno 3, 5.25, 1.5."""

from __future__ import annotations

import json

from conftest import write_files

COBRA = {
    "name": 'Store "Champs", Leeds', "date": "2026-10-03", "cutToTop": 0,
    "preliminaryRounds": 2, "tournamentOrganiser": {"nrdbId": 1, "nrdbUsername": "to"},
    "players": [
        {"id": 1001, "name": "laurie", "rank": 1, "corpIdentity": "Haas-Bioroid: Precision Design",
         "runnerIdentity": "Zahya Sadeghi: Versatile Smuggler", "matchPoints": 12,
         "strengthOfSchedule": "1.5", "extendedStrengthOfSchedule": 5.25},
        {"id": 1002, "name": "dan", "rank": 2, "corpIdentity": "Jinteki: Personal Evolution",
         "runnerIdentity": "Rielle \"Kit\" Peddler: Transhuman", "matchPoints": 9,
         "strengthOfSchedule": 1.5, "extendedStrengthOfSchedule": 5.25},
        {"id": 1003, "name": "johno", "rank": 3, "corpIdentity": "NBN: Reality Plus",
         "runnerIdentity": None, "matchPoints": 3, "strengthOfSchedule": 5.25,
         "extendedStrengthOfSchedule": 1.5, "pronouns": "he/him"}],
    "eliminationPlayers": [],
    "rounds": [
        [{"table": 1, "player1": {"id": 1002, "runnerScore": 3, "corpScore": 0, "combinedScore": 3},
          "player2": {"id": 1003, "runnerScore": 0, "corpScore": 3, "combinedScore": 3},
          "intentionalDraw": False, "twoForOne": False, "eliminationGame": False},
         {"table": 2, "player1": {"id": None, "runnerScore": 0, "corpScore": 0, "combinedScore": 0},
          "player2": {"id": 1001, "runnerScore": 3, "corpScore": 3, "combinedScore": 6},
          "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}],
        [{"table": 1, "player1": {"id": 1001, "runnerScore": 3, "corpScore": 3, "combinedScore": 6},
          "player2": {"id": 1003, "runnerScore": 0, "corpScore": 0, "combinedScore": 0},
          "intentionalDraw": False, "twoForOne": False, "eliminationGame": False},
         {"table": 2, "player1": {"id": 1002, "runnerScore": 3, "corpScore": 3, "combinedScore": 6},
          "player2": {"id": None, "runnerScore": 0, "corpScore": 0, "combinedScore": 0},
          "intentionalDraw": False, "twoForOne": False, "eliminationGame": False}]],
    "uploadedFrom": "Cobra", "links": [{"rel": "schemaderivedfrom", "href": "x"}]}
SLUG = "2026-10-03-store-champs-leeds"


def imported(site, run_cli, data=COBRA):
    write_files(site.root, {"site.toml": 'title = "L"\n', "cobra.json": json.dumps(data)})
    return run_cli("import", "cobra.json", "--source", site.root)


def test_import_writes_the_event_and_says_what_it_left(site, run_cli):
    result = imported(site, run_cli)
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        f"Imported cobra.json into data/events/{SLUG}/ as a netrunner event:",
        "  carried: 3 players, with their identities in players.csv",
        "  carried: 2 Swiss rounds: every table's players and points, and the byes",
        "  not carried: 'tournamentOrganiser' (no place for it in an event folder)",
        "  not carried: 'links' (no place for it in an event folder)",
        "  not carried: 'uploadedFrom' (no place for it in an event folder)",
        "  not carried: the players' pronouns (no place for them in players.csv)",
        "Check it: site-builder check --source ."]
    folder = site.root / "data/events" / SLUG
    assert (folder / "round-1.csv").read_text() == (
        "table,player,points,result\n1,dan,3,\n1,johno,3,\n,laurie,,bye\n")
    assert 'name = "Store \\"Champs\\", Leeds"' in (folder / "event.toml").read_text()
    assert run_cli("check", "--source", site.root).code == 0


def test_round_trip_import_build_export(site, run_cli):
    assert imported(site, run_cli).code == 0
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    exported = json.loads((site.out / "events" / SLUG / "nrtm.json").read_text())
    assert (exported["name"], exported["date"], exported["cutToTop"],
            exported["preliminaryRounds"]) == (COBRA["name"], "2026-10-03", 0, 2)
    ours = {p["name"]: p for p in exported["players"]}
    for player in COBRA["players"]:
        back = ours[player["name"]]
        assert back["rank"] == player["rank"]
        assert back["matchPoints"] == player["matchPoints"]
        assert back["strengthOfSchedule"] == float(player["strengthOfSchedule"])
        assert back["extendedStrengthOfSchedule"] == player["extendedStrengthOfSchedule"]
        assert (back["corpIdentity"], back["runnerIdentity"]) == (player["corpIdentity"],
                                                                  player["runnerIdentity"])
    # AlwaysBeRunning's importer reads players (non-empty; corpIdentity and runnerIdentity
    # keys on each; name, rank, id) and cutToTop (madarasz/always-be-running,
    # TournamentsController::processNRTMjson).
    assert exported["players"] and all({"id", "name", "rank", "corpIdentity", "runnerIdentity"}
                                       <= set(p) for p in exported["players"])
    name_of = {p["id"]: p["name"] for p in COBRA["players"]}
    ours_of = {p["id"]: p["name"] for p in exported["players"]}

    def scores(rounds, names):
        return [sorted((names.get(seat["id"]), seat["combinedScore"]) for table in tables
                       for seat in (table["player1"], table["player2"]) if seat["id"])
                for tables in rounds]
    assert scores(exported["rounds"], ours_of) == scores(COBRA["rounds"], name_of)


def test_every_two_player_swiss_event_has_an_export_and_others_do_not(tmp_path, run_cli):
    from conftest import build_demo
    _, out = build_demo(tmp_path)
    events = sorted(p.parent.name for p in (out / "events").glob("*/nrtm.json"))
    assert events == ["2025-10-18-autumn-store-championship", "2026-03-14-spring-store-championship",
                      "2026-06-13-northern-regional-championship",
                      "2026-07-11-kingdom-summer-houses", "2026-11-21-november-store-night"]
    regional = json.loads((out / "events/2026-06-13-northern-regional-championship/nrtm.json")
                          .read_text())
    standings = json.loads((out / "events/2026-06-13-northern-regional-championship/"
                                  "standings.json").read_text())
    assert regional["cutToTop"] == 8
    assert [p["name"] for p in regional["eliminationPlayers"]] == [
        r["player"] for r in standings["standings"][:8]]


def test_a_bad_file_gets_a_message_and_nothing_is_written(site, run_cli):
    broken = dict(COBRA, rounds=[[{"table": 1, "player1": {"id": 1001, "combinedScore": 6},
                                   "player2": {"id": 77, "combinedScore": 0}}]])
    result = imported(site, run_cli, broken)
    assert result.code == 1
    assert result.err.splitlines()[0] == ("cobra.json: rounds[0][0].player2.id is 77: no player "
                                          "has that id: not imported")
    assert not (site.root / "data/events" / SLUG).exists()
    write_files(site.root, {"cobra.json": "{not json"})
    result = run_cli("import", "cobra.json", "--source", site.root)
    assert result.err.splitlines()[0].startswith("cobra.json:1: is not JSON: ")


def test_an_existing_event_is_never_overwritten(site, run_cli):
    assert imported(site, run_cli).code == 0
    again = run_cli("import", "cobra.json", "--source", site.root)
    assert again.code == 1
    assert f"data/events/{SLUG}: exists already" in again.err


def test_what_the_file_holds_never_leaves_the_league_nor_breaks_a_round_file(site, run_cli):
    """The folder's name is made of the date, a round file's rows of the scores: a hostile
    file can do neither (a red team's findings)."""
    write_files(site.root, {"site.toml": 'title = "L"\n'})
    cases = {
        "date": (dict(COBRA, date="../../../x"),
                 'date is "../../../x": expected a date "YYYY-MM-DD": not imported'),
        "score": (dict(COBRA, rounds=[[dict(COBRA["rounds"][0][0], player1={
            "id": 1002, "combinedScore": "6\n1,Mallory,6,"})]]),
                  'rounds[0][0].player1.combinedScore is "6\\n1,Mallory,6,": expected the '
                  "points, a number from 0 to 1000: not imported"),
        "seat": (dict(COBRA, rounds=[[dict(COBRA["rounds"][0][0], player1={"id": [1]})]]),
                 "rounds[0][0].player1.id is [1]: expected a player's id, or null for a bye: "
                 "not imported"),
    }
    for name, (data, message) in cases.items():
        write_files(site.root, {f"{name}.json": json.dumps(data)})
        result = run_cli("import", f"{name}.json", "--source", site.root)
        assert (result.code, result.err.splitlines()[0]) == (1, f"{name}.json: {message}")
    assert sorted(p.name for p in site.root.parent.iterdir()) == ["site"]
    assert not any((site.root / "data/events").iterdir())


def test_an_event_that_would_not_check_is_not_imported(site, run_cli):
    """Ann and ANN would be one person (data/players.csv ids): `check` would refuse the event,
    so import writes nothing and says why."""
    data = json.loads(json.dumps(COBRA))
    data["players"][1]["name"] = "LAURIE"
    result = imported(site, run_cli, data)
    assert result.code == 1
    assert "'LAURIE' and 'laurie' stand for the same person" in result.err
    assert result.err.splitlines()[-2] == (f"data/events/{SLUG}: not imported: the event would "
                                           "not check")
    assert not (site.root / "data/events" / SLUG).exists()


def test_requested_byes_are_in_the_export_and_points_add_up(site, run_cli):
    site.event("2026-11-14-club", 'name = "Club"\ndate = 2026-11-14\ngame = "chess"\n'
                                  "swiss_rounds = 2\n",
               {1: "table,player,result\n1,Ann,½\n1,Bob,½\n3,Cat,1\n3,Dan,0\n,Eve,half-point-bye\n",
                2: "table,player,result\n1,Ann,1\n1,Eve,0\n2,Cat,½\n2,Bob,½\n,Dan,bye\n"})
    assert site.build() == 0
    exported = site.json("events/2026-11-14-club/nrtm.json")
    name = {p["id"]: p["name"] for p in exported["players"]}
    earned = {}
    for tables in exported["rounds"]:
        numbers = [t["table"] for t in tables]
        assert len(numbers) == len(set(numbers))  # a bye's table is none of the real ones
        for table in tables:
            for seat in (table["player1"], table["player2"]):
                if seat["id"]:
                    earned[name[seat["id"]]] = earned.get(name[seat["id"]], 0) + seat["combinedScore"]
    assert earned == {p["name"]: p["matchPoints"] for p in exported["players"]}
    assert earned["Eve"] == 0.5 and earned["Dan"] == 1
