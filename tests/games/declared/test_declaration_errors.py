"""A bad game declaration gets `path:line` messages like every other file (issue 35, point 5),
and stops the build: an event of a broken game says where to look, nothing is published."""

from __future__ import annotations

from conftest import write_files

EV = "data/events/2026-11-20-fnm"
EVENT = 'name = "FNM"\ndate = 2026-11-20\ngame = "house"\n'
ROUND = "table,player,result\n1,Ann,win\n1,Bob,loss\n"
GOOD = """
name = "House rules"
swiss_rounds = 3
tiebreaks = ["mtg-omw"]

[results]
win = 3
draw = 1
loss = 0
"""


def check(site, run_cli, declaration: str, round_: str = ROUND):
    write_files(site.root, {"data/games/house.toml": declaration, f"{EV}/event.toml": EVENT,
                            f"{EV}/round-1.csv": round_})
    return run_cli("check", "--source", site.root)


def errors(result) -> list[str]:
    """The declaration's errors, in file order (an event of the broken game adds its own)."""
    return [line for line in result.err.splitlines() if ": warning:" not in line
            and line.startswith("data/games/")]


def test_a_good_declaration_checks_clean(site, run_cli):
    result = check(site, run_cli, GOOD)
    assert (result.code, errors(result)) == (0, [])
    assert "Checked 1 event: no problems." in result.out


def test_an_unknown_tiebreak_lists_the_vocabulary(site, run_cli):
    result = check(site, run_cli, GOOD.replace('["mtg-omw"]', '["mtg-omw", "opponents-points"]'))
    assert result.code == 1
    assert errors(result)[0].startswith(
        "data/games/house.toml:3: \"opponents-points\" is not a tiebreak site-builder knows: "
        "expected one of mtg-omw, mtg-gw, mtg-ogw, pokemon-owp, pokemon-oowp, head-to-head, "
        "sos, esos, buchholz, buchholz-cut1, median-buchholz, sonneborn-berger, wins, random "
        "(docs/games/declared.md#tiebreaks)")


def test_a_floor_outside_zero_to_one(site, run_cli):
    result = check(site, run_cli, GOOD.replace('["mtg-omw"]', '[{ name = "mtg-omw", floor = 33 }]'))
    assert errors(result)[0] == ("data/games/house.toml:3: mtg-omw's floor = 33 is not a share "
                                 'from 0 to 1: expected e.g. 0.33 or "1/3"')


def test_a_parameter_the_tiebreak_does_not_take(site, run_cli):
    result = check(site, run_cli, GOOD.replace('["mtg-omw"]', '[{ name = "sos", floor = 0.5 }]'))
    assert errors(result)[0] == "data/games/house.toml:3: sos has no parameter 'floor': it takes none"


def test_a_draw_worth_more_than_a_win(site, run_cli):
    result = check(site, run_cli, GOOD.replace("draw = 1", "draw = 4"))
    assert errors(result)[0] == ("data/games/house.toml:7: draw (4 points) is worth more than win "
                                 "(3): a draw is worth at most a win")


def test_a_word_that_does_not_say_what_it_is(site, run_cli):
    result = check(site, run_cli, GOOD + "double-win = 6\n")
    assert errors(result)[0] == (
        "data/games/house.toml:9: 'double-win' does not say what it is as a match: write "
        'double-win = { points = …, outcome = "win" } (outcome: win, draw or loss)')


def test_a_round_file_word_the_game_does_not_declare(site, run_cli):
    result = check(site, run_cli, GOOD, "table,player,result\n1,Ann,win\n1,Bob,tie\n")
    assert errors(result) == []
    assert result.err.splitlines()[0] == (
        f"{EV}/round-1.csv:3: result 'tie' is not a House rules result: expected win, draw, "
        "loss, bye (data/games/house.toml declares them)")


def test_an_unplayed_kind_the_vocabulary_lacks(site, run_cli):
    result = check(site, run_cli, GOOD + "[unplayed]\nbye = 3\ntechnical-loss = 0\n")
    assert errors(result)[0] == (
        "data/games/house.toml:11: 'technical-loss' is not a kind of unplayed round: expected "
        "bye, forfeit-win, forfeit-loss, half-point-bye, zero-point-bye, absent")


def test_no_rounds_and_a_bad_cut(site, run_cli):
    result = check(site, run_cli, GOOD.replace("swiss_rounds = 3", "cut = 6"))
    assert errors(result)[:2] == [
        "data/games/house.toml:1: the game needs its number of Swiss rounds: expected e.g. "
        "swiss_rounds = 5, or a [[structure]] table by player count (an event may set its own)",
        "data/games/house.toml:2: cut = 6 is not a cut size: expected one of 0, 2, 4, 8, 16, 32, "
        "64 (0: no cut)"]


def test_structure_rows_must_grow(site, run_cli):
    structure = ("\n[[structure]]\nup_to = 16\nswiss_rounds = 4\n"
                 "[[structure]]\nup_to = 8\nswiss_rounds = 3\n[[structure]]\nswiss_rounds = 6\n")
    result = check(site, run_cli, GOOD.replace("swiss_rounds = 3\n", "") + structure)
    assert errors(result)[0] == ("data/games/house.toml:13: up_to = 8 is not above the row "
                                 "before (16): rows go from small events to large")


def test_an_event_of_a_broken_game_says_where_to_look_and_nothing_is_built(site, run_cli):
    write_files(site.root, {"data/games/house.toml": GOOD.replace("draw = 1", "draw = 4"),
                            f"{EV}/event.toml": EVENT, f"{EV}/round-1.csv": ROUND})
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1
    assert f'{EV}/event.toml:3: game = "house" is declared in data/games/house.toml, which has ' \
           "errors: `site-builder check` lists them" in result.err
    assert "data/games/house.toml:7: draw (4 points)" in result.err
    assert not site.out.exists()


def test_a_file_named_after_a_seed_game_is_refused(site, run_cli):
    write_files(site.root, {"data/games/conquest.toml": GOOD, f"{EV}/event.toml": EVENT,
                            f"{EV}/round-1.csv": ROUND, "data/games/house.toml": GOOD})
    result = run_cli("check", "--source", site.root)
    assert errors(result)[0].startswith("data/games/conquest.toml: 'conquest' is a game "
                                        "site-builder scores by its own rules")


def test_a_league_file_takes_the_place_of_a_shipped_one(site, run_cli):
    """data/games/magic.toml is the league's Magic: a four-round event without game records."""
    ours = GOOD.replace('name = "House rules"', 'name = "Magic, our way"')
    write_files(site.root, {"data/games/magic.toml": ours,
                            f"{EV}/event.toml": EVENT.replace("house", "magic"),
                            f"{EV}/round-1.csv": ROUND})
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    assert "Magic, our way" in (site.out / "events/2026-11-20-fnm/index.html").read_text()


def test_numbers_that_only_look_like_numbers(site, run_cli):
    """8.0 equals 8 but is no bracket size; an exponent in text would take seconds to read
    (Fraction("1e-9999999")): both are errors at their line, at once."""
    result = check(site, run_cli, GOOD.replace("swiss_rounds = 3", "swiss_rounds = 3\ncut = 8.0")
                   .replace('["mtg-omw"]', '[{ name = "mtg-omw", floor = "1e-9999999" }]'))
    assert errors(result) == [
        "data/games/house.toml:3: cut = 8.0 is not a cut size: expected one of 0, 2, 4, 8, 16, "
        "32, 64 (0: no cut)",
        "data/games/house.toml:4: mtg-omw's floor = \"1e-9999999\" is not a share from 0 to 1: "
        'expected e.g. 0.33 or "1/3"']


def test_a_points_cell_with_an_exponent_is_refused(site, run_cli):
    write_files(site.root, {f"{EV}/event.toml": EVENT.replace("house", "netrunner"),
                            f"{EV}/round-1.csv": "table,player,points\n1,Ann,1e-9999999\n1,Bob,0\n"})
    result = run_cli("check", "--source", site.root)
    assert result.err.splitlines()[0] == (f"{EV}/round-1.csv:2: points '1e-9999999' is not a "
                                          "number of points from 0 to 6")


def test_what_data_games_holds_besides_declarations_is_said(site, run_cli):
    (site.root / "data/games/dir.toml").mkdir(parents=True)
    write_files(site.root, {"data/games/notes.txt": "ideas\n",
                            "data/games/big.toml": "#" * 1_100_000})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert result.err.splitlines()[:3] == [
        "data/games/big.toml: is 1.1 MB: the largest such a file may be is 1.0 MB (see Limits "
        "in docs/commands.md)",
        "data/games/dir.toml: warning: is ignored: it is a folder, and a game is declared in "
        "data/games/<id>.toml",
        "data/games/notes.txt: warning: is ignored: it is not a .toml file, and a game is "
        "declared in data/games/<id>.toml"]


def test_a_game_s_own_loss_word_is_a_loss_everywhere(site, run_cli):
    """A game whose loss is "defeat": a lone row with it was not paired (an unpaired loss, no
    error), and a player who lost an elimination round cannot play the next one."""
    own = GOOD.replace("loss = 0", "defeat = { points = 0, outcome = \"loss\" }") \
        .replace("swiss_rounds = 3", "swiss_rounds = 1\ncut = 4")
    result = check(site, run_cli, own, "table,player,result\n1,Ann,win\n1,Bob,defeat\n"
                                       "2,Cat,win\n2,Dan,defeat\n,Eve,defeat\n")
    assert result.code == 0, result.err
    write_files(site.root, {f"{EV}/round-2.csv": "table,player,result\n1,Ann,win\n1,Dan,defeat\n"
                                                 "2,Cat,win\n2,Bob,defeat\n",
                            f"{EV}/round-3.csv": "table,player,result\n1,Ann,win\n1,Dan,defeat\n"})
    result = run_cli("check", "--source", site.root)
    assert f"{EV}/round-3.csv:3: Dan is out of the elimination rounds (lost or absent in round " \
           "2) and cannot play round 3" in result.err.splitlines()
