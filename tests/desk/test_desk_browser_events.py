"""Whole events run by clicking at the desk in Chromium (1280 px), from registration to the
end, against the same events run by hand (`pair` in a terminal, results typed into the round
files): the event folders are byte for byte the same. Each name is picked, never typed."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from deskrun import NAMES, league, seats_of, start_desk
from playwright.sync_api import expect
from test_desk_events import (
    CONQUEST,
    SF_SLUG,
    SLUG,
    SPELLFIRE,
    bracket_games,
    conquest_result,
    event_files,
    run_by_hand,
    type_conquest_results,
    type_spellfire_results,
)

pytestmark = pytest.mark.browser
QUICK = ("wins", "modified win")


@contextmanager
def both_ways(browser, tmp_path, slug, toml, players, type_results, name):
    """The event run by hand to its end, and the same event at a desk opened in Chromium on
    its page: (the page, the desk's event folder, how many rounds the event had). Once the
    test has clicked it through, the two folders must be byte for byte the same."""
    hand = league(tmp_path / "hand", slug, toml, players)
    rounds = run_by_hand(hand, type_results)
    folder = league(tmp_path / "desk", slug, toml, players)
    desk = start_desk(tmp_path / "desk")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(desk.login)
        page.get_by_role("link", name=name).click()
        yield page, folder, rounds
        expect(page.get_by_role("heading", name="The event is over")).to_be_visible()
    finally:
        context.close()
        desk.stop()
    assert event_files(folder) == event_files(hand)


def form_round(page, number: int) -> None:
    page.get_by_role("button", name=f"Form round {number}").click()
    expect(page.locator(".saved")).to_contain_text("is formed")  # "Final is formed" too


def test_a_whole_conquest_event_clicked_at_the_desk_equals_the_one_typed_by_hand(
        browser, tmp_path):
    with both_ways(browser, tmp_path, SLUG, CONQUEST, NAMES[:10], type_conquest_results,
                   "Desk Night") as (page, folder, rounds):
        for number in range(1, rounds + 1):
            form_round(page, number)
            for table, seats in seats_of(folder / f"round-{number}.csv").items():
                seat, quick = conquest_result(table, seats)
                page.locator(f"#t{table}").get_by_role(
                    "button", name=f"{seats[seat]} {QUICK[quick]}", exact=True).click()
                expect(page.locator(".saved")).to_contain_text(f"Table {table} saved")
            expect(page.locator(".all-in")).to_have_text("every result is in")


def test_a_whole_spellfire_event_clicked_at_the_desk_equals_the_one_typed_by_hand(
        browser, tmp_path):
    with both_ways(browser, tmp_path, SF_SLUG, SPELLFIRE, NAMES[:9], type_spellfire_results,
                   "Desk Realms") as (page, folder, rounds):
        for number in range(1, rounds + 1):
            form_round(page, number)
            for table, seats in seats_of(folder / f"round-{number}.csv").items():
                for game, results in enumerate(bracket_games(seats), start=1):
                    # Game 1 on the bracket as formed; each saved game brings the next one's
                    # inputs (the bracket is still being played).
                    card = page.locator(f"#t{table}")
                    for player, (realms, result) in zip(seats, results):
                        card.get_by_label(f"Realms of {player}, game {game}").fill(realms)
                        if result:
                            card.get_by_label(f"Result of {player}, game {game}").select_option(
                                label="Won")
                    card.get_by_role("button", name="Save", exact=True).click()
                    expect(page.locator(".saved")).to_contain_text(f"Table {table} saved")
            expect(page.locator(".all-in")).to_have_text("every result is in")
