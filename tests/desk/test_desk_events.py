"""Whole events run at the desk, from registration to the end, against the same events run by
hand (`pair` in a terminal, results typed into the round files): every file of the event folder
is byte for byte the same. The desk is a real `site-builder desk` process, driven over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskrun import NAMES, csrf_of, fingerprint_of, league, pair_by_hand, seats_of, start_desk

pytestmark = pytest.mark.slow

CONQUEST = 'name = "Desk Night"\ndate = 2026-11-26\ngame = "conquest"\n'
SLUG = "2026-11-26-desk-night"


def conquest_result(table: str, seats: list[str]) -> tuple[int, int]:
    """The test's results: the seat whose name sorts first wins; at every third table it is a
    modified win. (seat index, 0 for a win or 1 for a modified win: the desk's quick buttons.)"""
    return seats.index(min(seats)), 1 if int(table) % 3 == 0 else 0


def type_conquest_results(round_file: Path) -> None:
    """What an organizer types into the round file `pair` wrote: each empty result."""
    seats = seats_of(round_file)
    lines = round_file.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines[1:], start=1):
        table, _, rest = line.partition(",")
        if not table or not line.endswith(","):
            continue
        player = rest[:-1]
        winner, modified = conquest_result(table, seats[table])
        won = seats[table].index(player) == winner
        lines[i] = line + ("loss" if not won else "modified-win" if modified else "win")
    round_file.write_text("\n".join(lines), encoding="utf-8")


def run_by_hand(folder: Path, type_results) -> int:
    """The event run in a terminal: `pair`, the results typed in, until `pair` says the event
    is over. Returns how many rounds it had."""
    rounds = 0
    while True:
        try:
            round_file = pair_by_hand(folder)
        except AssertionError:
            return rounds
        type_results(round_file)
        rounds += 1


def event_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith(".")}


def test_a_ten_player_conquest_event_at_the_desk_equals_the_one_typed_by_hand(tmp_path):
    by_hand = league(tmp_path / "hand", SLUG, CONQUEST, NAMES[:10])
    at_desk = league(tmp_path / "desk", SLUG, CONQUEST, NAMES[:10])
    rounds = run_by_hand(by_hand, type_conquest_results)
    assert rounds == 4  # Basic structure, 10 players: four Swiss rounds (V.2)

    desk = start_desk(tmp_path / "desk")
    clicks = 0
    try:
        client = desk.client()
        page = client.get(f"/_desk/e/{SLUG}").text
        for number in range(1, rounds + 1):
            answer = client.post(f"/_desk/e/{SLUG}/next", data={
                "csrf": csrf_of(page), "round": str(number - 1)})
            clicks += 1
            assert answer.status_code == 200 and f"Round {number} is formed" in answer.text
            page = answer.text
            tables = seats_of(at_desk / f"round-{number}.csv")
            assert f"{len(tables)} tables to go" in page
            for table, seats in tables.items():
                seat, quick = conquest_result(table, seats)
                answer = client.post(f"/_desk/e/{SLUG}/table", data={
                    "csrf": csrf_of(page), "round": str(number), "table": table,
                    "fp": fingerprint_of(page, table), "quick": f"{seat}:{quick}"})
                clicks += 1
                assert answer.status_code == 200, answer.text
                page = answer.text
            assert "every result is in" in page
        assert "Form round 5" not in page and "The event is over" in page
    finally:
        client.close()
        desk.stop()
    assert event_files(at_desk) == event_files(by_hand)
    # One click forms a round, one per table enters its result: 4 + 4 × 5 tables.
    assert clicks == 4 + 4 * 5


SPELLFIRE = 'name = "Desk Realms"\ndate = 2026-11-26\ngame = "spellfire"\n'
SF_SLUG = "2026-11-26-desk-realms"


def bracket_games(seats: list[str]) -> list[list[tuple[str, str]]]:
    """The test's brackets: the seat whose name sorts first wins games 1 and 2 (two wins take
    the bracket); realms 6 for the winner, then 4, 3, 2… in seat order. Per game, per seat:
    (realms, result)."""
    winner = min(seats)
    others = iter(range(4, 0, -1))
    realms = {seat: "6" if seat == winner else str(next(others)) for seat in seats}
    game = [(realms[seat], "win" if seat == winner else "") for seat in seats]
    return [game, game]


def type_spellfire_results(round_file: Path) -> None:
    """What an organizer types: game 1 on the seat rows `pair` wrote, game 2 as new rows under
    each bracket's."""
    seats = seats_of(round_file)
    out = [round_file.read_text(encoding="utf-8").split("\n", 1)[0]]
    for table, players in seats.items():
        games = bracket_games(players)
        for number, game in enumerate(games, start=1):
            for player, (realms, result) in zip(players, game):
                out.append(f"{table},{number},{player},{realms},{result},")
    round_file.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_nine_player_spellfire_event_at_the_desk_equals_the_one_typed_by_hand(tmp_path):
    by_hand = league(tmp_path / "hand", SF_SLUG, SPELLFIRE, NAMES[:9])
    at_desk = league(tmp_path / "desk", SF_SLUG, SPELLFIRE, NAMES[:9])
    rounds = run_by_hand(by_hand, type_spellfire_results)
    assert rounds >= 2

    desk = start_desk(tmp_path / "desk")
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SF_SLUG}").text
        for number in range(1, rounds + 1):
            answer = client.post(f"/_desk/e/{SF_SLUG}/next", data={
                "csrf": csrf_of(page), "round": str(number - 1)})
            assert answer.status_code == 200 and "is formed" in answer.text, answer.text
            page = answer.text
            for table, seats in seats_of(at_desk / f"round-{number}.csv").items():
                fields = {"csrf": csrf_of(page), "round": str(number), "table": table,
                          "fp": fingerprint_of(page, table)}
                for g, game in enumerate(bracket_games(seats), start=1):
                    for s, (realms, result) in enumerate(game):
                        fields[f"g{g}.s{s}.realms"] = realms
                        fields[f"g{g}.s{s}.result"] = result
                answer = client.post(f"/_desk/e/{SF_SLUG}/table", data=fields)
                assert answer.status_code == 200, answer.text
                page = answer.text
            assert "every result is in" in page
        assert "The event is over" in page
    finally:
        client.close()
        desk.stop()
    assert event_files(at_desk) == event_files(by_hand)


def test_an_error_in_another_round_does_not_hold_back_a_result(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:10])
    type_conquest_results(pair_by_hand(folder))
    pair_by_hand(folder)
    round_1 = folder / "round-1.csv"
    broken = round_1.read_text(encoding="utf-8").replace(",loss\n", ",lost\n", 1)
    round_1.write_text(broken, encoding="utf-8")  # a slip typed by hand in round 1
    desk = start_desk(tmp_path)
    client = desk.client()
    try:
        page = client.get(f"/_desk/e/{SLUG}").text
        assert "Errors in the event" in page and "lost" in page
        answer = client.post(f"/_desk/e/{SLUG}/table", data={
            "csrf": csrf_of(page), "round": "2", "table": "1",
            "fp": fingerprint_of(page, "1"), "quick": "0:0"})
        assert answer.status_code == 200 and "Table 1 saved" in answer.text
    finally:
        client.close()
        desk.stop()
    assert ",win\n" in (folder / "round-2.csv").read_text(encoding="utf-8")
    assert round_1.read_text(encoding="utf-8") == broken


MAGIC = 'name = "Desk FNM"\ndate = 2026-11-26\ngame = "magic"\n'
MAGIC_SLUG = "2026-11-26-desk-fnm"


def type_magic_results(round_file: Path) -> None:
    """What an organizer types into a Magic round file: the result of each seat, the seat
    whose name sorts first winning (the games columns left empty, as the quick buttons do)."""
    seats = seats_of(round_file)
    lines = round_file.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines[1:], start=1):
        table, _, rest = line.partition(",")
        if not table or not line.endswith(",,,"):
            continue
        player = rest[:-3]
        won = player == min(seats[table])
        lines[i] = f"{table},{player},{'win' if won else 'loss'},,"
    round_file.write_text("\n".join(lines), encoding="utf-8")


def test_a_declared_game_s_event_at_the_desk_equals_the_one_typed_by_hand(tmp_path):
    """A Magic event (a game declared in a file, issue 35): its Swiss rounds and its top-4 cut
    run at the desk with one click a table, as by hand."""
    by_hand = league(tmp_path / "hand", MAGIC_SLUG, MAGIC, NAMES[:10])
    at_desk = league(tmp_path / "desk", MAGIC_SLUG, MAGIC, NAMES[:10])
    rounds = run_by_hand(by_hand, type_magic_results)
    assert rounds == 7  # MTR Appendix E, 9-16 players: five Swiss rounds and a top 4

    desk = start_desk(tmp_path / "desk")
    try:
        client = desk.client()
        page = client.get(f"/_desk/e/{MAGIC_SLUG}").text
        for number in range(1, rounds + 1):
            answer = client.post(f"/_desk/e/{MAGIC_SLUG}/next", data={
                "csrf": csrf_of(page), "round": str(number - 1)})
            assert answer.status_code == 200 and "is formed" in answer.text, answer.text
            page = answer.text
            paired = [t for t, s in seats_of(at_desk / f"round-{number}.csv").items()
                      if len(s) == 2]
            if number == 1:  # a draw is one button for the table, a win one for each seat
                assert page.count(">Draw</button>") == len(paired)
                assert page.count(" wins</button>") == 2 * len(paired)
            for table, seats in seats_of(at_desk / f"round-{number}.csv").items():
                if len(seats) < 2:
                    continue
                answer = client.post(f"/_desk/e/{MAGIC_SLUG}/table", data={
                    "csrf": csrf_of(page), "round": str(number), "table": table,
                    "fp": fingerprint_of(page, table), "quick": f"{seats.index(min(seats))}:0"})
                assert answer.status_code == 200, answer.text
                page = answer.text
        assert "The event is over" in page
    finally:
        client.close()
        desk.stop()
    assert event_files(at_desk) == event_files(by_hand)
