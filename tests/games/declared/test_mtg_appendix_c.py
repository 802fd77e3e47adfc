"""Magic: The Gathering Tournament Rules (MTR), Appendix C "Tiebreaker Explanation", and the
shipped Magic game (site_builder/rules/declared/shipped/magic.toml; tiebreaks.py mtg_match_win,
mtg_game_win, mtg-omw): the rule text's examples, exactly.

MTR Appendix C as the Judge Program mirrors it, https://blogs.magicjudges.org/rules/mtr-appendix-c/
(match points, game points, the match-win percentage table, verbatim); the GW% definition and
the "Byes" paragraph from the MTR PDFs (2023-05-29, 2026-02-27). The GW% and OMW% examples are
as SuppenNudel/radio-ravnica-discord-bot transcribes them in its unit tests of
modules/swiss_mtg.py (test_game_win_percentage, test_omw).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import ScratchSite

from site_builder.core.problems import ProblemLog
from site_builder.league.load import assign_event_ids, load_event
from site_builder.league.people import load_directory
from site_builder.rules.declared.tally import Record, Result
from site_builder.rules.declared.tiebreaks import mtg_game_win, mtg_match_win
from site_builder.rules.registry import games_for

MAGIC = games_for(None)["magic"].declaration
FLOOR = F("0.33")  # the rule text's "0.33", exactly 33/100
WIN = MAGIC.win_points


def record(results: str, games: list[tuple[int, int, int]] | None = None) -> Record:
    """A record from letters, round by round: w, d, l, b (a bye)."""
    words = {"w": "win", "d": "draw", "l": "loss", "b": "bye"}
    found = []
    for number, letter in enumerate(results, start=1):
        word = words[letter]
        match = games[number - 1] if games else (2, 0, 0) if word == "bye" else None
        found.append(Result(number, word, "win" if word == "bye" else word,
                            MAGIC.points_of(word), games=match,
                            against=None if word == "bye" else f"opponent {number}"))
    return Record("player", found)


# ---------------------------------------------------------------- match and game points


@pytest.mark.parametrize("results,points", [("wwwwwwll", 18), ("wwwwlldd", 14)])
def test_match_points(results, points):
    """MTR App. C, "Match Points": "A player's record is 6–2–0 … 18 match points (6*3, 2*0,
    0*1)"; "4–2–2. That player has 14 match points (4*3, 2*0, 2*1)"."""
    assert record(results).points == points


@pytest.mark.parametrize("games,points", [((2, 0, 0), (6, 0)), ((2, 1, 0), (6, 3)),
                                          ((2, 0, 1), (7, 1))])
def test_game_points(games, points):
    """MTR App. C, "Game Points": a match won 2–0–0 gives 6 game points and the opponent 0;
    2–1–0 gives 6 and 3; 2–0–1 gives 7 and 1. (Seen as the GW% of that one match with no
    floor: game points over 3 a game.) `games` is (won, lost, drawn)."""
    won, lost, drawn = games
    played = 3 * (won + lost + drawn)
    mine = mtg_game_win(record("w", [(won, drawn, lost)]), F(0)) * played
    theirs = mtg_game_win(record("l", [(lost, drawn, won)]), F(0)) * played
    assert (mine, theirs) == points


# ---------------------------------------------------------------- match-win percentage


@pytest.mark.parametrize("results,expected", [
    ("wwwwwlld", F(16, 24)),   # 5-2-1, 16/(8*3) = 0.667
    ("wlll", FLOOR),           # 1-3-0, then withdraws: 3/(4*3) = 0.25, "so 0.33 is used"
    ("bwwll", F(9, 15)),       # 3-2-0 including a first-round bye, then withdraws: 0.60
])
def test_match_win_percentage_table(results, expected):
    """MTR App. C, "Match-win percentage", its table for an 8-round tournament: 5-2-1 →
    0.667; 1-3-0 then withdraws → 0.25, so 0.33; 3-2-0 including a first-round bye then
    withdraws → 9/(5*3) = 0.60 (the bye is a round played, won). A withdrawn player's
    percentage is over the rounds they played."""
    assert mtg_match_win(record(results), WIN, FLOOR) == expected


def test_the_floor_is_the_rule_texts_0_33_not_one_third():
    """MTR App. C: "If this number is lower than 0.33, use 0.33 instead": 33/100 exactly."""
    assert mtg_match_win(record("wlll"), WIN, FLOOR) == F(33, 100) != F(1, 3)


def test_scorekeeper_blog_values_that_agree_with_the_mtr():
    """SK211 "Deep Dive into Tiebreaker Math" (blog.playerlink.online, 2017-10-21): "a player
    who is 6-2-1 has 19 points", "19 match points out of a maximum of 27 … 70.3704%"; "A
    player who went 1-4 and dropped has 3 match points out of a possible 15 … 20.0% …
    raised to 33.0%"."""
    six_two_one = record("wwwwwwlld")
    assert six_two_one.points == 19
    assert mtg_match_win(six_two_one, WIN, FLOOR) == F(19, 27)
    assert mtg_match_win(record("wllll"), WIN, FLOOR) == FLOOR


# ---------------------------------------------------------------- game-win percentage


def test_game_win_percentage_examples():
    """MTR App. C, "Game-win percentage", as SuppenNudel/radio-ravnica-discord-bot's
    test_game_win_percentage transcribes it: matches 2-0, 2-1, 1-2, 2-0 → 21 game points of
    30 → 0.70; 1-2, 1-2, 0-2, 1-2 → 9/(3*11) = 0.27 → 0.33 ("Again, use 0.33 if the actual
    game-win percentage is lower than that")."""
    good = record("wwlw", [(2, 0, 0), (2, 0, 1), (1, 0, 2), (2, 0, 0)])
    bad = record("llll", [(1, 0, 2), (1, 0, 2), (0, 0, 2), (1, 0, 2)])
    assert mtg_game_win(good, FLOOR) == F(7, 10)
    assert mtg_game_win(bad, F(0)) == F(9, 33)
    assert mtg_game_win(bad, FLOOR) == FLOOR


def test_a_bye_is_a_match_won_2_0_in_game_win():
    """MTR App. C, "Byes" (2026-02-27): "they are considered to have won the match 2–0. Thus,
    that player earns 3 match points and 6 game points"."""
    alone = record("b")
    assert (alone.points, mtg_game_win(alone, F(0)) * 3 * 2) == (3, 6)


# ---------------------------------------------------------------- through round files


def standings(tmp_path, rounds: dict[int, str], header: str = "table,player,result") -> dict:
    site = ScratchSite(tmp_path / "site")
    slug = "2024-05-18-mtr"
    toml = (f'name = "MTR"\ndate = 2024-05-18\ngame = "magic"\nswiss_rounds = {len(rounds)}\n'
            "cut = 0\n")
    site.event(slug, toml, {n: header + "\n" + text for n, text in rounds.items()})
    log = ProblemLog()
    event = load_event(site.root, site.root / "data/events" / slug, log)
    assert event is not None and not log.has_errors(), log.problems
    assign_event_ids(event, load_directory(site.root, log), log)
    assert not log.has_errors(), log.problems
    return {row.player.name: row for row in event.ruleset.score(event).standings.rows}


def test_game_points_through_a_round_file(tmp_path):
    """MTR App. C, "Game Points": "A player wins a match 2–0–1, so they earn 7 game points and
    their opponent earns 1 game point": GW% 7/9 and 1/9, which is below 0.33, so 0.33."""
    rows = standings(tmp_path, {1: "1,Ann,w,2,1\n1,Bo,l,0,1\n"},
                     "table,player,result,games_won,games_drawn")
    assert rows["Ann"].values["tiebreaks"]["mtg-gw"] == F(7, 9)
    assert rows["Bo"].values["tiebreaks"]["mtg-gw"] == FLOOR
    assert rows["Ann"].values["tiebreaks"]["mtg-ogw"] == FLOOR


# The opponents of SuppenNudel's test_omw, (wins, losses, draws), one a round; the player
# meets opponent k in round k and loses to the 7-1-0 and 6-1-1 ones.
OPPONENTS = [(4, 4, 0), (7, 1, 0), (1, 3, 1), (3, 3, 1), (6, 2, 0), (5, 2, 1), (4, 3, 1), (6, 1, 1)]
BEATEN_BY = {2, 8}


def omw_rounds(bye: bool) -> dict[int, str]:
    """Round files where Pat meets O1..O8 (or has a bye in round 1 instead of O1), and each
    opponent plays the rest of its record against a sparring partner of its own, dropping after
    its last round (1-3-1 plays 5 rounds, 3-3-1 seven)."""
    rounds = {n: [] for n in range(1, 9)}
    for k, (w, l, d) in enumerate(OPPONENTS, start=1):
        if k == 1 and bye:
            rounds[1].append(",Pat,bye")
            continue
        pat, own = ("l", "w") if k in BEATEN_BY else ("w", "l")
        rounds[k] += [f"{k},Pat,{pat}", f"{k},O{k},{own}"]
        w, l = (w - 1, l) if own == "w" else (w, l - 1)
        rest = ["w"] * w + ["l"] * l + ["d"] * d
        others = [n for n in range(1, w + l + d + 2) if n != k][:len(rest)]
        for n, letter in zip(others, rest):
            theirs = {"w": "l", "l": "w", "d": "d"}[letter]
            rounds[n] += [f"{10 + k},O{k},{letter}", f"{10 + k},S{k},{theirs}"]
    return {n: "\n".join(lines) + "\n" for n, lines in rounds.items()}


@pytest.mark.parametrize("bye,published", [(False, "0.616399"), (True, "0.633027")])
def test_opponents_match_win_percentage(tmp_path, bye, published):
    """MTR App. C, "Opponents' match-win percentage", via SuppenNudel/radio-ravnica-discord-bot
    test_omw: a 6-2-0 player whose opponents went 4-4-0, 7-1-0, 1-3-1, 3-3-1, 6-2-0, 5-2-1,
    4-3-1, 6-1-1: (12/24 + 21/24 + 0.33 (raised from 0.27) + 10/21 + 18/24 + 16/24 + 13/24 +
    19/24) / 8; and its active case, a bye instead of the 4-4-0 opponent: the same without
    12/24, over 7 ("ignoring those rounds for which the player received a bye").

    Exact with the rule text's 0.33: 20711/33600 = 0.616399 and 18611/29400 = 0.633027. With
    a floor of 1/3 they would be 0.616815 and 0.633503: the tool follows the text."""
    rows = standings(tmp_path, omw_rounds(bye))
    shares = [max(FLOOR, F(3 * w + d, 3 * (w + l + d))) for w, l, d in OPPONENTS]
    if bye:
        shares = shares[1:]
    expected = sum(shares, F(0)) / len(shares)
    assert expected == (F(18611, 29400) if bye else F(20711, 33600))
    pat = rows["Pat"]
    assert pat.values["points"] == 18  # 6-2-0, a bye a won match
    assert pat.values["tiebreaks"]["mtg-omw"] == expected
    assert f"{float(expected):.6f}" == published
    assert {name: row.values["points"] for name, row in rows.items() if name.startswith("O")} \
        == {f"O{k}": 3 * w + d for k, (w, l, d) in enumerate(OPPONENTS, start=1)
            if not (bye and k == 1)}


def test_byes_count_in_own_match_win_as_the_mtr_says_not_as_wer(tmp_path):
    """A player's byes in their own MW%: the MTR and the scorekeeper blog disagree. The MTR
    table counts a bye as a round played and won ("3-2-0, including a first-round bye … 9/(5*3)
    = 0.60"); SK211 says Wizards' event software leaves byes out ("If that 6-2-1 player entered
    the tournament with two byes, then the calculation is instead 13 match points out of 21").
    The tool follows the rule text (tiebreaks.py mtg_match_win): Pat, 6-2-1 with two byes in 9
    rounds, has 19/27, and so counts 19/27 in the OMW% of Xan, whose only opponent was Pat."""
    games = ["w", "w", "w", "l", "l", "d"]  # Pat against Tam, rounds 4 to 9
    rounds = {1: ",Pat,bye\n", 2: ",Pat,bye\n", 3: "1,Pat,w\n1,Xan,l\n"}
    for n, letter in enumerate(games, start=4):
        rounds[n] = f"1,Pat,{letter}\n1,Tam,{ {'w': 'l', 'l': 'w', 'd': 'd'}[letter] }\n"
    rows = standings(tmp_path, rounds)
    assert rows["Pat"].values["points"] == 19
    assert rows["Xan"].values["tiebreaks"]["mtg-omw"] == F(19, 27) != F(13, 21)
