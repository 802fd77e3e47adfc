"""The real file watcher against a scratch site: each kind of edit an organizer makes gives one
rebuild after it is complete, and the output on disk follows."""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import conquest_event, copy_demo, write_files
from site_builder.live.session import Session as Project
from site_builder.live.watch import Watcher, relevant

pytestmark = pytest.mark.slow  # a real file watcher, waiting for its rebuilds

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"
ROUND_2 = "table,player,result\n1,Ada,win\n1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n"


class Session:
    """A project and its watcher; `wait()` returns the batches of one rebuild."""

    def __init__(self, root: Path):
        self.source, self.out = root / "site", root / "out"
        self.project = Project(self.source, self.out)
        assert not self.project.build_all().errors
        self.reports: queue.Queue = queue.Queue()
        self.watcher = Watcher(self.source, self._rebuild)
        self.watcher.start()
        time.sleep(0.3)

    def _rebuild(self, batch: list[str]) -> None:
        self.reports.put((batch, self.project.rebuild(batch)))

    def wait(self, timeout: float = 10.0):
        return self.reports.get(timeout=timeout)

    def quiet(self, seconds: float = 0.8) -> bool:
        """True if no further rebuild happens within `seconds`."""
        try:
            self.reports.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def page(self, url: str) -> str:
        return (self.out / url / "index.html").read_text(encoding="utf-8")

    def stop(self) -> None:
        self.watcher.stop()


@pytest.fixture
def session(tmp_path):
    write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(name="Cup", structure="custom", swiss_rounds=3, cut=0),
        f"{EV}/round-1.csv": ROUND_1,
    })
    running = Session(tmp_path)
    yield running
    running.stop()


def test_appending_a_round_publishes_it(session):
    (session.source / EV / "round-2.csv").write_text(ROUND_2)
    batch, report = session.wait()
    assert batch == [f"{EV}/round-2.csv"] and not report.errors
    assert "Standings after round 2" in session.page("events/2024-05-18-cup/round-2")
    assert "In progress: 2 of 3 rounds played" in session.page("events/2024-05-18-cup")
    assert session.quiet()


def test_a_rename_save_is_one_rebuild(session):
    """Editors write a temporary file and rename it over the original."""
    temporary = session.source / EV / ".round-1.csv.swp"
    temporary.write_text(ROUND_1.replace("1,Ada,win\n1,Bram,loss", "1,Ada,loss\n1,Bram,win"))
    os.replace(temporary, session.source / EV / "round-1.csv")
    batch, report = session.wait()
    assert batch == [f"{EV}/round-1.csv"] and not report.errors
    assert session.quiet()
    standings = json.loads((session.out / EV.replace("data/", "") / "standings.json").read_text())
    assert {r["player"]: r["points"] for r in standings["standings"]}["Bram"] == 5


def test_a_file_written_in_pieces_is_rebuilt_once_complete(session):
    """A spreadsheet writing slowly: nothing happens while the file is open, one rebuild after."""
    path = session.source / EV / "round-2.csv"
    with path.open("w") as handle:
        handle.write("table,player,result\n1,Ada,win\n")
        handle.flush()
        time.sleep(0.4)  # half a file: table 1 has one player, which would be an error
        assert session.reports.empty()
        handle.write("1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n")
    batch, report = session.wait()
    assert not report.errors
    assert session.quiet()


def test_a_bad_row_keeps_the_last_good_site_until_it_is_fixed(session):
    page = session.page("events/2024-05-18-cup")
    (session.source / EV / "round-1.csv").write_text(ROUND_1.replace("2,Cleo,win", "2,Cleo,wn"))
    _, report = session.wait()
    assert [p.format() for p in report.errors] == [
        f"{EV}/round-1.csv:4: result 'wn' is not a Conquest result: expected win (or w), "
        "modified-win (or mw, modified win), loss (or l) or bye, in capitals or not"]
    assert session.page("events/2024-05-18-cup") == page
    (session.source / EV / "round-1.csv").write_text(ROUND_1.replace("2,Cleo,win", "2,Cleo,mw"))
    _, report = session.wait()
    assert not report.errors and report.written > 0
    assert "Modified win" in session.page("events/2024-05-18-cup/round-1")


@pytest.mark.parametrize("copy", ["shutil", "cp -r"])
def test_a_copied_event_folder_and_its_deletion(session, tmp_path, copy):
    """A whole folder copied in at once is one rebuild, whether this process copies it or
    another program does; deleting it removes its pages."""
    staging = tmp_path / "elsewhere"
    write_files(staging, {"event.toml": conquest_event(name="League night", date="2024-06-01",
                                                       structure="custom", swiss_rounds=1, cut=0),
                          "round-1.csv": ROUND_1, "players.csv": "name\nAda\nBram\nCleo\nDan\n"})
    target = session.source / "data/events/2024-06-01-night"
    if copy == "shutil":
        shutil.copytree(staging, target)
    else:
        subprocess.run(["cp", "-r", str(staging), str(target)], check=True)
    batch, report = session.wait()
    assert not report.errors
    assert session.quiet()
    assert "League night" in session.page("events/2024-06-01-night")
    assert "League night" in session.page("events")
    shutil.rmtree(target)
    # Files go first and the folder last: on a busy machine the files' deletions can be a
    # rebuild of their own before the folder's.
    batch, report = session.wait()
    while "data/events/2024-06-01-night" not in batch:
        batch, report = session.wait()
    assert not (session.out / "events/2024-06-01-night").exists()
    assert "League night" not in session.page("events")


def test_a_folder_filled_slowly_is_one_rebuild(session):
    """On a busy machine a folder copied in is filled with gaps between its files, longer than
    the quiet moment after a saved file: a burst that made a folder waits longer, so the new
    event is built once, complete, not first without its rounds."""
    folder = "data/events/2024-06-01-night"
    (session.source / folder).mkdir()
    for name, text in (("event.toml", conquest_event(name="League night", date="2024-06-01",
                                                     structure="custom", swiss_rounds=1, cut=0)),
                       ("players.csv", "name\nAda\nBram\nCleo\nDan\n"), ("round-1.csv", ROUND_1)):
        time.sleep(0.05)  # a busy machine's gap: more than the 20 ms after a saved file
        (session.source / folder / name).write_text(text)
    batch, report = session.wait()
    assert batch == [folder, f"{folder}/event.toml", f"{folder}/players.csv", f"{folder}/round-1.csv"]
    assert not report.errors
    assert session.quiet()
    assert "League night" in session.page("events/2024-06-01-night")


def test_editing_a_template_rerenders_what_uses_it(session):
    # The theme's folders come first, and their rebuild (rendering nothing) is waited out: the
    # template's batch is then the template alone.
    (session.source / "themes/default/templates").mkdir(parents=True)
    session.wait()
    write_files(session.source, {"themes/default/templates/404.html":
                                 '{% extends "base.html" %}{% block title %}Lost{% endblock %}'
                                 '{% block main %}<h1>Nothing here, sorry</h1>{% endblock %}'})
    batch, report = session.wait()
    assert batch == ["themes/default/templates/404.html"]
    assert not report.errors
    assert "Nothing here, sorry" in (session.out / "404.html").read_text()
    assert report.rendered == 1


def test_editing_a_macro_file_rerenders_the_pages_drawing_its_rows(session):
    """Table rows are macros of partials/rows.html, imported by the templates that draw them:
    an edit must reach the pages that draw them, and only those."""
    builtin = Path(__file__).resolve().parents[2] / "themes/default/templates/partials"
    # The theme's folders come first (see test_editing_a_template_rerenders_what_uses_it).
    (session.source / "themes/default/templates/partials").mkdir(parents=True)
    session.wait()
    text = (builtin / "rows.html").read_text()
    assert "{% macro history_row" in text
    marked = text.replace("{% macro history_row", "{% macro history_row", 1).replace(
        "<tr", "<!-- edited rows --><tr", 1)
    write_files(session.source, {"themes/default/templates/partials/rows.html": marked})
    _, report = session.wait()
    assert not report.errors
    edited = sorted(p.parent.relative_to(session.out).as_posix()
                    for p in session.out.rglob("index.html") if "edited rows" in p.read_text())
    assert edited and report.written == len(edited)
    assert report.rendered < sum(1 for _ in session.out.rglob("index.html"))


def test_editor_scratch_files_are_ignored():
    assert not relevant("data/events/x/.round-1.csv.swp")
    assert not relevant("data/events/x/round-1.csv~")
    assert not relevant("content/.~lock.about.md#")
    assert not relevant("_site/index.html")
    assert relevant("data/events/x/round-1.csv") and relevant("site.toml")


def test_stopping_the_watcher_ends_its_thread(tmp_path):
    write_files(tmp_path / "site", {f"{EV}/event.toml": conquest_event(), f"{EV}/round-1.csv": ROUND_1})
    running = Session(tmp_path)
    before = threading.active_count()
    running.stop()
    assert threading.active_count() < before


def test_a_file_saved_before_delivery_begins_is_handed_on_once_it_does(tmp_path):
    """`watch` observes before its first build and delivers after it: a round saved while the
    first build runs is rebuilt once that build is done, not lost until the next save."""
    write_files(tmp_path / "site", {f"{EV}/event.toml": conquest_event(), f"{EV}/round-1.csv": ROUND_1})
    batches: list[list[str]] = []
    handed_on = threading.Event()
    watcher = Watcher(tmp_path / "site", lambda batch: (batches.append(batch), handed_on.set()))
    watcher.observe()
    try:
        (tmp_path / "site" / EV / "round-2.csv").write_text(ROUND_1)  # during the "first build"
        time.sleep(1.0)  # well past the quiet moment: nothing is handed on before delivery
        assert batches == []
        watcher.deliver()
        assert handed_on.wait(10), "the change saved before delivery was lost"
    finally:
        watcher.stop()
    assert batches == [[f"{EV}/round-2.csv"]]


def test_a_watcher_stopped_before_delivering_stops(tmp_path):
    """A first build that fails for good (a bad --out) stops the watcher it started."""
    write_files(tmp_path / "site", {f"{EV}/event.toml": conquest_event(), f"{EV}/round-1.csv": ROUND_1})
    before = threading.active_count()
    watcher = Watcher(tmp_path / "site", lambda batch: None)
    watcher.observe()
    watcher.stop()
    assert threading.active_count() == before


def test_a_saves_temporary_file_is_not_reported(session):
    """sed -i and many editors write a new file and rename it into place."""
    temporary = session.source / EV / "sedA1b2C3"
    temporary.write_text(ROUND_1.replace("2,Cleo,win\n2,Dan,loss", "2,Cleo,loss\n2,Dan,win"))
    os.replace(temporary, session.source / EV / "round-1.csv")
    batch, _ = session.wait()
    assert batch == [f"{EV}/round-1.csv"]


def test_a_broken_template_is_reported_and_its_fix_catches_up(session):
    template = session.source / "themes/default/templates/404.html"
    template.parent.mkdir(parents=True, exist_ok=True)
    template.write_text('{% extends "base.html" %}{% block main %}{{ no_such_thing.x }}{% endblock %}')
    _, report = session.wait()
    assert report.errors and "404.html" in report.errors[0].format()
    assert "'no_such_thing' is undefined" in report.errors[0].format()
    template.write_text('{% extends "base.html" %}{% block title %}Lost{% endblock %}'
                        '{% block main %}<h1>Not here</h1>{% endblock %}')
    _, report = session.wait()
    assert not report.errors
    assert "<h1>Not here</h1>" in (session.out / "404.html").read_text()


def test_watchdogs_shutdown_race_message_is_not_shown_but_its_other_errors_are(caplog):
    logger = logging.getLogger("watchdog.observers.inotify")
    with caplog.at_level(logging.ERROR, logger="watchdog.observers.inotify"):
        logger.error("InotifyEmitter.queue_events() called when the thread is inactive")
        logger.error("inotify watch limit reached")
    assert [r.getMessage() for r in caplog.records] == ["inotify watch limit reached"]


def test_every_template_of_the_default_theme_reaches_the_pages_drawing_it(tmp_path):
    """A template edit re-renders the pages whose drawing loaded the template (recorded while
    they render). Each template of the built-in theme in turn is broken in a copy of the demo:
    the rebuild must report it, which it can only do by rendering a page that loads it (a
    template loaded in a way the recording misses would leave its pages stale). Fixed again,
    the output equals a clean build's."""
    source = copy_demo(tmp_path / "site", with_theme=True)
    write_files(source, {  # the demo has no event of a declared game (games/declared/)
        "data/events/2026-11-20-fnm/event.toml": 'name = "FNM"\ndate = 2026-11-20\n'
                                                  'game = "magic"\nswiss_rounds = 1\n',
        "data/events/2026-11-20-fnm/round-1.csv": "table,player,result\n1,Ada,win\n1,Bo,loss\n"})
    out = tmp_path / "out"
    session = Project(source, out)
    assert not session.build_all().errors
    templates = source / "themes/default/templates"
    # desk/: the desk's own pages, drawn by `site-builder desk` only (tests/desk/), never built
    names = sorted(name for p in templates.rglob("*.html")
                   if not (name := p.relative_to(templates).as_posix()).startswith("desk/"))
    assert len(names) > 10 and "partials/rows.html" in names
    for name in names:
        path, changed = templates / name, [f"themes/default/templates/{name}"]
        text = path.read_text()
        path.write_text(text + "{% if %}")
        errors = session.rebuild(changed).errors
        assert errors and name in errors[0].format(), f"no page drawn with {name} was rendered"
        path.write_text(text)
        assert not session.rebuild(changed).errors
    from site_builder.build import build
    build(source, tmp_path / "clean", clean=True)
    assert _tree(out) == _tree(tmp_path / "clean")


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_event_held_back_by_errors_does_not_hold_back_the_rest(tmp_path):
    """Two events: one gets a bad row, the other a new title in the same rebuild. The bad one
    keeps its last good pages, the other is published, and the line says so; a new event with
    errors then blocks the rebuild, and both events' errors are listed."""
    other = "data/events/2024-06-01-night"
    source = write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(name="Cup", structure="custom", swiss_rounds=3, cut=0),
        f"{EV}/round-1.csv": ROUND_1,
        f"{other}/event.toml": conquest_event(name="Night", date="2024-06-01", structure="custom",
                                              swiss_rounds=1, cut=0),
        f"{other}/round-1.csv": ROUND_1})
    session = Project(source, tmp_path / "out")
    assert not session.build_all().errors
    cup = (tmp_path / "out/events/2024-05-18-cup/index.html").read_text()
    write_files(source, {f"{EV}/round-1.csv": ROUND_1.replace("2,Cleo,win", "2,Cleo,wn"),
                         f"{other}/event.toml": conquest_event(
                             name="League night", date="2024-06-01", structure="custom",
                             swiss_rounds=1, cut=0)})
    report = session.rebuild([f"{EV}/round-1.csv", f"{other}/event.toml"])
    assert [p.path for p in report.errors] == [f"{EV}/round-1.csv"]
    assert "1 error keeps 1 event at the last good version; " in report.line()
    assert (tmp_path / "out/events/2024-05-18-cup/index.html").read_text() == cup
    assert "League night" in (tmp_path / "out/events/2024-06-01-night/index.html").read_text()
    new = "data/events/2024-07-01-new"
    write_files(source, {f"{new}/event.toml": conquest_event(name="New", date="2024-07-01"),
                         f"{new}/round-1.csv": "table,player,result\n1,Ada,won\n1,Bram,loss\n"})
    report = session.rebuild([f"{new}/event.toml", f"{new}/round-1.csv"])
    assert sorted({p.path for p in report.errors}) == [f"{EV}/round-1.csv", f"{new}/round-1.csv"]
    assert "nothing of it applied" in report.line()


def test_a_changed_game_declaration_rescores_its_events_in_a_watch_session(tmp_path):
    """data/games/<id>.toml is an input of every event of the game (issue 35): a watch rebuild
    told only of the declaration's change scores the event again, as a clean build does."""
    house = ('name = "House"\nswiss_rounds = 2\ntiebreaks = ["sos", "wins"]\n'
             "[results]\nwin = 3\ndraw = 1\nloss = 0\n")
    source = write_files(tmp_path / "site", {
        "data/games/house.toml": house,
        "data/events/2026-11-20-house/event.toml": 'name = "House night"\ndate = 2026-11-20\n'
                                                   'game = "house"\n',
        "data/events/2026-11-20-house/round-1.csv": "table,player,result\n1,Ada,win\n1,Bo,loss\n"
                                                    "2,Cy,draw\n2,Di,draw\n"})
    out = tmp_path / "out"
    session = Project(source, out)
    assert not session.build_all().errors
    before = json.loads((out / "events/2026-11-20-house/standings.json").read_text())
    (source / "data/games/house.toml").write_text(house.replace("draw = 1", "draw = 2"))
    assert not session.rebuild(["data/games/house.toml"]).errors
    after = json.loads((out / "events/2026-11-20-house/standings.json").read_text())
    assert [r["points"] for r in before["standings"]] == [3, 1, 1, 0]
    assert [r["points"] for r in after["standings"]] == [3, 2, 2, 0]
    from site_builder.build import build
    build(source, tmp_path / "clean", clean=True)
    assert _tree(out) == _tree(tmp_path / "clean")
