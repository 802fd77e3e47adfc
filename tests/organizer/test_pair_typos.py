"""A name one slip from another player's is an error at `pair` time (issue 32, point 6): `build`
only warns of it, but `pair` would seat "Priya Niar" as a new player beside "Priya Nair", and the
published site would give the typo a page of its own."""

from __future__ import annotations

from conftest import conquest_event
from site_builder.core.problems import EXIT_ERRORS

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"
ROUND_1 = ("table,player,result\n1,Priya Nair,win\n1,Bram Oak,loss\n"
           "2,Cleo Stone,win\n2,Dan Moss,loss\n")
ROUND_2_TYPO = ("table,player,result\n1,Priya Niar,win\n1,Cleo Stone,loss\n"
                "2,Bram Oak,win\n2,Dan Moss,loss\n")
SWISS = conquest_event(structure="custom", swiss_rounds=3, cut=0)


def test_a_typo_in_a_round_file_stops_pair_with_did_you_mean(site, pair, capsys):
    site.event(SLUG, SWISS, {1: ROUND_1, 2: ROUND_2_TYPO})
    code, out, err = pair(site)
    assert code == EXIT_ERRORS, err
    lines = err.splitlines()
    assert lines[0] == (f"{EV}: round 3 is not paired: a name below is likely a typo of another "
                        "player's (fix it in its round file, or list both people in "
                        "data/players.csv)")
    assert lines[1] == (f'{EV}/round-2.csv:2: "Priya Niar" first plays in round 2, and is very '
                        'close to "Priya Nair" (round 1): did you mean "Priya Nair"? If they are '
                        "two people, list both in data/players.csv.")
    assert not (site.root / EV / "round-3.csv").exists()
    # the build still takes it, with the same words as a warning
    assert site.build() == 0
    assert f'{EV}/round-2.csv:2: warning: "Priya Niar" first plays in round 2' in capsys.readouterr().err


def test_two_people_listed_in_players_csv_are_paired(site, pair):
    site.event(SLUG, SWISS, {1: ROUND_1, 2: ROUND_2_TYPO})
    site.write({"data/players.csv": "id,name\npriya-nair,Priya Nair\npriya-niar,Priya Niar\n"})
    code, out, err = pair(site)
    assert code == 0, err
    assert "Priya Niar" in (site.root / EV / "round-3.csv").read_text()


def test_the_typo_fixed_pairs_the_round(site, pair):
    site.event(SLUG, SWISS, {1: ROUND_1, 2: ROUND_2_TYPO.replace("Priya Niar", "Priya Nair")})
    code, out, err = pair(site)
    assert code == 0, err
    assert (site.root / EV / "round-3.csv").exists()


def test_an_added_name_one_slip_from_a_player_of_the_event_is_refused(site, pair):
    site.event(SLUG, SWISS, {1: ROUND_1})
    code, out, err = pair(site, "--add", "Cleo Stnoe")
    assert code == EXIT_ERRORS
    assert ("--add 'Cleo Stnoe': very close to Cleo Stone (the event): did you mean --add "
            "'Cleo Stone'? If they are two people, list both in data/players.csv") in err
    assert not (site.root / EV / "round-2.csv").exists()


def test_an_added_name_one_slip_from_the_league_directory_is_refused(site, pair):
    site.event(SLUG, SWISS, {1: ROUND_1})
    site.write({"data/players.csv": "id,name\neve-long,Eve Long\n"})
    code, out, err = pair(site, "--add", "Eve Lnog")
    assert code == EXIT_ERRORS
    assert "--add 'Eve Lnog': very close to Eve Long (data/players.csv): did you mean --add " \
           "'Eve Long'?" in err
    code, out, err = pair(site, "--add", "Eve Long")  # as the directory writes them: welcome
    assert code == 0, err
    assert "Eve Long" in (site.root / EV / "round-2.csv").read_text()
