"""The fixed words a game declaration (data/games/<id>.toml) chooses from: how a round may go
unplayed, and the tiebreaks, each with its parameters and what a standings page says of it.

A closed list on purpose: every tiebreak here is worked out exactly (rules/declared/tiebreaks.py)
and checked against what its own rule makers published (tests/games/declared/); a league names
one and gets that, never a formula of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

OUTCOMES = ("win", "draw", "loss")
"""What a result word is as a match, for the tiebreaks that count wins (a Conquest modified
win is a win worth fewer points)."""

# ---------------------------------------------------------------- rounds not played at the board

BYE = "bye"
FORFEIT_WIN = "forfeit-win"
FORFEIT_LOSS = "forfeit-loss"
HALF_BYE = "half-point-bye"
ZERO_BYE = "zero-point-bye"
ABSENT = "absent"

UNPLAYED = (BYE, FORFEIT_WIN, FORFEIT_LOSS, HALF_BYE, ZERO_BYE, ABSENT)
"""Each a round a player did not play over the board (FIDE C.07 (2023) 16.2's list):
    bye            the pairing-allocated bye, to the odd player out (its points: `bye` in [points])
    forfeit-win    the opponent did not come; written on both rows, forfeit-loss on the other
    forfeit-loss
    half-point-bye a bye the player asked for before the round, worth what the game says
    zero-point-bye the same, worth nothing
    absent         a round the player has no row in, between their first and last (or before
                   their first: a late entry)."""

UNPLAYED_OUTCOME = {BYE: "win", FORFEIT_WIN: "win", FORFEIT_LOSS: "loss", HALF_BYE: "draw",
                    ZERO_BYE: "loss", ABSENT: "loss"}
"""How each counts in a player's record (wins–draws–losses: a bye is a win, as every game's
rules say). The tiebreaks that count wins count over-the-board ones only (`wins` is FIDE's WON;
Pokémon's win percentage leaves byes out): see tiebreaks.py."""

WITH_OPPONENT = (FORFEIT_WIN, FORFEIT_LOSS)
"""The unplayed words written at a table with an opponent: the other row holds the other one."""


# ---------------------------------------------------------------- tiebreaks


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    default: Fraction
    meaning: str


@dataclass(frozen=True, slots=True)
class Tiebreak:
    name: str
    label: str
    """The short heading of its standings column ("OMW%")."""
    title: str
    """Its full name, for the column's tooltip and the page's sentence."""
    kind: str
    """How the page shows its value: "pct" (a percentage), "dec3" or "num"."""
    explained: str
    """What the page's sentence says it is ("the mean of your opponents' match-win
    percentages, each at least {floor}")."""
    parameters: tuple[Parameter, ...] = ()


def _share(text: str) -> Fraction:
    return Fraction(text)


FLOOR_MTG = Parameter("floor", _share("0.33"), "the least a percentage counts for (MTR "
                                               "Appendix C: 0.33)")
FLOOR_POKEMON = Parameter("floor", _share("0.25"), "the least a win percentage counts for "
                                                   "(Play! Pokémon: 25%)")
CAP_DROPPED = Parameter("dropped_cap", _share("0.75"), "the most a dropped player's win "
                                                       "percentage counts for (Play! Pokémon: 75%)")

TIEBREAKS: dict[str, Tiebreak] = {t.name: t for t in (
    Tiebreak("mtg-omw", "OMW%", "Opponents' match-win percentage", "pct",
             "the mean of your opponents' match-win percentages, each their match points over "
             "3 a round played and counted as at least {floor}", (FLOOR_MTG,)),
    Tiebreak("mtg-gw", "GW%", "Game-win percentage", "pct",
             "your game points, 3 a game won and 1 a game drawn, over 3 a game played, at "
             "least {floor}",
             (FLOOR_MTG,)),
    Tiebreak("mtg-ogw", "OGW%", "Opponents' game-win percentage", "pct",
             "the mean of your opponents' game-win percentages, each at least {floor}",
             (FLOOR_MTG,)),
    Tiebreak("pokemon-owp", "OWP", "Opponents' win percentage", "pct",
             "resistance: the mean of your opponents' win percentages, each their wins (a tie "
             "half) over rounds played without byes, at least {floor} and, for an opponent who "
             "dropped, at most {dropped_cap}", (FLOOR_POKEMON, CAP_DROPPED)),
    Tiebreak("pokemon-oowp", "OOWP", "Opponents' opponents' win percentage", "pct",
             "the mean of your opponents' OWP", (FLOOR_POKEMON, CAP_DROPPED)),
    Tiebreak("head-to-head", "H2H", "Head-to-head", "num",
             "when exactly two players are still tied and met, the winner of their match first"),
    Tiebreak("sos", "SoS", "Strength of Schedule", "dec3",
             "the mean, over your opponents, of their points per round played"),
    Tiebreak("esos", "ESoS", "Extended Strength of Schedule", "dec3",
             "the mean of your opponents' SoS"),
    Tiebreak("buchholz", "BH", "Buchholz", "num",
             "the sum of your opponents' scores, a round you did not play over the board "
             "counting your own score, as FIDE's 2023 rules say"),
    Tiebreak("buchholz-cut1", "BH-C1", "Buchholz Cut-1", "num",
             "Buchholz without its least significant score, a round you chose not to play "
             "first"),
    Tiebreak("median-buchholz", "BH-M1", "Median Buchholz", "num",
             "Buchholz without its least and its most significant scores"),
    Tiebreak("sonneborn-berger", "SB", "Sonneborn-Berger", "num",
             "the scores of the opponents you beat, and half those of the ones you drew"),
    Tiebreak("wins", "Wins", "Games won", "num", "the rounds you won over the board"),
    Tiebreak("random", "random", "a random draw", "num",
             "a random draw fixed by the event's seed"),
)}
"""Every tiebreak a declaration may name, by its name (the standings JSON's key)."""
