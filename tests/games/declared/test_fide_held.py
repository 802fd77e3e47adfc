"""FIDE Tie-Break Regulations C.07 (2023): Buchholz, Buchholz Cut-1 and Sonneborn-Berger of the
shipped chess game (site_builder/rules/declared/shipped/chess.toml, chess.py) against IA Mario
Held's "Exercises in Tie-Breaking" (Rev. 2403220900 / C.07-2023, pp. 10-50; FIDE Arbiters'
Commission, https://arbiters.fide.com/news/9119, and https://tec.fide.com/2024/03/18/tie-break-exercise/).

The Swiss of the exercises (16 players, 5 rounds, with a pairing-allocated bye, half- and
zero-point byes and forfeits) is transcribed twice in the open:
* OttoMilvang/TieBreakServer tests/fixtures/held_swiss_5.trf, with Held's answers in
  tests/test_fide_held_individual_exercises.py (BH, BH_C1, SB, SB_C1 under the 2023 rules);
* marceljuenemann/tiebreak src/__tests__/testcases/fide-exercise-2023.csv (commit 250ba715),
  copied below as CROSSTABLE (its player numbers are the TRF's start numbers).
The round files are built from CROSSTABLE (tables numbered in the order of the pairs) and the
event is scored through the real loader. SB-C1 (Held's exercise 13) is not in the vocabulary.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from conftest import ScratchSite

from site_builder.core.problems import ProblemLog
from site_builder.league.load import assign_event_ids, load_event
from site_builder.league.people import load_directory
from site_builder.rules.declared import chess
from site_builder.rules.declared.tally import Record, records_extended, round_results
from site_builder.rules.registry import SHIPPED

SHIPPED_CHESS = SHIPPED / "chess.toml"

# The TRF's start numbers and names (held_swiss_5.trf, "001 <no> m <name>").
NAMES = {1: "Alyx", 2: "Bruno", 3: "Charline", 4: "David", 5: "Helene", 6: "Franck",
         7: "Genevieve", 8: "Irina", 9: "Jessica", 10: "Lais", 11: "Maria", 12: "Nick",
         13: "Opal", 14: "Paul", 15: "Reine", 16: "Stephan"}

# marceljuenemann/tiebreak fide-exercise-2023.csv, verbatim: "+W9" won with White against 9,
# "=BYE" half-point bye, "+BYE" pairing-allocated bye, "-F11"/"+F14" forfeit loss/win, "--"
# not paired (the TRF's "0 - Z": a zero-point bye).
CROSSTABLE = """\
#,1,2,3,4,5
1,+W9,=B13,=W2,+B15,=W4
2,+B10,+W7,=B1,+W16,=B3
3,=W11,+B6,+W8,=B4,=W2
4,+B12,=BYE,+W13,=W3,=B1
5,-W13,-B15,+W11,=B7,+W10
6,-B14,-W3,+BYE,+W10,+B8
7,+W15,-B2,-B16,=W5,-B11
8,=B16,+W14,-B3,+W13,-W6
9,-B1,-W10,=BYE,-F11,+BYE
10,-W2,+B9,-W15,-B6,-B5
11,=B3,-W16,-B5,+F9,+W7
12,-W4,+BYE,+F14,--,--
13,+B5,=W1,-B4,-B8,-W14
14,+W6,-B8,-F12,--,+B13
15,-B7,+W5,+B10,-W1,-B16
16,=W8,+B11,+W7,-B2,+W15
"""

# Held's published answers, as TieBreakServer's tests/test_fide_held_individual_exercises.py
# gives them (2023 rules).
POINTS = {1: "3.5", 2: "4", 3: "3.5", 4: "3.5", 5: "2.5", 6: "3", 7: "1.5", 8: "2.5", 9: "1.5",
          10: "1", 11: "2.5", 12: "2", 13: "1.5", 14: "2", 15: "2", 16: "3.5"}
BH = {1: "12.5", 2: "13.0", 3: "15.5", 4: "15.0", 5: "8.5", 6: "12.0", 7: "14.5", 8: "13.5",
      9: "9.0", 10: "13.0", 11: "13.5", 12: "11.5", 13: "14.0", 14: "11.0", 15: "12.0",
      16: "12.5"}
BH_C1 = {1: "11.0", 2: "12.0", 3: "13.0", 4: "11.5", 5: "7.5", 6: "11.0", 7: "12.5", 8: "12.0",
         9: "7.5", 10: "11.5", 11: "12.0", 12: "9.5", 13: "12.0", 14: "9.0", 15: "11.0",
         16: "11.0"}
SB = {1: "8.00", 2: "9.50", 3: "10.50", 4: "9.75", 5: "4.25", 6: "6.50", 7: "3.25", 8: "5.25",
      9: "2.25", 10: "1.50", 11: "5.75", 12: "4.00", 13: "4.25", 14: "4.50", 15: "3.50",
      16: "7.25"}
PUBLISHED = {"buchholz": BH, "buchholz-cut1": BH_C1, "sonneborn-berger": SB}

# Held's exercises and the players each asks about (TieBreakServer's test file).
EXERCISES = {
    "ex1": ("buchholz", [2]), "ex2": ("buchholz", [1, 3]), "ex3": ("buchholz", [5, 8, 11]),
    "ex4": ("buchholz", [1, 3, 4, 16]), "ex5": ("buchholz-cut1", [5, 8, 11]),
    "ex6": ("buchholz-cut1", [7, 9, 13]), "ex7": ("buchholz-cut1", [1, 3, 4, 16]),
    "ex8": ("buchholz-cut1", [12, 14, 15]), "ex11": ("sonneborn-berger", [1, 3, 4, 16]),
    "ex12": ("sonneborn-berger", list(range(1, 17))),
}

WORDS = {"+": "win", "=": "draw", "-": "loss"}
ALONE = {"=BYE": "half-point-bye", "+BYE": "bye", "--": "zero-point-bye"}


def round_files(crosstable: str = CROSSTABLE) -> dict[int, str]:
    """One `table,player,result` file a round, from the crosstable."""
    lines = [line.split(",") for line in crosstable.strip().splitlines()[1:]]
    cells = {int(row[0]): row[1:] for row in lines}
    files = {}
    for rnd in range(1, 6):
        out, seated = ["table,player,result"], set()
        table = 0
        for no, row in sorted(cells.items()):
            cell = row[rnd - 1]
            if cell in ALONE:
                out.append(f",{NAMES[no]},{ALONE[cell]}")
                continue
            if no in seated:
                continue
            forfeit = cell[1] == "F"
            other = int(cell[2:])
            mine = ("forfeit-win" if cell[0] == "+" else "forfeit-loss") if forfeit \
                else WORDS[cell[0]]
            theirs = cells[other][rnd - 1]
            assert int(theirs[2:]) == no, (rnd, no, other)  # the crosstable is symmetric
            yours = ("forfeit-win" if theirs[0] == "+" else "forfeit-loss") if forfeit \
                else WORDS[theirs[0]]
            table += 1
            out += [f"{table},{NAMES[no]},{mine}", f"{table},{NAMES[other]},{yours}"]
            seated |= {no, other}
        files[rnd] = "\n".join(out) + "\n"
    return files


EVENT = 'name = "FIDE C.07 2023 Tie-Break Exercises"\ndate = 2024-08-01\ngame = "chess"\n' \
        "swiss_rounds = 5\n"


def loaded(site: ScratchSite, slug: str):
    """The event as the build loads it (the real loader, players' ids assigned)."""
    log = ProblemLog()
    event = load_event(site.root, site.root / "data/events" / slug, log)
    assign_event_ids(event, load_directory(site.root, log), log)
    assert not log.has_errors(), log.problems
    return event


@pytest.fixture(scope="module")
def held(tmp_path_factory):
    site = ScratchSite(tmp_path_factory.mktemp("held") / "site")
    site.event("2024-08-01-held", EVENT, round_files())
    return loaded(site, "2024-08-01-held")


@pytest.fixture(scope="module")
def standings(held):
    scored = held.ruleset.score(held)  # (warns that Held's pairings float players: they do)
    return {row.player.name: row for row in scored.standings.rows}


def test_the_points_are_the_crosstables(standings):
    """Held's Swiss (TieBreakServer tests/fixtures/held_swiss_5.trf, the points column):
    a pairing-allocated bye 1, a half-point bye 1/2, a zero-point bye 0, a forfeit 1 and 0."""
    assert {name: row.values["points"] for name, row in standings.items()} == \
        {NAMES[no]: F(p) for no, p in POINTS.items()}


@pytest.mark.parametrize("tiebreak", sorted(PUBLISHED))
def test_every_published_value(standings, tiebreak):
    """All 16 of Held's answers for BH (exercises 1-4), BH-C1 (5-8) and SB (11-12), from
    TieBreakServer tests/test_fide_held_individual_exercises.py."""
    got = {NAMES[no]: standings[NAMES[no]].values["tiebreaks"][tiebreak] for no in NAMES}
    assert got == {NAMES[no]: F(v) for no, v in PUBLISHED[tiebreak].items()}


def exercises_of(tiebreak: str, no: int) -> str:
    asked = [ex for ex, (name, players) in EXERCISES.items() if name == tiebreak and no in players]
    return "+".join(asked) or "table"


CASES = [pytest.param(tiebreak, no, id=f"{tiebreak}-{no}-{NAMES[no]}-{exercises_of(tiebreak, no)}")
         for tiebreak in PUBLISHED for no in NAMES]


@pytest.mark.parametrize("tiebreak,no", CASES)
def test_each_value(standings, tiebreak, no):
    """Each of the 48 values on its own, named by the exercises that ask for it (Held's
    exercises 1-8, 11 and 12 and their players, as TieBreakServer's test file lists them;
    "table" for a value no exercise asks for, which TieBreakServer's full BH and BH_C1
    dictionaries give)."""
    assert standings[NAMES[no]].values["tiebreaks"][tiebreak] == F(PUBLISHED[tiebreak][no])


# Held's exercise 28, WON: games won over the board (TieBreakServer's WON). Exercise 27, WIN,
# also counts unplayed wins (pairing-allocated byes, forfeit wins: Franck 3, Jessica 1, Maria
# 2, Nick 2); the vocabulary's `wins` is "the rounds you won over the board", so WON.
WON = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2, 9: 0, 10: 1, 11: 1, 12: 0, 13: 1, 14: 2,
       15: 2, 16: 3}


def test_wins_are_helds_won(tmp_path):
    """Held's exercise 28 (WON, all 16 players; TieBreakServer's test file), through a league's
    own chess declaration (data/games/chess-won.toml: the shipped chess.toml with tiebreaks
    = ["wins"])."""
    text = SHIPPED_CHESS.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("tiebreaks"))
    site = ScratchSite(tmp_path / "site")
    site.write({"data/games/chess-won.toml": text.replace(line, 'tiebreaks = ["wins"]')})
    site.event("2024-08-01-won", EVENT.replace('"chess"', '"chess-won"'), round_files())
    event = loaded(site, "2024-08-01-won")
    rows = {r.player.name: r for r in event.ruleset.score(event).standings.rows}
    assert {name: r.values["tiebreaks"]["wins"] for name, r in rows.items()} == \
        {NAMES[no]: won for no, won in WON.items()}


# ---------------------------------------------------------------- scores as opponents see them


def final_records(event) -> dict[str, Record]:
    declaration = event.ruleset.declaration
    records: dict[str, Record] = {}
    for round_ in event.rounds:
        records = records_extended(records, round_results(round_, declaration), round_.number,
                                   declaration)
    return records


def test_nicks_score_as_his_opponents_see_it(held):
    """Sharly-Chess (ex papi-web) test_adjusted_score on the same Held Swiss
    (tests/json/tec-swiss.json): every player's score as opponents count it is their points,
    except Nick (no. 12), 2 points but 3.0 as seen by others: his zero-point byes of rounds 4
    and 5 come after his last round not voluntarily unplayed, so count as draws (C.07 16.2.5,
    16.3.2). David, Nick's only opponent over the board, counts 3.0 for round 1 in his BH 15.0."""
    records = final_records(held)
    declaration = held.ruleset.declaration
    adjusted = {name: chess.adjusted_score(record.results, F(1, 2))
                for name, record in records.items()}
    assert adjusted == {NAMES[no]: F("3.0") if no == 12 else F(POINTS[no]) for no in NAMES}
    david = chess.contributions(records, declaration)["David"]
    assert [g.score for g in david] == [F(3), F("3.5"), F("1.5"), F("3.5"), F("3.5")]
    assert sum(g.score for g in david) == F(BH[4])


# ---------------------------------------------------------------- a small ranking case

SMALL = {
    1: "table,player,result\n1,C,draw\n1,A,draw\n2,B,forfeit-win\n2,D,forfeit-loss\n",
    2: "table,player,result\n1,A,loss\n1,B,win\n,C,bye\n",
}


def test_marceljuenemann_ranking_case(tmp_path):
    """marceljuenemann/tiebreak src/__tests__/tiebreak.test.ts, its ranking test under FIDE_2023:
    round 1 C-A drawn, B beats D by forfeit; round 2 A-B 0-1, C the pairing-allocated bye (D
    not paired: no row). Published [score, BH]: B [2, 2.5] ("2 for unplayed + 0.5 for A"),
    C [1.5, 2] ("0.5 for A + 1.5 for bye"), A [0.5, 3.5] ("1.5 for C + 2 for B"), D [0, 0]
    ("2 * 0 for unplayed rounds"), in that order."""
    site = ScratchSite(tmp_path / "site")
    site.event("2024-08-01-small", EVENT.replace("swiss_rounds = 5", "swiss_rounds = 2"), SMALL)
    event = loaded(site, "2024-08-01-small")
    rows = event.ruleset.score(event).standings.rows
    assert [(r.rank, r.player.name, r.values["points"], r.values["tiebreaks"]["buchholz"])
            for r in rows] == [(1, "B", 2, F("2.5")), (2, "C", F("1.5"), 2),
                               (3, "A", F("0.5"), F("3.5")), (4, "D", 0, 0)]
