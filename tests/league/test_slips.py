"""Organizers' slips, caught as warnings at path:line (`check --strict` makes them errors): a
name that first plays after round 1, a name one typo from another player's, `game` in capitals;
and a date in quotes, an error that shows the TOML date form."""

from __future__ import annotations

import pytest

from conftest import conquest_event

EV = "data/events/2024-05-18-cup"
TOML = conquest_event("Cup", structure="custom", swiss_rounds=3, cut=0)
ROUND_1 = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n2,Chen Wei,win\n2,Dara Khan,loss\n"
ROUND_2 = "table,player,result\n1,Alice Moreau,win\n1,Chen Wei,loss\n2,Bruno Costa,win\n2,Dara Khan,loss\n"


def rounds(third: str) -> dict[int, str]:
    return {1: ROUND_1, 2: ROUND_2, 3: "table,player,result\n" + third}


def checked(site, run_cli, *extra: str) -> tuple[int, list[str]]:
    result = run_cli("check", "--source", site.root, *extra)
    return result.code, result.lines + result.out.splitlines()  # problems, then the summary


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


# ---------------------------------------------------------------- a player missing from a round

THREE_WITHOUT_DARA = "table,player,result\n1,Bruno Costa,win\n1,Chen Wei,loss\n,Alice Moreau,bye\n"
MISSING_DARA = (f"{EV}/round-3.csv:1: warning: Dara Khan played round 2 but has no row in round 3, "
                "and drops.csv does not say they dropped: add their row if they played, or record "
                'the drop (a line "Dara Khan,2" in the event\'s drops.csv; site-builder pair --drop '
                "does this)")


def missing(lines: list[str]) -> list[str]:
    return [line for line in lines if "has no row" in line]


IN_PROGRESS = conquest_event("Cup", structure="custom", swiss_rounds=4, cut=0)
"""Four Swiss rounds planned: after three, the event is still being played."""


def test_a_player_missing_from_a_swiss_round_is_a_warning_unless_drops_csv_says(site, run_cli):
    site.event("2024-05-18-cup", IN_PROGRESS, {1: ROUND_1, 2: ROUND_2, 3: THREE_WITHOUT_DARA})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == [MISSING_DARA]
    code, lines = checked(site, run_cli, "--strict")
    assert code == 1 and MISSING_DARA in lines
    site.write({f"{EV}/drops.csv": "player,after_round\nDara Khan,2\n"})
    code, lines = checked(site, run_cli)
    assert code == 0 and not [line for line in lines if "Dara" in line or "drops.csv:" in line]


def test_a_player_missing_from_the_last_swiss_round_is_asked_about_like_any_other(site, run_cli):
    """Three Swiss rounds of three: Dara's row forgotten in round 3 would drop them and end the
    event in silence (issue 32): warned like a missing row of any round, and scored as the data
    contract reads it, a drop. status = "final" says the event is over: quiet, as an archive
    kept before drops.csv existed wants."""
    site.event("2024-05-18-cup", TOML, {1: ROUND_1, 2: ROUND_2, 3: THREE_WITHOUT_DARA})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == [
        MISSING_DARA + '; for an event long over, status = "final" in its event.toml says so']
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    dara = [row for row in site.json("events/2024-05-18-cup/standings.json")["standings"]
            if row["player"] == "Dara Khan"]
    assert dara[0]["dropped"] is True
    site.write({f"{EV}/event.toml": TOML + 'status = "final"\n'})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == []


def test_a_finished_event_is_not_asked_about_rounds_before_its_last(site, run_cli):
    """Dara left after round 1 of a finished event kept without drops.csv: read as a drop,
    quietly (the rounds before the last were asked about while they were played)."""
    two = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n,Chen Wei,bye\n"
    three = "table,player,result\n1,Alice Moreau,win\n1,Chen Wei,loss\n,Bruno Costa,bye\n"
    site.event("2024-05-18-cup", TOML, {1: ROUND_1, 2: two, 3: three})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == []


def test_one_warning_per_player_and_not_for_one_who_comes_back(site, run_cli):
    """Dara leaves after round 1 (one warning, at round 2, not one per later round); Chen misses
    round 2 and plays round 3 (an unpaired loss for round 2, which the page states: no drop)."""
    toml = conquest_event("Cup", structure="custom", swiss_rounds=5, cut=0)
    two = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n"
    three = "table,player,result\n1,Alice Moreau,win\n1,Chen Wei,loss\n,Bruno Costa,bye\n"
    four = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n,Chen Wei,bye\n"
    site.event("2024-05-18-cup", toml, {1: ROUND_1, 2: two, 3: three, 4: four})
    assert missing(checked(site, run_cli)[1]) == [
        f"{EV}/round-2.csv:1: warning: Dara Khan played round 1 but has no row in round 2 or any "
        "later round, and drops.csv does not say they dropped: add their row if they played, or "
        "record the drop (a line \"Dara Khan,1\" in the event's drops.csv; site-builder pair "
        "--drop does this)"]


def test_a_typo_for_a_missing_name_is_asked_about_once(site, run_cli):
    site.event("2024-05-18-cup", TOML, rounds(
        "1,Alce Moreau,win\n1,Dara Khan,loss\n2,Bruno Costa,win\n2,Chen Wei,loss\n"))
    _, lines = checked(site, run_cli)
    assert missing(lines) == [] and any('did you mean "Alice Moreau"?' in line for line in lines)


def test_no_warning_for_elimination_rounds(site, run_cli):
    toml = conquest_event("Cup", structure="custom", swiss_rounds=2, cut=4)
    semis = "table,player,result\n1,Alice Moreau,win\n1,Dara Khan,loss\n2,Bruno Costa,win\n2,Chen Wei,loss\n"
    final = "table,player,result\n1,Alice Moreau,win\n1,Bruno Costa,loss\n"
    site.event("2024-05-18-cup", toml, {1: ROUND_1, 2: ROUND_2, 3: semis, 4: final})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == []


def test_no_warning_for_a_spellfire_round(site, run_cli):
    def bracket(table, players, winner):
        return "".join(f"{table},{game},{p},{6 if p == winner else 2},{'win' if p == winner else ''}\n"
                       for game in (1, 2) for p in players)
    header = "table,game,player,realms,result\n"
    site.event("2024-05-18-cup", 'name = "Open"\ndate = 2024-05-18\ngame = "spellfire"\n', {
        1: header + bracket(1, ["A1", "B1", "C1"], "A1") + bracket(2, ["D1", "E1", "F1"], "D1"),
        2: header + bracket(1, ["A1", "D1", "B1"], "A1")})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == []


def test_a_heresy_reascension_player_missing_is_a_warning(site, run_cli):
    toml = 'name = "Heresy"\ndate = 2024-05-18\ngame = "heresy"\nformat = "reascension"\n'
    header = "table,player,result,tau\n"
    site.event("2024-05-18-cup", toml, {
        1: header + "1,Ann,win,\n1,Bob,,5\n1,Cat,,11\n1,Dan,,0\n2,Eve,,4\n2,Fay,win,\n2,Gus,,7\n",
        2: header + "1,Ann,,3\n1,Fay,win,\n1,Gus,,8\n2,Bob,,6\n2,Eve,win,\n2,Cat,,1\n"})
    code, lines = checked(site, run_cli)
    assert code == 0 and missing(lines) == [
        f"{EV}/round-2.csv:1: warning: Dan played round 1 but has no row in round 2, and "
        "drops.csv does not say they dropped: add their row if they played, or record the drop "
        "(a line \"Dan,1\" in the event's drops.csv; site-builder pair --drop does this)"]
    assert checked(site, run_cli, "--strict")[0] == 1


def test_everyone_plays_by_game():
    from site_builder.core.model import Event
    from site_builder.rules import RULESETS
    from site_builder.rules.conquest.structure import ConquestOptions
    from site_builder.rules.heresy.options import HeresyOptions

    def event(options):
        return Event(None, "data/events/x", options)
    conquest = event(ConquestOptions("custom", 2, 4, None))
    assert [RULESETS["conquest"].everyone_plays(conquest, n) for n in (1, 2, 3, 4)] == [
        True, True, False, False]
    knockout = event(ConquestOptions("custom", 0, 8, None))
    assert not RULESETS["conquest"].everyone_plays(knockout, 1)
    assert RULESETS["kingdom"].everyone_plays(event(None), 7)
    assert RULESETS["heresy"].everyone_plays(event(HeresyOptions("revelations", 7, 11, None, "single")), 3)
    assert not RULESETS["heresy"].everyone_plays(event(HeresyOptions("armageddon", 7, 0, None, "single")), 2)
    assert not RULESETS["spellfire"].everyone_plays(event(None), 2)
    assert not RULESETS["inwo"].everyone_plays(event(None), 2)


# ---------------------------------------------------------------- drops.csv

@pytest.mark.parametrize("rows,code,expected", [
    (",2\n", 1, "drops.csv:2: the player cell is empty: expected the name of a player who left "
                "the event, as the round files write it"),
    ("Dara Kahn,2\n", 1, "drops.csv:2: Dara Kahn does not play in this event (did you mean 'Dara "
                         "Khan'?): drops.csv names players as the round files write them"),
    ("Dara Khan,two\n", 1, "drops.csv:2: after_round 'two' is not a round number: expected the "
                           "last round Dara Khan played, a whole number from 1 (Dara Khan last "
                           "plays round 2)"),
    ("Dara Khan,\n", 1, "drops.csv:2: after_round is empty: expected the last round Dara Khan "
                        "played, a whole number from 1 (Dara Khan last plays round 2)"),
    ("Dara Khan,4\n", 1, "drops.csv:2: after_round 4 is past the event's rounds (it has only 3 "
                         "rounds): expected the last round Dara Khan played (Dara Khan last plays "
                         "round 2)"),
    ("Dara Khan,2\nDara Khan,2\n", 1, "drops.csv:3: Dara Khan is listed twice (also on line 2): "
                                      "one line per player, with the last round they played"),
    ("Dara Khan,2\nChen Wei,1\n", 0, "drops.csv:3: warning: Chen Wei is listed as dropped after "
                                     "round 1, but plays round 2: remove the line if they came "
                                     "back (or write the last round they played, 3)"),
    ("Dara Khan,3\n", 0, "drops.csv:2: warning: Dara Khan is listed as dropped after round 3, but "
                         "their last round is 2: write 2, the last round they played"),
])
def test_each_bad_line_of_drops_csv(site, run_cli, rows, code, expected):
    site.event("2024-05-18-cup", TOML, {1: ROUND_1, 2: ROUND_2, 3: THREE_WITHOUT_DARA},
               **{"drops.csv": "player,after_round\n" + rows})
    found, lines = checked(site, run_cli)
    assert found == code
    assert [line for line in lines if "drops.csv:" in line] == [f"{EV}/{expected}"]
    if code == 0:  # a line that names the player, even wrongly, is the one warning about them
        assert missing(lines) == []
