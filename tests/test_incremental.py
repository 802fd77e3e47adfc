"""Incremental rebuilds (watch and serve) write exactly what a fresh full build writes.

A seeded sequence of random edits is applied to a copy of the demo site; after each one the
incremental output is compared byte for byte with a full build of the same files.
"""

from __future__ import annotations

import filecmp
import gc
import random
import shutil
import threading
import weakref
from pathlib import Path

import pytest

from conftest import REPO
from site_builder.build import build
from site_builder.project import Project


def demo_copy(root: Path) -> Path:
    for name in ("data", "content"):
        shutil.copytree(REPO / name, root / name)
    shutil.copy(REPO / "site.toml", root / "site.toml")
    shutil.copytree(REPO / "themes", root / "themes")
    return root


def files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def built_demo(tmp_path: Path) -> tuple[Path, Path, Project]:
    """A copy of the demo site, built by a watch-mode project: (source, out, project)."""
    source = demo_copy(tmp_path / "site")
    out = tmp_path / "out"
    project = Project(source, out)
    project.build_all()
    return source, out, project


def contents(folder: Path) -> dict[str, bytes]:
    return {path: (folder / path).read_bytes() for path in files(folder)}


def assert_same_as_full_build(source: Path, out: Path, scratch: Path, problems=None) -> None:
    """The output is a full build's, and so are the `problems` reported, when given."""
    fresh = scratch / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    result = build(source, fresh)
    if problems is not None:
        assert [p.format() for p in problems] == [p.format() for p in result.problems]
    assert files(out) == files(fresh)
    _, mismatch, errors = filecmp.cmpfiles(out, fresh, files(fresh), shallow=False)
    assert mismatch == [] and errors == [], mismatch[:5]


# ---------------------------------------------------------------- the edits


def swap_a_result(source: Path, rng: random.Random) -> list[str]:
    """Swap the winner and loser of one decided Conquest table (keeps the file valid)."""
    event = rng.choice([p for p in (source / "data/events").iterdir()
                        if 'game = "conquest"' in (p / "event.toml").read_text()])
    round_file = rng.choice(sorted(event.glob("round-*.csv")))
    lines = round_file.read_text().splitlines()
    pairs = [i for i in range(1, len(lines) - 1)
             if lines[i].split(",")[0] and lines[i].split(",")[0] == lines[i + 1].split(",")[0]
             and lines[i].split(",")[2] != lines[i + 1].split(",")[2]]  # a decided table
    i = rng.choice(pairs)
    a, b = lines[i].split(","), lines[i + 1].split(",")
    a[2], b[2] = b[2], a[2]
    lines[i], lines[i + 1] = ",".join(a), ",".join(b)
    round_file.write_text("\n".join(lines) + "\n")
    return [round_file.relative_to(source).as_posix()]


def drop_last_round(source: Path, rng: random.Random) -> list[str]:
    event = rng.choice(sorted((source / "data/events").iterdir()))
    rounds = sorted(event.glob("round-*.csv"), key=lambda p: int(p.stem.split("-")[1]))
    if len(rounds) < 2:
        return []
    rounds[-1].unlink()
    return [rounds[-1].relative_to(source).as_posix()]


def copy_an_event(source: Path, rng: random.Random) -> list[str]:
    original = rng.choice(sorted((source / "data/events").iterdir()))
    copy = original.with_name(f"2027-0{rng.randrange(1, 9)}-01-copy-{rng.randrange(100)}")
    if copy.exists():
        return []
    shutil.copytree(original, copy)
    toml = copy / "event.toml"
    toml.write_text(toml.read_text().replace('name = "', 'name = "Copy of '))
    return [copy.relative_to(source).as_posix()]


def move_an_event(source: Path, rng: random.Random) -> list[str]:
    """A corrected date: the event moves in its players' histories and in the archive."""
    event = rng.choice(sorted((source / "data/events").iterdir()))
    toml = event / "event.toml"
    lines = toml.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("date"))
    lines[at] = f"date = {rng.randrange(2019, 2028)}-0{rng.randrange(1, 10)}-1{rng.randrange(10)}"
    toml.write_text("\n".join(lines) + "\n")
    return [toml.relative_to(source).as_posix()]


def delete_an_event(source: Path, rng: random.Random) -> list[str]:
    event = rng.choice(sorted((source / "data/events").iterdir()))
    shutil.rmtree(event)
    return [event.relative_to(source).as_posix()]


def edit_a_report(source: Path, rng: random.Random) -> list[str]:
    event = rng.choice(sorted((source / "data/events").iterdir()))
    report = source / "content/events" / f"{event.name}.md"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(f"A report, version {rng.randrange(1000)}.\n")
    return [report.relative_to(source).as_posix()]


def edit_a_template(source: Path, rng: random.Random) -> list[str]:
    template = source / "themes/default/templates/round.html"
    template.write_text(template.read_text().replace(
        '<h2 class="round-title">', f'<h2 class="round-title" data-v="{rng.randrange(1000)}">', 1))
    return [template.relative_to(source).as_posix()]


def rename_the_site(source: Path, rng: random.Random) -> list[str]:
    (source / "site.toml").write_text(f'title = "League {rng.randrange(1000)}"\n')
    return ["site.toml"]


EDITS = [swap_a_result, swap_a_result, swap_a_result, drop_last_round, copy_an_event,
         move_an_event, delete_an_event, edit_a_report, edit_a_template, rename_the_site]


IN_BACKGROUND = 2048
"""A LARGE_FILE threshold that sends most of the demo's pages to the writer thread (its real
threshold, 1 MB, is reached only by the rankings of a large archive)."""


@pytest.mark.parametrize("seed, large_file", [(1, None), (2, None), (3, IN_BACKGROUND)])
def test_random_edits_give_the_same_bytes_as_a_full_build(tmp_path, seed, large_file):
    rng = random.Random(seed)
    source = demo_copy(tmp_path / "site")
    out = tmp_path / "out"
    project = Project(source, out)
    if large_file:
        project.files.LARGE_FILE = large_file
    staged_by = set()
    stage = project.files.staged

    def staged(*args):
        staged_by.add(threading.current_thread().name.split("_")[0])
        return stage(*args)

    project.files.staged = staged
    assert not project.build_all().errors
    warnings = set()
    for step in range(8):
        edit = rng.choice(EDITS)
        changed = edit(source, rng)
        if not changed:
            continue
        report = project.rebuild(changed, tidy_later=True)
        project.tidy()  # as `watch` does after each rebuild
        assert not report.errors, (edit.__name__, [str(p) for p in report.errors])
        assert_same_as_full_build(source, out, tmp_path, report.problems)
        warnings.add(len(report.problems))
    assert (("site-builder-write" in staged_by) == bool(large_file)), staged_by  # the thread wrote
    assert len(warnings) > 1  # the edits changed what is reported, which stayed a full build's


def test_an_event_moved_to_another_date_moves_in_every_history(tmp_path):
    """Player pages list events newest first; watch mode keeps each history in order as events
    change, so a new date must move the event within the histories of all its players."""
    source, out, project = built_demo(tmp_path)
    for seed in range(3):
        changed = move_an_event(source, random.Random(seed))
        assert not project.rebuild(changed).errors
        assert_same_as_full_build(source, out, tmp_path)


def test_the_first_build_of_watch_mode_reports_its_progress(tmp_path):
    """`watch` and `serve` start with a whole build; like `build`, they show a page counter."""
    source = demo_copy(tmp_path / "site")
    seen: list[tuple[int, int]] = []
    report = Project(source, tmp_path / "out").build_all(
        progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, report.rendered) for n in range(1, report.rendered + 1)]
    assert report.rendered > 100


def test_a_rebuild_writes_only_files_whose_bytes_changed(tmp_path):
    source = demo_copy(tmp_path / "site")
    project = Project(source, tmp_path / "out")
    project.build_all()
    report = project.rebuild(["data/events/2025-10-18-autumn-store-championship/round-1.csv"])
    assert report.written == 0 and report.rendered > 0  # nothing changed on disk
    changed = swap_a_result(source, random.Random(3))
    report = project.rebuild(changed)
    assert 0 < report.written <= report.rendered
    assert report.line().startswith(f"{changed[0]}: {report.rendered} pages rendered, "
                                    f"{report.written} files written in ")


def test_a_page_changed_to_bytes_of_the_same_length_is_rewritten(tmp_path):
    """Watch mode tells changed pages by their length first; same-length pages are compared
    with the published file, so a one-letter edit is not missed (nor an edit by hand)."""
    source, out, project = built_demo(tmp_path)
    template = source / "themes/default/templates/round.html"
    template.write_text(template.read_text().replace('class="round-title"', 'class="round-titlf"'))
    page = out / "events/2025-10-18-autumn-store-championship/round-1/index.html"
    size = len(page.read_bytes())
    report = project.rebuild([template.relative_to(source).as_posix()])
    assert report.written > 0 and len(page.read_bytes()) == size
    assert b'class="round-titlf"' in page.read_bytes()
    page.write_bytes(page.read_bytes().replace(b"round-titlf", b"round-XXXXX"))  # by hand
    project.rebuild([template.relative_to(source).as_posix()])
    assert_same_as_full_build(source, out, tmp_path)


def test_bad_data_is_not_applied_and_fixing_it_catches_up(tmp_path):
    source = demo_copy(tmp_path / "site")
    out = tmp_path / "out"
    project = Project(source, out)
    project.build_all()
    round_file = source / "data/events/2025-10-18-autumn-store-championship/round-2.csv"
    good = round_file.read_text()
    before = {name: (out / name).read_bytes() for name in files(out)}
    round_file.write_text(good.replace(",win", ",wn", 1))
    line = next(i for i, text in enumerate(good.splitlines(), start=1) if text.endswith(",win"))
    report = project.rebuild([round_file.relative_to(source).as_posix()])
    assert [p.format() for p in report.errors] == [
        f"data/events/2025-10-18-autumn-store-championship/round-2.csv:{line}: result 'wn' is not a "
        "Conquest result: expected win, modified-win (or mw), loss or bye"]
    assert "1 error, nothing of it applied; the last good site stays" in report.line()
    assert {name: (out / name).read_bytes() for name in files(out)} == before
    round_file.write_text(good)
    elsewhere = swap_a_result(source, random.Random(5))  # other changes of the same burst apply
    report = project.rebuild([round_file.relative_to(source).as_posix(), *elsewhere])
    assert not report.errors
    assert_same_as_full_build(source, out, tmp_path)


@pytest.mark.parametrize("large_file", [None, IN_BACKGROUND])
def test_a_template_failing_midway_changes_no_file(tmp_path, large_file):
    """Pages are written to temporary files while later pages still render (large ones by a
    thread); a template that fails on a later page must leave every published file as it was,
    and no temporary file."""
    source, out, project = built_demo(tmp_path)
    if large_file:
        project.files.LARGE_FILE = large_file
    before = contents(out)
    changed = swap_a_result(source, random.Random(5))
    # Event pages render before player pages: those are staged when the player page fails.
    player = source / "themes/default/templates/player.html"
    player.write_text(player.read_text().replace("{{ person.name }}", "{{ person.no_such_field }}"))
    report = project.rebuild(changed + [player.relative_to(source).as_posix()])
    assert report.errors and "no_such_field" in report.errors[0].format()
    assert contents(out) == before
    assert not [p for p in files(out) if ".tmp-" in p]


@pytest.mark.parametrize("large_file", [None, IN_BACKGROUND])
def test_a_failed_write_leaves_no_partial_site_and_the_next_change_catches_up(tmp_path,
                                                                              large_file):
    source, out, project = built_demo(tmp_path)
    if large_file:
        project.files.LARGE_FILE = large_file
    before = contents(out)
    changed = copy_an_event(source, random.Random(4))
    # Something outside our control is in the way of the new event's folder.
    blocker = out / "events" / changed[0].split("/")[2]
    blocker.write_text("in the way")
    with pytest.raises(OSError):
        project.rebuild(changed)
    assert contents(out) == {**before, blocker.relative_to(out).as_posix(): b"in the way"}
    blocker.unlink()
    project.rebuild(["content/index.md"])  # the next change, whatever it is, redoes everything
    assert_same_as_full_build(source, out, tmp_path)


def test_rebuilds_leave_nothing_for_the_collector_and_replaced_renderers_are_freed(tmp_path):
    """Rebuilds run with the cyclic garbage collector paused, and `tidy` freezes what survives
    them: anything a rebuild left in a reference cycle would never be freed. A renderer is a
    cycle (its Jinja environment holds its filters), so replacing one must free the old one and
    its caches of every page's rows."""
    source, out, project = built_demo(tmp_path)
    gc.collect()
    for seed in range(3):
        project.rebuild(swap_a_result(source, random.Random(seed)))
        assert gc.isenabled()
        assert gc.collect() == 0  # no cycles: reference counting freed the old event
        project.tidy()
    # Watch mode reports first and leaves the collector to tidy(), which resumes it.
    project.rebuild(swap_a_result(source, random.Random(3)), tidy_later=True)
    assert not gc.isenabled()
    project.tidy()
    assert gc.isenabled()
    for edit in (edit_a_template, rename_the_site):  # a theme edit; a site-wide change
        replaced = weakref.ref(project.renderer)
        assert not project.rebuild(edit(source, random.Random(1)), tidy_later=True).errors
        project.tidy()
        assert gc.isenabled() and replaced() is None, edit.__name__
    assert_same_as_full_build(source, out, tmp_path)


def test_a_correction_keeps_the_ranking_standings_it_leaves_as_they_were(tmp_path):
    """A corrected result touches every player of its event, but moves the totals of only some:
    the others keep their standing objects, which the rankings page's row cache knows by
    identity (a full re-render of thousands of rows otherwise). The JSON and pages stay exact."""
    source, out, project = built_demo(tmp_path)
    index = project.ranking_index
    changed = swap_a_result(source, random.Random(7))  # round 3 of a 47-player Conquest event
    slug = changed[0].split("/")[2]
    game = index.games[project.events[slug].event.info.game]
    before = dict(game.standings)
    assert not project.rebuild(changed).errors
    players = {ref.id for ref in project.events[slug].event.players.values()} & set(before)
    kept = {pid for pid in players if game.standings[pid] is before[pid]}
    moved = players - kept
    assert kept and moved
    for pid in moved:
        old, new = before[pid], game.standings[pid]
        assert (old.json_rest, old.line) != (new.json_rest, new.line)
    assert_same_as_full_build(source, out, tmp_path)


def test_a_correction_remakes_only_the_ranking_rows_whose_contribution_changed(tmp_path):
    """Of a corrected event's players, only those whose points or finish there changed have
    their ranking standing made again (a regular's row gathers hundreds of events)."""
    source, out, project = built_demo(tmp_path)
    index = project.ranking_index
    changed = swap_a_result(source, random.Random(7))
    slug = changed[0].split("/")[2]
    entries_before = {e.player.id: e for e in project.events[slug].scored.ranking}
    remade: list[set[str]] = []
    refresh = index.refresh
    index.refresh = lambda ids, people: (remade.append(set(ids)), refresh(ids, people))[1]
    assert not project.rebuild(changed).errors
    entries_after = {e.player.id: e for e in project.events[slug].scored.ranking}
    differing = {pid for pid in entries_after if entries_after[pid] != entries_before.get(pid)}
    assert remade == [differing]
    assert 0 < len(differing) < len(entries_after)
    assert_same_as_full_build(source, out, tmp_path)


def test_a_correction_keeps_the_later_rounds_results_as_the_same_objects(tmp_path):
    """A corrected round 1 moves every later round's standings but not the later Swiss rounds'
    results: those come back as the very objects the page cache already holds (found by identity, not by
    comparing every table), while round 1's results are new and show the swap."""
    source, out, project = built_demo(tmp_path)
    slug = "2026-06-13-northern-regional-championship"
    rounds_before = project.events[slug].scored.rounds
    results_before = [view.results for view in rounds_before]
    round_file = source / "data/events" / slug / "round-1.csv"
    lines = round_file.read_text().splitlines()
    first, second = lines[1].split(","), lines[2].split(",")
    assert first[0] == second[0] and {first[2], second[2]} == {"win", "loss"}
    first[2], second[2] = second[2], first[2]
    lines[1], lines[2] = ",".join(first), ",".join(second)
    round_file.write_text("\n".join(lines) + "\n")
    assert not project.rebuild([round_file.relative_to(source).as_posix()]).errors
    rounds_after = project.events[slug].scored.rounds
    assert len(rounds_after) == len(rounds_before) >= 3
    assert rounds_after[0].results is not results_before[0]
    assert rounds_after[0].results != results_before[0]
    kept = 0
    for before, view in zip(results_before[1:], rounds_after[1:]):
        if view.results == before:  # the elimination rounds' seeds may move with the standings
            assert view.results is before
            kept += 1
    assert kept >= 2
    assert rounds_after[1].standings != rounds_before[1].standings
    assert_same_as_full_build(source, out, tmp_path)


def test_a_round_files_problem_stays_reported_while_other_rounds_change(tmp_path):
    """A Conquest round's own checks are remembered with its parsed file: a table with two
    winners is still reported when another round of the event is saved, and by a rebuild of
    the whole site (site.toml saved) meanwhile. Saving the fix then clears it: the whole-site
    rebuild had left the event's problems from before it standing (the overlay stayed)."""
    source, out, project = built_demo(tmp_path)
    folder = next(p for p in sorted((source / "data/events").iterdir())
                  if 'game = "conquest"' in (p / "event.toml").read_text()
                  and (p / "round-2.csv").exists())
    first, second = folder / "round-1.csv", folder / "round-2.csv"
    original = first.read_text()
    lines = original.splitlines()
    loser = next(i for i, line in enumerate(lines) if line.split(",")[2] == "loss")
    lines[loser] = lines[loser].replace(",loss", ",win", 1)
    first.write_text("\n".join(lines) + "\n")
    relative = [p.relative_to(source).as_posix() for p in (first, second)]
    two_winners = [p.format() for p in project.rebuild(relative[:1]).errors]
    assert len(two_winners) == 1 and "two winners" in two_winners[0]
    assert two_winners[0].startswith(f"{relative[0]}:{loser + 1}:")
    second.write_text(second.read_text() + "\n")  # saved again, unchanged in substance
    assert [p.format() for p in project.rebuild(relative[1:]).errors] == two_winners
    assert [p.format() for p in project.build_all(["site.toml"]).errors] == two_winners
    first.write_text(original)
    assert not project.rebuild(relative[:1]).errors
    assert_same_as_full_build(source, out, tmp_path)
