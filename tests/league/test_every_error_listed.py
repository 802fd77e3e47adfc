"""One problem never hides another: each event's checks depend on that event's problems only, so
one run lists every error of the site (issue 18, point 2)."""

from __future__ import annotations

from conftest import conquest_event

SPELLFIRE_EV = "data/events/2026-01-10-sf"
INWO_EV = "data/events/2024-05-18-inwo"
ARMAGEDDON_EV = "data/events/2024-06-02-arm"
CONQUEST_EV = "data/events/2024-05-18-cup"


def _spellfire_bracket(table: int, players: list[str], winners: list[str]) -> str:
    return "".join(f"{table},{game},{p},{6 if p == w else 2},{'win' if p == w else ''}\n"
                   for game, w in enumerate(winners, start=1) for p in players)


def _armageddon_match(table: int, winner: str, loser: str) -> str:
    return "".join(f"{table},{game},{winner},win,7\n{table},{game},{loser},loss,3\n"
                   for game in (1, 2))


def _site_with_an_error_in_each_event(site) -> None:
    site.write({
        # Site-wide: a bad id in data/players.csv.
        "data/players.csv": "id,name,aliases\nNot A Slug,Ann,\n",
        # Another event's plain row error: a result word Conquest does not know.
        f"{CONQUEST_EV}/event.toml": conquest_event(),
        f"{CONQUEST_EV}/round-1.csv": "table,player,result\n1,Ada,won\n1,Bram,loss\n",
        # SPELLFIRE: B lost bracket 1 of round 1 but plays round 2.
        f"{SPELLFIRE_EV}/event.toml": 'name = "Winter Open"\ndate = 2026-01-10\ngame = "spellfire"\n',
        f"{SPELLFIRE_EV}/round-1.csv": "table,game,player,realms,result\n"
        + _spellfire_bracket(1, ["A", "B", "C"], ["A", "A"])
        + _spellfire_bracket(2, ["D", "E", "F"], ["E", "E"])
        + _spellfire_bracket(3, ["G", "H", "I"], ["H", "H"]),
        f"{SPELLFIRE_EV}/round-2.csv": "table,game,player,realms,result\n"
        + _spellfire_bracket(1, ["A", "E", "B"], ["A", "A"]),
        # INWO multiplayer: Bo was second at table 1 of round 1 and plays round 2.
        f"{INWO_EV}/event.toml": 'name = "Conspiracy Night"\ndate = 2024-05-18\ngame = "inwo"\n'
                                 'format = "multiplayer"\n',
        f"{INWO_EV}/round-1.csv": "table,player,result,groups,special_pct,advanced\n"
        "1,Ann,win,11,,\n1,Bo,,6,,\n1,Cy,,5,,\n2,Di,win,11,,\n2,Eve,,3,,\n3,Fay,win,11,,\n3,Gus,,2,,\n",
        f"{INWO_EV}/round-2.csv": "table,player,result,groups,special_pct,advanced\n"
        "1,Ann,win,11,,\n1,Bo,,6,,\n1,Di,,5,,\n2,Fay,win,11,,\n2,Gus,,5,,\n",
        # Armageddon double elimination: D is out after two match losses and plays round 3.
        f"{ARMAGEDDON_EV}/event.toml": 'name = "Armageddon test"\ndate = 2024-06-02\n'
                                       'game = "heresy"\nformat = "armageddon"\n'
                                       'elimination = "double"\n',
        f"{ARMAGEDDON_EV}/round-1.csv": "table,game,player,result,tau\n"
        + _armageddon_match(1, "A", "B") + _armageddon_match(2, "C", "D"),
        f"{ARMAGEDDON_EV}/round-2.csv": "table,game,player,result,tau\n"
        + _armageddon_match(1, "A", "C") + _armageddon_match(2, "B", "D"),
        f"{ARMAGEDDON_EV}/round-3.csv": "table,game,player,result,tau\n"
        + _armageddon_match(1, "C", "D"),
    })


EXPECTED = [
    "data/players.csv:2: id 'Not A Slug' is not URL-safe",
    f"{CONQUEST_EV}/round-1.csv:2: ",
    f"{SPELLFIRE_EV}/round-2.csv:4: B did not win a bracket in round 1 and cannot play round 2",
    f"{INWO_EV}/round-2.csv:3: Bo plays round 2 but did not advance from table 1 of round 1",
    f"{ARMAGEDDON_EV}/round-3.csv:2: D went out in round 2 (second match loss) and cannot play round 3",
]


def test_a_site_wide_error_and_another_events_error_hide_no_events_checks(site, run_cli):
    _site_with_an_error_in_each_event(site)
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    for expected in EXPECTED:
        assert any(line.startswith(expected) for line in result.lines), (expected, result.err)


def test_build_lists_the_same_errors_as_check(site, run_cli):
    _site_with_an_error_in_each_event(site)
    checked = run_cli("check", "--source", site.root)
    built = run_cli("build", "--source", site.root, "--out", site.out)
    assert built.code == 1 and not site.out.exists()
    errors = [line for line in checked.lines if ": warning: " not in line][:-1]
    assert errors and errors == [line for line in built.lines if ": warning: " not in line][:-1]
