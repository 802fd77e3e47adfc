"""SPELLFIRE scoring (seed 002, "Scoring" and "SPELLFIRE Scoring System"): pure functions.

A bracket's winner places first; the others by unrazed realms summed over the bracket's games.
Place points are 4, 3, 2, 1 times the round number; in the final round (a single bracket) the
tournament winner gets 5 ×, the runner-up 3 ×, third 2 ×. A player's total is the sum over the
rounds they played. The coordinator earns 1 point per player and each other judge 1 per two
players, unless they played. Only events of 9 or more players are scored.

A bracket of five (five bracket winners seated together, `pair --allow-five`) places its fifth
at 1 × the round number: the seed's table stops at fourth, and "everyone who plays receives at
least one point".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ...core.model import Round
from ...core.problems import ProblemLog
from .rows import WINS_NEEDED, bracket_winner, brackets_of, players_of

PLACE_POINTS = {1: 4, 2: 3, 3: 2, 4: 1, 5: 1}
FINAL_POINTS = {1: 5, 2: 3, 3: 2, 4: 1, 5: 1}
SCORED_MINIMUM = 9
ANOTHER_CHANCE_AT = (2, 5)
"""Bracket winners left to play the next round that let one eliminated player back in: two (the
seed: "If at the end of bracket there are only two players for the next round …"), and five
when the organizer seats six in two brackets of three rather than one of five (`pair --add`)."""


@dataclass(frozen=True, slots=True)
class Placing:
    player: str
    place: int
    realms: int
    wins: int
    shared: bool = False
    """Tied on realms with no judge's place: shares the better place's points."""
    by_judge: bool = False


@dataclass(frozen=True, slots=True)
class Bracket:
    round: int
    number: int
    games: tuple[tuple[int, dict[str, tuple[int, bool]]], ...]
    """(game number, {player: (realms, won)})."""
    placings: tuple[Placing, ...]
    line: int

    @property
    def players(self) -> list[str]:
        return [p.player for p in self.placings]

    @property
    def winner(self) -> str:
        return self.placings[0].player


def rounds_to_play(players: int) -> int:
    """Rounds from one of `players` to the end: a round of five or fewer is the final (three or
    four, five seated together, two bracket winners and another chance); otherwise its brackets
    of three and four (players // 3 of them) send their winners to the next round. A projection
    for "round 2 of 3": drops and another chance for five can change it."""
    return 1 if players <= 5 else 1 + rounds_to_play(players // 3)


def place_points(place: int, round_number: int, final: bool) -> tuple[int, int]:
    """(points, base) for a place: base × round number, the base from the final's table if final."""
    base = (FINAL_POINTS if final else PLACE_POINTS)[place]
    return base * round_number, base


def brackets(round_: Round, log: ProblemLog) -> list[Bracket]:
    """The round's brackets, placed; warns where tied realms leave a place to be shared."""
    result = []
    for number, rows in brackets_of(round_).items():
        players = players_of(rows)
        games: dict[int, dict[str, tuple[int, bool]]] = {}
        for row in rows:
            games.setdefault(row.game, {})[row.player] = (row.realms, row.won)
        realms = {p: sum(g[p][0] for g in games.values()) for p in players}
        wins = {p: sum(g[p][1] for g in games.values()) for p in players}
        judged = {r.player: r.place for r in rows if r.place is not None}
        placings = (_judged(players, judged, realms, wins, round_, number, rows, log) if judged
                    else _by_realms(players, realms, wins, round_, number, rows, log))
        result.append(Bracket(round_.number, number, tuple(sorted(games.items())),
                              tuple(placings), rows[0].line))
    return result


def decided_brackets(round_: Round) -> list[Bracket]:
    """The brackets of a round in progress that have a winner, placed (a tie's warning comes
    once the round is complete and scored)."""
    decided = {n for n, rows in brackets_of(round_).items() if bracket_winner(rows) is not None}
    rows = tuple(r for r in round_.rows if r.bracket in decided)
    return brackets(replace(round_, rows=rows), ProblemLog())


def _by_realms(players, realms, wins, round_, number, rows, log) -> list[Placing]:
    winner = next(p for p in players if wins[p] >= WINS_NEEDED)
    others = sorted((p for p in players if p != winner), key=lambda p: (-realms[p], p))
    placings = [Placing(winner, 1, realms[winner], wins[winner])]
    for player in others:
        tied = [o for o in others if realms[o] == realms[player]]
        place = 2 + others.index(tied[0])
        placings.append(Placing(player, place, realms[player], wins[player], len(tied) > 1))
        if len(tied) > 1 and player == tied[0]:
            log.warning(round_.path, rows[0].line,
                        f"bracket {number}: {' and '.join(tied)} tie on {realms[player]} unrazed "
                        f"realms, so they share {_ordinal(place)} place's points; a 'place' column "
                        "lets the judge settle it")
    return placings


def _judged(players, judged, realms, wins, round_, number, rows, log) -> list[Placing]:
    order = sorted(players, key=lambda p: judged[p])
    for better, worse in zip(order[1:], order[2:]):
        if realms[worse] > realms[better]:
            log.warning(round_.path, rows[0].line,
                        f"bracket {number}: the judge places {better} ({realms[better]} realms) "
                        f"above {worse} ({realms[worse]} realms); the judge's place stands")
    return [Placing(p, judged[p], realms[p], wins[p], by_judge=True) for p in order]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# ---------------------------------------------------------------- the whole event


@dataclass(frozen=True, slots=True)
class Scored:
    """A player's points in one round: the placing, the multiplier and the arithmetic."""

    bracket: Bracket
    placing: Placing
    points: int
    base: int
    final: bool

    @property
    def arithmetic(self) -> str:
        return f"{self.base} × {self.bracket.round} = {self.points}"


@dataclass(slots=True)
class Standing:
    name: str
    rounds: list[Scored] = field(default_factory=list)
    another_chance: int | None = None
    """The round this player entered through the "another chance" rule."""

    @property
    def points(self) -> int:
        return sum(s.points for s in self.rounds)

    @property
    def brackets_won(self) -> int:
        return sum(s.placing.place == 1 and not s.placing.shared for s in self.rounds)

    @property
    def realms(self) -> int:
        return sum(s.placing.realms for s in self.rounds)

    @property
    def last(self) -> Scored:
        return self.rounds[-1]


def score_rounds(all_brackets: Sequence[Sequence[Bracket]], final_round: int | None,
                 chances: Mapping[int, str]) -> list[dict[str, Standing]]:
    """Standings after each round: every player's scored rounds so far (and the round a player
    came back through "another chance", from `chances`)."""
    standings: dict[str, Standing] = {}
    after = []
    for brackets_ in all_brackets:
        for bracket in brackets_:
            final = bracket.round == final_round
            for placing in bracket.placings:
                points, base = place_points(placing.place, bracket.round, final)
                standing = standings.setdefault(placing.player, Standing(placing.player))
                standing.rounds.append(Scored(bracket, placing, points, base, final))
                if chances.get(bracket.round) == placing.player:
                    standing.another_chance = bracket.round
        after.append({n: _copy(s) for n, s in standings.items()})
    return after


def _copy(s: Standing) -> Standing:
    return Standing(s.name, list(s.rounds), s.another_chance)


def final_round_of(all_brackets: Sequence[Sequence[Bracket]], declared_final: bool = False
                   ) -> int | None:
    """The last round when it is the final: a single bracket holding every player who advanced
    (a round half entered is not a final yet, unless the organizer declared the event final).
    None while the event goes on."""
    if not all_brackets or len(all_brackets[-1]) != 1:
        return None
    final = all_brackets[-1][0]
    if len(all_brackets) > 1 and not declared_final:
        advanced = {b.winner for b in all_brackets[-2]}
        if not advanced <= set(final.players):
            return None
    return final.round


def another_chance(all_brackets: Sequence[Sequence[Bracket]]) -> dict[int, str]:
    """Round number → the player who came back under the "another chance" rule: a player in a
    round who did not win a bracket in the round before, allowed when that round left two
    bracket winners (or five, see ANOTHER_CHANCE_AT)."""
    found = {}
    for earlier, later in zip(all_brackets, all_brackets[1:]):
        winners = {b.winner for b in earlier}
        if len(winners) not in ANOTHER_CHANCE_AT:
            continue
        for bracket in later:
            for player in bracket.players:
                if player not in winners:
                    found[bracket.round] = player
    return found


def check_advancement(rounds: Sequence[Round], log: ProblemLog) -> None:
    """Errors: only bracket winners advance, plus one player when a round leaves just two
    (the seed's "another chance" rule; or five, see ANOTHER_CHANCE_AT). A single bracket is the
    final: nothing follows it."""
    for earlier, later in zip(rounds, rounds[1:]):
        earlier_brackets = brackets_of(earlier)
        if len(earlier_brackets) == 1:
            log.error(later.path, 1, f"round {earlier.number} was a single bracket, the final: "
                                     f"no round {later.number} follows it")
            continue
        winners = {bracket_winner(rows) for rows in earlier_brackets.values()}
        played_before = {r.player for round_ in rounds[: rounds.index(later)] for r in round_.rows}
        newcomers = [r for r in later.rows if r.player not in winners]
        names = list(dict.fromkeys(r.player for r in newcomers))
        allowed = 1 if len(winners) in ANOTHER_CHANCE_AT else 0
        for index, name in enumerate(names):
            line = next(r.line for r in newcomers if r.player == name)
            if name not in played_before:
                log.error(later.path, line,
                          f"{name} plays round {later.number} without having played round 1: "
                          "only bracket winners advance (and \"another chance\" goes to an "
                          "eliminated player)")
            elif index >= allowed:
                log.error(later.path, line,
                          f"{name} did not win a bracket in round {earlier.number} and cannot play "
                          f"round {later.number}: only bracket winners advance"
                          + (" (plus one player when a round leaves two winners, or five)"
                             if allowed else ""))
        missing = sorted(winners - {r.player for r in later.rows})
        if missing:
            log.warning(later.path, 1,
                        f"{', '.join(missing)} won a bracket in round {earlier.number} but "
                        f"{'does' if len(missing) == 1 else 'do'} not play round {later.number}: "
                        "the round counts as the final only once every winner is in it")


def check_another_chance(round_: Round, player: str, before: Mapping[str, Standing],
                         advanced: set[str], log: ProblemLog) -> None:
    """The seed gives the extra place to "the player who has scored the highest ranking thus far
    (excluding those that have already advanced)": a warning when the data chose someone else."""
    mine = before.get(player)
    best = max((s.points for n, s in before.items() if n not in advanced), default=0)
    if mine is None or mine.points < best:
        leaders = sorted(n for n, s in before.items() if n not in advanced and s.points == best)
        line = next(r.line for r in round_.rows if r.player == player)
        log.warning(round_.path, line,
                    f"{player} plays round {round_.number} under the \"another chance\" rule, but "
                    f"{', '.join(leaders)} scored more so far ({best} points): the seed gives the "
                    "place to the highest-ranked eliminated player")


def official_points(players: int, coordinator: str | None, judges: Sequence[str],
                    played: set[str], person: Callable[[str], str]) -> list[tuple[str, str, int]]:
    """(name, role, points): the coordinator 1 per player, each other judge 1 per two players
    (rounded down). An official who also played (the same person id) forfeits these points and
    is not listed; someone named as coordinator and judge counts once, as coordinator."""
    officials = []
    if coordinator and person(coordinator) not in played:
        officials.append((coordinator, "coordinator", players))
    seen = {person(coordinator)} if coordinator else set()
    for judge in judges:
        if person(judge) not in played | seen:
            officials.append((judge, "judge", players // 2))
        seen.add(person(judge))
    return officials
