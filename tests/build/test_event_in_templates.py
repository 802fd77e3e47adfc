"""Event templates get the scored event as `event` and read the event's keys from it:
`event.info`, `event.slug`, `event.folder`, `event.registrations` (docs/theming.md). A theme
written for `event.event.…`, as the default theme was until issue 31, still builds the same
pages: the spelling is deprecated, not gone."""

from __future__ import annotations

import re

from conftest import REPO, conquest_event

TEMPLATES = REPO / "themes/default/templates"
EV = "2024-05-18-night"
SHOWN = ("{{ EVENT.info.name }}|{{ EVENT.info.organizer }}|{{ EVENT.slug }}|{{ EVENT.folder }}|"
         "{% for r in EVENT.registrations %}{{ r.name }} {% endfor %}")
"""What each spelling shows, with EVENT the way to the event."""


def test_the_default_templates_read_the_event_from_the_scored_event():
    found = [f"{path.relative_to(TEMPLATES)}:{number}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bevent\.event\b", line)]
    assert found == []


def test_a_theme_written_for_event_event_shows_the_same(site):
    site.event(EV, conquest_event(name="Night", organizer="Ola", structure="custom",
                                  swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n"},
               **{"players.csv": "player\nAda\nBram\n"})
    site.write({
        "site.toml": 'theme = "old"\n',
        "themes/old/templates/event.html":
            '{% extends "base.html" %}{% block main %}'
            f'<p id="old">{SHOWN.replace("EVENT", "event.event")}</p>'
            f'<p id="new">{SHOWN.replace("EVENT", "event")}</p>{{% endblock %}}'})
    assert site.build() == 0
    page = site.html(f"events/{EV}/")
    shown = f"Night|Ola|{EV}|data/events/{EV}|Ada Bram "
    assert f'<p id="old">{shown}</p>' in page
    assert f'<p id="new">{shown}</p>' in page
