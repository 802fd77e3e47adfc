"""Strength of Schedule and Extended SoS of the shipped Netrunner game
(site_builder/rules/declared/shipped/netrunner.toml; tiebreaks.py `_sos`, `_esos`) against the
cases of Cobra, the Netrunner tournament software: Project-NISEI/cobra
spec/services/sos_calculator_spec.rb (app/services/sos_calculator.rb computes them).

Cobra's SoS is the mean over a player's real opponents of each opponent's points over the
rounds they played (a bye is no opponent, but counts toward its receiver's points and rounds);
ESoS the mean of the opponents' SoS. Its specs put several pairings in one round (a player may
sit at two of them): here each pairing of a player gets a round of its own, which Cobra's
calculator cannot tell apart (it counts pairings, each round weighing 1). Rows carry their
points in the `points` column (6, 3, 0 as a double-sided Swiss gives them; any 0-6).

Not representable, so not here: the spec's 'weighted round example' (round weights 1.0 and 0.5:
rounds have no weights in this tool) and 'corp and runner points' (a row's points are not split
by side).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import ScratchSite

from site_builder.core.problems import ProblemLog
from site_builder.league.load import assign_event_ids, load_event
from site_builder.league.people import load_directory

HEADER = "table,player,points,result\n"


def standings(tmp_path, rounds: dict[int, str]) -> dict:
    """Score a Netrunner event of these rounds through the real loader: name -> standing row."""
    site = ScratchSite(tmp_path / "site")
    slug = "2024-05-18-cobra"
    toml = (f'name = "Cobra spec"\ndate = 2024-05-18\ngame = "netrunner"\n'
            f"swiss_rounds = {len(rounds)}\n")
    site.event(slug, toml, {n: HEADER + text for n, text in rounds.items()})
    log = ProblemLog()
    event = load_event(site.root, site.root / "data/events" / slug, log)
    assert event is not None and not log.has_errors(), log.problems
    assign_event_ids(event, load_directory(site.root, log), log)
    assert not log.has_errors(), log.problems
    scored = event.ruleset.score(event)
    return {row.player.name: row for row in scored.standings.rows}


def sos(row):
    return row.values["tiebreaks"]["sos"], row.values["tiebreaks"]["esos"]


def test_with_opponents(tmp_path):
    """Cobra sos_calculator_spec.rb, context 'with opponents': snap 6-0 crackle, pop 6-0 other,
    snap 6-0 pop, crackle 3-3 other. Published: snap sos 2.25, extended_sos 3.75 (crackle 3/2
    and pop 6/2 give 2.25; crackle's and pop's SoS are both (6 + 1.5)/2 = 3.75)."""
    rows = standings(tmp_path, {
        1: "1,snap,6,\n1,crackle,0,\n2,pop,6,\n2,other,0,\n",
        2: "1,snap,6,\n1,pop,0,\n2,crackle,3,\n2,other,3,\n",
    })
    assert sos(rows["snap"]) == (F("2.25"), F("3.75"))


def test_points_include_byes(tmp_path):
    """Cobra spec, 'points': snap scores 5 against a player, then a bye written with 2 points:
    "returns total of all points from pairings including byes", 7."""
    rows = standings(tmp_path, {1: "1,snap,5,\n1,crackle,0,\n", 2: ",snap,2,bye\n,crackle,,bye\n"})
    assert rows["snap"].values["points"] == 7


def test_sos_with_a_player_from_outside(tmp_path):
    """Cobra spec, context 'sos': snap 3-2 other (other not in the tournament), snap 1-3 an
    auto-made player X, an auto-made Y 0-5 other. Published: snap sos 3.25, extended_sos 1.5
    (other 7/2 and X 3/1; other's SoS (0 + 2)/2 = 1, X's 2).

    Adapted: a round file has only the event's players, so `other` plays in the event here.
    In Cobra too his pairings count for his points and rounds (SosCalculator reads every
    pairing of the stage); being outside the tournament only keeps him off the standings, which
    no value of snap's depends on. X and Y play round 1 only (no row in round 2: dropped), so
    each has one round played, as in Cobra."""
    rows = standings(tmp_path, {
        1: "1,snap,1,\n1,X,3,\n2,Y,0,\n2,other,5,\n",
        2: "1,snap,3,\n1,other,2,\n",
    })
    assert rows["snap"].values["points"] == 4
    assert sos(rows["snap"]) == (F("3.25"), F("1.5"))


def test_a_late_entrants_missed_round_is_not_a_round_played(tmp_path):
    """The same Cobra 'sos' case (published: snap sos 3.25, extended_sos 1.5) with its pairings
    in the other order: snap 3-2 other in round 1; snap 1-3 X and Y 0-5 other in round 2, so X
    and Y enter in round 2. Cobra's SosCalculator adds to games_played once a pairing (a bye
    included), never for a round a player was not in (app/services/sos_calculator.rb:
    `games_played[p.player1_id] += p.round.weight` inside `stage.eligible_pairings.each`), so X
    has 3 points in 1 game, and netrunner.toml says "points per round played".

    FAILS (a bug): tiebreaks.py `_rounds_played` is len(record.results), which counts the
    `absent` round 1 that tally.records_extended gives a late entrant, so X's average is 3/2
    and snap's SoS (3.5 + 1.5)/2 = 2.5 instead of 3.25."""
    rows = standings(tmp_path, {
        1: "1,snap,3,\n1,other,2,\n",
        2: "1,snap,1,\n1,X,3,\n2,Y,0,\n2,other,5,\n",
    })
    assert sos(rows["snap"]) == (F("3.25"), F("1.5"))


def test_player_with_only_byes(tmp_path):
    """Cobra spec, 'player with only byes': snap has a bye, 6-0. Published: points 6, sos 0.0,
    extended_sos 0.0 (no opponent to average)."""
    rows = standings(tmp_path, {1: ",snap,,bye\n1,crackle,6,\n1,pop,0,\n"})
    assert (rows["snap"].values["points"], *sos(rows["snap"])) == (6, 0, 0)


def test_three_person_tourney(tmp_path):
    """Cobra spec, 'three person tourney example': dan 3-3 johno, laurie a bye (6-0); laurie 6-0
    johno, dan a bye. Published results in order: laurie points 12, sos 1.5, extended_sos 5.25;
    dan 9, 1.5, 5.25; johno 3, 5.25, 1.5. The byes count in laurie's and dan's rounds, so johno's
    SoS is (9/2 + 12/2)/2 = 5.25."""
    rows = standings(tmp_path, {
        1: "1,dan,3,\n1,johno,3,\n,laurie,,bye\n",
        2: "1,laurie,6,\n1,johno,0,\n,dan,,bye\n",
    })
    assert [(r.rank, name, r.values["points"], *sos(r)) for name, r in rows.items()] == [
        (1, "laurie", 12, F("1.5"), F("5.25")),
        (2, "dan", 9, F("1.5"), F("5.25")),
        (3, "johno", 3, F("5.25"), F("1.5")),
    ]


@pytest.mark.parametrize("word,points", [("6-0", 6), ("3-3", 3), ("0-6", 0)])
def test_result_words_score_as_cobras_presets(tmp_path, word, points):
    """Cobra app/helpers/pairings_helper.rb, double-sided presets '6-0', '3-3 (C)', '0-6': a
    round is two games at 3 a game won, so a row's word gives 6, 3 or 0 points."""
    other = {"6-0": "0-6", "3-3": "3-3", "0-6": "6-0"}[word]
    rows = standings(tmp_path, {1: f"1,snap,,{word}\n1,pop,,{other}\n"})
    assert rows["snap"].values["points"] == points
