"""What the desk keeps between requests: seats' codes, players' reports and the round timer,
and how they come back from the journal (read back as data, never trusted)."""

from __future__ import annotations

import json
import os

from site_builder.desk.codes import SECRET_FILE, Secrets
from site_builder.desk.reports import Timer, Venue, _act, agreed
from site_builder.desk.store import JOURNAL, Journal
from site_builder.rules import RULESETS


def test_a_seat_code_opens_its_own_round_table_and_player_only(tmp_path):
    secrets, note = Secrets.of_site(tmp_path)
    assert note == "" and oct(os.stat(tmp_path / SECRET_FILE).st_mode & 0o777) == "0o600"
    code = secrets.seat("night", 2, "3", "Ada")
    assert len(code) == 16 and secrets.is_seat(code, "night", 2, "3", "Ada")
    others = [("night", 3, "3", "Ada"), ("night", 2, "4", "Ada"), ("night", 2, "3", "Bram"),
              ("day", 2, "3", "Ada")]
    assert not any(secrets.is_seat(code, *other) for other in others)
    # The same secret after a restart: the slips printed before still work.
    again, _ = Secrets.of_site(tmp_path)
    assert again.seat("night", 2, "3", "Ada") == code and again.organizer == secrets.organizer


def test_a_secret_file_that_is_not_ours_is_replaced_and_said(tmp_path):
    (tmp_path / SECRET_FILE).write_text("password123\n")
    _, note = Secrets.of_site(tmp_path)
    assert "was not a desk secret" in note
    assert len((tmp_path / SECRET_FILE).read_text().strip()) == 64


def test_reports_are_accepted_when_every_seat_agrees():
    win = [[{"result": "win"}, {"result": "loss"}]]
    other = [[{"result": "loss"}, {"result": "win"}]]
    assert agreed({0: win}, 2) is None  # the opponent has not reported
    assert agreed({0: win, 1: win}, 2) == win
    assert agreed({0: win, 1: other}, 2) is None
    # An empty game block or empty cell is no difference.
    padded = [[{"result": "win", "place": ""}, {"result": "loss"}], [{}, {}]]
    assert agreed({0: win, 1: padded}, 2) == win


def test_the_timer_starts_pauses_and_takes_added_time():
    timer = Timer(1, 55 * 60)
    _act(timer, "start", 1000.0, 55)
    assert timer.running and timer.remaining(1060.0) == 54 * 60
    _act(timer, "pause", 1060.0, 55)
    assert not timer.running and timer.remaining(5000.0) == 54 * 60
    _act(timer, "add", 5000.0, 55)
    assert timer.remaining(5000.0) == 55 * 60
    _act(timer, "start", 5000.0, 55)
    assert timer.remaining(5030.0) == 55 * 60 - 30
    _act(timer, "reset", 6000.0, 55)
    assert not timer.running and timer.remaining(9999.0) == 55 * 60


def test_reports_and_timer_come_back_from_the_journal_and_bad_lines_are_passed_over(tmp_path):
    journal = Journal(tmp_path)
    venue = Venue()
    venue.set_phones("night", journal, True)
    venue.report("night", journal, 1, "2", 0, [[{"result": "win"}, {"result": "loss"}]])
    venue.act("night", journal, 1, 55, "start", now=100.0)
    with open(tmp_path / JOURNAL, "a", encoding="utf-8") as file:
        file.write('{"kind": "report", "round": "1", "table": 2, "seat": 0}\n')  # wrong types
        file.write("[1, 2, 3]\nnot json at all\n")
        file.write(json.dumps({"kind": "report", "round": 1, "table": "2", "seat": 1,
                               "games": "<script>"}) + "\n")
        file.write('{"kind": "report", "round": 1, "table": "3", "se')  # cut short by a kill
    restored = Venue().of("night", journal)
    assert restored.phones
    assert restored.reports == {(1, "2"): {0: [[{"result": "win"}, {"result": "loss"}]]}}
    assert restored.timer is not None and restored.timer.ends_at == 100.0 + 55 * 60


def test_every_game_declares_what_the_desk_asks_of_a_table():
    from site_builder.rules.heresy.options import HeresyOptions
    from site_builder.rules.inwo.options import InwoOptions
    conquest = RULESETS["conquest"].entry(None)
    assert [q.label for q in conquest.quick] == ["wins", "modified win"]
    assert RULESETS["kingdom"].entry(None).cells[0].high == 22  # the deck's 22 hero houses
    heresy = RULESETS["heresy"].entry(HeresyOptions("reascension", 9, 14, 4, "single"))
    assert [c.column for c in heresy.cells] == ["result", "tau"] and heresy.cells[1].low == 0
    assert RULESETS["spellfire"].entry(None).games
    inwo = RULESETS["inwo"].entry(InwoOptions("multiplayer", 11))
    assert [c.column for c in inwo.cells] == ["result", "groups", "goal_pct", "advanced"]
