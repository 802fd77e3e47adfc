"""The checks of a single-elimination stage after a Swiss cut, shared by the games that run one
(Conquest's seed, "Single Elimination Rounds", and the games declared in a file): warnings,
because the organizer's pairings stand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..core.model import Round
from ..core.problems import ProblemLog
from .elimination import Match


class Ranked(Protocol):
    name: str
    rank: int


def _line(round_: Round, player: str) -> int:
    return next((row.line for row in round_.rows if row.player == player), 1)


def check_cut(first: Round, matches: Sequence[Match], expected: Sequence[str],
              swiss: Sequence[Ranked], cut: int, log: ProblemLog) -> None:
    """The first elimination round against the cut the Swiss standings give, and its pairings."""
    rank = {row.name: row.rank for row in swiss}
    playing = {name for match in matches for name in match.players}
    missing = [name for name in expected if name not in playing]
    extra = sorted((name for name in playing if name not in expected), key=lambda n: rank.get(n, 0))
    if missing or extra:
        def listed(names: Sequence[str]) -> str:
            return ", ".join(f"{n} (Swiss rank {rank[n]})" for n in names) or "nobody"
        log.warning(first.path, _line(first, extra[0]) if extra else first.rows[0].line,
                    f"the top-{cut} cut differs from the Swiss standings: {listed(missing)} "
                    f"did not play and {listed(extra)} did — fine when a qualified player dropped "
                    "before the cut, as the regulations allow")
    seeds = sorted(playing, key=lambda n: rank.get(n, 0))
    size = len(seeds)
    for match in matches:
        if len(match.players) != 2:
            continue
        a, b = sorted(match.players, key=lambda n: rank.get(n, 0))
        seed_a, seed_b = seeds.index(a) + 1, seeds.index(b) + 1
        if seed_a + seed_b != size + 1:
            log.warning(first.path, _line(first, a),
                        f"Game {match.number} pairs seed {seed_a} ({a}) with seed {seed_b} ({b}): "
                        f"after the cut the seed pairs seed k with seed {size + 1}-k")


def check_elimination_pairings(round_: Round, previous: Sequence[Match], matches: Sequence[Match],
                               log: ProblemLog) -> None:
    """Game #i of a later round joins the winners of Game #i and of the i-th game from the end."""
    ordered = sorted(previous, key=lambda m: m.number)
    game_of = {m.winner: i for i, m in enumerate(ordered) if m.winner}
    for match in matches:
        if len(match.players) != 2 or not all(p in game_of for p in match.players):
            continue
        i, j = sorted(game_of[p] for p in match.players)
        if i + j != len(ordered) - 1:
            log.warning(round_.path, _line(round_, match.players[0]),
                        f"Game {match.number} joins the winners of Games {ordered[i].number} and "
                        f"{ordered[j].number}: the seed pairs the winner of Game #i with the winner "
                        "of the i-th game from the end")
