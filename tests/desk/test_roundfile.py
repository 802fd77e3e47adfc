"""The desk edits a round file line by line: one table's lines replaced, every other byte kept
(hand quoting, CRLF line ends, blank lines), and a file it cannot edit that way refused."""

from __future__ import annotations

import pytest

from site_builder.desk import roundfile
from site_builder.rules import RULESETS
from site_builder.rules.spellfire.options import SpellfireOptions  # noqa: F401 (the game's)

CONQUEST = RULESETS["conquest"].entry(None)
SPELLFIRE = RULESETS["spellfire"].entry(None)


def test_only_the_table_changes_and_every_other_byte_stays():
    text = ('table,player,result\r\n1,"Ada, the First",\r\n1,Bram,\r\n\r\n'
            ' 2 ,Cleo , win\r\n2,Dmitri,loss\r\n,Eun-ji,bye\r\n')
    parsed = roundfile.parse(text)
    rows = roundfile.read_table(parsed, "1", CONQUEST)
    assert rows.seats == ["Ada, the First", "Bram"]
    lines = roundfile.table_lines(parsed, rows, CONQUEST,
                                  [[{"result": "win"}, {"result": "loss"}]])
    assert parsed.with_table("1", lines) == (
        'table,player,result\r\n"Ada, the First",win\r\n'.replace('"Ada', '1,"Ada')
        + '1,Bram,loss\r\n\r\n 2 ,Cleo , win\r\n2,Dmitri,loss\r\n,Eun-ji,bye\r\n')


def test_a_table_is_read_by_its_trimmed_number_and_its_values_shown():
    parsed = roundfile.parse("table,player,result\n 2 ,Cleo , win\n2,Dmitri,loss\n")
    rows = roundfile.read_table(parsed, "2", CONQUEST)
    assert rows.seats == ["Cleo", "Dmitri"]
    assert rows.games == [[{"result": "win"}, {"result": "loss"}]]


def test_the_fingerprint_follows_the_tables_lines_only():
    before = roundfile.parse("table,player,result\n1,Ada,\n1,Bram,\n2,Cleo,\n2,Dmitri,\n")
    other = roundfile.parse("table,player,result\n1,Ada,\n1,Bram,\n2,Cleo,win\n2,Dmitri,loss\n")
    mine = roundfile.parse("table,player,result\n1,Ada,win\n1,Bram,\n2,Cleo,\n2,Dmitri,\n")
    assert before.fingerprint("1") == other.fingerprint("1") != mine.fingerprint("1")


def test_spellfire_games_replace_the_seat_rows_and_an_empty_game_is_left_out():
    text = "table,game,player,realms,result,place\n1,,Fay,,,\n1,,Ada,,,\n1,,Gus,,,\n2,,Hal,,,\n"
    parsed = roundfile.parse(text)
    rows = roundfile.read_table(parsed, "1", SPELLFIRE)
    game = [{"realms": "6", "result": "win"}, {"realms": "4"}, {"realms": "3"}]
    empty = [{}, {}, {}]
    lines = roundfile.table_lines(parsed, rows, SPELLFIRE, [game, empty])
    assert parsed.with_table("1", lines) == (
        "table,game,player,realms,result,place\n1,1,Fay,6,win,\n1,1,Ada,4,,\n1,1,Gus,3,,\n"
        "2,,Hal,,,\n")
    # Read back: one game, and a table with every game emptied goes back to its seat rows.
    again = roundfile.parse(parsed.with_table("1", lines))
    assert roundfile.read_table(again, "1", SPELLFIRE).games == [
        [{"realms": "6", "result": "win", "place": ""}, {"realms": "4", "result": "", "place": ""},
         {"realms": "3", "result": "", "place": ""}]]
    seats = roundfile.table_lines(again, roundfile.read_table(again, "1", SPELLFIRE), SPELLFIRE,
                                  [empty])
    assert seats == ["1,,Fay,,,", "1,,Ada,,,", "1,,Gus,,,"]


def test_a_cell_over_several_lines_is_left_to_the_organizer():
    with pytest.raises(roundfile.NotEditable, match="several lines"):
        roundfile.parse('table,player,result\n1,"Ada\nByron",win\n')


def test_a_column_the_desk_does_not_ask_about_keeps_its_value():
    parsed = roundfile.parse("table,player,result,note\n1,Ada,,late\n1,Bram,,\n")
    rows = roundfile.read_table(parsed, "1", CONQUEST)
    lines = roundfile.table_lines(parsed, rows, CONQUEST, [[{"result": "win"}, {"result": "loss"}]])
    assert lines == ["1,Ada,win,late", "1,Bram,loss,"]
