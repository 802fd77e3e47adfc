"""Whole events run by clicking at the desk in Chromium (1280 px), from registration to the
end, against the same events run by hand (`pair` in a terminal, results typed into the round
files): the event folders are byte for byte the same. Each name is picked, never typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from deskrun import NAMES, league, pair_by_hand, seats_of, start_desk
from test_desk_events import (CONQUEST, SF_SLUG, SLUG, SPELLFIRE, bracket_games, conquest_result,
                              event_files, type_conquest_results, type_spellfire_results)

pytestmark = pytest.mark.browser
QUICK = ("wins", "modified win")


def by_hand(root, slug, toml, players, type_results) -> int:
    folder = league(root, slug, toml, players)
    rounds = 0
    while True:
        try:
            round_file = pair_by_hand(folder)
        except AssertionError:
            return rounds
        type_results(round_file)
        rounds += 1


def open_event(browser, desk, name):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(desk.login)
    page.get_by_role("link", name=name).click()
    return context, page


def test_a_whole_conquest_event_clicked_at_the_desk_equals_the_one_typed_by_hand(
        browser, tmp_path):
    rounds = by_hand(tmp_path / "hand", SLUG, CONQUEST, NAMES[:10], type_conquest_results)
    folder = league(tmp_path / "desk", SLUG, CONQUEST, NAMES[:10])
    desk = start_desk(tmp_path / "desk")
    context = None
    try:
        context, page = open_event(browser, desk, "Desk Night")
        for number in range(1, rounds + 1):
            page.get_by_role("button", name=f"Form round {number}").click()
            expect(page.locator(".saved")).to_contain_text(f"Round {number} is formed")
            for table, seats in seats_of(folder / f"round-{number}.csv").items():
                seat, quick = conquest_result(table, seats)
                page.locator(f"#t{table}").get_by_role(
                    "button", name=f"{seats[seat]} {QUICK[quick]}", exact=True).click()
                expect(page.locator(".saved")).to_contain_text(f"Table {table} saved")
            expect(page.locator(".all-in")).to_have_text("every result is in")
        expect(page.get_by_role("heading", name="The event is over")).to_be_visible()
    finally:
        if context is not None:
            context.close()
        desk.stop()
    assert event_files(folder) == event_files(tmp_path / "hand" / "data" / "events" / SLUG)


def test_a_whole_spellfire_event_clicked_at_the_desk_equals_the_one_typed_by_hand(
        browser, tmp_path):
    rounds = by_hand(tmp_path / "hand", SF_SLUG, SPELLFIRE, NAMES[:9], type_spellfire_results)
    folder = league(tmp_path / "desk", SF_SLUG, SPELLFIRE, NAMES[:9])
    desk = start_desk(tmp_path / "desk")
    context = None
    try:
        context, page = open_event(browser, desk, "Desk Realms")
        for number in range(1, rounds + 1):
            page.get_by_role("button", name=f"Form round {number}").click()
            expect(page.locator(".saved")).to_contain_text("is formed")  # "Final is formed"
            for table, seats in seats_of(folder / f"round-{number}.csv").items():
                for game, results in enumerate(bracket_games(seats), start=1):
                    # Game 1 on the bracket as formed; each saved game brings the next one's
                    # inputs (the bracket is still being played).
                    card = page.locator(f"#t{table}")
                    for seat, (player, (realms, result)) in enumerate(zip(seats, results)):
                        card.get_by_label(f"Realms of {player}, game {game}").fill(realms)
                        if result:
                            card.get_by_label(f"Result of {player}, game {game}").select_option(
                                label="Won")
                    card.get_by_role("button", name="Save", exact=True).click()
                    expect(page.locator(".saved")).to_contain_text(f"Table {table} saved")
            expect(page.locator(".all-in")).to_have_text("every result is in")
        expect(page.get_by_role("heading", name="The event is over")).to_be_visible()
    finally:
        if context is not None:
            context.close()
        desk.stop()
    assert event_files(folder) == event_files(tmp_path / "hand" / "data" / "events" / SF_SLUG)
