"""The real file watcher against a scratch site: each kind of edit an organizer makes gives one
rebuild after it is complete, and the output on disk follows."""

from __future__ import annotations

import logging
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO, conquest_event, write_files
from site_builder.project import Project
from site_builder.templates import pages_using
from site_builder.watch import Watcher, relevant

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
    standings = session.project.events["2024-05-18-cup"].scored.standings
    assert {r.player.name: r.values["points"] for r in standings.rows}["Bram"] == 5


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
        f"{EV}/round-1.csv:4: result 'wn' is not a Conquest result: expected win, modified-win "
        "(or mw), loss or bye"]
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


def test_editing_a_partial_drawn_as_a_fragment_rerenders_its_pages(session):
    """Rows of long lists and round bodies are partials drawn by the `fragment` filters, which no
    `{% include %}` names: an edit must still reach the pages that draw them, and only those."""
    builtin = Path(__file__).resolve().parent.parent / "themes/default/templates/partials"
    # The theme's folders come first (see test_editing_a_template_rerenders_what_uses_it).
    (session.source / "themes/default/templates/partials").mkdir(parents=True)
    session.wait()
    for partial, marker in (("history_row.html", "<tr"), ("round_results.html", "{% include")):
        text = (builtin / partial).read_text()
        assert marker in text
        write_files(session.source, {f"themes/default/templates/partials/{partial}":
                                     text.replace(marker, f"<!-- edited {partial} -->" + marker, 1)})
        _, report = session.wait()
        assert not report.errors
        edited = sorted(p.parent.relative_to(session.out).as_posix()
                        for p in session.out.rglob("index.html")
                        if f"edited {partial}" in p.read_text())
        if partial == "history_row.html":  # one per player page, none elsewhere
            assert edited == [f"players/{name}" for name in ("ada", "bram", "cleo", "dan")]
        else:
            assert edited == ["events/2024-05-18-cup/round-1"]
        # Only the units drawing the partial are rendered (a round page's unit is its event:
        # its page, a round page, and their JSON files).
        assert report.written == len(edited) and report.rendered <= 5


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


def test_every_template_of_the_default_theme_is_known_to_the_pages_drawing_it(tmp_path):
    """A template edit re-renders the pages whose drawing reads the template (pages_using). Each
    template of the built-in theme must be found from some page of the demo site: one drawn by a
    filter that no `{% include %}` names (the rankings' rows, say) would otherwise never reach
    its pages in watch mode."""
    project = Project(REPO, tmp_path / "out")
    assert not project.build_all().errors
    found = set().union(*(pages_using(project.renderer.env, page)
                          for page in project.pages.by_url.values()))
    templates = REPO / "themes/default/templates"
    every = {p.relative_to(templates).as_posix() for p in templates.rglob("*.html")}
    assert every - found == set()
    assert "partials/ranking_row.html" in pages_using(project.renderer.env,
                                                       project.pages.by_url["rankings/"])
