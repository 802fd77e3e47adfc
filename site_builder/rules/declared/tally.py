"""Each player's rounds in a declared game's Swiss stage, as they stood after some round: what
the standings and every tiebreak (tiebreaks.py) are worked out from.

Read "as of" a round, as the seed games are (rules/swiss.py): the standings after round k know
nothing of later files. A player with no row in round k has dropped, as far as round k knows;
one who comes back later has the rounds between as `absent`, worth what the game says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ...core.model import Round
from ..seating import tables_of
from .model import Declaration
from .rows import BY_POINTS, Row, outcome_of
from .vocabulary import ABSENT, BYE, FORFEIT_LOSS, FORFEIT_WIN, UNPLAYED

UNPAIRED = "unpaired"
"""A lone row with a loss: the player was not paired and has no bye (0 points, like absent)."""


@dataclass(frozen=True, slots=True)
class Result:
    """One player's round."""

    round: int
    kind: str
    """A result word of the game, BY_POINTS, an unplayed word, or UNPAIRED."""
    outcome: str
    points: Fraction
    table: int | None = None
    against: str | None = None
    """Whoever sat across the table, a forfeit's opponent included."""
    games: tuple[int, int, int] | None = None
    """Games won, drawn and lost in the match, when the round file gives them (a bye: the
    game's bye_games won)."""
    line: int | None = None

    @property
    def played(self) -> bool:
        """Played over the board: an opponent, and not a forfeit."""
        return self.against is not None and self.kind not in (FORFEIT_WIN, FORFEIT_LOSS)

    @property
    def opponent(self) -> str | None:
        """The opponent whose results the tiebreaks count (none for a forfeit: FIDE C.07
        (2023) 16.2 counts a forfeit as an unplayed round, and the MTR, Pokémon and Cobra
        never meet one)."""
        return self.against if self.played else None


@dataclass(slots=True)
class Record:
    name: str
    results: list[Result] = field(default_factory=list)
    dropped: bool = False
    """Absent from the latest round scored (and so from every later one, as far as it knows)."""

    @property
    def points(self) -> Fraction:
        return sum((r.points for r in self.results), Fraction(0))

    @property
    def opponents(self) -> list[str]:
        return [r.opponent for r in self.results if r.opponent is not None]

    def count(self, outcome: str) -> int:
        """Rounds of this outcome, unplayed ones by what they count as (a bye a win)."""
        return sum(1 for r in self.results if r.outcome == outcome)

    @property
    def byes(self) -> int:
        return sum(1 for r in self.results if r.kind == BYE)

    @property
    def last_round(self) -> int:
        return self.results[-1].round if self.results else 0


def round_results(round_: Round, declaration: Declaration) -> dict[str, Result]:
    """Each player's result in one Swiss round (every row decided: a round in progress is not
    scored)."""
    tables, loose = tables_of(round_)
    # A bye counts its games won (MTR: a 2-0 win) only in a round that records games: in an
    # event without them, a bye's 2-0 against matches of no games would make GW% favour byes.
    recorded = declaration.game_records and any(r.games_won is not None for r in round_.rows)
    found: dict[str, Result] = {}
    for number, rows in tables.items():
        for row in rows:
            other = next((o for o in rows if o is not row), None)
            found[row.player] = _result(round_.number, row, other, number, declaration, recorded)
    for row in loose:
        found[row.player] = _result(round_.number, row, None, None, declaration, recorded)
    return found


def _result(number: int, row: Row, other: Row | None, table: int | None,
            declaration: Declaration, recorded: bool) -> Result:
    outcome = outcome_of(row, other, declaration)
    if other is None and row.result not in UNPLAYED:
        return Result(number, UNPAIRED, "loss", declaration.points_of(ABSENT), table, None,
                      None, row.line)
    points = (row.points if row.result == BY_POINTS or row.points is not None
              else declaration.points_of(row.result))
    games = None
    if row.result == BYE and recorded:
        games = (declaration.bye_games, 0, 0)
    elif other is not None and row.games_won is not None and other.games_won is not None:
        games = (row.games_won, row.games_drawn or 0, other.games_won)
    return Result(number, row.result, outcome, points, table,
                  other.player if other is not None else None, games, row.line)


def records_extended(before: Mapping[str, Record], results: Mapping[str, Result], number: int,
                     declaration: Declaration) -> dict[str, Record]:
    """The records after round `number` from those before it (see rules/swiss.py's)."""
    absent = declaration.points_of(ABSENT)
    # A round missed between two played: absent, or (Conquest's seed) an unpaired loss.
    missed = ABSENT if declaration.missed_rounds == "absent" else UNPAIRED
    records: dict[str, Record] = {}
    for name, record in before.items():
        result = results.get(name)
        if result is None:
            records[name] = Record(name, record.results, dropped=True)
            continue
        gap = [Result(r, missed, "loss", absent) for r in range(record.last_round + 1, number)]
        records[name] = Record(name, [*record.results, *gap, result])
    for name, result in results.items():
        if name not in records:  # first seen now: the rounds before were missed
            records[name] = Record(name, [*(Result(r, missed, "loss", absent)
                                            for r in range(1, number)), result])
    return records
