"""No single input may take a build past about 1 GB of memory (issue 18, point 9): each kind of
file has a documented largest size (docs/commands.md, "Limits"); above it the file gets a clear message,
and a site with every input at its limit builds well under 1 GB, measured here."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import conquest_event

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"


def big_round(players: int) -> str:
    return "table,player,result\n" + "".join(
        f"{i // 2 + 1},Player {i:05d},{'win' if i % 2 == 0 else 'loss'}\n" for i in range(players))


def report(size: int) -> str:
    """Markdown of about `size` bytes: paragraphs of words, with emphasis and lists."""
    paragraph = ("The *final* went to three games; **Ada** took the last one on time. " * 8
                 + "\n\n- a list item\n- another\n\n")
    return "# Report\n\n" + paragraph * (size // len(paragraph))


@pytest.fixture
def cup(site):
    return site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=5, cut=0),
                       f"{EV}/round-1.csv": ROUND_1})


@pytest.mark.parametrize("path,content,message", [
    ("content/events/2024-05-18-cup.md", report(2_100_000),
     "content/events/2024-05-18-cup.md: is 2.1 MB: the largest such a file may be is 2.0 MB"),
    (f"{EV}/round-2.csv", big_round(10_002),
     f"{EV}/round-2.csv: has more than 10,000 rows, the most a file of this kind may have"),
    (f"{EV}/players.csv", "player\n" + "".join(f"P{i}\n" for i in range(10_001)),
     f"{EV}/players.csv: has more than 10,000 rows"),
    ("site.toml", 'title = "Club"\n' + "# padding\n" * 110_000,
     "site.toml: is 1.1 MB: the largest such a file may be is 1.0 MB"),
])
def test_a_file_over_its_limit_is_one_clear_error(cup, run_cli, path, content, message):
    cup.write({path: content})
    result = run_cli("build", "--source", cup.root, "--out", cup.out)
    assert result.code == 1 and not cup.out.exists()
    assert any(line.startswith(message) for line in result.lines), result.err


def test_theme_files_over_their_limit_are_skipped_with_a_warning(cup, run_cli):
    static = cup.root / "themes/default/static/video.mp4"
    static.parent.mkdir(parents=True)
    with open(static, "wb") as handle:  # sparse: 51 MB on paper, nothing on disk
        handle.truncate(51_000_000)
    template = cup.root / "themes/default/templates/404.html"
    template.parent.mkdir(parents=True)
    template.write_text("{# padding #}\n" * 80_000)
    result = run_cli("build", "--source", cup.root, "--out", cup.out)
    assert result.code == 0, result.err
    assert ("themes/default/static/video.mp4: warning: is larger than 50 MB, the largest a static "
            "file may be (GitHub Pages refuses files over 100 MB): skipped") in result.lines
    assert ("themes/default/templates/404.html: warning: is larger than 1 MB, the largest a "
            "template may be: skipped") in result.lines
    assert not (cup.out / "static/video.mp4").exists()
    assert "Page not found" in (cup.out / "404.html").read_text()  # the built-in template


MEASURED_BUILD = """
import json, resource, sys
from site_builder.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


@pytest.mark.slow
def test_every_input_at_its_limit_builds_well_under_a_gigabyte(cup, capsys):
    """The largest inputs allowed, all at once: a 10,000-player round, its registrations, a
    report just under 2 MB, a player directory of 100,000 people. `/usr/bin/time -v` reports the
    same peak (its "Maximum resident set size") as the build's own getrusage printed here."""
    cup.write({
        f"{EV}/round-1.csv": big_round(10_000),
        f"{EV}/players.csv": "player\n" + "".join(f"Player {i:05d}\n" for i in range(10_000)),
        "content/events/2024-05-18-cup.md": report(1_990_000),
        "data/players.csv": "id,name,aliases\n" + "".join(
            f"person-{i},Person {i},P{i}|Pers {i}\n" for i in range(100_000)),
    })
    assert os.path.getsize(cup.root / "content/events/2024-05-18-cup.md") < 2_000_000
    measured = subprocess.run([sys.executable, "-c", MEASURED_BUILD, "build", "--source",
                               str(cup.root), "--out", str(cup.out)],
                              capture_output=True, text=True, timeout=300)
    result = json.loads(measured.stdout.splitlines()[-1])
    assert result["code"] == 0, measured.stderr
    with capsys.disabled():
        print(f"\n[memory] every input at its limit: peak {result['peak_mb']:.0f} MB "
              f"({measured.stderr.splitlines()[0]})")
    assert result["peak_mb"] < 1024


# ---------------------------------------------------------------- integers too long to read

HUGE = "9" * 5_000
"""Python reads at most 4,300 digits into an integer (sys.get_int_max_str_digits): tomllib and
int() raise ValueError past that, which was "internal error … This is a bug" (issue 30, 9)."""
OTHER_EV = "data/events/2024-06-01-other"


HUGE_IN_EVENT = [
    (f"{EV}/drops.csv", f"player,after_round\nAda,{HUGE}\n",
     f"{EV}/drops.csv:2: after_round is a whole number of 5,000 digits: expected the last round "
     "Ada played, a whole number from 1 (Ada last plays round 1)"),
    (f"{EV}/event.toml", conquest_event(structure="custom", swiss_rounds=5, cut=0)
     + f"seed = {HUGE}\n",
     f"{EV}/event.toml:7: seed is a whole number of 5,000 digits: expected a whole number of at "
     "most 4,300 digits"),
]
"""(file, its text, the message) of an event's files that pair reads too."""


@pytest.mark.parametrize("path,content,message", HUGE_IN_EVENT + [
    ("site.toml", f'title = "Club"\nlatest_events = {HUGE}\n',
     "site.toml:2: latest_events is a whole number of 5,000 digits: expected a whole number of at "
     "most 4,300 digits"),
])
def test_an_integer_of_5000_digits_is_an_error_at_its_line_and_the_others_are_listed(
        cup, run_cli, path, content, message):
    cup.write({path: content, f"{OTHER_EV}/event.toml": conquest_event(date="2024-06-01"),
               f"{OTHER_EV}/round-1.csv": "table,player,result\n1,Ada,won\n1,Bram,loss\n"})
    for command in (["check", "--source", cup.root],
                    ["build", "--source", cup.root, "--out", cup.out]):
        result = run_cli(*command)
        assert result.code == 1 and "internal error" not in result.err, result.err
        problems, verdict = result.lines[:-1], result.lines[-1]
        assert message in problems
        assert any(p.startswith(f"{OTHER_EV}/round-1.csv:2: result 'won'") for p in problems)
        assert len(problems) == 2 and verdict.startswith("2 errors")
        assert not cup.out.exists()


@pytest.mark.parametrize("path,content,message", HUGE_IN_EVENT)
def test_pair_says_the_same_and_writes_nothing(cup, pair, path, content, message):
    cup.write({path: content})
    code, out, err = pair(cup)
    assert (code, out) == (1, "")
    assert err.splitlines() == [message, "Nothing was written."]
    assert not (cup.root / EV / "round-2.csv").exists()


def test_a_long_integer_is_found_at_its_own_line(tmp_path):
    """tomllib's ValueError says no line: the line is found however the number is written (in a
    list, with underscores), and digits inside a string are no number at all."""
    from site_builder.core.problems import ProblemLog
    from site_builder.files.textfiles import read_toml

    path = tmp_path / "event.toml"
    path.write_text(f'name = "{HUGE}"\nnote = """\n{HUGE}\n"""\ncounts = [\n  1,\n'
                    f'  -{"_".join(HUGE)},\n]\n')
    log = ProblemLog()
    assert read_toml(path, "event.toml", log) is None
    assert [str(p) for p in log.problems] == [
        "event.toml:7: a value is a whole number of 5,000 digits: expected a whole number of at "
        "most 4,300 digits"]
    path.write_text(f'name = "{HUGE}"\nseed = 42\n')
    assert read_toml(path, "event.toml", log).data["seed"] == 42


@pytest.mark.parametrize("written,digits", [("0x" + "f" * 5_000, "6,021"),
                                            ("0b1" + "0" * 15_000, "4,516"),
                                            ("-" + "1_0" * 2_200, "4,400")])
def test_an_integer_too_long_to_show_is_refused_however_it_is_written(cup, run_cli, written,
                                                                      digits):
    """tomllib reads a hexadecimal or binary integer of any length without a word; every
    message, seed and digest that shows it then failed as the decimal one did."""
    cup.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=5, cut=0)
               + f"seed = {written}\n",
               "site.toml": f"title = {written}\n"})
    result = run_cli("check", "--source", cup.root)
    assert result.code == 1 and "internal error" not in result.err, result.err
    expected = (f"is a whole number of {digits} digits: expected a whole number of at most 4,300 "
                "digits")
    assert result.lines == [f"{EV}/event.toml:7: seed {expected}", f"site.toml:1: title {expected}",
                            "2 errors."]
