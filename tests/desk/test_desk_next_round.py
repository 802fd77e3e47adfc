"""Forming the next round at the desk: the same procedure as `pair` (drops and late arrivals
included, the same files written), refused while a table has no result unless the organizer
says so explicitly."""

from __future__ import annotations

import pytest
from deskrun import NAMES, csrf_of, fingerprint_of, league, pair_by_hand, seats_of, start_desk
from test_desk_events import CONQUEST, SLUG, event_files, type_conquest_results

from site_builder.cli import main

pytestmark = pytest.mark.slow


def test_drops_and_late_arrivals_at_the_desk_write_what_pair_writes(tmp_path):
    players = NAMES[:10]
    by_hand = league(tmp_path / "hand", SLUG, CONQUEST, players)
    at_desk = league(tmp_path / "desk", SLUG, CONQUEST, players)
    for folder in (by_hand, at_desk):
        type_conquest_results(pair_by_hand(folder))
    assert main(["pair", str(by_hand), "--drop", "Cleo Park", "--add", "Kofi Mensah"]) == 0
    desk = start_desk(tmp_path / "desk")
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SLUG}").text
        assert 'name="drop" value="Cleo Park"' in page  # picked from the round's players
        answer = client.post(f"/_desk/e/{SLUG}/next", data={
            "csrf": csrf_of(page), "round": "1", "drop": "Cleo Park", "new": "Kofi Mensah"})
        assert answer.status_code == 200 and "Round 2 is formed" in answer.text
        assert "Cleo Park dropped after round 1" in answer.text
    finally:
        client.close()
        desk.stop()
    assert event_files(at_desk) == event_files(by_hand)  # round-2.csv and drops.csv alike


def test_the_next_round_waits_for_every_table_unless_the_organizer_overrides(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:10])
    desk = start_desk(tmp_path)
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SLUG}").text
        page = client.post(f"/_desk/e/{SLUG}/next", data={"csrf": csrf_of(page),
                                                          "round": "0"}).text
        tables = seats_of(folder / "round-1.csv")
        for table in list(tables)[:-1]:  # the last table never reports
            page = client.post(f"/_desk/e/{SLUG}/table", data={
                "csrf": csrf_of(page), "round": "1", "table": table,
                "fp": fingerprint_of(page, table), "quick": "0:0"}).text
        assert "1 table to go" in page
        refused = client.post(f"/_desk/e/{SLUG}/next", data={"csrf": csrf_of(page), "round": "1"})
        last, seats = list(tables.items())[-1]
        assert refused.status_code == 422 and "round 1 is still being played" in refused.text
        assert not (folder / "round-2.csv").exists()
        formed = client.post(f"/_desk/e/{SLUG}/next", data={
            "csrf": csrf_of(page), "round": "1", "override": "1"})
        assert formed.status_code == 200 and "Round 2 is formed" in formed.text
    finally:
        client.close()
        desk.stop()
    text = (folder / "round-1.csv").read_text(encoding="utf-8")
    # Conquest IV: a player who did not play gets an unpaired loss: a loss with no table.
    assert f",{seats[0]},loss\n,{seats[1]},loss\n" in text
    assert f"{last},{seats[0]}" not in text
    assert (folder / "round-2.csv").exists()
