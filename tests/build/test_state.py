"""The build trusts nothing it reads back (issue 30, points 1–4): the state beside the output
cannot run code, name a path outside the output folder, or keep a page changed by hand; its
temporary file never follows a link; a state path taken by a folder or a pipe is said, and a
state that could not be saved is said truthfully."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import shutil
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import msgpack
import pytest

from conftest import copy_demo
from site_builder.build import build
from site_builder.cli import main
from site_builder.core.digests import bytes_digest
from site_builder.files.inputs import code_digest
from site_builder.build.state import MAGIC, _LENGTH, load_state, save_state, state_file
from site_builder.core.statecodec import Damaged, pack, unpack
from test_unreadable_and_full import run as run_limited

pytestmark = pytest.mark.slow  # each test builds the demo, then damages its state

PAGES = 302
"""HTML and JSON pages of the demo: a full build draws every one."""
OTHER_FILES = 9
"""The other files a build publishes: the theme's 6 static files (style.css, favicon.svg,
fold.js, search.js, nav.js, filter.js), sitemap.xml and the two markers."""


@pytest.fixture(scope="module")
def demo_built_once(tmp_path_factory) -> Path:
    """The demo built once for the module, with its state beside it: root/site, root/out and
    root/out.state, which `built` copies for each test."""
    root = tmp_path_factory.mktemp("state-template")
    assert build(copy_demo(root / "site"), root / "out").rendered == PAGES
    return root


@pytest.fixture
def built(tmp_path, demo_built_once):
    """The demo, built with a state beside it: (source, out) at tmp_path/site and tmp_path/out.
    A copy of the module's build (a full build for each of 44 tests was 40 s of the suite): one
    build of the copy, which must find every page current, gives its state the stamps of these
    very files (the copies have inodes of their own), as building it here would have left it."""
    source, out = tmp_path / "site", tmp_path / "out"
    shutil.copytree(demo_built_once / "site", source, symlinks=True)
    shutil.copytree(demo_built_once / "out", out, symlinks=True)
    shutil.copy2(demo_built_once / "out.state", tmp_path / "out.state")
    result = build(source, out)
    assert (result.rendered, result.written, result.deleted) == (0, 0, 0), "the copy was not current"
    return source, out


def cli(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stderr(err):
        code = main(list(args))
    return code, err.getvalue()


def rebuild(source: Path, out: Path) -> tuple[int, str]:
    return cli("build", "--source", str(source), "--out", str(out))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def rewrite_state(out: Path, change) -> None:
    """Change the state's body as plain data and write it back with a checksum that matches, as
    anyone who can write the file (a cache entry) can."""
    data = state_file(out).read_bytes()
    (length,) = _LENGTH.unpack(data[len(MAGIC):len(MAGIC) + 4])
    header_at = len(MAGIC) + 4
    header = msgpack.unpackb(data[header_at + 1:header_at + length])
    body = msgpack.unpackb(data[header_at + length:])
    # each event's record is packed on its own: changed as plain data too, and packed back
    body[2] = {slug: msgpack.unpackb(unit) for slug, unit in body[2].items()}
    change(body)
    if isinstance(body[2], dict):
        body[2] = {slug: msgpack.packb(unit, use_bin_type=True) for slug, unit in body[2].items()}
    body_bytes = msgpack.packb(body, use_bin_type=True)
    header[3] = bytes_digest(body_bytes)
    header_bytes = bytes([data[header_at]]) + msgpack.packb(header, use_bin_type=True)
    state_file(out).write_bytes(MAGIC + _LENGTH.pack(len(header_bytes)) + header_bytes
                                + body_bytes)


# ---------------------------------------------------------------- 1. data, never code

class Payload:
    """Unpickling this runs a shell command: what a crafted state did to the build before."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_pickled_state_runs_nothing_and_the_build_is_full(built, tmp_path):
    source, out = built
    marker = tmp_path / "ran"
    # The old layout: a pickled header read first, then the body; both carry the payload.
    state_file(out).write_bytes(pickle.dumps((Payload(marker), 3)) + pickle.dumps(Payload(marker)))
    assert build(source, out).rendered == PAGES
    assert not marker.exists()
    # A watch session reads the state the same way at its start.
    from site_builder.live.session import Session
    state_file(out).write_bytes(pickle.dumps(Payload(marker)))
    Session(source, out).build_all()
    assert not marker.exists()


@pytest.mark.parametrize("damage,reason", [
    (lambda data: data[:len(data) // 2], "its checksum does not match"),
    (lambda data: MAGIC + os.urandom(600), "it is not what a build writes"),
    (lambda data: b"", "it is not what a build writes (not a site-builder state)"),
])
def test_a_state_that_does_not_parse_is_a_full_build_and_said(built, damage, reason):
    source, out = built
    state_file(out).write_bytes(damage(state_file(out).read_bytes()))
    code, err = rebuild(source, out)
    assert code == 0, err
    assert f"({PAGES + OTHER_FILES} files: {PAGES} rendered" in err
    assert f"site-builder: note: {state_file(out)} was not used: " in err and reason in err, err
    # Said once: the next build uses the state that build wrote.
    code, err = rebuild(source, out)
    assert "0 rendered" in err and "not used" not in err


def save_changed(out: Path, state) -> None:
    """Save a state changed in place, every event's record packed anew (save_state writes the
    bytes it read for a record object it read, which a build never changes)."""
    state.packed = {}
    save_state(out, state)


def first_event(body: list) -> list:
    return next(iter(body[2].values()))


@pytest.mark.parametrize("change,said", [
    # A page's size as text, an event's date that is no date or not text, a page record of
    # two fields, a field too many.
    (lambda b: next(iter(b[3].values())).__setitem__(2, "1234"), "expected int"),
    (lambda b: first_event(b)[0][1].__setitem__(3, "2024-13-45"), "expected a date"),
    (lambda b: first_event(b)[0][1].__setitem__(3, 20240518), "expected a date"),
    (lambda b: b[3].update({"x": [1, 2]}), "expected PageRecord"),
    (lambda b: b.append(None), "expected StateFile"),
])
def test_a_state_of_the_wrong_shape_is_a_full_build(built, change, said):
    source, out = built
    rewrite_state(out, change)
    code, err = rebuild(source, out)
    assert code == 0 and f"{PAGES} rendered" in err and said in err, err


def test_the_codec_reads_back_what_it_wrote_and_nothing_else():
    from site_builder.core.model import PlayerRef
    from site_builder.rules.views import PlayerGame, PlayerResult
    result = PlayerResult(PlayerRef("Zoë \u202e", "zoe"), 3, "Top 8", "12", "4–1–0",
                          (PlayerGame(1, "Round 1", "4", (PlayerRef("Ann", "ann"),), "Win",
                                      "3", "win"),),
                          ranks=(("Round 1", 2, 9), ("Round 2", None, 9)))
    assert unpack(pack(result, PlayerResult), PlayerResult) == result
    plain = msgpack.unpackb(pack(result, PlayerResult))
    plain[1] = True  # a rank that is a bool, not an int
    with pytest.raises(Damaged):
        unpack(msgpack.packb(plain), PlayerResult)
    with pytest.raises(Damaged):  # msgpack's own extension types are no value of ours
        unpack(msgpack.packb(msgpack.ExtType(1, b"x")), PlayerResult)


def test_a_damaged_result_read_late_makes_the_build_a_full_one(built):
    """A player's result is kept packed and read only when their page is drawn: a damaged one
    is found then, and the build starts again from nothing, publishing nothing half-made."""
    source, out = built
    clean = snapshot(out)
    page = out / "players" / "robert-mills" / "index.html"

    def damage(body):
        for unit in body[2].values():
            unit[0][3] = [[pid, digest, b"\xc1" if pid == "robert-mills" else packed]
                          for pid, digest, packed in unit[0][3]]
    rewrite_state(out, damage)
    page.write_bytes(page.read_bytes().replace(b"<title>", b"<titlE>"))  # drawn again
    code, err = rebuild(source, out)
    assert code == 0, err
    assert f"{PAGES} rendered" in err and "was not used: it is not what a build writes" in err
    assert snapshot(out) == clean


# ---------------------------------------------------------------- 2. inside the output folder

@pytest.mark.parametrize("where", ["site pages", "event pages", "files", "stamps"])
def test_a_path_outside_the_output_folder_turns_the_state_down(built, tmp_path, where):
    source, out = built
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    state = load_state(out, code_digest())
    record = next(iter(state.pages.values()))
    if where == "site pages":
        state.pages["../victim.txt"] = record
    elif where == "event pages":
        next(iter(state.events.values())).pages["events/../../victim.txt"] = record
    elif where == "files":
        state.files["../victim.txt"] = 7
    else:  # a stamp names only pages the state lists
        state.stamps["../victim.txt"] = (1, 1)
    save_changed(out, state)
    code, err = rebuild(source, out)
    assert code == 0, err
    assert victim.read_text() == "keep me"
    assert f"{PAGES} rendered" in err and "not used" in err


@pytest.mark.parametrize("path", ["/etc/passwd", "a//b", "./index.html", "a/./b", "a\\..\\b",
                                  "", "a/\0/b", "a/.."])
def test_only_plain_relative_paths_lie_inside(path):
    from site_builder.build.statecheck import inside_output
    assert not inside_output(path)
    assert inside_output("events/2024-cup/round-1/index.html")


def test_a_link_in_the_output_folder_turns_the_state_down(built, tmp_path):
    """A folder of the site replaced by a link (a poisoned cache): a build from the state would
    write and delete through it. The whole site is built anew instead, and the link goes."""
    source, out = built
    outside = tmp_path / "outside"
    (outside / "2026-06-13-northern-regional-championship").mkdir(parents=True)
    (outside / "keep.txt").write_text("keep")
    events = out / "events"
    os.rename(events, tmp_path / "events-moved")
    events.symlink_to(outside)
    code, err = rebuild(source, out)
    assert code == 0, err
    assert "is a link or a special file" in err and f"{PAGES} rendered" in err
    assert not events.is_symlink() and (events / "2026-06-13-northern-regional-championship").is_dir()
    assert sorted(p.name for p in outside.rglob("*")) == [
        "2026-06-13-northern-regional-championship", "keep.txt"]


# ---------------------------------------------------------------- 3. pages changed by hand

def change_keeping_size_and_time(page: Path, old: bytes, new: bytes) -> None:
    assert len(old) == len(new)
    info = page.stat()
    page.write_bytes(page.read_bytes().replace(old, new, 1))
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert page.stat().st_size == info.st_size and page.stat().st_mtime_ns == info.st_mtime_ns


def test_a_page_changed_with_its_size_and_time_kept_is_drawn_again(built):
    source, out = built
    page = out / "index.html"
    clean = page.read_bytes()
    change_keeping_size_and_time(page, b"</h1>", b"</h2>")
    result = build(source, out)
    assert result.rendered == 1 and page.read_bytes() == clean


def test_a_poisoned_cached_site_heals_on_the_next_deploy(built, tmp_path):
    """As the Pages workflow runs it: the output folder and its state restored from a cache
    (times kept to the second), pages changed there, then a build in a new process."""
    source, out = built
    clean = snapshot(out)
    standings = out / "events" / "2026-06-13-northern-regional-championship" / "index.html"
    change_keeping_size_and_time(standings, b"Points", b"P0ints")
    (out / "events" / "evil.html").write_text("<script>steal()</script>")
    code, err = rebuild(source, out)
    assert code == 0 and "1 rendered" in err and "1 deleted" in err, err
    assert snapshot(out) == clean


def test_a_watch_session_checks_its_pages_on_its_first_build_only(built):
    from site_builder.live.session import Session
    source, out = built
    page = out / "about" / "index.html"
    clean = page.read_bytes()
    change_keeping_size_and_time(page, b"<main", b"<mAin")
    session = Session(source, out)
    assert session.build_all().rendered == 1 and page.read_bytes() == clean
    session.close()


def test_page_records_hold_each_page_s_digest(built):
    _, out = built
    state = load_state(out, code_digest())
    path, record = next(iter(sorted(state.pages.items())))
    data = (out / path).read_bytes()
    assert record.size == len(data) and record.digest == hashlib.sha256(data).digest()[:16]


# ---------------------------------------------------------------- 4. writing the state

def test_the_state_is_never_written_through_a_link(built, tmp_path):
    source, out = built
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    # The name the state's temporary file had: ._out.state.tmp-<pid>.
    (out.parent / f".{out.name}.state.tmp-{os.getpid()}").symlink_to(victim)
    (source / "content" / "about.md").write_text("# About\n\nChanged.\n")
    assert build(source, out).rendered >= 1
    assert victim.read_text() == "keep me"
    assert load_state(out, code_digest()) is not None


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if ".tmp" in p.name or "staging" in p.name)


def test_a_folder_where_the_state_goes_is_said_and_nothing_is_written(built):
    source, out = built
    before = snapshot(out)
    state_file(out).unlink()
    state_file(out).mkdir()
    code, err = rebuild(source, out)
    assert code == 1
    assert err == (f"site-builder: {state_file(out)} is a folder, not the state file a build "
                   f"of {out}/ keeps beside it: move it away or remove it, then build again "
                   "(nothing was written)\n"), err
    assert snapshot(out) == before and leftovers(out) == []


def test_a_named_pipe_where_the_state_goes_is_said_and_does_not_hang(built):
    source, out = built
    state_file(out).unlink()
    os.mkfifo(state_file(out))
    finished = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--source", str(source), "--out", str(out)],
        capture_output=True, text=True, timeout=60)
    assert finished.returncode == 1
    assert "is a named pipe, not the state file" in finished.stderr
    assert leftovers(out) == []


def test_a_state_that_cannot_be_saved_is_said_truthfully(tmp_path):
    """The pages fit under the file-size limit, the state does not: the site is published and
    the message says so (it said the site was unchanged)."""
    source = copy_demo(tmp_path / "site")
    out = tmp_path / "out"
    code, err = run_limited(["build", "--source", str(source), "--out", str(out)],
                            as_user=False, file_size_limit=100_000)
    assert code == 0, err
    assert (out / "index.html").is_file() and not state_file(out).exists()
    assert ("site-builder: warning: the site is published, but the state beside it could not "
            "be saved (File too large): the next build will draw every page.") in err, err
    assert "unchanged" not in err
    assert leftovers(out) == []


def test_a_killed_build_s_temporary_state_is_removed(built):
    source, out = built
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = out.parent / f".{out.name}.state.tmp-{dead}-abcd1234"
    stale.write_bytes(b"half a state")
    (source / "content" / "about.md").write_text("# About\n\nChanged.\n")
    build(source, out)
    assert not stale.exists()


def test_pages_checked_by_workers_find_the_same_changes(built):
    """A large site's pages are checked in shares by forked workers: the same answer as here."""
    from site_builder.build import ondisk
    source, out = built
    state = load_state(out, code_digest())
    page = out / "about" / "index.html"
    change_keeping_size_and_time(page, b"<main", b"<mAin")
    records = sorted(state.pages.items())
    many = records * (ondisk.SHARE * 30 // len(records) + 1)  # past SERIAL_BELOW shares
    assert len(many) // ondisk.SHARE >= 24
    differing, stamps = ondisk._differing(str(out), many)
    assert differing == {"about/index.html"}
    assert set(stamps) == {path for path, _ in records} - {"about/index.html"}
    assert ondisk._differing_share(str(out), records) == (differing, stamps)


def test_a_stamp_of_a_page_the_state_no_longer_lists_is_dropped_not_refused(built):
    """A build from a state older than its output can leave the stamp of a page since removed
    (found by review: a serve session killed, then a player renamed): the stamp is of no use
    and is dropped as the state is read; the state is used, nothing is drawn again."""
    source, out = built
    state = load_state(out, code_digest())
    state.stamps["players/somebody-gone/index.html"] = (1, 1)
    save_changed(out, state)
    code, err = rebuild(source, out)
    assert code == 0 and "0 rendered" in err and "not used" not in err, err
    assert "players/somebody-gone/index.html" not in load_state(out, code_digest()).stamps


def test_a_build_that_changed_one_event_packs_that_events_record_alone(built, monkeypatch):
    """The state is written in proportion to the change: each event's record is packed on its
    own, and a new process whose build changed one event writes the records of the 12 others
    from the bytes it read. The file is the one a build packing everything writes."""
    from site_builder.build import state as state_module
    from site_builder.build.state import EventUnit
    source, out = built
    packed_units = []
    real_pack = state_module.pack
    monkeypatch.setattr(state_module, "pack", lambda value, kind: (
        packed_units.append(value.facts.slug) if kind is EventUnit else None,
        real_pack(value, kind))[1])
    night = "2026-11-21-november-store-night"
    round_2 = source / "data/events" / night / "round-2.csv"
    round_2.write_text(round_2.read_text(encoding="utf-8").replace(
        "1,José Álvarez,win\n1,Raj Patel,loss\n", "1,José Álvarez,loss\n1,Raj Patel,win\n"),
        encoding="utf-8")
    assert build(source, out).rendered > 0
    assert packed_units == [night]
    written = state_file(out).read_bytes()
    state = load_state(out, code_digest())
    save_changed(out, state)  # every record packed anew
    assert state_file(out).read_bytes() == written


# ---------------------------------------------------------------- issue 30's red team

def forge(out: Path, change) -> None:
    """A state changed as its own loader reads it and saved with the tool's own code: a forgery
    that keeps to every rule of the format, checksum included (anyone who can write the cache
    can do this)."""
    state = load_state(out, code_digest())
    change(state)
    save_changed(out, state)


def first_unit(state):
    return next(iter(state.events.values()))


def replace_summary(state, **fields):
    from dataclasses import replace
    unit = first_unit(state)
    unit.facts = replace(unit.facts, summary=replace(unit.facts.summary, **fields))


def add_problem(state):
    from dataclasses import replace
    from site_builder.core.problems import Problem
    unit = first_unit(state)
    unit.facts = replace(unit.facts, problems=unit.facts.problems + (Problem("x", 1, "forged"),))


def rank_a_stranger(state):
    from dataclasses import replace
    from site_builder.core.model import PlayerRef
    unit = next(u for u in state.events.values() if u.facts.ranking)
    entry = replace(unit.facts.ranking[0], player=PlayerRef("Nobody", "nobody-here"))
    unit.facts = replace(unit.facts, ranking=(entry,) + unit.facts.ranking[1:])


@pytest.mark.parametrize("change,said", [
    (lambda s: replace_summary(s, game="bogus"), "is of no game site-builder knows"),
    (lambda s: replace_summary(s, url="javascript:alert(1)//"), "holds the facts of another"),
    (add_problem, "is kept with errors"),
    (rank_a_stranger, "names people it does not list"),
])
def test_facts_that_no_build_makes_turn_the_state_down(built, change, said):
    """Facts that keep to their types but that no build of the event makes: the state is turned
    down, not used (a link to javascript: in the feeds, a crash, an error no file has)."""
    source, out = built
    clean = snapshot(out)
    forge(out, change)
    code, err = rebuild(source, out)
    assert code == 0, err
    assert said in err and f"{PAGES} rendered" in err
    assert snapshot(out) == clean


def test_a_page_record_of_absurd_size_costs_nothing(built):
    """The size is compared with the file's before anything is read: a record of 2 GB must not
    make the build ask for 2 GB (a build limited to 1 GB of memory shows it)."""
    source, out = built
    forge(out, lambda s: s.pages.update(
        {"index.html": s.pages["index.html"]._replace(size=2 * 10**9)}))
    limited = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
               "from site_builder.cli import main; sys.exit(main(sys.argv[1:]))")
    finished = subprocess.run([sys.executable, "-c", limited, "build", "--source", str(source),
                               "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert f"({PAGES + OTHER_FILES} files: 1 rendered" in finished.stderr


def test_a_forged_result_found_in_a_later_watch_rebuild_rebuilds_from_nothing(built):
    """Results are read only when a page shows them: a forged one (its digest kept) passes the
    first build and is saved again; a later rebuild that shows it starts again from nothing."""
    from site_builder.live.session import Session
    source, out = built

    def garble(state):
        from dataclasses import replace
        for unit in state.events.values():
            results = tuple((pid, digest, b"\xc0" if pid == "zoe-laurent" else packed)
                            for pid, digest, packed in unit.facts.results)
            unit.facts = replace(unit.facts, results=results)
    forge(out, garble)
    session = Session(source, out)
    assert session.build_all().rendered == 0
    # The organizer renames an event Zoë played: her page is drawn, and reads the forgery.
    rounds = sorted((source / "data" / "events").glob("*/round-*.csv"))
    played = next(p for p in rounds if "Zoë Laurent" in p.read_text(encoding="utf-8"))
    changed = played.parent / "event.toml"
    text = changed.read_text(encoding="utf-8")
    changed.write_text(text.replace('name = "', 'name = "Renamed ', 1), encoding="utf-8")
    report = session.rebuild([changed.relative_to(source).as_posix()])
    assert not report.errors and report.rendered == PAGES
    assert any("was not used: it is not what a build writes" in note for note in report.notes)
    session.close()
    rebuilt = tmp_clean = out.parent / "clean"
    assert build(source, tmp_clean, clean=True).rendered == PAGES
    assert snapshot(out) == snapshot(rebuilt)


def test_a_state_no_msgpack_can_hold_is_not_saved_and_said(built):
    from site_builder.build.state import StateNotSaved
    source, out = built
    state = load_state(out, code_digest())
    state.files["index.html"] = 2**70
    with pytest.raises(StateNotSaved) as raised:
        save_state(out, state)
    assert raised.value.reason == "Integer value out of range"
    assert raised.value.then == "the next build will draw every page"
    assert not state_file(out).exists() and leftovers(out) == []


def test_a_state_path_taken_during_the_build_is_said_without_contradiction(built):
    """The state's name taken by a folder while the build runs: published, and said so."""
    source, out = built
    (source / "content" / "about.md").write_text("# About\n\nChanged.\n")

    def take_the_name(what: str, done: int, total: int) -> None:
        if state_file(out).is_file():
            state_file(out).unlink()
            state_file(out).mkdir()
    result = build(source, out, progress=take_the_name)
    from site_builder.live.session import state_notes
    assert state_notes(result) == [
        f"warning: the site is published, but the state beside it could not be saved "
        f"({state_file(out)} is a folder, not a file): move it away before the next build."]
    assert "Changed." in (out / "about" / "index.html").read_text()


# ---------------------------------------------------------------- signed states

@pytest.fixture
def signed(built, monkeypatch):
    """The demo built with a signing key in the environment, as the Pages workflow gives it."""
    monkeypatch.setenv("SITE_BUILDER_STATE_KEY", "a secret of the league")
    source, out = built
    assert build(source, out, clean=True).rendered == PAGES
    return source, out


def test_a_signed_state_is_used_as_any(signed):
    source, out = signed
    assert build(source, out).rendered == 0


@pytest.mark.parametrize("key", [None, "another secret"])
def test_a_forged_state_and_page_heal_when_the_state_is_signed(signed, monkeypatch, key):
    """Whoever can write the cache but does not have the secret forges a page and its record:
    the forgery is refused, the build is a full one, and the page heals."""
    source, out = signed
    clean = snapshot(out)
    page = out / "about" / "index.html"
    evil = page.read_bytes().replace(b"</body>", b"<script>steal()</script></body>")
    page.write_bytes(evil)
    state = load_state(out, code_digest())  # reading needs no secret; the forger's own code
    state.pages["about/index.html"] = state.pages["about/index.html"]._replace(
        size=len(evil), digest=hashlib.sha256(evil).digest()[:16])
    if key is None:
        monkeypatch.delenv("SITE_BUILDER_STATE_KEY")
    else:
        monkeypatch.setenv("SITE_BUILDER_STATE_KEY", key)
    save_changed(out, state)
    monkeypatch.setenv("SITE_BUILDER_STATE_KEY", "a secret of the league")
    code, err = rebuild(source, out)
    assert code == 0, err
    said = "is not signed with" if key is None else "its signature does not match"
    assert f"{said} SITE_BUILDER_STATE_KEY" in err and f"{PAGES} rendered" in err
    assert snapshot(out) == clean
