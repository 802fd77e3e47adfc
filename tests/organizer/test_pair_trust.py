"""`site-builder pair` trusts nothing it reads back (issue 30, points 5 and 6): it reads and
writes through no link the build refuses, its `--add` names are trimmed and compared by person,
a player whom drops.csv lists as gone is not paired, a re-drop rewrites the whole record, and no
round is written that `check` would reject."""

from __future__ import annotations

import csv
import io
import os

import pytest

from conftest import conquest_event, registrations
from site_builder.cli import main

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"
ROUND_1 = "table,player,result\n1,Ann,win\n1,Bob,loss\n2,Cy,win\n2,Di,loss\n"
LINK_OUT = ("outside the site's folder: pair neither reads nor writes through it (a build skips "
            "it too): put the {what} itself there instead of the link")


def rows_of(path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def swiss_event(site, rounds: dict[int, str], **extra: str) -> None:
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=5, cut=0), rounds, **extra)


def listing(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def checks_clean(site) -> bool:
    return main(["check", "--source", str(site.root)]) == 0


# ---------------------------------------------------------------- point 5: links


@pytest.mark.parametrize("args", [(), ("--drop", "Di")])
def test_a_drops_csv_linked_out_of_the_site_is_neither_read_nor_appended_to(site, pair, tmp_path,
                                                                           args):
    swiss_event(site, {1: ROUND_1})
    outside = tmp_path / "elsewhere.csv"
    outside.write_text("player,after_round\n")
    os.symlink(outside, site.root / EV / "drops.csv")
    before = listing(site.root / EV)
    code, out, err = pair(site, *args)
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{EV}/drops.csv: is a link to {outside}, "
                                + LINK_OUT.format(what="file"), "Nothing was written."]
    assert outside.read_text() == "player,after_round\n"
    assert listing(site.root / EV) == before


def test_a_drops_csv_linked_to_a_hidden_file_of_the_site_is_refused(site, pair):
    """drops.csv pointing at the site's own .env: inside the site, but hidden, so never read
    and never appended to."""
    swiss_event(site, {1: ROUND_1})
    hidden = site.root / ".env"
    hidden.write_text("TOKEN=secret\n")
    os.symlink("../../../.env", site.root / EV / "drops.csv")
    code, out, err = pair(site, "--drop", "Di")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{EV}/drops.csv: is a link to {hidden}, a hidden file or folder of the site (such as "
        ".git or .env): pair neither reads nor writes through it (a build skips it too): put "
        "the file itself there instead of the link", "Nothing was written."]
    assert hidden.read_text() == "TOKEN=secret\n"


@pytest.mark.parametrize("shaped_like_a_site", [True, False])
def test_an_event_folder_linked_from_outside_gets_no_round_file(site, pair, tmp_path,
                                                               shaped_like_a_site):
    """The linked folder may sit in another site's data/events/ (pair used to take that site for
    its own) or anywhere: either way nothing is written into it."""
    outside = (tmp_path / "other/data/events" / SLUG) if shaped_like_a_site else tmp_path / "cup"
    outside.mkdir(parents=True)
    (outside / "event.toml").write_text(conquest_event(structure="custom", swiss_rounds=5, cut=0))
    (outside / "round-1.csv").write_text(ROUND_1)
    os.symlink(outside, site.root / EV)
    code, out, err = pair(site)
    assert (code, out) == (1, "")
    assert err.splitlines() == [f"{EV}: is a link to {outside}, " + LINK_OUT.format(what="folder"),
                                "Nothing was written."]
    assert listing(outside) == ["event.toml", "round-1.csv"]


def test_every_file_pair_reads_is_judged_by_the_builds_rule_and_all_are_listed(site, pair,
                                                                              tmp_path):
    """A round file, the registrations and data/players.csv linked out: pair would pair from
    files the build never reads. Every such link is named in one run."""
    swiss_event(site, {})
    outside = tmp_path / "outside"
    outside.mkdir()
    for name, text in (("round-1.csv", ROUND_1), ("players.csv", registrations(["Ann", "Bob"])),
                       ("directory.csv", "id,name,aliases\n")):
        (outside / name).write_text(text)
    os.symlink(outside / "round-1.csv", site.root / EV / "round-1.csv")
    os.symlink(outside / "players.csv", site.root / EV / "players.csv")
    os.symlink(outside / "directory.csv", site.root / "data/players.csv")
    code, _, err = pair(site)
    assert code == 1
    assert err.splitlines() == [
        f"{EV}/players.csv: is a link to {outside}/players.csv, " + LINK_OUT.format(what="file"),
        f"{EV}/round-1.csv: is a link to {outside}/round-1.csv, " + LINK_OUT.format(what="file"),
        f"data/players.csv: is a link to {outside}/directory.csv, " + LINK_OUT.format(what="file"),
        "Nothing was written."]
    assert listing(outside) == ["directory.csv", "players.csv", "round-1.csv"]


def test_a_drops_csv_that_is_a_named_pipe_is_refused_unread(site, pair):
    """Reading a pipe blocks until someone writes into it: pair would hang recording a drop."""
    swiss_event(site, {1: ROUND_1})
    os.mkfifo(site.root / EV / "drops.csv")
    code, out, err = pair(site, "--drop", "Di")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{EV}/drops.csv: is a named pipe, not a file: skipped unread by a build; pair refuses "
        "it, as it would read or write it: put the file itself there", "Nothing was written."]


def test_links_the_build_follows_pair_follows_too(site, pair, tmp_path):
    """data/ kept in another checkout and linked in: the build reads it (the site's own layout),
    and pair writes the round there, into the site's data."""
    checkout = tmp_path / "checkout/data"
    (checkout / "events" / SLUG).mkdir(parents=True)
    (checkout / "events" / SLUG / "event.toml").write_text(
        conquest_event(structure="custom", swiss_rounds=5, cut=0))
    (checkout / "events" / SLUG / "round-1.csv").write_text(ROUND_1)
    os.rmdir(site.root / "data/events")
    os.rmdir(site.root / "data")
    os.symlink(checkout, site.root / "data")
    code, out, err = pair(site)
    assert code == 0, err
    assert {r["player"] for r in rows_of(checkout / "events" / SLUG / "round-2.csv")} == \
        {"Ann", "Bob", "Cy", "Di"}
    assert checks_clean(site)


# ---------------------------------------------------------------- point 6: --add and drops


def test_an_added_name_is_trimmed_and_the_round_passes_check(site, pair):
    swiss_event(site, {}, **{"players.csv": registrations(["Ann", "Bob", "Cy"])})
    code, out, err = pair(site, "--add", "  Eve  ")
    assert code == 0, err
    assert sorted(r["player"] for r in rows_of(site.root / EV / "round-1.csv")) == \
        ["Ann", "Bob", "Cy", "Eve"]
    assert "  Eve" not in out
    assert checks_clean(site)


@pytest.mark.parametrize("added,message", [
    ("  Ann  ", f"{EV}/players.csv:2: --add '  Ann  ': Ann already plays"),
    ("ann", f"{EV}/players.csv:2: --add 'ann': the same person as Ann (id 'ann'), who already "
            "plays"),
    ("ANN ", f"{EV}/players.csv:2: --add 'ANN ': the same person as Ann (id 'ann'), who already "
             "plays"),
    ("", f"{EV}/players.csv: --add '': the name is empty: expected the player's name, as the "
         "round files write it"),
    ("   ", f"{EV}/players.csv: --add '   ': the name is empty: expected the player's name, as "
            "the round files write it"),
])
def test_an_add_that_check_would_reject_is_refused_and_nothing_is_written(site, pair, added,
                                                                         message):
    swiss_event(site, {}, **{"players.csv": registrations(["Ann", "Bob", "Cy"])})
    code, out, err = pair(site, "--add", added)
    assert (code, out) == (1, "")
    assert err.splitlines() == [message, "Nothing was written."]
    assert listing(site.root / EV) == ["event.toml", "players.csv"]


def test_a_person_known_by_another_spelling_is_one_person(site, pair):
    """data/players.csv says 'R. Mills' is Rob Mills: adding him again is refused, as is the same
    person added twice under two spellings."""
    site.write({"data/players.csv": "id,name,aliases\nrob-mills,Rob Mills,R. Mills\n"})
    swiss_event(site, {1: "table,player,result\n1,Rob Mills,win\n1,Ann,loss\n"})
    code, _, err = pair(site, "--add", "R. Mills", "--add", "Eve", "--add", "eve")
    assert code == 1
    assert err.splitlines() == [
        f"{EV}/round-1.csv: --add 'eve': the same person as --add 'Eve' (id 'eve'): name each "
        "player once",
        f"{EV}/round-1.csv:2: --add 'R. Mills': the same person as Rob Mills (id 'rob-mills'), "
        "who already plays",
        "Nothing was written."]


def test_a_player_coming_back_is_added_as_the_event_writes_them(site, pair):
    """Di left after round 1; `--add di` in round 3 would write one person two ways."""
    swiss_event(site, {1: ROUND_1, 2: "table,player,result\n1,Ann,win\n1,Cy,loss\n,Bob,bye\n"},
                **{"drops.csv": "player,after_round\nDi,1\n"})
    code, _, err = pair(site, "--add", "di")
    assert code == 1
    assert err.splitlines() == [
        f"{EV}/round-2.csv: --add 'di': the same person as Di (id 'di'), as the event writes "
        "them: expected --add 'Di'", "Nothing was written."]
    code, _, err = pair(site, "--add", "Di")
    assert code == 0, err
    assert "Di" in {r["player"] for r in rows_of(site.root / EV / "round-3.csv")}


def test_every_name_problem_of_the_run_is_listed(site, pair):
    swiss_event(site, {1: ROUND_1})
    code, _, err = pair(site, "--add", "", "--add", "cy", "--drop", "Dii", "--drop", " ")
    assert code == 1
    assert err.splitlines() == [
        f"{EV}/round-1.csv: --drop 'Dii': Dii does not play round 1 (did you mean 'Di'?)",
        f"{EV}/round-1.csv: --drop ' ': the name is empty: expected the name of a player who "
        "leaves, as the round files write it",
        f"{EV}/round-1.csv: --add '': the name is empty: expected the player's name, as the "
        "round files write it",
        f"{EV}/round-1.csv:4: --add 'cy': the same person as Cy (id 'cy'), who already plays",
        "Nothing was written."]


def test_a_drop_name_is_trimmed_too(site, pair):
    swiss_event(site, {1: ROUND_1})
    code, out, err = pair(site, "--drop", " Di ")
    assert code == 0, err
    assert "Di" not in {r["player"] for r in rows_of(site.root / EV / "round-2.csv")}
    assert (site.root / EV / "drops.csv").read_text() == "player,after_round\nDi,1\n"
    assert checks_clean(site)


@pytest.mark.parametrize("seed", ["1", "2", "3", "4", "5"])
def test_a_player_drops_csv_lists_as_gone_gets_no_table_and_no_bye(site, pair, seed):
    """Six played round 1; the organizer wrote Fay's drop into drops.csv by hand. Five are left:
    one of them has the bye, never Fay (who lost round 1, so she was the bye's first choice)."""
    swiss_event(site, {1: ROUND_1 + "3,Eve,win\n3,Fay,loss\n"},
                **{"drops.csv": "player,after_round\nFay,1\n"})
    code, out, err = pair(site, "--seed", seed)
    assert code == 0, err
    rows = rows_of(site.root / EV / "round-2.csv")
    assert sorted(r["player"] for r in rows) == ["Ann", "Bob", "Cy", "Di", "Eve"]
    assert [r["result"] for r in rows].count("bye") == 1
    assert "  not paired: Fay (drops.csv line 2: dropped after round 1)" in out.splitlines()
    assert (site.root / EV / "drops.csv").read_text() == "player,after_round\nFay,1\n"
    assert checks_clean(site)


def test_adding_a_player_drops_csv_lists_says_where_the_drop_is(site, pair):
    swiss_event(site, {1: ROUND_1}, **{"drops.csv": "player,after_round\nDi,1\n"})
    code, _, err = pair(site, "--add", "Di")
    assert code == 1
    assert err.splitlines()[0] == (
        f"{EV}/round-1.csv:5: --add 'Di': Di already plays (drops.csv line 2 says they "
        "left after round 1: remove that line to pair them)")


def test_a_redrop_rewrites_the_whole_record_of_a_name_that_spans_lines(site, pair):
    """"Ann\\nLee" left after round 1, came back in round 3, and leaves again: her record in
    drops.csv, two physical lines, is rewritten whole."""
    name = "Ann\nLee"
    swiss_event(site, {
        1: 'table,player,result\n1,"Ann\nLee",win\n1,Bob,loss\n2,Cy,win\n2,Di,loss\n',
        2: "table,player,result\n1,Bob,win\n1,Cy,loss\n,Di,bye\n",
        3: 'table,player,result\n1,"Ann\nLee",win\n1,Bob,loss\n2,Cy,win\n2,Di,loss\n'},
        **{"drops.csv": 'player,after_round\n"Ann\nLee",1\n'})
    code, out, err = pair(site, "--drop", name)
    assert code == 0, err
    assert name not in {r["player"] for r in rows_of(site.root / EV / "round-4.csv")}
    assert (site.root / EV / "drops.csv").read_text() == 'player,after_round\n"Ann\nLee",3\n'
    assert checks_clean(site)


def test_record_drop_replaces_every_physical_line_of_the_record(tmp_path):
    from site_builder.league.drops import record_drop
    path = tmp_path / "drops.csv"
    path.write_bytes(b'player,after_round\r\n"Ann\r\nLee\nSmith",1\r\nBob,2\r\n')
    record_drop(tmp_path, "Ann\r\nLee\nSmith", 3, line=2)
    assert path.read_bytes() == b'player,after_round\r\n"Ann\r\nLee\nSmith",3\r\nBob,2\r\n'


def test_a_re_drop_keeps_the_record_s_other_cells(tmp_path):
    """A note beside a drop stays when the player is dropped again (issue 30's red team)."""
    from site_builder.league.drops import record_drop
    path = tmp_path / "drops.csv"
    path.write_text('after_round,player,note\n2,"Eve\nSmith",x\n1,Bo,"left early, ill"\n')
    record_drop(tmp_path, "Eve\nSmith", 4, line=2)
    assert path.read_text() == ('after_round,player,note\n4,"Eve\nSmith",x\n'
                                '1,Bo,"left early, ill"\n')


def test_a_round_check_would_reject_is_never_written(site, pair, monkeypatch):
    """Whatever a game's former returns, the round is loaded as check loads it before it is
    written: a player seated twice is check's error, and nothing is written."""
    from site_builder.rules import RULESETS
    from site_builder.rules.forming import Formed, Table

    swiss_event(site, {1: ROUND_1})
    monkeypatch.setattr(RULESETS["conquest"], "form", lambda context: Formed(
        [Table(1, ("Ann", "Bob")), Table(2, ("Ann", "Cy"))], "Round 2"))
    code, out, err = pair(site, "--drop", "Di")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{EV}/round-2.csv: the round pair formed would not pass check (its problems follow), "
        "so it is not written: expected a round check accepts; unless a name given to --add "
        "causes it, this is a bug in site-builder: please report it",
        f"{EV}/round-2.csv:4: Ann is in this round twice (also on line 2): a player plays one "
        "game per round",
        "Nothing was written."]
    assert listing(site.root / EV) == ["event.toml", "round-1.csv"]
