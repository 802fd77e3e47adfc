"""What an organizer types into `site-builder new` stays a value (issue 30, point 8): a title or an
--install can neither add a key to the workflow as a YAML reader sees it, nor reach the shell or
GitHub's expressions as anything but one literal; a title site.toml cannot hold is refused, and
nothing is written."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.organizer.newleague import create_league, quoted_string, shell_word, yaml_comment
from site_builder.core.problems import ConfigError

TODAY = dt.date(2026, 11, 24)
WORKFLOW = ".github/workflows/pages.yml"

TITLES = [
    "Ligue\u2028env:\u2028  EVIL: pwned",   # PyYAML breaks lines at U+2028 …
    "A\u2029on: push\u2029b",               # … at U+2029 …
    "A\x85jobs: {}\x85b",                   # … and at NEL
    'The "Best": League # of {{ all }} ${{ secrets.GITHUB_TOKEN }}',
    "Mallory's \u202eeugaeL\u202c \u200fשלום\u200e: a: b",
    "Noncharacters \ufffe\uffff",          # which YAML readers refuse raw
    "Zero\u200bwidth \ufeffmarks\u2060",     # a byte-order mark in a YAML document
    "<<date>> <<install-command>>",          # placeholders of the scaffold, as text
]
INSTALLS = [
    "$(touch x)",
    "`touch x`",
    "site-builder==1.0'; touch x; echo '",
    'site-builder==1.0" && touch x && echo "',
    "site-builder==1.0; touch x",
    "site-builder==1.0 $HOME \\ # not: a comment",
    "site-builder @ git+https://example.org/s.git@v1.0 ; python_version >= '3.11'",
]


def workflow_of(folder: Path) -> dict:
    return yaml.safe_load((folder / WORKFLOW).read_text(encoding="utf-8"))


def install_step(workflow: dict) -> dict:
    (step,) = [step for step in workflow["jobs"]["build"]["steps"]
               if step.get("name") == "Install site-builder"]
    return step


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """The workflow of a league made with the defaults: what every league's must read as."""
    folder = tmp_path_factory.mktemp("reference") / "league"
    create_league(folder, today=TODAY)
    return workflow_of(folder)


def args_received(command: str, cwd: Path) -> list[str]:
    """Run `command` with bash in `cwd`, with a `python` that only writes down its arguments:
    the arguments the command gave it."""
    bin_dir = cwd / "bin"
    bin_dir.mkdir(parents=True)
    fake = bin_dir / "python"
    fake.write_text('#!/bin/sh\nprintf "%s\\0" "$@" > "$ARGS_FILE"\n')
    fake.chmod(0o755)
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "ARGS_FILE": str(cwd / "args"),
           "HOME": str(cwd)}
    work = cwd / "work"
    work.mkdir()
    subprocess.run(["bash", "-c", command], cwd=work, env=env, check=True)
    assert list(work.iterdir()) == []  # nothing ran but the fake python: no file x
    return (cwd / "args").read_bytes().decode().split("\0")[:-1]


@pytest.mark.parametrize("title", TITLES)
def test_a_title_is_only_a_comment_of_the_workflow_and_a_string_of_site_toml(tmp_path, title,
                                                                            reference):
    league = tmp_path / "league"
    create_league(league, title=title, today=TODAY)
    assert workflow_of(league) == reference  # no key added, none changed
    text = (league / WORKFLOW).read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("# Build the results site of ")
    assert len(text.splitlines()) == len(text.split("\n")) - 1  # no other line breaks in it
    assert tomllib.loads((league / "site.toml").read_text(encoding="utf-8"))["title"] == title


def test_a_league_with_line_separators_and_bidi_controls_in_its_title_builds(tmp_path, run_cli):
    league = tmp_path / "league"
    title = "Ligue\u2028des \u202eRois\u202c\x85du Nord"
    assert run_cli("new", league, "--title", title).code == 0
    assert "\u2028" not in (league / "site.toml").read_text(encoding="utf-8")  # written \u2028
    result = run_cli("build", "--source", league, "--out", league / "_site")
    assert result.code == 0, result.err
    assert f"<h1>{title}</h1>" in (league / "_site/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("install", INSTALLS)
def test_an_install_value_reaches_pip_as_one_literal_argument(tmp_path, install, reference):
    league = tmp_path / "league"
    create_league(league, install=install, today=TODAY)
    workflow = workflow_of(league)
    run = install_step(workflow)["run"]
    install_step(workflow)["run"] = install_step(reference)["run"]
    assert workflow == reference  # only the install line differs
    assert args_received(run, tmp_path / "workflow") == ["-m", "pip", "install", install]
    # the README's line, which the organizer copies into a terminal, quotes it the same way
    readme = (league / "README.md").read_text(encoding="utf-8")
    (line,) = [line.strip() for line in readme.splitlines() if "python -m pip install" in line]
    assert line == run
    assert args_received(line, tmp_path / "readme") == ["-m", "pip", "install", install]


def test_the_default_install_line_is_the_pinned_requirement_quoted(tmp_path, reference):
    from site_builder import __version__
    assert install_step(reference)["run"] == f"python -m pip install 'site-builder=={__version__}'"


@pytest.mark.parametrize(("install", "why"), [
    ("${{ secrets.GITHUB_TOKEN }}", r"\$\{\{, which GitHub Actions would evaluate"),
    ("site-builder==1.0 ${{ github.token }}", r"\$\{\{, which GitHub Actions would evaluate"),
    ("site-builder==1.0\ntouch x", r"holds \\n: "),
    ("site-builder==1.0\r", r"holds \\r: "),
    ("site-builder==1.0\u2028touch x", r"holds \\u2028: "),
    ("site-builder==1.0\x85", r"holds \\x85: "),
    ("site-builder==1.0\u202e", r"holds \\u202e: "),
    ("site-builder==1.0\x1b[2J", r"holds \\x1b: "),
    ("\ufeffsite-builder==1.0", r"holds \\ufeff: "),
    ("--index-url=https://evil.example/simple", r"starts with -: "),
    ("   ", r'--install "   ": '),
])
def test_an_install_value_the_workflow_cannot_hold_is_refused_and_nothing_written(
        tmp_path, run_cli, install, why):
    result = run_cli("new", tmp_path / "league", f"--install={install}")
    assert result.code == 1
    assert len(result.lines) == 1 and result.lines[0].startswith("site-builder: --install ")
    assert re.search(why, result.lines[0]), result.lines[0]
    assert "give one pip requirement, such as site-builder==" in result.lines[0]
    assert not (tmp_path / "league").exists()


@pytest.mark.parametrize(("title", "shown"), [
    ("Bad\x7fName", r'"Bad\x7fName" holds a control character (\x7f)'),
    ("Bad\x00Name", r'"Bad\x00Name" holds a control character (\x00)'),
    ("Two\nlines", r'"Two\nlines" holds a control character (\n)'),
    ("Tab\there", r'"Tab\there" holds a control character (\t)'),
    ("Clear\x1b[2Jscreen", r'"Clear\x1b[2Jscreen" holds a control character (\x1b)'),
    ("Not UTF-8 \udcff", r'"Not UTF-8 \udcff" holds bytes that are not UTF-8 text (\udcff)'),
])
def test_a_title_site_toml_cannot_hold_is_refused_and_nothing_written(tmp_path, run_cli, title,
                                                                      shown):
    result = run_cli("new", tmp_path / "league", "--title", title)
    assert result.code == 1
    assert result.lines == [
        f"site-builder: --title {shown}: give the league's name as one line of text, with no "
        "control characters (U+0000–U+001F, U+007F)"]
    assert not (tmp_path / "league").exists()


def test_a_title_from_a_folder_name_it_cannot_use_asks_for_one(tmp_path, run_cli):
    folder = tmp_path / "league\x1b[2J"
    result = run_cli("new", folder)
    assert result.code == 1
    assert result.lines == [
        r"""site-builder: the title from the folder's name, "League\x1b[2J", holds a control """
        r"character (\x1b): give the league's name with --title, as one line of text, with no "
        "control characters (U+0000–U+001F, U+007F)"]
    assert not folder.exists()
    with pytest.raises(ConfigError):
        create_league(tmp_path / "x", title="  ")


# Any text but lone surrogates (no file can hold them as UTF-8), with the characters that matter
# here drawn often: quotes, escapes, YAML and shell syntax, controls, line and bidi separators.
AWKWARD = st.text(st.one_of(
    st.sampled_from(list("\\\"'`$#:{}[]&*!|>%@,-?\n\r\t\x00\x1b\x7f\x85\x9b\u2028\u2029\u202e"
                         "\u2066\ufeff\ufffe\uffff ")),
    st.characters(exclude_categories=("Cs",))))


def one_line_without_controls(text: str) -> bool:
    return len(f"{text}.".splitlines()) == 1 and not re.search(
        "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]", text)


@settings(max_examples=300, deadline=None)
@given(AWKWARD)
def test_a_quoted_string_reads_back_as_the_same_text_in_toml_and_yaml(text):
    quoted = quoted_string(text)
    assert one_line_without_controls(quoted)
    assert tomllib.loads(f"value = {quoted}\nafter = 1\n") == {"value": text, "after": 1}
    assert yaml.safe_load(f"value: {quoted}\nafter: 1\n") == {"value": text, "after": 1}


@settings(max_examples=300, deadline=None)
@given(AWKWARD)
def test_a_yaml_comment_stays_a_comment(text):
    shown = yaml_comment(text)
    assert one_line_without_controls(shown)
    assert yaml.safe_load(f"# {shown}\nkey: 1\n") == {"key": 1}


@settings(max_examples=40, deadline=None)
@given(st.lists(AWKWARD.filter(lambda text: "\x00" not in text), min_size=1, max_size=8))
def test_a_shell_word_is_one_literal_argument(tmp_path_factory, texts):
    # (an argument cannot hold NUL; `new` never writes one: a requirement is printable text)
    work = tmp_path_factory.mktemp("shell")
    command = "printf '%s\\0' " + " ".join(shell_word(text) for text in texts)
    run = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, check=True)
    assert run.stdout.decode().split("\0")[:-1] == texts
    assert list(work.iterdir()) == []
