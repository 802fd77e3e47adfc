"""Organizers' slips, caught as warnings at path:line (`check --strict` makes them errors): a
name that first plays after round 1, a name one typo from another player's, `game` in capitals;
and a date in quotes, an error that shows the TOML date form."""

from __future__ import annotations

from conftest import conquest_event

EV = "data/events/2024-05-18-cup"
TOML = conquest_event("Cup", structure="custom", swiss_rounds=3, cut=0)
ROUND_1 = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n2,Chen Wei,win\n2,Dara Khan,loss\n"
ROUND_2 = "table,player,result\n1,Alice Moreau,win\n1,Chen Wei,loss\n2,Bruno Costa,win\n2,Dara Khan,loss\n"


def rounds(third: str) -> dict[int, str]:
    return {1: ROUND_1, 2: ROUND_2, 3: "table,player,result\n" + third}


def checked(site, run_cli, *extra: str) -> tuple[int, list[str]]:
    result = run_cli("check", "--source", site.root, *extra)
    return result.code, result.lines


def test_a_misspelled_name_in_round_3_asks_did_you_mean(site, run_cli):
    site.event("2024-05-18-cup", TOML, rounds(
        "1,Alce Moreau,win\n1,Dara Khan,loss\n2,Bruno Costa,win\n2,Chen Wei,loss\n"))
    code, lines = checked(site, run_cli)
    assert code == 0
    slips = [line for line in lines if "Alce" in line]
    assert slips == [
        f'{EV}/round-3.csv:2: warning: "Alce Moreau" first plays in round 3, and is very close '
        'to "Alice Moreau" (round 1): did you mean "Alice Moreau"? If they are two people, list '
        "both in data/players.csv."]
    code, lines = checked(site, run_cli, "--strict")
    assert code == 1 and slips[0] in lines and lines[-1].endswith("(--strict makes them errors).")


def test_two_letters_swapped_are_one_typo(site, run_cli):
    site.event("2024-05-18-cup", TOML, rounds(
        "1,Alcie Moreau,win\n1,Dara Khan,loss\n2,Bruno Costa,win\n2,Chen Wei,loss\n"))
    _, lines = checked(site, run_cli)
    assert 'did you mean "Alice Moreau"?' in lines[0]


def test_a_late_arrival_is_a_warning_unless_registered(site, run_cli):
    third = ("1,Alice Moreau,win\n1,Dara Khan,loss\n2,Bruno Costa,win\n2,Chen Wei,loss\n"
             ",Elena Petrova,bye\n")
    site.event("2024-05-18-cup", TOML, rounds(third))
    _, lines = checked(site, run_cli)
    # (round 3 also draws the seed's pairing warning: Alice, who has played Bruno and Chen,
    # meets Dara, three points groups down)
    assert [line for line in lines if "first plays" in line] == [
        f"{EV}/round-3.csv:6: warning: Elena Petrova first plays in round 3, not in the rounds "
        "before: a late arrival (list them in the event's players.csv to say so), or a typo of "
        "another player's name?"]
    site.write({f"{EV}/players.csv": "player\nAlice Moreau\nBruno Costa\nChen Wei\nDara Khan\n"
                                     "Elena Petrova\n"})
    assert [line for line in checked(site, run_cli)[1] if "first plays" in line] == []


def test_a_name_one_typo_from_data_players_csv_is_a_warning(site, run_cli):
    site.write({"data/players.csv": "id,name,aliases\nalice,Alice Moreau,\n"
                                    "robert-mills,Robert Mills,Rob Mills\n"})
    first = ROUND_1.replace("Dara Khan", "Robert Mils")
    site.event("2024-05-18-cup", conquest_event("Cup", structure="custom", swiss_rounds=1,
                                                cut=0), {1: first})
    _, lines = checked(site, run_cli)
    assert lines[0] == (f'{EV}/round-1.csv:5: warning: "Robert Mils" is very close to "Robert '
                        'Mills" (data/players.csv): did you mean "Robert Mills"? If they are two '
                        "people, list both in data/players.csv.")


def test_close_names_the_organizer_lists_as_two_people_and_short_names_pass(site, run_cli):
    site.write({"data/players.csv": "id,name,aliases\nmaria-lopez,Maria Lopez,\n"
                                    "marta-lopez,Marta Lopez,\n"})
    first = ("table,player,result\n1,Maria Lopez,win\n1,Marta Lopez,loss\n"
             "2,Ann Li,win\n2,Anh Li,loss\n")
    site.event("2024-05-18-cup", conquest_event("Cup", structure="custom", swiss_rounds=1,
                                                cut=0), {1: first})
    assert checked(site, run_cli)[1] == ["Checked 1 event: no problems."]


def test_game_in_capitals_is_read_and_said(site, run_cli):
    site.event("2024-05-18-cup", TOML.replace('game = "conquest"', 'game = "Conquest"'),
               {1: ROUND_1})
    code, lines = checked(site, run_cli)
    assert code == 0
    assert lines[0] == (f'{EV}/event.toml:3: warning: game = "Conquest" is read as game = '
                        '"conquest": game names are written in lowercase')
    assert site.build() == 0


def test_a_date_in_quotes_is_an_error_that_shows_the_date_form(site, run_cli):
    site.event("2024-05-18-cup", TOML.replace("date = 2024-05-18", 'date = "2024-05-18"'),
               {1: ROUND_1})
    code, lines = checked(site, run_cli)
    assert code == 1
    assert lines[0] == (f'{EV}/event.toml:2: date = "2024-05-18" is text in quotes: write the '
                        "date without quotes, as TOML dates are written: date = 2024-05-18")
