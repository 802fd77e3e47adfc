"""Where a build may write, and what it leaves behind (issue 18, points 3 and 5): never inside what
it reads, never over a folder it did not make, never over the published site when --source is
wrong; a killed build's staging folder is cleared by the next build and ignored by git."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO, conquest_event

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"


@pytest.fixture
def built(site, run_cli):
    """A scratch site built once into site.out: the published site every test must keep."""
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
                f"{EV}/round-1.csv": ROUND_1})
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    return site


def snapshot(folder) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("inside", ["data/events/zz-out", "content/out",
                                    "themes/default/static/mirror", "data"])
def test_an_output_folder_inside_what_the_build_reads_is_refused(built, run_cli, inside):
    result = run_cli("build", "--source", built.root, "--out", built.root / inside)
    assert result.code == 1
    top = inside.split("/")[0]
    assert (f"is inside {top}/, which the site is built from" in result.err), result.err
    assert not (built.root / inside / "index.html").exists()
    assert run_cli("check", "--source", built.root).code == 0  # the source is as it was


@pytest.mark.parametrize("kept", ["data", "content", "site.toml"])
@pytest.mark.parametrize("clean", [False, True])
def test_an_input_kept_inside_the_output_folder_is_refused_not_deleted(built, run_cli, kept,
                                                                       clean):
    """data/ moved into _site/ and linked back: a build would replace _site/ and the data with it
    (issue 30's red team)."""
    (built.root / "content").mkdir(exist_ok=True)
    (built.root / "content/about.md").write_text("# About\n")
    (built.root / "site.toml").write_text('title = "Club"\n')
    moved = built.out / f"kept-{kept}"
    shutil.move(built.root / kept, moved)
    (built.root / kept).symlink_to(moved)
    before = snapshot(built.out)
    result = run_cli("build", "--source", built.root, "--out", built.out,
                     *(["--clean"] if clean else []))
    assert result.code == 1
    assert result.err == (f"site-builder: {kept} leads into the output folder {built.out} (it is a "
                          f"link to {moved}), which every build replaces: move it out of the "
                          "output folder, or choose another --out\n"), result.err
    assert snapshot(built.out) == before


def test_an_event_folder_kept_inside_the_output_folder_is_an_error(built, run_cli):
    """A link deeper down into the built site: an error, so nothing is published and the next
    build does not take the event's files with it."""
    moved = built.out / "cup-data"
    shutil.move(built.root / EV, moved)
    (built.root / EV).symlink_to(moved)
    before = snapshot(built.out)
    for clean in ([], ["--clean"]):
        result = run_cli("build", "--source", built.root, "--out", built.out, *clean)
        assert result.code == 1
        assert (f"{EV}: is a link to {moved}, inside a built site, which the next build replaces: "
                "move what it leads to out of the output folder, and link to it there"
                in result.err), result.err
        assert snapshot(built.out) == before


def test_an_output_folder_inside_the_builtin_theme_is_refused(built, run_cli):
    target = REPO / "themes/default/static/zz-mirror"
    result = run_cli("build", "--source", built.root, "--out", target)
    assert result.code == 1 and "which the site is built from" in result.err
    assert not target.exists()


def test_a_hand_written_folder_with_its_own_nojekyll_is_not_replaced(built, run_cli, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / ".nojekyll").write_text("")
    (docs / "index.html").write_text("<h1>Our club</h1>")
    result = run_cli("build", "--source", built.root, "--out", docs)
    assert result.code == 1
    assert f"refusing to replace {docs}: it is not empty and is not a site-builder build" in result.err
    assert snapshot(docs) == {".nojekyll": b"", "index.html": b"<h1>Our club</h1>"}


def test_an_earlier_build_is_recognised_by_its_marker_and_replaced(built, run_cli):
    assert (built.out / ".site-builder").read_bytes().startswith(b"This folder is a site built")
    (built.out / "stale.html").write_text("from an earlier build")
    assert run_cli("build", "--source", built.root, "--out", built.out).code == 0
    assert not (built.out / "stale.html").exists()


@pytest.mark.parametrize("command", ["build", "check"])
@pytest.mark.parametrize("source,message", [
    ("missing", "--source {source}: there is no such folder"),
    ("a-file", "--source {source} is a file: give the site's folder, the one holding site.toml, "
               "data/ and content/"),
    ("no-data", "{source}/data/events is missing: a results site keeps its events in "
                "data/events/<slug>/ (is --source . the right folder? To start a league: "
                "site-builder new FOLDER)"),
])
def test_a_source_that_is_not_a_site_leaves_the_published_site_alone(
        built, run_cli, tmp_path, command, source, message):
    path = tmp_path / source
    if source == "a-file":
        path.write_text("not a site")
    elif source == "no-data":
        (path / "content").mkdir(parents=True)
    before = snapshot(built.out)
    out = ["--out", built.out] if command == "build" else []
    result = run_cli(command, "--source", path, *out)
    assert result.code == 1
    assert result.lines == [f"site-builder: {message.format(source=path)}"]
    assert snapshot(built.out) == before


def test_data_events_that_is_a_file_is_an_error(built, run_cli):
    shutil.rmtree(built.root / "data/events")
    (built.root / "data/events").write_text("oops")
    before = snapshot(built.out)
    result = run_cli("build", "--source", built.root, "--out", built.out)
    assert result.code == 1
    assert result.lines == [f"site-builder: {built.root / 'data/events'} is a file, not a "
                            "folder: a results site keeps its events in data/events/<slug>/ (is "
                            "--source . the right folder? To start a league: site-builder new "
                            "FOLDER)"]
    assert snapshot(built.out) == before


def test_an_output_folder_under_a_file_is_a_message(built, run_cli, tmp_path):
    (tmp_path / "a-file").write_text("x")
    result = run_cli("build", "--source", built.root, "--out", tmp_path / "a-file/site")
    assert result.code == 1
    assert result.lines == [f"site-builder: cannot make the output folder {tmp_path}/a-file/site: "
                            f"{tmp_path}/a-file is a file, not a folder"]


KILLED_BUILD = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from site_builder.build.publish import FreshFolder

    class KilledMidway(dict):
        # The system kills the build (out of memory, SIGKILL) after its third file.
        def __getitem__(self, key):
            if key == "c.html":
                os.kill(os.getpid(), signal.SIGKILL)
            return dict.__getitem__(self, key)

    files = KilledMidway({n: b"x" * 1000 for n in (".nojekyll", "a.html", "b.html", "c.html")})
    staging = FreshFolder(Path(sys.argv[1]))
    staging.commit([staging.write(name, files[name]) for name in sorted(files)])
""")


def test_a_killed_builds_staging_folder_is_removed_by_the_next_build(built, run_cli):
    killed = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(built.out)])
    assert killed.returncode == -signal.SIGKILL
    leftovers = [p.name for p in built.out.parent.iterdir() if p.name.startswith(".out.staging-")]
    assert len(leftovers) == 1 and (built.out.parent / leftovers[0] / "a.html").is_file()
    # A build still running elsewhere, and a folder of someone else's with a similar name, stay.
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        alive = built.out.parent / f".out.staging-{running.pid}-abcd1234"
        (alive / ".nojekyll").parent.mkdir()
        (alive / ".nojekyll").write_text("")
        theirs = built.out.parent / ".out.old-backup12"
        theirs.mkdir()
        (theirs / "notes.txt").write_text("mine")
        assert run_cli("build", "--source", built.root, "--out", built.out).code == 0
        names = sorted(p.name for p in built.out.parent.iterdir() if p.name.startswith(".out."))
        assert names == [".out.old-backup12", alive.name]
    finally:
        running.kill()
        running.wait()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_ignores_what_a_killed_build_leaves(tmp_path):
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    names = ["._site.staging-4242-abcd1234/index.html", ".docs.old-4242-abcd1234/index.html",
             "_site/index.html"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path / "data").mkdir()
    (tmp_path / "data/keep.csv").write_text("x")
    ignored = subprocess.run(["git", "check-ignore", *names, "data/keep.csv"], cwd=tmp_path,
                             capture_output=True, text=True).stdout.split()
    assert ignored == names  # and data/keep.csv is not ignored
