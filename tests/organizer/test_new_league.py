"""`site-builder new FOLDER` starts a league with nothing of the tool inside it, and a league's
defaults follow its own data: the home heading is its title, a folder with no events folder is
refused with where the build looked."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from site_builder import __version__
from site_builder.build import write
from site_builder.organizer.newleague import create_league

REPO = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 11, 24)
SLUG = "2026-11-24-example-store-night"
OFFICIAL = {"actions/checkout", "actions/setup-python", "actions/configure-pages",
            "actions/cache/restore", "actions/cache/save", "actions/upload-pages-artifact",
            "actions/deploy-pages"}


def tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_new_then_build_gives_a_working_site(tmp_path, run_cli):
    league = tmp_path / "northern-league"
    result = run_cli("new", league)
    assert result.code == 0
    assert f"cd {league}" in result.out and "site-builder serve" in result.out
    # nothing of the tool: no code, tests, benchmarks, Makefile or pyproject; a git
    # repository on branch main, the one its workflow publishes (issue 34, point 3)
    assert {path.split("/")[0] for path in tree(league)} == {
        "site.toml", "data", "content", ".gitignore", "README.md", ".github", ".git"}
    assert (league / ".git/HEAD").read_text() == "ref: refs/heads/main\n"
    assert "Started a git repository there, on branch main" in result.out
    assert tomllib.loads((league / "site.toml").read_text())["title"] == "Northern League"
    assert (league / "data/players.csv").read_text() == "id,name,aliases\n"

    built = run_cli("build", "--source", league, "--out", league / "_site")
    assert built.code == 0, built.err
    out = league / "_site"
    assert re.search(r"<h1>Northern League</h1>", (out / "index.html").read_text())
    slug = next(p.name for p in (league / "data/events").iterdir())
    standings = json.loads((out / f"events/{slug}/standings.json").read_text())["standings"]
    # worked by hand: Ada wins twice (5 + 5), Grace wins then loses to Ada (5), Alan loses then
    # wins on the Final Decree (0 + 4), Edsger loses twice
    assert [(row["player"], row["points"]) for row in standings] == [
        ("Ada Lovelace", 10), ("Grace Hopper", 5), ("Alan Turing", 4), ("Edsger Dijkstra", 0)]
    assert "warning" not in built.err  # the example is clean data
    # its registrations name decks: Alan and Edsger's Orks mirror (round 2) is left out of the
    # win rates, so Orks are 0–2, Space Marines (Ada) 2–0 and Eldar (Grace) 1–1
    assert [row["deck"] for row in standings] == ["Space Marines", "Eldar", "Orks", "Orks"]
    event = (out / f"events/{slug}/index.html").read_text()
    assert re.search(r"Orks</th><td class=\"num\">2</td>.*?50.00%.*?0.00%.*?0–2", event, re.S)
    assert (out / "about/index.html").is_file()
    # it is an example (issue 34, point 2): its page says so, and no ranking or deck table
    # across events counts it
    assert "<strong>An example event.</strong> No ranking or deck table counts it." in event
    assert f"<code>data/events/{slug}/</code>" in event
    assert not (out / "decks/conquest").exists() and "/decks/conquest/" not in event
    home = (out / "index.html").read_text()
    assert "/rankings/conquest/" not in home  # no "1. Ada Lovelace" in a ranking teaser
    assert '<span class="badge">example</span>' in home
    rankings = (out / "rankings/conquest/index.html").read_text()
    assert "0 players with points" in rankings and "Ada Lovelace" not in rankings
    assert "not counted: an example event (example = true in its event.toml)" in rankings
    assert '<span class="badge">example</span>' in (out / "events/index.html").read_text()
    ignored = (league / ".gitignore").read_text().split()
    assert "/_site/" in ignored and "/_site.*" in ignored


def test_the_example_event_is_dated_the_day_the_league_was_made(tmp_path):
    written = create_league(tmp_path / "x", today=TODAY)
    assert f"data/events/{SLUG}/event.toml" in written
    event = tomllib.loads((tmp_path / "x" / "data/events" / SLUG / "event.toml").read_text())
    assert event["date"] == TODAY and event["game"] == "conquest"


def test_the_workflow_installs_the_tool_pinned_and_uses_the_official_actions(tmp_path):
    create_league(tmp_path / "a", today=TODAY)
    workflow = yaml.safe_load((tmp_path / "a/.github/workflows/pages.yml").read_text())
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    used = {step["uses"].split("@")[0] for step in steps if "uses" in step}
    assert used == OFFICIAL
    assert all("@v" in step["uses"] for step in steps if "uses" in step)  # each at a version
    runs = [step["run"] for step in steps if "run" in step]
    assert f"python -m pip install 'site-builder=={__version__}'" in runs
    assert any(run.startswith("site-builder build --source . --out _site") for run in runs)
    # the build signs the state it keeps in the cache with the league's secret, if it has one
    build_step = next(step for step in steps if step.get("run", "").startswith("site-builder"))
    assert build_step["env"] == {
        "SITE_BUILDER_STATE_KEY": "${{ secrets.SITE_BUILDER_STATE_KEY }}"}
    assert "SITE_BUILDER_STATE_KEY" in (tmp_path / "a/README.md").read_text()
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    # from the tool's git repository at a tag, when asked
    pin = f"git+https://example.org/tools/site-builder@v{__version__}"
    create_league(tmp_path / "b", install=pin, today=TODAY)
    text = (tmp_path / "b/.github/workflows/pages.yml").read_text()
    assert f"run: \"python -m pip install '{pin}'\"" in text
    assert pin in (tmp_path / "b/README.md").read_text()


def test_a_title_with_quotes_and_accents_is_written_as_data(tmp_path, run_cli):
    league = tmp_path / "l"
    assert run_cli("new", league, "--title", 'Ligue "Zoë" de Liège').code == 0
    assert tomllib.loads((league / "site.toml").read_text())["title"] == 'Ligue "Zoë" de Liège'
    assert run_cli("build", "--source", league, "--out", league / "_site").code == 0
    assert "<h1>Ligue &#34;Zoë&#34; de Liège</h1>" in (league / "_site/index.html").read_text()


def test_new_refuses_a_folder_that_is_not_empty(tmp_path, run_cli):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    result = run_cli("new", tmp_path / "mine")
    assert result.code == 1
    assert result.lines == [f"site-builder: {tmp_path / 'mine'} is not empty: `new` writes a "
                            "league only into a new or empty folder, so that nothing of yours "
                            "is overwritten"]
    assert tree(tmp_path / "mine") == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    assert run_cli("new", tmp_path / "empty").code == 0


def test_the_home_heading_follows_the_title_unless_the_home_text_has_its_own(tmp_path, run_cli):
    league = tmp_path / "l"
    create_league(league, today=TODAY)
    site_toml = league / "site.toml"
    site_toml.write_text(site_toml.read_text().replace('title = "L"', 'title = "Riverside Card Club"'))
    assert run_cli("build", "--source", league, "--out", league / "_site").code == 0
    assert "<h1>Riverside Card Club</h1>" in (league / "_site/index.html").read_text()
    index = league / "content/index.md"
    index.write_text("# Welcome to the club\n\n" + index.read_text())
    assert run_cli("build", "--source", league, "--out", league / "_site").code == 0
    assert "<h1>Welcome to the club</h1>" in (league / "_site/index.html").read_text()


def test_a_folder_without_an_events_folder_is_refused_with_where_it_looked(tmp_path, run_cli):
    (tmp_path / "data").mkdir()
    result = run_cli("build", "--source", tmp_path, "--out", tmp_path / "_site")
    assert result.code == 1
    # run_cli runs the command from inside --source, as an organizer types `site-builder build`
    assert result.lines == [f"site-builder: {tmp_path / 'data/events'} is missing: a results "
                            "site keeps its events in data/events/<slug>/ (is --source . the "
                            "right folder? To start a league: site-builder new FOLDER)"]
    assert not (tmp_path / "_site").exists()
    (tmp_path / "data/events").mkdir()
    result = run_cli("build", "--source", tmp_path, "--out", tmp_path / "_site")
    assert result.code == 0
    assert ("No events yet: add a folder data/events/<slug>/ with an event.toml and its round "
            "files, then build again.") in result.lines


def watch_beside(folder: Path, monkeypatch) -> dict[str, bool]:
    """Every name that appears in `folder` while builds run, and whether it is a folder: looked
    at whenever a build renames or removes something (a state file put in place, a staging
    folder swapped in or removed), when its temporary files and folders exist."""
    seen: dict[str, bool] = {}
    real_replace, real_rmtree = os.replace, shutil.rmtree

    def look() -> None:
        for entry in os.scandir(folder):
            seen[entry.name] = entry.is_dir()

    def replace(*args, **kwargs):
        look()
        return real_replace(*args, **kwargs)

    def rmtree(*args, **kwargs):
        look()
        return real_rmtree(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(shutil, "rmtree", rmtree)
    return seen


@pytest.mark.parametrize("gitignore", ["the league's own", "the tool repository's"])
def test_the_gitignore_covers_every_file_a_build_leaves_beside_its_output(tmp_path, run_cli,
                                                                         monkeypatch, gitignore):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    league = tmp_path / "league"
    assert run_cli("new", league).code == 0
    if gitignore == "the tool repository's":
        shutil.copy(REPO / ".gitignore", league / ".gitignore")
    made = {entry.name for entry in league.iterdir()}
    seen = watch_beside(league, monkeypatch)
    assert run_cli("build", "--source", league).code == 0            # a new site: staged whole
    round_2 = next(league.glob("data/events/*/round-2.csv"))
    round_2.write_text(round_2.read_text().replace("modified-win", "win"))
    assert run_cli("build", "--source", league).code == 0            # in place, from the state
    monkeypatch.setattr(write, "exchange", lambda first, second: False)  # no renameat2:
    assert run_cli("build", "--source", league, "--clean").code == 0  # the old site retired
    left = {name: is_dir for name, is_dir in seen.items() if name not in made}
    kinds = {re.sub(r"[0-9]+(-\w{8})?$", "<n>", name) for name in left}
    assert kinds == {"_site", "_site.state", "._site.state.tmp-<n>", "._site.staging-<n>",
                     "._site.old-<n>"}, left
    for name, is_dir in left.items():  # made again as the build had them, to ask git
        if is_dir:
            (league / name).mkdir(exist_ok=True)
            (league / name / "index.html").write_text("<p>a page</p>")
        elif not (league / name).exists():
            (league / name).write_bytes(b"state")
    subprocess.run(["git", "init", "-q", str(league)], check=True)
    asked = [*left, *(f"{name}/index.html" for name, is_dir in left.items() if is_dir)]
    ignored = subprocess.run(["git", "-C", str(league), "check-ignore", *asked],
                             capture_output=True, text=True).stdout.splitlines()
    assert sorted(ignored) == sorted(asked)
    untracked = subprocess.run(["git", "-C", str(league), "status", "--porcelain",
                                "--untracked-files=all"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
    assert untracked and not [line for line in untracked if "_site" in line], untracked


def test_without_git_new_says_how_to_start_the_repository(tmp_path, run_cli, monkeypatch):
    """No git on the PATH: the league is written all the same, and `new` says what to run once
    git is installed."""
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    result = run_cli("new", tmp_path / "league")
    assert result.code == 0
    assert ("git is not installed here: install it, then run `git init -b main` in the folder"
            in result.out)
    assert (tmp_path / "league/site.toml").is_file() and not (tmp_path / "league/.git").exists()


@pytest.mark.parametrize("game, standings", [
    # worked by hand: Ada wins twice (3 + 3), Grace and Alan win once (3), Edsger never. Grace
    # and Alan tie on 3 points and on OMW% (each met Ada, 100%, and Edsger, 0% raised to
    # 0.33); their games are 3 of 5 each (2-1 and 1-2) too, and so OGW%: the seeded draw
    # decides, so only the points are worked here.
    ("magic", [("Ada Lovelace", 6), (None, 3), (None, 3), ("Edsger Dijkstra", 0)]),
    ("chess", [("Ada Lovelace", 2), (None, 1), (None, 1), ("Edsger Dijkstra", 0)]),
    ("netrunner", [("Ada Lovelace", 12), (None, 6), (None, 6), ("Edsger Dijkstra", 0)]),
])
def test_new_writes_its_example_event_in_the_game_asked(tmp_path, run_cli, game, standings):
    """A Magic or Pokémon league starts with an example of its own game (issue 35: what an
    organizer moving from spreadsheets expects), in the game's words and checked clean."""
    league = tmp_path / "league"
    result = run_cli("new", league, "--game", game)
    assert result.code == 0 and "with an example " in result.out.splitlines()[0]
    built = run_cli("build", "--source", league, "--out", league / "_site")
    assert built.code == 0 and "warning" not in built.err, built.err
    slug = next(p.name for p in (league / "data/events").iterdir())
    assert tomllib.loads((league / f"data/events/{slug}/event.toml").read_text())["game"] == game
    rows = json.loads((league / f"_site/events/{slug}/standings.json").read_text())["standings"]
    assert [(row["player"] if name else None, row["points"]) for row, (name, _) in
            zip(rows, standings)] == standings
