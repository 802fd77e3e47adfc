"""Defects found in review of the old renderer (issue 21), each with the test that caught it.

The old renderer spliced large drawn lists into the page after rendering, through placeholders,
and kept per-template caches of drawn rows with a budget per template. Both are gone; these
tests hold the behaviour a theme author and a long watch session rely on.
"""

from __future__ import annotations

import re
import tracemalloc

import pytest

from conftest import conquest_event, write_files
from site_builder.live.session import Session

EV = "data/events/2024-05-18-big"
PLAYERS = 400


def big_round(flip: int = 0, players: int = PLAYERS) -> str:
    """One round of `players` players, two a table; `flip` changes who wins which tables."""
    rows = ["table,player,result"]
    for table in range(1, players // 2 + 1):
        first, second = ("win", "loss") if (table >> (flip % 8)) % 2 == flip % 2 else ("loss", "win")
        rows += [f"{table},Player {2 * table - 1:03d},{first}", f"{table},Player {2 * table:03d},{second}"]
    return "\n".join(rows) + "\n"


def test_a_captured_table_has_the_length_of_what_the_page_shows(site):
    """A theme template that captures a large drawn table and takes its `|length` gets the
    length of the table's markup. The old renderer handed templates a short placeholder for
    any list drawn past 16,384 characters, so `|length` said a handful of characters."""
    site.event("2024-05-18-big", conquest_event(structure="custom", swiss_rounds=2, cut=0),
               {1: big_round()})
    site.write({"themes/default/templates/round.html":
                '{% extends "base.html" %}\n'
                '{% from "partials/macros.html" import standings_table %}\n'
                '{% block main %}{% set table %}{{ standings_table(round.standings) }}{% endset %}'
                '<p id="length">{{ table|length }}</p><div id="table">{{ table }}</div><!-- end -->'
                '{% endblock %}\n'})
    assert site.build() == 0
    page = site.html("events/2024-05-18-big/round-1/")
    length = int(re.search(r'<p id="length">(\d+)</p>', page)[1])
    table = re.search(r'<div id="table">(.*)</div><!-- end -->', page, re.S)[1]
    assert length == len(table) > 16_384
    assert table.count("<tr") == PLAYERS + 1  # the heading row and one row a player


@pytest.mark.slow
def test_a_long_session_keeps_no_growing_cache(tmp_path):
    """A watch session republishing round after round with new results holds no more memory
    after thirty rebuilds than after ten: nothing drawn is kept between rebuilds beyond the
    state of the site. The old renderer's caches had a budget per template, so what a session
    held grew with every distinct result until each template's budget was spent."""
    source = write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": big_round(players=40)})
    session = Session(source, tmp_path / "out")
    assert not session.build_all().errors
    tracemalloc.start()
    try:
        held = []
        for run in range(1, 31):
            write_files(source, {f"{EV}/round-1.csv": big_round(run, players=40)})
            report = session.rebuild([f"{EV}/round-1.csv"])
            assert not report.errors and report.written > 0
            if run in (10, 30):
                held.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    assert held[1] - held[0] < 512 * 1024, f"grew by {held[1] - held[0]} bytes in 20 rebuilds"
