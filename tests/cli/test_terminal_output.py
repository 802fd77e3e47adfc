"""Names never reach the terminal raw (issue 30, point 10): a registration holding ESC sequences
once cleared the organizer's screen and set the window title, and U+2028, U+2029 and U+202E
printed raw in messages promised to be one line. Everything from data that is printed shows
control, line-breaking and bidi characters as visible escapes."""

from __future__ import annotations

import errno
import re
import sys

import pytest

from conftest import Running, conquest_event, registrations
from site_builder.cli import main
from site_builder.core.problems import escaped, one_line, terminal_safe
from site_builder.live.session import Report

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"
EVIL = "Eve\x1b[2J\x1b]0;pwned\x07\u2028Mallory\u202eSmith"
SHOWN = r"Eve\x1b[2J\x1b]0;pwned\x07\u2028Mallory\u202eSmith"
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                 "\ud800-\udfff]")
"""What no output may hold (the line feed between lines aside)."""
UNSAFE = ([chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7f, 0xa0)]
          + list("\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
                 "\u2066\u2067\u2068\u2069\ud800\udcff\udfff"))


def assert_safe(output: str) -> None:
    """No raw control, line-breaking or bidi character, and each line one line to every
    reader (Python's splitlines agrees with the terminal's line feeds)."""
    assert not RAW.search(output), ascii(output)
    if output:
        assert output.splitlines() == output.removesuffix("\n").split("\n")


def test_every_unsafe_character_shows_as_its_escape_and_nothing_else_changes():
    every = "".join(map(chr, range(0x110000)))
    shown = terminal_safe(every)
    assert not RAW.search(shown)
    assert len(shown.splitlines()) == 1
    for char in UNSAFE:
        assert terminal_safe(f"a{char}b") == f"a{escaped(char)}b"
        assert escaped(char) == ascii(char)[1:-1]  # the escape Python writes
    kept = "Zoë Åström-Ñúñez 中文 שלום مرحبا 😀 👩‍👩‍👧 \\x1b tab\\t ~ \u00a0\ufeff"
    assert terminal_safe(kept) == kept
    assert one_line("a\u2029b\x85c") == r"a\u2029b\x85c"


def event_with_the_name(site, **files: str) -> None:
    """An event where EVIL arrives late in round 2 (a warning naming them, unless registered)."""
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {
        1: "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n",
        2: f"table,player,result\n1,Ada,win\n1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n"
           f"3,{EVIL},win\n3,Fay,loss\n"}, **files)


def test_check_and_build_print_the_name_escaped(site, run_cli):
    event_with_the_name(site)
    for command in (["check", "--source", site.root],
                    ["build", "--source", site.root, "--out", site.out]):
        result = run_cli(*command)
        # (whether the data may hold such a name is another question: warning or error, the
        # message naming it is escaped and one line)
        assert_safe(result.err)
        named = [line for line in result.lines if SHOWN in line]
        assert named, result.err
        assert all(line.startswith(f"{EV}/") for line in named)


def test_pair_prints_the_pairings_with_the_name_escaped(site, pair):
    event_with_the_name(site, **{"players.csv": registrations(
        ["Ada", "Bram", "Cleo", "Dan", "Fay", EVIL])})
    code, out, err = pair(site, "--drop", EVIL, slug=SLUG)
    assert_safe(out + err)
    assert SHOWN in out + err
    if code == 0:  # the round's table with the name, and its drop recorded
        assert any(line.startswith("  Table") for line in out.splitlines())
        assert f"Recorded in {EV}/drops.csv: {SHOWN} dropped after round 2." in out.splitlines()


def test_pair_prints_a_paired_name_escaped(site, pair):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {},
               **{"players.csv": registrations(["Ada", EVIL])})
    code, out, err = pair(site, slug=SLUG)
    assert_safe(out + err)
    assert SHOWN in out + err
    if code == 0:
        assert re.search(r"^  Table 1  (Ada – .*Eve\\x1b|Eve\\x1b.* – Ada)", out, re.M), out


def test_new_prints_the_folder_escaped(tmp_path, run_cli):
    folder = tmp_path / f"league{EVIL}"
    result = run_cli("new", folder, "--title", "A league")
    assert result.code == 0
    assert_safe(result.out + result.err)
    assert f"Created a league in {tmp_path}/league{SHOWN}/" in result.out


def test_the_build_summary_and_system_errors_show_paths_escaped(site, run_cli, monkeypatch):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n"})
    out = site.root.parent / f"out{EVIL}"
    result = run_cli("build", "--source", site.root, "--out", out)
    assert result.code == 0, result.err
    assert_safe(result.err)
    assert f"into {site.root.parent}/out{SHOWN}/" in result.lines[0]
    assert result.lines[-1].startswith("Preview: ")
    assert f"--out {site.root.parent}/out{SHOWN}" in result.lines[-1]

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", f"data/{EVIL}.csv")
    monkeypatch.setattr("site_builder.build.build", refused)
    result = run_cli("build", "--source", site.root, "--out", out)
    assert result.code == 1 and len(result.lines) == 1
    assert_safe(result.err)
    assert f"could not read data/{SHOWN}.csv: Permission denied" in result.err


def test_the_internal_error_line_shows_the_exception_escaped(site, run_cli, monkeypatch):
    def bug(*args, **kwargs):
        raise RuntimeError(f"no rank for {EVIL}\nsecond line")
    monkeypatch.setattr("site_builder.build.check", bug)
    result = run_cli("check", "--source", site.root)
    assert result.code == 1 and len(result.lines) == 1
    assert_safe(result.err)
    assert f"internal error: RuntimeError: no rank for {SHOWN}\\nsecond line. This is a bug" \
        in result.err


def test_an_argument_error_quotes_the_argument_escaped(capsys):
    with pytest.raises(SystemExit):
        main(["check", f"--{EVIL}"])
    err = capsys.readouterr().err
    assert_safe(err)
    assert f"unrecognized arguments: --{SHOWN}" in err


def test_the_watch_report_line_shows_changed_paths_escaped():
    line = Report([f"{EV}/{EVIL}.csv", "site.toml"], rendered=2, written=2).line()
    assert_safe(line)
    assert line.startswith(f"{EV}/{SHOWN}.csv, site.toml: 2 pages rendered")


@pytest.mark.skipif(sys.platform != "linux", reason="file names with any bytes: Linux")
def test_watch_prints_names_and_changed_files_escaped(site):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"})
    (site.root / "content").mkdir(exist_ok=True)  # before: its creation would be a change too
    watching = Running("watch", "--source", site.root, "--out", site.out)
    try:
        watching.wait_for(r"^the whole site: ")
        mark = watching.mark()
        (site.root / EV / "round-2.csv").write_text(
            f"table,player,result\n1,Ada,win\n1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n"
            f"3,{EVIL},win\n3,Fay,loss\n", encoding="utf-8")
        watching.wait_for(r"round-2\.csv: ", since=mark)
        mark = watching.mark()
        (site.root / "content" / f"{EVIL}.md").write_text("# A page\n", encoding="utf-8")
        watching.wait_for(r"content/Eve.*: 1 error, nothing of it applied", since=mark)
    finally:
        assert watching.stop() == 130  # as Ctrl-C ends it
    output = "\n".join(watching.lines)
    assert_safe(output)
    assert any(line.endswith(f"{EV}/round-2.csv:6: warning: {SHOWN} first plays in round 2, "
                             "not in the rounds before: a late arrival (list them in the event's "
                             "players.csv to say so), or a typo of another player's name?")
               for line in watching.lines), output
    # a page of that name cannot be published: its error names it, and the report line the file
    assert any(f"content/{SHOWN}.md: the name '{SHOWN}' " in line for line in watching.lines)
    assert f"content/{SHOWN}.md: 1 error, nothing of it applied" in output


@pytest.mark.slow  # a real watcher
def test_watch_says_a_standing_warning_again_at_each_save_of_its_event(site):
    """The organizer saves the round with the typo twice: the second rebuild repeats the warning
    that still stands (not the rebuild line alone, which reads as if it were fixed); a save
    elsewhere does not repeat it."""
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: "table,player,result\n1,Priya Nair,win\n1,Bram Oak,loss\n"
                   "2,Cleo Stone,win\n2,Dan Moss,loss\n"})
    (site.root / "content").mkdir(exist_ok=True)
    typo = ("table,player,result\n1,Priya Niar,win\n1,Cleo Stone,loss\n"
            "2,Bram Oak,win\n2,Dan Moss,loss\n")
    warning = f'{EV}/round-2.csv:2: warning: "Priya Niar" first plays in round 2, and is very close'
    watching = Running("watch", "--source", site.root, "--out", site.out)
    try:
        watching.wait_for(r"^Watching ")
        for save in (typo, typo + "\n"):
            mark = watching.mark()
            (site.root / EV / "round-2.csv").write_text(save, encoding="utf-8")
            watching.wait_for(r"^data/events/.*round-2\.csv: \d+ pages rendered", since=mark)
            assert any(warning in line for line in watching.lines[mark:]), watching.lines
        mark = watching.mark()
        (site.root / "content" / "about.md").write_text("# About\n", encoding="utf-8")
        watching.wait_for(r"about\.md: \d+ pages rendered", since=mark)
        assert not any(warning in line for line in watching.lines[mark:]), watching.lines
    finally:
        assert watching.stop() == 130
