"""Incremental builds write exactly what a clean build writes, and only redo what changed.

A build keeps its state beside the output folder (`_site.state` for `_site`); the next `build`,
a new process as far as the engine knows, reads it and draws again only the pages whose inputs
changed. A watch session (`Session`) keeps the same state in memory. Either way, the output after
any edit must be byte for byte that of `build(..., clean=True)`: a page left stale is a wrong
result on the published site. Seeded random edits of a copy of the demo site check this.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import copy_demo
from site_builder.build import build
from site_builder.build.state import BuildState, load_state
from site_builder.files.inputs import code_digest
from site_builder.core.problems import DataError
from site_builder.live.session import Session

pytestmark = pytest.mark.slow  # builds the demo again and again, random edits against clean builds

EVENTS = "data/events"


def demo_copy(root: Path) -> Path:
    """A copy of the demo site (data, content, site.toml and its own copy of the theme)."""
    return copy_demo(root, with_theme=True)


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def contents(folder: Path) -> dict[str, bytes]:
    return {path: (folder / path).read_bytes() for path in files(folder)}


def state_of(out: Path) -> Path:
    return out.parent / f"{out.name}.state"


def differences(out: Path, expected: Path) -> list[str]:
    """Every file that is not the same in both trees, said in words (empty when identical)."""
    got, want = contents(out), contents(expected)
    lines = [f"missing: {p}" for p in sorted(want.keys() - got.keys())]
    lines += [f"extra: {p}" for p in sorted(got.keys() - want.keys())]
    for path in sorted(got.keys() & want.keys()):
        if got[path] != want[path]:
            at = next(i for i, (a, b) in enumerate(zip(got[path] + b"\0", want[path] + b"\0"))
                      if a != b)
            near = slice(max(at - 40, 0), at + 40)
            lines.append(f"differs: {path} at byte {at}: {got[path][near]!r} "
                         f"instead of {want[path][near]!r}")
    return lines


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory):
    """`clean_build(source)`: the folder of a clean build of the source's files as they are now.
    Builds of the same files are shared between tests (the two random-edit tests replay one
    sequence), which keeps the file fast; the first to need one makes it."""
    root = tmp_path_factory.mktemp("clean")

    def of(source: Path) -> Path:
        hasher = hashlib.blake2b(digest_size=12)
        for path in files(source):
            hasher.update(path.encode() + b"\0" + (source / path).read_bytes() + b"\0")
        fresh = root / hasher.hexdigest()
        if not fresh.is_dir():
            build(source, fresh, clean=True)
        return fresh
    return of


def assert_same(out: Path, expected: Path, what: str = "the build") -> None:
    wrong = differences(out, expected)
    assert not wrong, f"after {what}, {len(wrong)} files differ from a clean build's:\n" + (
        "\n".join(wrong[:15]))


def event_folders(source: Path, games: tuple[str, ...] | None = None) -> list[Path]:
    return [p for p in sorted((source / EVENTS).iterdir())
            if games is None or tomllib.loads((p / "event.toml").read_text())["game"] in games]


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")


def rel(source: Path, path: Path) -> str:
    return path.relative_to(source).as_posix()


# ---------------------------------------------------------------- the edits
# Each edit is a generator: it changes the source and yields (changed paths, narrow), once per
# state worth building. `narrow` says the change touches one event or page, so an incremental
# build must draw far fewer pages than a full one (under half).


def swap_a_conquest_result(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
    """A corrected Conquest table: winner and loser swapped. In round 1 (Swiss: later pairings
    stand as played) or the last round (nothing follows it), so the files stay valid."""
    event = rng.choice(event_folders(source, ("conquest",)))
    rounds = sorted(event.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    round_file = rng.choice([rounds[0], rounds[-1]])
    header, rows = read_csv(round_file)
    tables = [i for i in range(len(rows) - 1) if rows[i][0] and rows[i][0] == rows[i + 1][0]
              and {rows[i][2], rows[i + 1][2]} == {"win", "loss"}]
    i = rng.choice(tables)
    rows[i][2], rows[i + 1][2] = rows[i + 1][2], rows[i][2]
    write_csv(round_file, header, rows)
    yield [rel(source, round_file)], True


SCORES = ("tau", "realms", "groups", "houses")
"""The other games' numeric columns: Heresy's tau, Spellfire's realms, INWO's groups, Kingdom's
houses. Lowering a non-winner's number keeps every file valid."""


def lower_a_score(game: str):
    """An edit: a corrected score in a round of one of the demo's events of `game`."""
    def edit(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
        event = rng.choice(event_folders(source, (game,)))
        round_file = rng.choice(sorted(event.glob("round-*.csv")))
        header, rows = read_csv(round_file)
        result = header.index("result") if "result" in header else None
        cells = [(i, j) for i, row in enumerate(rows) for j, name in enumerate(header)
                 if name in SCORES and row[j].isdigit() and int(row[j]) > 0
                 and (result is None or row[result] not in ("win", "bye"))]
        i, j = rng.choice(cells)
        rows[i][j] = str(rng.randrange(int(rows[i][j])))
        write_csv(round_file, header, rows)
        yield [rel(source, round_file)], True
    edit.__name__ = f"lower_a_{game}_score"
    return edit


def drop_and_restore_the_last_round(source: Path, rng: random.Random
                                    ) -> Iterator[tuple[list[str], bool]]:
    """A round file deleted (the event is back in progress, its round page gone), then restored."""
    event = rng.choice([p for p in event_folders(source) if (p / "round-2.csv").exists()])
    last = max(event.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    text = last.read_bytes()
    last.unlink()
    yield [rel(source, last)], True
    last.write_bytes(text)
    yield [rel(source, last)], True


def respell_a_player(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
    """A player's name spelled differently in every file of one event (a new person, as far as
    the site knows), then data/players.csv given the spelling as an alias (one person again)."""
    event = rng.choice(event_folders(source))
    csvs = sorted(event.glob("*.csv"))
    name = rng.choice(sorted({row[read_csv(csvs[0])[0].index("player")]
                              for row in read_csv(csvs[0])[1]} - {""}))
    spelling = f"{name.split(' ')[0]} Q. {name.split(' ', 1)[-1]}"
    for path in csvs:
        header, rows = read_csv(path)
        at = header.index("player")
        write_csv(path, header, [[spelling if i == at and cell == name else cell
                                  for i, cell in enumerate(row)] for row in rows])
    yield [rel(source, p) for p in csvs], True
    players = source / "data/players.csv"
    header, rows = read_csv(players)
    known = [row for row in rows if name.lower() in [row[1].lower(), *row[2].lower().split("|")]]
    if known:
        known[0][2] = "|".join(filter(None, [known[0][2], spelling]))
    else:
        rows.append([f"person-{rng.randrange(1000)}", name, spelling])
    write_csv(players, header, rows)
    yield ["data/players.csv"], False  # every event's players are named again


def edit_a_content_page(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
    """A paragraph added to a Markdown page (home text or about), then an event's report
    written (a new one, or a replaced one)."""
    page = rng.choice(sorted((source / "content").glob("*.md")))
    with page.open("a", encoding="utf-8") as handle:
        handle.write(f"\nAn edit, number {rng.randrange(10**6)}.\n")
    yield [rel(source, page)], True
    report = source / "content/events" / f"{rng.choice(event_folders(source)).name}.md"
    report.write_text(f"What happened, take {rng.randrange(10**6)}.\n", encoding="utf-8")
    yield [rel(source, report)], True


def retitle_an_event(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
    """An event's name corrected: its pages, the lists and its players' histories show it."""
    toml = rng.choice(event_folders(source)) / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'name = "', f'name = "Renamed {rng.randrange(1000)} ', 1), encoding="utf-8")
    yield [rel(source, toml)], True


def change_a_deck(source: Path, rng: random.Random) -> Iterator[tuple[list[str], bool]]:
    """A registration's deck corrected: the event's standings and Decks section, the player's
    history and the game's decks pages show it."""
    registrations = rng.choice([p / "players.csv" for p in event_folders(source)
                                if (p / "players.csv").exists()])
    header, rows = read_csv(registrations)
    at = header.index("faction")
    row = rng.choice(rows)
    row[at] = rng.choice(sorted({r[at] for r in rows} - {row[at]}))
    write_csv(registrations, header, rows)
    yield [rel(source, registrations)], True


EDITS = [swap_a_conquest_result, change_a_deck, *map(lower_a_score, ("heresy", "spellfire", "inwo", "kingdom")),
         drop_and_restore_the_last_round, respell_a_player, edit_a_content_page, retitle_an_event]


def edit_sequence(source: Path, seed: int, length: int = 12
                  ) -> Iterator[tuple[str, list[str], bool]]:
    """`length` seeded edits, every kind at least once: (name, changed paths, narrow) per step."""
    rng = random.Random(seed)
    chosen = EDITS + [rng.choice(EDITS) for _ in range(length - len(EDITS))]
    rng.shuffle(chosen)
    for number, edit in enumerate(chosen):
        for changed, narrow in edit(source, rng):
            yield f"edit {number} ({edit.__name__}: {', '.join(changed)})", changed, narrow


# ---------------------------------------------------------------- 1, 2: random edits


SEED = 21


def test_random_edits_build_the_same_bytes_as_a_clean_build(tmp_path, clean_build):
    """Each `build` after an edit reads the state the last one left and must publish exactly a
    clean build's files, drawing far fewer pages than a full build when one event or page
    changed (a retitled event redraws its players' pages, never half the site)."""
    source, out = demo_copy(tmp_path / "site"), tmp_path / "out"
    full = build(source, out).rendered
    for what, _, narrow in edit_sequence(source, SEED):
        result = build(source, out)
        assert_same(out, clean_build(source), what)
        assert result.rendered > 0, what  # every edit shows somewhere
        if narrow:
            assert result.rendered < full // 2, f"{what}: {result.rendered} of {full} pages drawn"


def test_random_edits_in_a_watch_session_give_a_clean_builds_bytes(tmp_path, clean_build):
    """`watch` and `serve` keep one session: after each rebuild the output must be a clean
    build's, and the report must count and name exactly the files that changed on disk (the
    terminal line says how many; browsers showing those pages reload)."""
    source, out = demo_copy(tmp_path / "site"), tmp_path / "out"
    session = Session(source, out)
    full = session.build_all().rendered
    for what, changed, narrow in edit_sequence(source, SEED):
        before = contents(out)
        report = session.rebuild(changed)
        assert not report.errors, (what, [p.format() for p in report.errors])
        assert_same(out, clean_build(source), what)
        after = contents(out)
        assert report.changed_urls == {p for p in before.keys() | after.keys()
                                       if before.get(p) != after.get(p)}, what
        assert report.written == sum(before.get(p) != data for p, data in after.items()), what
        assert report.deleted == len(before.keys() - after.keys()), what
        assert report.line().startswith(changed[0]), report.line()
        if narrow:
            assert report.rendered < full // 2, f"{what}: {report.rendered} of {full} pages drawn"


def page_keys(state) -> dict[str, str]:
    """Every published page's key, as a build's state records it."""
    keys = {path: record.key for path, record in state.pages.items()}
    for unit in state.events.values():
        keys.update((path, record.key) for path, record in unit.pages.items())
    return keys


def test_a_watch_session_plans_only_what_changed_and_keys_it_as_a_clean_build(tmp_path,
                                                                            clean_build):
    """A session plans the pages across events again only where the changed events reach, and
    looks only at the event folders the watcher names (siteplan.py, engine hints). Whatever it
    kept must be what planning from nothing gives: after every edit, each page's key in the
    session's state equals a clean build's (a page kept with a stale key would go stale at the
    next edit, even while its bytes still match)."""
    source, out = demo_copy(tmp_path / "site"), tmp_path / "out"
    session = Session(source, out)
    session.build_all()
    for what, changed, _ in edit_sequence(source, SEED + 1, length=16):
        report = session.rebuild(changed)
        assert not report.errors, (what, [p.format() for p in report.errors])
        fresh = clean_build(source)
        expected = load_state(fresh, code_digest())
        assert isinstance(expected, BuildState), what
        got, want = page_keys(session.engine.kept.state), page_keys(expected)
        assert got.keys() == want.keys(), what
        stale = sorted(path for path in want if got[path] != want[path])
        assert not stale, f"after {what}, pages keyed unlike a clean build: {stale[:10]}"
        assert_same(out, fresh, what)


# ---------------------------------------------------------------- 3: the state file


def built(tmp_path: Path) -> tuple[Path, Path, int]:
    """The demo built once: (source, out, the pages a full build draws)."""
    source, out = demo_copy(tmp_path / "site"), tmp_path / "out"
    return source, out, build(source, out).rendered


def test_nothing_changed_draws_and_writes_nothing(tmp_path):
    """A second build of unchanged sources touches no file: a deploy that syncs by time (rsync,
    a CDN) sends nothing, and the build takes no time."""
    source, out, _ = built(tmp_path)
    stamps = {p: os.stat(out / p).st_mtime_ns for p in files(out)}
    result = build(source, out)
    assert (result.rendered, result.written, result.deleted) == (0, 0, 0)
    assert {p: os.stat(out / p).st_mtime_ns for p in files(out)} == stamps


def test_clean_draws_every_page_even_when_nothing_changed(tmp_path, clean_build):
    """`clean=True` (`--clean`) is the way out of any doubt about the state: it must ignore it
    and draw every page."""
    source, out, full = built(tmp_path)
    assert full > 100
    assert build(source, out, clean=True).rendered == full
    assert_same(out, clean_build(source))


def test_a_deleted_state_file_means_a_full_and_correct_build(tmp_path, clean_build):
    """Without its state (deleted to start over, or not kept by a CI runner) a build cannot
    know what the output holds: it draws every page, rightly, and leaves a state again."""
    source, out, full = built(tmp_path)
    next(swap_a_conquest_result(source, random.Random(1)))
    state_of(out).unlink()
    assert build(source, out).rendered == full
    assert_same(out, clean_build(source))
    assert build(source, out).rendered == 0  # the state is back: the next build is incremental


def changed(damaged: bytes, kept: bytes) -> bytes:
    assert damaged != kept, "the damage must change the state"
    return damaged


DAMAGE = {
    "garbage": lambda kept: random.Random(3).randbytes(len(kept)),
    "truncated": lambda kept: kept[: len(kept) // 2],
    "empty": lambda kept: b"",
    "text": lambda kept: b"not a state\n",
    "huge length": lambda kept: kept[:2] + b"\x8e" + b"\xff" * 7 + b"\x7f",  # a damaged size
    # A name changed inside the saved facts: it still unpickles, and would be published.
    "one name changed": lambda kept: changed(kept.replace(b"Samuel Adeyemi", b"Samuel Adeyemx"),
                                             kept),
    "bits flipped": lambda kept: bytes(b ^ 0x10 if i % 997 == 500 else b
                                       for i, b in enumerate(kept)),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_corrupt_state_file_means_a_full_and_correct_build(tmp_path, capsys, clean_build,
                                                              damage):
    """A state file cut short by a full disk or a crash, or damaged, is not trusted: the build
    draws everything, silently, and is right."""
    source, out, full = built(tmp_path)
    next(retitle_an_event(source, random.Random(2)))
    state_of(out).write_bytes(DAMAGE[damage](state_of(out).read_bytes()))
    capsys.readouterr()
    assert build(source, out).rendered == full
    assert capsys.readouterr() == ("", "")
    assert_same(out, clean_build(source))


@pytest.mark.parametrize("by_hand", ["edited", "same size and time", "deleted"])
def test_a_page_changed_by_hand_in_the_output_is_restored(tmp_path, clean_build, by_hand):
    """Someone edits or deletes published pages, or edits them keeping each file's size and
    modification time; the next build puts the real pages back, though no source changed, and
    only them."""
    source, out, _ = built(tmp_path)
    page = out / "events/2025-10-18-autumn-store-championship/round-2/index.html"
    rankings = out / "rankings/index.html"
    if by_hand == "edited":
        page.write_bytes(page.read_bytes().replace(b"<h1", b"<h1 hacked", 1))
        rankings.write_bytes(rankings.read_bytes() + b"<!-- appended -->")
    elif by_hand == "same size and time":
        for path in (page, rankings):
            before = path.stat()
            path.write_bytes(path.read_bytes().replace(b"<h1", b"<H1", 1))
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
            assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size,
                                                                      before.st_mtime_ns)
    else:
        page.unlink()
        rankings.unlink()
    assert build(source, out).rendered == 2
    assert_same(out, clean_build(source))


def test_bad_data_leaves_the_last_site_and_state_and_the_fix_catches_up(tmp_path, clean_build):
    """A build with an error in the data publishes nothing, leaves nothing behind and keeps
    its state (a later build must still know what is on disk); once the error is fixed, every
    change made meanwhile is published."""
    source, out, _ = built(tmp_path)
    site, state = contents(out), state_of(out).read_bytes()
    next(lower_a_score("kingdom")(source, random.Random(5)))  # a good change, in the same build
    round_file = source / EVENTS / "2026-03-14-spring-store-championship/round-2.csv"
    good = round_file.read_text(encoding="utf-8")
    round_file.write_text(good.replace(",win", ",wn", 1), encoding="utf-8")
    with pytest.raises(DataError) as error:
        build(source, out)
    assert [p.format() for p in error.value.problems if p.is_error] == [
        f"{rel(source, round_file)}:{good.split(',win')[0].count(chr(10)) + 1}: result 'wn' is "
        "not a Conquest result: expected win (or w), modified-win (or mw, modified win), loss "
        "(or l) or bye, in capitals or not"]
    assert contents(out) == site and state_of(out).read_bytes() == state
    assert sorted(os.listdir(tmp_path)) == ["out", "out.state", "site"]
    round_file.write_text(good.replace(",win", ",mw", 1), encoding="utf-8")  # fixed otherwise
    build(source, out)
    assert_same(out, clean_build(source))


# ---------------------------------------------------------------- 4: the theme


MARK = "<!-- edited template -->"


@pytest.mark.parametrize("template", ["games/spellfire/round.html", "partials/rows.html"])
def test_a_template_edit_draws_again_exactly_the_pages_drawn_with_it(tmp_path, clean_build,
                                                                     template):
    """A template of the site's theme (its own copy of the default) is edited: every page drawn
    with it must be drawn again, and no other. A mark the template writes wherever it is used
    finds those pages: an included template writes it on each page that includes it; a partial
    of macros writes it in every macro's output (pages that import it without calling a macro
    are drawn again too, but keep their bytes)."""
    source, out, full = built(tmp_path)
    path = source / "themes/default/templates" / template
    text = path.read_text(encoding="utf-8")
    if template.startswith("partials/"):
        path.write_text(text.replace("{% endmacro %}", MARK + "{% endmacro %}"), encoding="utf-8")
    else:
        path.write_text(MARK + text, encoding="utf-8")
    result = build(source, out)
    assert_same(out, clean_build(source), f"an edit of {template}")
    marked = {p for p, data in contents(out).items() if MARK.encode() in data}
    assert marked and result.changed_urls == marked
    if template.startswith("partials/"):
        assert len(marked) <= result.rendered < full
    else:
        assert len(marked) == result.rendered


def test_an_event_in_and_out_of_progress_keeps_the_rankings_right(tmp_path, clean_build):
    """An event counts toward the rankings only once complete, so the rankings are worked out
    from what they read of each event (not its status line, not its entries while it runs): a
    round of an event in progress must leave them as they are, and the round that completes it
    must move them."""
    source, out, _ = built(tmp_path)
    event = source / EVENTS / "2026-06-13-northern-regional-championship"
    final, semis = (event / "round-9.csv").read_bytes(), (event / "round-8.csv").read_bytes()

    def rankings_written(result) -> list[str]:
        return sorted(path for path in result.changed_urls if path.startswith("rankings/"))

    (event / "round-9.csv").unlink()  # back in progress: the event leaves the rankings
    assert rankings_written(build(source, out))
    assert_same(out, clean_build(source), "the final taken away")
    (event / "round-8.csv").unlink()  # still in progress
    result = build(source, out)
    # the event's pages change; its players' lines ("Current standing") do not
    assert "events/2026-06-13-northern-regional-championship/index.html" in result.changed_urls
    assert not any(path.startswith("players/") for path in result.changed_urls)
    assert rankings_written(result) == []
    assert_same(out, clean_build(source), "a round of an event in progress taken away")
    (event / "round-8.csv").write_bytes(semis)
    build(source, out)
    (event / "round-9.csv").write_bytes(final)  # complete again: back in the rankings
    assert rankings_written(build(source, out))
    assert_same(out, clean_build(source), "the event completed again")


def test_a_round_of_an_event_being_played_draws_no_player_page_again(tmp_path, clean_build):
    """A player's line of an event being played shows no figures (they change every round) but
    leads to their row of its current standings: a result of the November Store Night corrected
    (round 2, table 1: José Álvarez's win becomes Raj Patel's, which moves both records and the
    standings of its 10 players, every one ranked since round 1) draws that event's pages again
    and no player's page, and the site is the clean build's."""
    source, out, _ = built(tmp_path)
    round_2 = source / EVENTS / "2026-11-21-november-store-night" / "round-2.csv"
    saved = round_2.read_text(encoding="utf-8")
    swapped = saved.replace("1,José Álvarez,win\n1,Raj Patel,loss\n",
                            "1,José Álvarez,loss\n1,Raj Patel,win\n")
    assert swapped != saved
    round_2.write_text(swapped, encoding="utf-8")
    result = build(source, out)
    assert_same(out, clean_build(source), "a result of the November Store Night corrected")
    assert "events/2026-11-21-november-store-night/standings.json" in result.changed_urls
    assert [path for path in result.changed_urls if path.startswith("players/")] == []
    round_2.write_text(saved, encoding="utf-8")
    result = build(source, out)
    assert_same(out, clean_build(source), "the result put back")
    assert [path for path in result.changed_urls if path.startswith("players/")] == []


def test_a_new_process_reads_only_the_pages_written_since_the_last_build(tmp_path, monkeypatch,
                                                                          clean_build):
    """A new process trusts a page whose file still has the inode and change time the last
    build recorded, and reads and hashes every other one: after the output folder is restored
    from a copy (a CI cache: same bytes, same modification times, new files) the first build
    reads every page and draws none, and records their new stamps, so the next one reads none.
    A page then written by hand is read again, and drawn again."""
    from site_builder.build import ondisk
    read = []
    real = ondisk._digest_of
    monkeypatch.setattr(ondisk, "_digest_of", lambda path, *rest: read.append(path) or
                        real(path, *rest))
    source, out, _ = built(tmp_path)
    read.clear()
    assert build(source, out).rendered == 0
    assert read == []
    restored = out.with_name("restored")
    shutil.copytree(out, restored)  # copy2: the bytes and modification times
    shutil.rmtree(out)
    restored.rename(out)
    result = build(source, out)
    assert result.rendered == 0 and len(read) == result.pages
    read.clear()
    assert build(source, out).rendered == 0
    assert read == []
    page = out / "players/robert-mills/index.html"
    page.write_bytes(page.read_bytes().replace(b"<h1>", b"<h1>!", 1))
    assert build(source, out).rendered == 1
    assert [Path(path).relative_to(out).as_posix() for path in read] == [
        "players/robert-mills/index.html"]
    assert_same(out, clean_build(source), "a restored output folder")
