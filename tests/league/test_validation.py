"""Every kind of bad input yields `path:line: message` naming the value and what was expected,
all problems of a run are listed, and a failed build leaves the previous site untouched."""

from __future__ import annotations

import hashlib

import pytest

from conftest import conquest_event, error_at

EV = "data/events/2024-05-18-test"
GOOD_ROUND = "table,player,result\n1,Ada,win\n1,Bram,loss\n"


def check(site, run_cli, files: dict[str, str | bytes]):
    if not (site.root / EV / "event.toml").exists():
        site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=3, cut=0)})
    site.write(files)
    return run_cli("check", "--source", site.root)


def run_check(site, run_cli, round_text: str, **more: str):
    files = {f"{EV}/round-1.csv": round_text, **more}
    result = check(site, run_cli, files)
    assert result.code == 1, result.err
    return result


@pytest.fixture
def checked(site, run_cli):
    def go(round_text: str, **more):
        result = run_check(site, run_cli, round_text, **more)
        result.site = site
        return result
    return go


def test_unknown_result_word(checked):
    r = checked("table,player,result\n1,Ada,wn\n1,Bram,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "result 'wn' is not a Conquest result: expected win (or w), modified-win (or mw, modified "
        "win), loss (or l) or bye, in capitals or not")


def test_player_twice_in_one_round(checked):
    r = checked("table,player,result\n1,Ada,win\n1,Bram,loss\n2,Ada,win\n2,Cleo,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:4") == (
        "Ada is in this round twice (also on line 2): a player plays one game per round")


def test_table_with_three_players(checked):
    r = checked("table,player,result\n1,Ada,win\n1,Bram,loss\n1,Cleo,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:4") == (
        "table 1 has 3 players (Ada, Bram, Cleo): a Conquest game is played by two")


def test_table_with_no_winner(checked):
    r = checked("table,player,result\n1,Ada,loss\n1,Bram,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "table 1 has no winner (Ada and Bram both lost): one of them needs win or modified-win")


def test_table_with_two_winners(checked):
    r = checked("table,player,result\n1,Ada,win\n1,Bram,mw\n")
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "table 1 has two winners (Ada and Bram): one player wins, the other gets a loss")


def test_bye_with_an_opponent(checked):
    r = checked("table,player,result\n1,Ada,bye\n1,Bram,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "Ada has a bye but Bram is at the same table 1: a bye has no opponent")


def test_win_without_an_opponent(checked):
    r = checked("table,player,result\n1,Ada,win\n,Bram,win\n")
    assert error_at(r, f"{EV}/round-1.csv:3").startswith("Bram has a win but no table")


def test_non_numeric_table(checked):
    r = checked("table,player,result\nA,Ada,win\nA,Bram,loss\n")
    assert error_at(r, f"{EV}/round-1.csv:2") == (
        "table 'A' is not a whole number from 1 (leave it empty for a bye)")


def test_missing_column(checked):
    r = checked("table,name,result\n1,Ada,win\n")
    assert error_at(r, f"{EV}/round-1.csv:1") == (
        "the header lacks column 'player': expected 'table,player,result', found 'table,name,result'")


def test_non_numeric_round_file_name(checked):
    r = checked(GOOD_ROUND, **{f"{EV}/round-two.csv": GOOD_ROUND})
    assert error_at(r, f"{EV}/round-two.csv:1") == (
        "the file name 'round-two.csv' has no round number: expected round-<n>.csv with n a "
        "number, e.g. round-2.csv")


def test_missing_round_between_two(checked):
    r = checked(GOOD_ROUND, **{f"{EV}/round-3.csv": GOOD_ROUND})
    assert error_at(r, f"{EV}/round-3.csv:1") == (
        "round 2 is missing: rounds are numbered from 1 without gaps, and this file comes after "
        "round-1.csv")


def test_empty_file(checked):
    r = checked("")
    assert error_at(r, f"{EV}/round-1.csv:1") == (
        "the file is empty: expected a header line 'table,player,result' and rows")


def test_file_that_is_not_utf8(checked):
    r = checked("table,player,result\n1,Ada,win\n".encode() + "1,Zoë,loss\n".encode("latin-1"))
    assert error_at(r, f"{EV}/round-1.csv:3") == (
        "is not UTF-8 text (byte 0xeb at column 5): save it as UTF-8 (in a spreadsheet: 'CSV UTF-8')")


def test_bom_and_case_insensitive_headers_are_accepted(site, run_cli):
    result = check(site, run_cli, {f"{EV}/round-1.csv": "\ufeff Table ,PLAYER,Result\n1, Ada ,WIN\n1,Bram,Loss\n"})
    assert result.code == 0, result.err


def test_slug_that_is_not_url_safe(site, run_cli):
    site.write({"data/events/My Event/event.toml": conquest_event(),
                "data/events/My Event/round-1.csv": GOOD_ROUND})
    r = run_cli("check", "--source", site.root)
    assert r.code == 1
    assert error_at(r, "data/events/My Event/event.toml:1") == (
        "the folder name 'My Event' is not a URL-safe slug: use lowercase letters, digits and "
        "'-' only, e.g. 'my-event'")


def test_missing_required_key(site, run_cli):
    site.write({f"{EV}/event.toml": 'name = "X"\ngame = "conquest"\n', f"{EV}/round-1.csv": GOOD_ROUND})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, f"{EV}/event.toml:1") == "missing required key 'date': expected e.g. date = 2024-05-18"


@pytest.mark.parametrize("line,message", [
    ('date = "May 5th"', "date = 'May 5th' is not a date: expected YYYY-MM-DD, e.g. date = 2024-05-18"),
    ("date = 2024-02-30", "is not valid TOML: invalid date or datetime at column 8"),
])
def test_bad_date(site, run_cli, line, message):
    site.write({f"{EV}/event.toml": f'name = "X"\n{line}\ngame = "conquest"\n', f"{EV}/round-1.csv": GOOD_ROUND})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, f"{EV}/event.toml:2") == message


def test_unknown_game_and_not_yet_supported_game(site, run_cli, monkeypatch):
    # Every game the data contract names is implemented now: a planned one is simulated.
    monkeypatch.setattr("site_builder.league.load.PLANNED_GAMES", ("go",))
    site.write({"data/events/a/event.toml": 'name = "A"\ndate = 2024-01-01\ngame = "backgammon"\n',
                "data/events/b/event.toml": 'name = "B"\ndate = 2024-01-01\ngame = "go"\n'})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, "data/events/a/event.toml:3") == (
        'game = "backgammon" is not a game: expected one of conquest, heresy, inwo, kingdom, '
        'spellfire, chess, magic, netrunner, pokemon, or a game declared in '
        'data/games/backgammon.toml (docs/games/declared.md)')
    assert error_at(r, "data/events/b/event.toml:3").startswith('game = "go" is not supported')


def test_custom_structure_needs_rounds_and_a_valid_cut(site, run_cli):
    site.write({f"{EV}/event.toml": 'name = "X"\ndate = 2024-01-01\ngame = "conquest"\n'
                                    'structure = "custom"\ncut = 6\n'})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, f"{EV}/event.toml:1") == ("missing required key 'swiss_rounds': expected "
                                                 "e.g. swiss_rounds = 5")
    assert error_at(r, f"{EV}/event.toml:5") == "cut = 6 is not a cut size: expected one of 0, 4, 8, 16, 32"


def test_round_beyond_the_structure(checked):
    r = checked(GOOD_ROUND, **{f"{EV}/round-{n}.csv": GOOD_ROUND for n in (2, 3, 4)})
    assert error_at(r, f"{EV}/round-4.csv:1") == (
        "round 4 is beyond this event's 3 rounds (Custom: 3 Swiss rounds, no cut): raise "
        "swiss_rounds or cut in event.toml if it ran longer")


def test_eliminated_player_cannot_play_again(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=1, cut=4),
                f"{EV}/round-1.csv": "table,player,result\n1,A,win\n1,B,loss\n2,C,win\n2,D,loss\n",
                f"{EV}/round-2.csv": "table,player,result\n1,A,win\n1,D,loss\n2,C,win\n2,B,loss\n",
                f"{EV}/round-3.csv": "table,player,result\n1,A,win\n1,B,loss\n"})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, f"{EV}/round-3.csv:3") == (
        "B is out of the elimination rounds (lost or absent in round 2) and cannot play round 3")


def test_two_spellings_of_one_person_in_one_event(site, run_cli):
    r = check(site, run_cli, {f"{EV}/round-1.csv": "table,player,result\n1,Bob Smith,win\n1,bob smith,loss\n"})
    assert error_at(r, f"{EV}/round-1.csv:3").startswith(
        "'bob smith' and 'Bob Smith' stand for the same person (id 'bob-smith')")


def test_toml_syntax_error_names_line_and_column(site, run_cli):
    site.write({f"{EV}/event.toml": 'name = "X"\ndate = 2024-01-01\ngame = conquest\n'})
    r = run_cli("check", "--source", site.root)
    assert error_at(r, f"{EV}/event.toml:3") == "is not valid TOML: invalid value at column 8"


def test_all_problems_of_a_run_are_listed(site, run_cli):
    """Three files, four mistakes: one run reports them all, sorted by file and line."""
    site.write({"data/events/x/event.toml": 'name = "X"\ndate = 2024-01-01\ngame = "conquest"\n'
                                            'structure = "custom"\nswiss_rounds = 2\ncut = 0\n',
                "data/events/x/round-1.csv": "table,player,result\n1,A,wn\n1,B,loss\n2,C,win\n2,D,win\n",
                "data/events/x/round-2.csv": "table,player,result\n1,A,win\n1,A,loss\n",
                "data/events/y/event.toml": 'name = "Y"\ngame = "conquest"\n'})
    r = run_cli("check", "--source", site.root)
    reported = [line.split(": ")[0] for line in r.lines if ".csv:" in line or ".toml:" in line]
    assert reported == ["data/events/x/round-1.csv:2", "data/events/x/round-1.csv:5",
                        "data/events/x/round-2.csv:3", "data/events/y/event.toml:1"]
    assert r.lines[-1] == "4 errors."


def test_unknown_key_and_column_are_warnings_not_errors(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=1, cut=0,
                                                   strucure="basic")})
    r = check(site, run_cli, {f"{EV}/round-1.csv": "table,player,result,deck\n1,A,win,Orks\n1,B,loss,Tau\n"})
    assert r.code == 0
    assert f"{EV}/event.toml:7: warning: unknown key 'strucure' is ignored (a typo?)" in r.lines
    assert (f"{EV}/round-1.csv:1: warning: column 'deck' is not used and is ignored "
            "(expected 'table,player,result')") in r.lines
    strict = run_cli("check", "--source", site.root, "--strict")
    assert strict.code == 1


def _digest(folder) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def test_failed_build_exits_1_and_leaves_the_previous_site_untouched(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
                f"{EV}/round-1.csv": GOOD_ROUND})
    first = run_cli("build", "--source", site.root, "--out", site.out)
    assert first.code == 0, first.err
    before = _digest(site.out)
    site.write({f"{EV}/round-2.csv": "table,player,result\n1,Ada,win\n1,Bram,win\n"})
    failed = run_cli("build", "--source", site.root, "--out", site.out)
    assert failed.code == 1
    assert f"{EV}/round-2.csv:3: table 1 has two winners" in failed.err
    assert failed.lines[-1] == f"1 error: nothing was written; the previous site in {site.out}/ is unchanged."
    assert _digest(site.out) == before
    assert not list(site.out.parent.glob(".out.staging-*"))  # no half-written build left behind


def test_build_refuses_to_replace_a_folder_it_did_not_make(site, run_cli, tmp_path):
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("keep me")
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=1, cut=0),
                f"{EV}/round-1.csv": GOOD_ROUND})
    r = run_cli("build", "--source", site.root, "--out", precious)
    assert r.code == 1 and "refusing to replace" in r.err
    assert (precious / "thesis.txt").read_text() == "keep me"


# ---------------------------------------------------------------- found in review


def test_header_only_round_file_is_an_error_not_a_round_everyone_missed(checked):
    r = checked("table,player,result\n", **{f"{EV}/round-2.csv": GOOD_ROUND})
    assert error_at(r, f"{EV}/round-1.csv:1") == (
        "round 1 has no results, only a header: add the round's rows, or leave the file out "
        "until the round has been played")


def test_a_sheet_of_empty_cells_is_an_empty_file(checked):
    r = checked(",,\n , ,\n")
    assert error_at(r, f"{EV}/round-1.csv:1").startswith("the file is empty")


@pytest.mark.parametrize("table", ["²", "1" * 5000, "0", "-1", "1.5"])
def test_table_numbers_are_plain_positive_whole_numbers(checked, table):
    r = checked(f"table,player,result\n{table},Ada,win\n{table},Bram,loss\n")
    message = error_at(r, f"{EV}/round-1.csv:2")
    if len(table) > 100:  # a message is cut in its middle, keeping what to do
        assert message.startswith(f"table '{table[:100]}") and " … " in message
        assert message.endswith("' is not a whole number from 1 (leave it empty for a bye)")
    else:
        assert message.startswith(f"table '{table}' is not a whole number from 1")


def test_a_date_named_round_file_is_one_error_not_millions(checked):
    r = checked(GOOD_ROUND, **{f"{EV}/round-20240518.csv": GOOD_ROUND})
    assert error_at(r, f"{EV}/round-20240518.csv:1") == (
        "'20240518' is not a round number: round files are numbered from 1 (round-1.csv, "
        "round-2.csv, …)")
    assert len(r.lines) == 2


def test_gaps_are_reported_once_per_gap(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=6, cut=0)})
    r = check(site, run_cli, {f"{EV}/round-1.csv": GOOD_ROUND, f"{EV}/round-5.csv": GOOD_ROUND})
    assert error_at(r, f"{EV}/round-5.csv:1").startswith("rounds 2–4 are missing")


def test_leading_zeros_in_round_file_names_are_fine(site, run_cli):
    result = check(site, run_cli, {f"{EV}/round-01.csv": GOOD_ROUND, f"{EV}/round-0002.csv": GOOD_ROUND})
    assert result.code == 0, result.err


def test_a_round_file_that_is_a_folder(site, run_cli):
    (site.root / EV / "round-2.csv").mkdir(parents=True)
    r = check(site, run_cli, {f"{EV}/round-1.csv": GOOD_ROUND})
    assert f"{EV}/round-2.csv: is a folder: a round is a file" in r.lines


def test_a_bad_core_key_still_lets_the_rounds_be_checked(site, run_cli):
    site.write({f"{EV}/event.toml": 'name = 5\ndate = 2024-01-01\ngame = "conquest"\n'
                                    'structure = "custom"\nswiss_rounds = 1\ncut = 0\n'})
    r = check(site, run_cli, {f"{EV}/round-1.csv": "table,player,result\n1,A,wn\n1,B,loss\n"})
    assert r.lines == [
        f'{EV}/event.toml:1: name = 5 is a number: expected text in quotes, e.g. name = "Store Championship"',
        f"{EV}/round-1.csv:2: result 'wn' is not a Conquest result: expected win (or w), "
        "modified-win (or mw, modified win), loss (or l) or bye, in capitals or not",
        "2 errors.",
    ]


def test_a_name_typed_with_combining_accents_is_the_same_name(site, run_cli):
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    result = check(site, run_cli, {
        f"{EV}/round-1.csv": f"table,player,result\n1,{composed},win\n1,Bram,loss\n",
        f"{EV}/round-2.csv": f"table,player,result\n1,{decomposed},win\n1,Bram,loss\n"})
    assert result.code == 0, result.err


def test_a_line_separator_inside_a_quoted_name_does_not_shift_line_numbers(checked):
    r = checked('table,player,result\n1,"Ann\u2028Lee",win\n1,Bram,loss\n2,Cleo,wn\n2,Dan,loss\n')
    assert error_at(r, f"{EV}/round-1.csv:4").startswith("result 'wn'")


def test_content_pages_may_not_collide(site, run_cli):
    site.write({"content/sitemap.xml.md": "# x\n", "content/guides.md": "# Guides\n",
                "content/guides/index.md": "# Guides again\n"})
    r = run_cli("check", "--source", site.root)
    assert r.code == 1
    assert "content/sitemap.xml.md:1: would be published at /sitemap.xml/, which the generator uses for its own pages: move or rename it" in r.lines
    assert "content/guides/index.md:1: would be published at /guides/, like content/guides.md: keep one of the two" in r.lines


def test_a_missing_theme_warns_and_falls_back(site, run_cli):
    site.write({"site.toml": 'theme = "nope"\n'})
    r = run_cli("check", "--source", site.root)
    assert r.code == 0
    assert r.lines[0] == ("site.toml:1: warning: theme = 'nope': there is no themes/nope/ folder, "
                          "so the default theme is used")


def test_serve_rejects_a_port_out_of_range(site, run_cli, capsys):
    with pytest.raises(SystemExit) as exit_info:
        run_cli("serve", "--source", site.root, "--port", "99999")
    assert exit_info.value.code == 2
    assert "'99999' is not a port number (0–65535)" in capsys.readouterr().err


def test_example_takes_true_or_false(site, run_cli):
    """`example = true` marks an example event (issue 34, point 2); anything but TOML's true or
    false is an error at its line that shows the form expected."""
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=1, cut=0,
                                                   example="yes")})
    r = check(site, run_cli, {f"{EV}/round-1.csv": "table,player,result\n1,A,win\n1,B,loss\n"})
    assert r.code == 1
    assert (f"{EV}/event.toml:7: example = 'yes' is text: expected true or false, not "
            "in quotes, e.g. example = true") in r.lines
