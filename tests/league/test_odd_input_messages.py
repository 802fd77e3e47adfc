"""Odd input still gets a clear message (issue 18, point 8): one line per problem whatever a name
holds, NUL bytes refused, base_url checked, no misleading warning after a TOML error."""

from __future__ import annotations

import pytest

from conftest import conquest_event

EV = "data/events/2024-05-18-cup"


def test_a_name_with_a_line_break_keeps_its_message_on_one_line(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(),
                f"{EV}/round-1.csv": 'table,player,result\n1,"Ada\nLovelace",win\n1,Bram,loss\n'
                                     '2,"Ada\nLovelace",win\n2,Cleo,loss\n'})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert (f"{EV}/round-1.csv:5: Ada\\nLovelace is in this round twice (also on line 2): a player "
            "plays one game per round") in result.lines, result.err
    assert all(line.startswith((f"{EV}/", "1 error", "2 errors")) for line in result.lines)


def test_a_very_long_message_is_cut_in_the_middle_keeping_what_to_do(site, run_cli):
    rows = "".join(f"1,Player {i},{'win' if i == 0 else 'loss'}\n" for i in range(400))
    site.write({f"{EV}/event.toml": conquest_event(),
                f"{EV}/round-1.csv": "table,player,result\n" + rows})
    result = run_cli("check", "--source", site.root)
    line = next(line for line in result.lines if "table 1 has 400 players" in line)
    assert len(line) < 700 and " … " in line
    assert line.endswith("a Conquest game is played by two")


def test_a_nul_byte_in_a_cell_is_an_error_at_its_line(site, run_cli):
    site.write({f"{EV}/event.toml": conquest_event(),
                f"{EV}/round-1.csv": b"table,player,result\n1,Ada,win\n1,Br\x00am,loss\n"})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert (f"{EV}/round-1.csv:3: a cell holds a NUL byte (\\x00), which no name or result has: "
            "the file is damaged or not text; retype the row") in result.lines


@pytest.mark.parametrize("url", ["http://", "https://exa mple.com/", 'http://a"b.com/',
                                      "http:/league/", "javascript:alert(1)", "//evil.example/",
                                      "league/"])
def test_a_base_url_that_is_not_a_path_or_an_http_url_is_an_error(site, run_cli, url):
    site.write({"site.toml": f"base_url = '{url}'\n"})
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1 and not site.out.exists()
    assert result.lines[0].startswith(f"site.toml:1: base_url '{url}' must "), result.err
    site.write({"site.toml": ""})
    cli = run_cli("build", "--source", site.root, "--out", site.out, "--base-url", url)
    assert cli.code == 1 and cli.lines[0].startswith(f"site-builder: --base-url: base_url '{url}' must ")


def test_a_toml_error_does_not_add_a_report_has_no_event_warning(site, run_cli):
    site.write({f"{EV}/event.toml": 'name = "Cup\ndate = 2024-05-18\n',
                "content/events/2024-05-18-cup.md": "# How the cup went\n"})
    result = run_cli("check", "--source", site.root)
    assert result.lines == [f"{EV}/event.toml:1: is not valid TOML: illegal character '\\n' at "
                            "column 12", "1 error."]


@pytest.mark.parametrize("body,message", [
    ("{{ 1 // 0 }}", "ZeroDivisionError: integer division or modulo by zero (rendering /404.html)"),
    ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
     "a macro or include calls itself without end (rendering /404.html)"),
    ("{% if %}", "Expected an expression, got 'end of statement block'"),
])
def test_a_template_that_fails_is_one_message_and_nothing_is_written(site, run_cli, body, message):
    site.write({"themes/default/templates/404.html":
                '{% extends "base.html" %}{% block main %}' + body + "{% endblock %}"})
    (site.root / "data/events").mkdir(exist_ok=True)
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1 and not site.out.exists()
    assert result.lines == [f"site-builder: themes/default/templates/404.html:1: {message}"]


def test_a_stray_quote_that_swallows_the_file_is_named_at_its_line(site, run_cli):
    rows = "".join(f"{i},Player {i}a,win\n{i},Player {i}b,loss\n" for i in range(2, 4000))
    site.write({f"{EV}/event.toml": conquest_event(),
                f"{EV}/round-1.csv": 'table,player,result\n1,"Ada,win\n1,Bram,loss\n' + rows})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1 and "Traceback" not in result.err
    assert result.lines[0].startswith(
        f"{EV}/round-1.csv:2: unreadable CSV: a quoted cell starting on this line runs on to line ")
    assert result.lines[0].endswith('a stray double quote (") opens a cell that only another quote '
                                    'closes. Remove it, or write a quote inside a cell as two ("")')
    assert result.lines[1:] == ["1 error."]
