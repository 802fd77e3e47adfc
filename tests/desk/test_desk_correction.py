"""Correcting an earlier round at the desk: a preview first (who moves in the standings, and
whether the next round would have been paired differently), nothing written until the
organizer confirms, then only that table's lines change."""

from __future__ import annotations

import re

import pytest
from deskrun import NAMES, csrf_of, fingerprint_of, league, pair_by_hand, seats_of, start_desk
from test_desk_events import CONQUEST, SLUG, type_conquest_results

pytestmark = pytest.mark.slow


def test_a_correction_is_previewed_then_written(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:10])
    for _ in range(2):
        type_conquest_results(pair_by_hand(folder))
    round_1 = folder / "round-1.csv"
    before = round_1.read_text(encoding="utf-8")
    seats = seats_of(round_1)["1"]
    winner, loser = (seats[0], seats[1]) if f"1,{seats[0]},win" in before else (seats[1], seats[0])
    desk = start_desk(tmp_path)
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SLUG}/round/1").text
        fields = {"csrf": csrf_of(page), "round": "1", "table": "1",
                  "fp": fingerprint_of(page, "1"),
                  f"g1.s{seats.index(winner)}.result": "loss",
                  f"g1.s{seats.index(loser)}.result": "win", "preview": "1"}
        preview = client.post(f"/_desk/e/{SLUG}/round/1", data=fields)
        assert preview.status_code == 200
        assert round_1.read_text(encoding="utf-8") == before  # a preview writes nothing
        moves = {m[0]: m[1:] for m in re.findall(
            r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>'
            r'<td>(\d+)</td></tr>', preview.text)}
        # Round 1's win (5 points, IV.4) moves from one player to the other.
        assert int(moves[winner][2]) - int(moves[winner][3]) == 5
        assert int(moves[loser][3]) - int(moves[loser][2]) == 5
        assert re.search(r"Round 2(&#39;|')s pairings would have been the same|Round 2 would "
                         r"have been paired differently", preview.text)
        applied = client.post(f"/_desk/e/{SLUG}/round/1", data={**fields, "apply": "1"})
        assert applied.status_code == 200 and "corrected" in applied.text
    finally:
        client.close()
        desk.stop()
    after = round_1.read_text(encoding="utf-8")
    expected = before.replace(f"1,{winner},win", "1,WINNER,loss").replace(
        f"1,{loser},loss", f"1,{loser},win").replace("1,WINNER,loss", f"1,{winner},loss")
    assert after == expected


def test_a_stale_correction_form_is_a_conflict(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:10])
    type_conquest_results(pair_by_hand(folder))
    type_conquest_results(pair_by_hand(folder))
    desk = start_desk(tmp_path)
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SLUG}/round/1").text
        fingerprint = fingerprint_of(page, "1")
        round_1 = folder / "round-1.csv"
        hand = round_1.read_text(encoding="utf-8").replace(",win\n", ",modified-win\n", 1)
        round_1.write_text(hand, encoding="utf-8")
        answer = client.post(f"/_desk/e/{SLUG}/round/1", data={
            "csrf": csrf_of(page), "round": "1", "table": "1", "fp": fingerprint,
            "g1.s0.result": "loss", "g1.s1.result": "win", "preview": "1", "apply": "1"})
        assert answer.status_code == 422 and "was changed" in answer.text
        assert round_1.read_text(encoding="utf-8") == hand
    finally:
        client.close()
        desk.stop()


def test_the_preview_of_a_correction_after_the_cut_shows_points(tmp_path):
    """Found by review: once the cut is played the final standings' first deciding column is
    the finish, blank below the cut, and the preview showed blank points. The demo's Spring
    Store Championship (24 players, top 4 cut, over): round 1's table 1 corrected the other way
    moves its loser up with 5 more points and its winner down with 5 fewer, and the preview
    shows every player's points as numbers, before and after."""
    import shutil
    from conftest import DEMO_SITE
    from site_builder.core.problems import ProblemLog
    from site_builder.desk.correction import _moves
    from site_builder.league.load import assign_event_ids, load_event
    from site_builder.league.people import load_directory
    from site_builder.rules import RULESETS

    def final_standings(site):
        folder = site / "data/events/2026-03-14-spring-store-championship"
        log = ProblemLog()
        event = load_event(site, folder, log)
        assign_event_ids(event, load_directory(site, log), log)
        return RULESETS[event.info.game].score(event).standings

    site = tmp_path / "site"
    shutil.copytree(DEMO_SITE, site)
    before = final_standings(site)
    round_1 = site / "data/events/2026-03-14-spring-store-championship/round-1.csv"
    lines = round_1.read_text(encoding="utf-8").splitlines()
    table_1 = [k for k, line in enumerate(lines) if line.startswith("1,")]
    for k in table_1:
        lines[k] = lines[k].replace(",win", ",LOSS").replace(",loss", ",win").replace(",LOSS", ",loss")
    round_1.write_text("\n".join(lines) + "\n", encoding="utf-8")
    winner_before = [lines[k].split(",")[1] for k in table_1 if lines[k].endswith(",loss")][0]
    moves = {m.player: m for m in _moves(before, final_standings(site))}
    assert moves and all(m.points_before.isdigit() and m.points_after.isdigit()
                         for m in moves.values()), moves
    moved = moves[winner_before]
    assert int(moved.points_before) - int(moved.points_after) == 5
