"""Decks and the metagame (issue 23, point 5), worked out by hand on two small Conquest events.

The spring event (2026-03-01, custom: 2 Swiss rounds, top 4 cut), six players:

    A Eldar, B Eldar, C Orks, D Orks, E Tau, F (no deck given)
    round 1: A beats B (an Eldar mirror), C beats E, D beats F with a modified win
    round 2: C beats A, B beats D, E beats F
    Swiss: C 10; A, E, B 5 each by SoS (A 3.75: B 2.5 + C 5; E 2.5: C 5 + F 0; B 2.25: A 2.5
    + D 2); D 4; F 0. Cut: C, A, E, B.
    semifinals (round 3): C beats B, E beats A; final (round 4): E beats C.
    Final standings: E 1, C 2, A 3, B 4 (semi-finalists by Swiss rank), D 5, F 6.

Matches between different decks (the A–B mirror left out; F's games count, F's deck unknown):
    Eldar: A 0–2 (C, E), B 1–1 (beat D, lost to C)          → 1–3, 25%
    Orks:  C 3–1 (E, A, B; lost to E), D 1–1 (F; lost to B)  → 4–2, 66.67%
    Tau:   E 3–1 (lost to C; beat F, A, C)                   → 3–1, 75%
    Not given: F 0–2                                          → 0%
Shares of 6: Eldar 2 (33.33%), Orks 2 (33.33%), Tau 1 (16.67%), not given 1 (16.67%).
Reached the cut: Eldar 2 of 2, Orks 1 of 2, Tau 1 of 1, not given 0 of 1.

The 2025 event (2025-05-01, 2 Swiss rounds, no cut), four players:
    P "eldar" (another spelling), Q Tau, R Tau, S Necrons
    round 1: P beats Q, R beats S; round 2: P beats R, Q beats S. Standings: P 1st.

Across both (10 players): Eldar 3 (30%, 3–3 = 50%, reached 2 of 2, 2 events, 1 won);
Tau 3 (30%, 5–3 = 62.5%, reached 1 of 1, 2 events, 1 won); Orks 2 (20%, 4–2, reached 1 of 2);
Necrons 1 (10%, 0–2, no cut to reach); not given 1 (10%).
By year: 2025 of 4: Eldar 25%, Tau 50%, Necrons 25%; 2026 of 6: Eldar 33.33%, Tau 16.67%,
Orks 33.33%, not given 16.67%.
"""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import pytest

from conftest import read_page

SPRING = "2026-03-01-spring-cup"
OLD = "2025-05-01-may-night"

SPRING_TOML = """\
name = "Spring Cup"
date = 2026-03-01
game = "conquest"
structure = "custom"
swiss_rounds = 2
cut = 4
"""
OLD_TOML = """\
name = "May Night"
date = 2025-05-01
game = "conquest"
structure = "custom"
swiss_rounds = 2
cut = 0
"""
SPRING_PLAYERS = """\
player,deck,deck_url
A,Eldar,https://decks.example/a?list=1&v=2
B,Eldar,
C,Orks,
D,Orks,
E,Tau,javascript:alert(1)
F,,
"""
SPRING_ROUNDS = {
    1: "table,player,result\n1,A,win\n1,B,loss\n2,C,win\n2,E,loss\n3,D,mw\n3,F,loss\n",
    2: "table,player,result\n1,C,win\n1,A,loss\n2,B,win\n2,D,loss\n3,E,win\n3,F,loss\n",
    3: "table,player,result\n1,C,win\n1,B,loss\n2,E,win\n2,A,loss\n",
    4: "table,player,result\n1,E,win\n1,C,loss\n",
}
OLD_PLAYERS = "player,faction\nP,eldar\nQ,Tau\nR,Tau\nS,Necrons\n"
OLD_ROUNDS = {
    1: "table,player,result\n1,P,win\n1,Q,loss\n2,R,win\n2,S,loss\n",
    2: "table,player,result\n1,P,win\n1,R,loss\n2,Q,win\n2,S,loss\n",
}


@pytest.fixture
def league(site):
    site.write({"site.toml": '[rankings]\ntitle = "2026 season"\nfrom = 2026-01-01\n'})
    site.event(SPRING, SPRING_TOML, SPRING_ROUNDS, **{"players.csv": SPRING_PLAYERS})
    site.event(OLD, OLD_TOML, OLD_ROUNDS, **{"players.csv": OLD_PLAYERS})
    assert site.build() == 0
    return site


def table_rows(html: str, caption: str) -> list[list[str]]:
    """The body rows of the table with this caption, each cell's text."""
    table = html.split(f"<caption>{caption}</caption>", 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_the_event_metagame_counts_shares_win_rates_without_mirrors_and_the_cut(league):
    rows = table_rows(league.html(f"events/{SPRING}/"), "Decks at this event")
    assert rows == [
        ["Eldar", "2", "33.33%", "25.00%", "1–3", "2 (100.00%)", "3. A"],
        ["Orks", "2", "33.33%", "66.67%", "4–2", "1 (50.00%)", "2. C"],
        ["Tau", "1", "16.67%", "75.00%", "3–1", "1 (100.00%)", "1. E"],
        ["Not given", "1", "16.67%", "0.00%", "0–2", "0 (0.00%)", "6. F"],
    ]


def test_the_metagame_across_events_the_season_and_the_years(league):
    html = league.html("decks/conquest/")
    assert table_rows(html, "Decks, every event") == [
        ["Eldar", "3", "30.00%", "50.00%", "3–3", "2 (100.00%)", "2", "1"],
        ["Tau", "3", "30.00%", "62.50%", "5–3", "1 (100.00%)", "2", "1"],
        ["Orks", "2", "20.00%", "66.67%", "4–2", "1 (50.00%)", "1", "0"],
        ["Necrons", "1", "10.00%", "0.00%", "0–2", "—", "1", "0"],
        ["Not given", "1", "10.00%", "0.00%", "0–2", "0 (0.00%)", "1", "0"],
    ]
    # the season (from 2026-01-01) holds the spring event only
    assert [row[:4] for row in table_rows(html, "Decks, 2026 season")] == [
        ["Eldar", "2", "33.33%", "25.00%"], ["Orks", "2", "33.33%", "66.67%"],
        ["Tau", "1", "16.67%", "75.00%"], ["Not given", "1", "16.67%", "0.00%"]]
    assert table_rows(html, "Share of the field by deck, year by year") == [
        ["Eldar", "25.00%", "33.33%"], ["Tau", "50.00%", "16.67%"],
        ["Orks", "0.00%", "33.33%"], ["Necrons", "25.00%", "0.00%"],
        ["Not given", "0.00%", "16.67%"], ["Players", "4", "6"]]
    index = league.html("decks/")
    assert "Most played: Eldar (30.00%), Tau (30.00%), Orks (20.00%)." in index


def test_exact_values_stand_behind_the_rounded_ones(league):
    html = league.html(f"events/{SPRING}/")
    assert 'title="exactly 200/3%">66.67%' in html  # Orks' win rate, 4 of 6
    assert 'title="exactly 100/3%">33.33%' in html  # a share of 2 of 6


def test_decks_are_in_the_standings_and_their_json(league):
    standings = league.json(f"events/{SPRING}/standings.json")["standings"]
    assert [(r["player"], r["deck"], r["deck_url"]) for r in standings] == [
        ("E", "Tau", None), ("C", "Orks", None), ("A", "Eldar", "https://decks.example/a?list=1&v=2"),
        ("B", "Eldar", None), ("D", "Orks", None), ("F", None, None)]
    round_two = league.json(f"events/{SPRING}/round-2/standings.json")["standings"]
    assert {r["player"]: r["deck"] for r in round_two}["C"] == "Orks"
    html = league.html(f"events/{SPRING}/")
    assert '<a href="https://decks.example/a?list=1&amp;v=2" rel="nofollow noopener">Eldar</a>' in html
    assert 'href="javascript:' not in html
    standings_table = html[html.index('<table class="standings">'):]
    standings_table = standings_table[:standings_table.index("</table>")]
    assert ">Deck</th>" in standings_table
    # after each round, its twin names each player's deck (F gave none)
    round_one = league.json(f"events/{SPRING}/round-1/standings.json")["standings"]
    assert {r["player"]: r["deck"] for r in round_one} == {
        "A": "Eldar", "B": "Eldar", "C": "Orks", "D": "Orks", "E": "Tau", "F": None}
    # a `faction` column names decks too, as the players wrote them
    assert ">Decks</h2>" in league.html(f"events/{OLD}/")
    assert league.json(f"events/{OLD}/standings.json")["standings"][0]["deck"] == "eldar"


def test_a_bad_deck_link_is_a_warning_and_left_off(site, run_cli):
    site.event(SPRING, SPRING_TOML, SPRING_ROUNDS, **{"players.csv": SPRING_PLAYERS})
    run = run_cli("check", "--source", site.root)
    assert (f"data/events/{SPRING}/players.csv:6: warning: deck_url 'javascript:alert(1)' is not a web "
            "address: expected one starting with https:// (left off the pages)") in run.err


def test_player_pages_show_the_finish_and_deck_and_the_twins_the_rank_after_each_round(league):
    html = league.html("players/e/")
    # E won the final: champion, 1–0–1 in the Swiss (lost to C, beat F), 5 points, Tau (its
    # javascript: list left off), leading to E's row of the final standings
    assert (f'<strong><a href="/events/{SPRING}/#p-e">Champion</a></strong> '
            "<small>1–0–1 · 5 pts · Tau · ") in html
    assert 'href="javascript:' not in html
    assert '<tr id="p-e"' in league.html(f"events/{SPRING}/")
    # A's deck links to A's list; F gave no deck, so F's line names none
    assert ('<small>1–0–1 · 5 pts · <a href="https://decks.example/a?list=1&amp;v=2" '
            'rel="nofollow noopener">Eldar</a> · ') in league.html("players/a/")
    assert "<small>0–0–2 · 0 pts · 0 ranking points</small>" in league.html("players/f/")
    # E: 3rd after round 2 (C 10; A, E, B 5 — A ahead on SoS), champion after the final
    ranks = {}
    for n in (2, 4):
        twin = league.json(f"events/{SPRING}/round-{n}/standings.json")
        assert twin["after_round"] == n
        ranks[n] = {r["player"]: (r["rank"], r["points"], r["deck"]) for r in twin["standings"]}["E"]
    assert ranks == {2: (3, 5, "Tau"), 4: (1, 5, "Tau")}


def test_names_and_decks_are_escaped(site):
    players = 'player,deck\nA,<b>Orks</b>\nB,"Eldar ""Craftworld"""\n'
    site.event(SPRING, SPRING_TOML.replace("cut = 4", "cut = 0"),
               {1: "table,player,result\n1,A,win\n1,B,loss\n"}, **{"players.csv": players})
    assert site.build() == 0
    html = site.html(f"events/{SPRING}/")
    assert "<b>Orks" not in html and "&lt;b&gt;Orks&lt;/b&gt;" in html


def test_a_build_without_decks_never_imports_pandas(tmp_path):
    """Other builds pay nothing for the metagame: pandas is imported only with deck data."""
    from conftest import copy_demo
    source = copy_demo(tmp_path / "site")
    for registrations in (source / "data/events").glob("*/players.csv"):  # no deck columns
        names = [line.split(",")[0] for line in registrations.read_text(encoding="utf-8").splitlines()[1:]]
        registrations.write_text("player\n" + "".join(f"{name}\n" for name in names), encoding="utf-8")
    code = ("import sys\nfrom site_builder.cli import main\n"
            f"assert main(['build', '--source', {str(source)!r}, '--out', {str(tmp_path / 'out')!r}]) == 0\n"
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
    assert not (tmp_path / "out/decks").exists()
    page = read_page(tmp_path / "out/events/2026-06-13-northern-regional-championship/index.html")
    assert ">Deck</th>" not in page and ">Decks</h2>" not in page
    assert "deck" not in (tmp_path / "out/events/2026-06-13-northern-regional-championship/"
                          "standings.json").read_text(encoding="utf-8")


def test_draws_count_half_and_two_spellings_are_one_deck():
    from site_builder.pages.metagame import frame, metagame
    from site_builder.pages.deckentry import DeckEntry
    entries = [DeckEntry("a", "A", "Eldar", 1, True, 2, 0, 1), DeckEntry("b", "B", "eldar ", 2, False, 0, 2, 1)]
    result = metagame(frame(("e", "2026", e) for e in entries), "final")
    (line,) = result.lines
    assert (line.deck, line.players, line.wins, line.losses, line.draws) == ("Eldar", 2, 2, 2, 2)
    assert line.win_rate == Fraction(50)  # (2 + 2/2) of 6 matches
    assert (line.reached, line.conversion, result.stage) == (1, Fraction(50), "final")


def test_while_round_1_is_played_the_decks_are_the_field_as_registered(site):
    """Round 1 of the spring event paired, no result in yet (issue 34, point 5): the Decks
    section counts the 6 registered players, not "the 0 players": Eldar 2 and Orks 2 of 6
    (33.33%), Tau 1 and not given 1 (16.67%), no win rates or records yet."""
    round_1 = "table,player,result\n1,A,\n1,B,\n2,C,\n2,E,\n3,D,\n3,F,\n"
    site.event(SPRING, SPRING_TOML, {1: round_1}, **{"players.csv": SPRING_PLAYERS})
    assert site.build() == 0
    html = site.html(f"events/{SPRING}/")
    assert "What the 6 registered players are playing" in html
    assert "0 players" not in html
    assert table_rows(html, "Decks at this event") == [
        ["Eldar", "2", "33.33%", "—", "0–0", ""], ["Orks", "2", "33.33%", "—", "0–0", ""],
        ["Tau", "1", "16.67%", "—", "0–0", ""], ["Not given", "1", "16.67%", "—", "0–0", ""]]
    # an event being played is not counted across events, and does not link there
    assert not (site.out / "decks/conquest").exists() and "/decks/conquest/" not in html
