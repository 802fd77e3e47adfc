"""Nothing an organizer saves stops `watch` (issue 18, point 1): a template that is malformed,
raises or recurses, or a CSV cell past the csv module's limit, is one message in the terminal
and watching goes on, so the fix rebuilds. The real command runs in a subprocess."""

from __future__ import annotations

import pytest

from conftest import Running, conquest_event, write_files

pytestmark = pytest.mark.slow  # a real file watcher, waiting for its rebuilds

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"
TEMPLATE = "themes/default/templates/404.html"
GOOD_404 = ('{% extends "base.html" %}{% block title %}Lost{% endblock %}'
            '{% block main %}<h1>Not here</h1>{% endblock %}')
BROKEN_TEMPLATES = {
    "malformed": ("{% if %}", r"404\.html:1: Expected an expression"),
    "raises": ('{% extends "base.html" %}{% block main %}{{ 1 // 0 }}{% endblock %}',
               r"404\.html:1: ZeroDivisionError: .*by zero"),
    "recurses": ('{% extends "base.html" %}{% macro m() %}{{ m() }}{% endmacro %}'
                 '{% block main %}{{ m() }}{% endblock %}',
                 r"404\.html:1: a macro or include calls itself without end"),
}


@pytest.fixture
def source(tmp_path):
    return write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(name="Cup", structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": ROUND_1,
    })


def watch(source) -> Running:
    running = Running("watch", "--source", source, "--out", source.parent / "out")
    running.wait_for(r"^Watching ")
    return running


def assert_no_traceback(running: Running) -> None:
    assert not any("Traceback" in line for line in running.lines), "\n".join(running.lines)


@pytest.mark.parametrize("kind", BROKEN_TEMPLATES)
def test_a_broken_template_is_one_message_and_its_fix_rebuilds(source, kind):
    text, message = BROKEN_TEMPLATES[kind]
    running = watch(source)
    try:
        since = running.mark()
        (source / TEMPLATE).parent.mkdir(parents=True)
        (source / TEMPLATE).write_text(text)
        running.wait_for(message, since=since)
        running.wait_for(r"nothing of it applied", since=since)
        since = running.mark()
        (source / TEMPLATE).write_text(GOOD_404)
        running.wait_for(r"404\.html: \d+ pages? rendered", since=since)
        assert "<h1>Not here</h1>" in (source.parent / "out/404.html").read_text()
    finally:
        assert running.stop() == 130
    assert_no_traceback(running)


def test_a_csv_cell_past_the_csv_modules_limit_is_a_message_and_watching_goes_on(source):
    running = watch(source)
    try:
        since = running.mark()
        (source / EV / "round-2.csv").write_text(
            "table,player,result\n1,Ada,win\n1,\"" + "x" * 140_000 + "\",loss\n")
        running.wait_for(rf"{EV}/round-2\.csv:3: .*131,072 characters", since=since)
        since = running.mark()
        (source / EV / "round-2.csv").write_text(
            "table,player,result\n1,Ada,win\n1,Cleo,loss\n2,Bram,win\n2,Dan,loss\n")
        running.wait_for(r"round-2\.csv: \d+ pages rendered", since=since)
    finally:
        assert running.stop() == 130
    assert_no_traceback(running)


def test_starting_watch_with_a_broken_template_reports_it_and_keeps_watching(source):
    write_files(source, {TEMPLATE: BROKEN_TEMPLATES["raises"][0]})
    running = watch(source)
    try:
        running.wait_for(BROKEN_TEMPLATES["raises"][1])
        since = running.mark()
        (source / TEMPLATE).write_text(GOOD_404)
        running.wait_for(r"404\.html: \d+ pages? rendered", since=since)
        assert "<h1>Not here</h1>" in (source.parent / "out/404.html").read_text()
        assert "Cup" in (source.parent / f"out/events/{EV.split('/')[-1]}/index.html").read_text()
    finally:
        assert running.stop() == 130
    assert_no_traceback(running)


def test_watching_survives_the_first_good_build_replacing_an_output_inside_the_source(source):
    """The usual layout: _site inside the site's folder, left by an earlier session. The first
    good build of this session replaces it whole; the watching must go on after that."""
    out = source / "_site"
    write_files(source, {"content/about.md": "# About\n"})
    earlier = Running("build", "--source", source, "--out", out)
    assert earlier.process.wait(timeout=60) == 0
    earlier.finish()
    (source / EV / "round-1.csv").write_text(ROUND_1.replace("2,Cleo,win", "2,Cleo,wn"))
    running = Running("watch", "--source", source, "--out", out)
    try:
        running.wait_for(r"nothing of it applied; the last good site stays")
        since = running.mark()
        (source / EV / "round-1.csv").write_text(ROUND_1)
        running.wait_for(r"round-1\.csv: \d+ pages rendered", since=since)
        for text in ("# About us\n", "# About the club\n"):
            since = running.mark()
            (source / "content/about.md").write_text(text)
            running.wait_for(r"content/about\.md: \d+ pages? rendered", since=since, timeout=15)
            assert text[2:-1] in (out / "about/index.html").read_text()
    finally:
        assert running.stop() == 130
    assert_no_traceback(running)
    assert not any("RuntimeWarning" in line for line in running.lines)
