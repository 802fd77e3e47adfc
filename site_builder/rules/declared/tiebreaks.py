"""The tiebreaks of the vocabulary (vocabulary.py), each worked out exactly with Fractions from
the records after a round (tally.py). Rounded only on the page.

Each function gives every player's value; `head-to-head` alone depends on who else is tied, and
is worked out while ranking (ranking.py). Where the rule makers' own texts leave a point open,
the docstring says what is followed and why; tests/games/declared/ checks each against the
examples they published.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from ..tiebreaks import lottery
from .model import Declaration, TiebreakChoice
from .chess import CHESS
from .tally import Record
from .vocabulary import ABSENT, BYE

ZERO = Fraction(0)
Values = dict[str, Fraction]
Records = Mapping[str, Record]


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, ZERO) / len(values) if values else ZERO


# ---------------------------------------------------------------- Magic (MTR Appendix C)


def mtg_match_win(record: Record, win: Fraction, floor: Fraction) -> Fraction:
    """Match points over the points possible in the rounds played (3 a round), at least the
    floor. A bye is a round played, worth a win: the MTR's own example counts it ("3-2-0,
    including a first-round bye … 9/(5*3) = 0.60"). (Wizards' event software is reported to
    leave bye rounds out, 13/21 for a 6-2-1 player with two byes; the rule text wins.) A round
    the player has no row in was not played."""
    rounds = [r for r in record.results if r.kind != ABSENT]
    if not rounds:
        return floor
    return max(floor, sum((r.points for r in rounds), ZERO) / (win * len(rounds)))


def mtg_game_win(record: Record, floor: Fraction) -> Fraction:
    """Game points (3 a game won, 1 a game drawn) over 3 a game played, at least the floor
    ("Again, use 0.33 if the actual game-win percentage is lower than that"). A bye is a match
    won 2–0 (MTR, "Byes"): the game's `bye_games` won."""
    won = drawn = lost = 0
    for result in record.results:
        if result.games is not None:
            won, drawn, lost = (won + result.games[0], drawn + result.games[1],
                                lost + result.games[2])
    games = won + drawn + lost
    if not games:
        return floor
    return max(floor, Fraction(3 * won + drawn, 3 * games))


def _omw(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    floor, win = choice.get("floor"), declaration.win_points
    own = {name: mtg_match_win(record, win, floor) for name, record in records.items()}
    return {name: _mean([own[o] for o in record.opponents]) for name, record in records.items()}


def _gw(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    floor = choice.get("floor")
    return {name: mtg_game_win(record, floor) for name, record in records.items()}


def _ogw(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    own = _gw(records, declaration, choice)
    return {name: _mean([own[o] for o in record.opponents]) for name, record in records.items()}


# ---------------------------------------------------------------- Pokémon (Play! Pokémon TRH 5.3)


def pokemon_win(record: Record, floor: Fraction, dropped_cap: Fraction) -> Fraction:
    """Wins (a tie half a win) over the rounds played, byes left out of both: "a bye counts as
    a win for that competitor's match record but does not count as a round played when
    calculating that competitor's win percentage", and rk9.gg's worked example ("an opponent
    [who] received a Bye and finished 2-1 … contribute[s] a 1-1 score (50%)"; "3–1–1 … (1 + 1 +
    1 + 0.5 + 0) / 5 = 70%"). At least the floor; at most the cap for a player who dropped,
    100% for one still in."""
    played = [r for r in record.results if r.played]
    if not played:
        return floor
    wins = Fraction(sum(2 if r.outcome == "win" else 1 if r.outcome == "draw" else 0
                        for r in played), 2 * len(played))
    return min(max(floor, wins), dropped_cap if record.dropped else Fraction(1))


def _owp(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    floor, cap = choice.get("floor"), choice.get("dropped_cap")
    own = {name: pokemon_win(record, floor, cap) for name, record in records.items()}
    return {name: _mean([own[o] for o in record.opponents]) for name, record in records.items()}


def _oowp(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    owp = _owp(records, declaration, choice)
    return {name: _mean([owp[o] for o in record.opponents]) for name, record in records.items()}


# ---------------------------------------------------------------- Strength of Schedule


def _rounds_played(record: Record) -> int:
    return sum(1 for r in record.results if r.kind != ABSENT)


def _sos(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    """The mean, over the opponents met (one term a match), of each opponent's points per round
    played. A bye is no opponent, but a round played by the player who had it; a round a player
    was absent from is none (Cobra's SosCalculator counts one round a pairing, byes included).
    A game whose missed rounds are unpaired losses (missed_rounds, Conquest's seed) counts them
    as rounds played, as the seed does."""
    average = {name: (record.points / _rounds_played(record) if record.results else ZERO)
               for name, record in records.items()}
    return {name: _mean([average[o] for o in record.opponents]) for name, record in records.items()}


def _esos(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    sos = _sos(records, declaration, choice)
    return {name: _mean([sos[o] for o in record.opponents]) for name, record in records.items()}


# ---------------------------------------------------------------- the rest


def _wins(records: Records, declaration: Declaration, choice: TiebreakChoice) -> Values:
    return {name: Fraction(sum(1 for r in record.results if r.played and r.outcome == "win"))
            for name, record in records.items()}


def random_draw(records: Mapping[str, Record], seed: int) -> dict[str, int]:
    """The seeded draw (rules/tiebreaks.lottery): the lower draw ranks first."""
    return {name: lottery(seed, name) for name in records}


Computed = Callable[[Records, Declaration, TiebreakChoice], Values]
COMPUTED: dict[str, Computed] = {
    "mtg-omw": _omw, "mtg-gw": _gw, "mtg-ogw": _ogw,
    "pokemon-owp": _owp, "pokemon-oowp": _oowp,
    "sos": _sos, "esos": _esos,
    "wins": _wins,
    **CHESS,
}
"""The tiebreaks whose values do not depend on who else is tied (the Buchholz family's are
worked out in chess.py); head-to-head and random are worked out while ranking."""

__all__ = ["COMPUTED", "random_draw", "mtg_match_win", "mtg_game_win", "pokemon_win", "BYE"]
