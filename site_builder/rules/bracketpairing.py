"""Single-elimination pairing by the Conquest regulations (seed 001, "Single Elimination Rounds"
and "Progression Cut"): pure functions.

* After a cut to the top N: Game #1 is seed 1 against seed N, Game #2 seed 2 against seed N-1,
  and so on. A qualified player who dropped is replaced by the next in the standings, who joins
  as the lowest seed (the seed's example of Steven and Eve): the caller passes the seeds so.
* Later rounds: the winner of Game #1 against the winner of the last game, the new Game #1; the
  winner of Game #2 against the winner of the second-to-last, and so on. A player who dropped
  between rounds gives their next opponent a bye.
* An event that starts in elimination: random byes up to the next power of two, the others paired
  at random, and every game (a bye too) numbered in a random order from Game #1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Game:
    number: int
    players: tuple[str, ...]
    """Two players, or one: a bye."""


def cut_round(seeds: list[str], size: int) -> list[Game]:
    """The first round after a top-`size` cut; `seeds` best first (fewer than `size` when not
    enough players qualified: the top seeds then have byes)."""
    games = []
    for k in range(size // 2):
        high = seeds[k] if k < len(seeds) else None
        low = seeds[size - 1 - k] if size - 1 - k < len(seeds) else None
        players = tuple(p for p in (high, low) if p is not None)
        if players:
            games.append(Game(k + 1, players))
    return games


def next_round(previous: list[tuple[int, str]], dropped: set[str]) -> list[Game]:
    """The next round from the previous one's (Game number, winner): Game #i is the winner of
    the i-th game against the winner of the i-th from the end. A winner who dropped leaves their
    opponent a bye."""
    winners = [winner for _, winner in sorted(previous)]
    games = []
    for i in range(len(winners) // 2):
        players = tuple(p for p in (winners[i], winners[-1 - i]) if p not in dropped)
        if players:
            games.append(Game(len(games) + 1, players))
    if len(winners) % 2 and winners[len(winners) // 2] not in dropped:
        games.append(Game(len(games) + 1, (winners[len(winners) // 2],)))
    return games


def opening_round(names: list[str], rng: random.Random) -> list[Game]:
    """Round 1 of an event that starts in elimination: byes for as many random players as the
    count falls short of a power of two, random pairs for the rest, games numbered at random."""
    shuffled = list(names)
    rng.shuffle(shuffled)
    bracket = 1 << (len(names) - 1).bit_length()
    byes = bracket - len(names)
    units = [(name,) for name in shuffled[:byes]]
    rest = shuffled[byes:]
    units += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    rng.shuffle(units)
    return [Game(k + 1, unit) for k, unit in enumerate(units)]
