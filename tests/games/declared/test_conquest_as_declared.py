"""A Conquest event and the same event declared as a file give identical standings (issue 35,
point 3): the seed's scoring (win 5, modified win 4, loss 0, bye 5; SoS, ESoS, the seeded draw;
rejoining players' missed rounds as unpaired losses) written as a declaration, run over every
Conquest event of the demo league and the hand-worked example, after every Swiss round."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from site_builder.core.problems import ProblemLog
from site_builder.league.load import assign_event_ids, load_event
from site_builder.league.people import load_directory

DEMO = Path(__file__).resolve().parents[3] / "examples/northern-league"
CONQUEST_DECLARED = """
name = "Conquest, declared"
tiebreaks = ["sos", "esos"]
swiss_rounds = 3
missed_rounds = "unpaired-loss"

[results]
win = { points = 5, spellings = ["w"] }
modified-win = { points = 4, outcome = "win", spellings = ["mw", "modified win", "modified_win"] }
loss = { points = 0, spellings = ["l"] }

[unplayed]
bye = 5
"""

EVENTS = [(DEMO, folder.name) for folder in sorted((DEMO / "data/events").iterdir())
          if 'game = "conquest"' in (folder / "event.toml").read_text()]
EVENTS.append((FIXTURES / "conquest-small", "2016-05-14-byes-and-a-drop"))
REJOIN = "2024-05-18-rejoin"
ROUNDS = {  # Eve misses round 2 and comes back; Fay joins in round 3 (unpaired losses, IV)
    1: "table,player,result\n1,Ann,win\n1,Bob,loss\n2,Cat,win\n2,Dan,loss\n,Eve,bye\n",
    2: "table,player,result\n1,Ann,win\n1,Cat,loss\n2,Bob,mw\n2,Dan,loss\n",
    3: "table,player,result\n1,Ann,loss\n1,Bob,win\n2,Eve,win\n2,Cat,loss\n"
       "3,Fay,win\n3,Dan,loss\n",
}


@pytest.fixture(scope="module")
def rejoin(tmp_path_factory) -> Path:
    """A Conquest event where a player misses a round and rejoins, and another joins late:
    the seed's unpaired losses, which the declaration says with missed_rounds."""
    root = tmp_path_factory.mktemp("rejoin")
    folder = root / "data/events" / REJOIN
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text('name = "Rejoin"\ndate = 2024-05-18\ngame = "conquest"\n'
                                       'structure = "custom"\nswiss_rounds = 3\ncut = 0\n')
    for number, text in ROUNDS.items():
        (folder / f"round-{number}.csv").write_text(text)
    return root


def _load(source: Path, slug: str):
    log = ProblemLog()
    event = load_event(source, source / "data/events" / slug, log)
    assign_event_ids(event, load_directory(source, ProblemLog()), log)
    assert not log.has_errors(), log.problems
    return event


def _swiss_rows(scored):
    """(round, rank, name, points, SoS, ESoS, dropped, tiebreak) of every Swiss standings row."""
    found = []
    for view in scored.rounds:
        standings = view.standings
        if standings is None or standings.phase != "swiss":
            continue
        for row in standings.rows:
            values = row.values
            sos = values.get("sos", values.get("tiebreaks", {}).get("sos"))
            esos = values.get("esos", values.get("tiebreaks", {}).get("esos"))
            found.append((view.number, row.rank, row.player.name, values["points"], sos, esos,
                          row.dropped, row.tiebreak))
    return found


@pytest.mark.parametrize("source, slug", EVENTS + [(None, REJOIN)],
                         ids=[slug for _, slug in EVENTS] + [REJOIN])
def test_a_conquest_event_declared_as_a_file_gives_the_same_standings(tmp_path, source, slug,
                                                                      rejoin):
    source = source or rejoin
    conquest = _load(source, slug)
    plan = conquest.ruleset.plan(conquest)
    copy = tmp_path / "site"
    shutil.copytree(source / "data/events" / slug, copy / "data/events" / slug)
    (copy / "data/games").mkdir(parents=True)
    (copy / "data/games/conquest-declared.toml").write_text(CONQUEST_DECLARED)
    toml = copy / "data/events" / slug / "event.toml"
    text = re.sub(r'^(structure|tier|swiss_rounds|cut) = .*\n', "", toml.read_text(), flags=re.M)
    text = text.replace('game = "conquest"', 'game = "conquest-declared"')
    toml.write_text(text + f"swiss_rounds = {plan.swiss_rounds}\ncut = {plan.cut}\n")

    declared = _load(copy, slug)
    assert declared.ruleset.game == "conquest-declared"
    conquest_rows, declared_rows = _swiss_rows(conquest.ruleset.score(conquest)), \
        _swiss_rows(declared.ruleset.score(declared))
    assert declared_rows, "the event has Swiss standings"
    assert declared_rows == conquest_rows
