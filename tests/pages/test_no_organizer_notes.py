"""Organizer notes stay off the public site (issue 32, point 6): a warning names a round file and
its line, which is for the terminal, the preview's overlay and the desk, not for players."""

from __future__ import annotations

from conftest import conquest_event

SLUG = "2024-05-18-cup"
EV = f"data/events/{SLUG}"


def test_a_warning_is_said_in_the_terminal_and_shown_on_no_page(site, run_cli):
    site.event(SLUG, conquest_event(structure="custom", swiss_rounds=3, cut=0), {
        1: "table,player,result\n1,Priya Nair,win\n1,Bram Oak,loss\n2,Cleo Stone,win\n2,Dan Moss,loss\n",
        2: "table,player,result\n1,Priya Niar,win\n1,Cleo Stone,loss\n2,Bram Oak,win\n2,Dan Moss,loss\n"})
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0
    assert f'{EV}/round-2.csv:2: warning: "Priya Niar" first plays in round 2' in result.err
    for page in site.out.rglob("*"):
        if page.suffix in (".html", ".json", ".xml", ".txt") and page.is_file():
            text = page.read_text(encoding="utf-8")
            assert "round-2.csv" not in text and "Notes for the organizer" not in text, page
            assert "did you mean" not in text, page
