"""Armageddon elimination (seed 000, 4.2): who is still in, which bracket a match belongs to,
final places, and whether byes went where 4.2.2 says. Pure functions over `MatchResult`s.

Double elimination needs no bracket column in the data: a match between two unbeaten players is
in the winners' bracket, between two once-beaten players in the losers' bracket, and between an
unbeaten and a once-beaten player it is the final (a second final between the same two, after the
unbeaten one lost, is the reset).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ...core.model import Round
from ...core.problems import ProblemLog
from .matches import MatchResult

WINNERS, LOSERS, FINAL, SINGLE = "winners", "losers", "final", "single"
BRACKET_NAMES = {WINNERS: "Winners' bracket", LOSERS: "Losers' bracket", FINAL: "Final",
                 SINGLE: ""}


@dataclass(slots=True)
class Standing:
    name: str
    match_losses: int = 0
    matches_won: int = 0
    games_won: int = 0
    games_lost: int = 0
    tau: int = 0
    byes: int = 0
    eliminated_in: int | None = None
    last_round: int = 0
    tau_at_last_loss: int | None = None
    lost_match_in: int | None = None
    unplayed: int = 0
    """Games of 1–0 matches never played: 4.2.5 counts them lost for both players, for byes."""

    @property
    def lost_for_byes(self) -> int:
        return self.games_lost + self.unplayed


@dataclass(frozen=True, slots=True)
class Placed:
    """A match with the bracket it belongs to."""

    match: MatchResult
    bracket: str


@dataclass(slots=True)
class State:
    """Everyone's standing after some rounds, and every match placed in its bracket."""

    limit: int
    players: dict[str, Standing] = field(default_factory=dict)
    placed: list[list[Placed]] = field(default_factory=list)

    def alive(self) -> list[str]:
        return [n for n, s in self.players.items() if s.eliminated_in is None]

    @property
    def champion(self) -> str | None:
        alive = self.alive()
        return alive[0] if len(alive) == 1 and len(self.players) > 1 else None


def play(rounds: Sequence[Sequence[MatchResult]], elimination: str) -> list[State]:
    """The state after each round in turn."""
    limit = 2 if elimination == "double" else 1
    states = []
    state = State(limit)
    previous_final: frozenset[str] = frozenset()
    for matches in rounds:
        state = _copy(state)
        placed = []
        for match in matches:
            for name in match.players:
                state.players.setdefault(name, Standing(name))
        alive = len(state.alive())
        for match in matches:
            placed.append(Placed(match, _bracket_of(match, state, limit, previous_final, alive)))
        for match in matches:
            _record(match, state)
        if limit == 1 and matches:
            # Single elimination: whoever is still in plays or has a bye every round, else they
            # left. (In double elimination the unbeaten player waits while the losers' bracket
            # plays down, so an absence there means nothing.)
            present = {p for m in matches for p in m.players}
            for standing in state.players.values():
                if standing.eliminated_in is None and standing.name not in present:
                    standing.eliminated_in = matches[0].round
        previous_final = frozenset(p for pl in placed if pl.bracket == FINAL for p in pl.match.players)
        state.placed.append(placed)
        states.append(state)
    return states


def _copy(state: State) -> State:
    return State(state.limit, {n: replace(s) for n, s in state.players.items()}, list(state.placed))


def _bracket_of(match: MatchResult, state: State, limit: int, previous_final: frozenset[str],
                alive: int) -> str:
    """The final is the match of the last two players in (the reset: the same two again); an
    unbeaten player meeting a once-beaten one earlier (odd numbers force it) plays in the
    losers' bracket, where the once-beaten player is."""
    if limit == 1:
        return SINGLE
    losses = sorted(state.players[p].match_losses for p in match.players)
    if match.is_bye:
        return WINNERS if losses[0] == 0 else LOSERS
    if alive == 2 and (losses == [0, 1] or frozenset(match.players) == previous_final):
        return FINAL
    return WINNERS if losses == [0, 0] else LOSERS


def _record(match: MatchResult, state: State) -> None:
    for name in match.players:
        standing = state.players[name]
        standing.last_round = match.round
        standing.games_won += match.wins(name)
        standing.games_lost += match.losses(name)
        standing.tau += sum(t or 0 for t in match.taus(name))
        standing.unplayed += match.unplayed
        if match.is_bye:
            standing.byes += 1
        elif name == match.winner:
            standing.matches_won += 1
        else:
            standing.match_losses += 1
            standing.lost_match_in = match.round
            if standing.match_losses >= state.limit:
                standing.eliminated_in = match.round
        last_loss = match.tau_at_last_loss(name)
        if last_loss is not None:
            standing.tau_at_last_loss = last_loss


# ---------------------------------------------------------------- final places


@dataclass(frozen=True, slots=True)
class Place:
    rank: int
    standing: Standing
    finish: str


def places(state: State, complete: bool,
           round_name: Callable[[int], str] = lambda n: f"round {n}") -> list[Place]:
    """Champion, runner-up, then by the round each player went out (later is better), then by
    games won; players still in come first while the event goes on. Equal places share a rank."""
    champion = state.champion if complete else None
    last_round = max((s.last_round for s in state.players.values()), default=0)
    runner_up = None
    if champion:
        final = next((p.match for p in reversed(state.placed[-1]) if champion in p.match.players
                      and not p.match.is_bye), None)
        runner_up = final.loser if final else None

    def key(s: Standing) -> tuple:
        group = 0 if s.name == champion else 1 if s.name == runner_up else \
            2 if s.eliminated_in is None else 3
        return (group, s.match_losses if group == 2 else 0, -(s.eliminated_in or last_round),
                -s.games_won)

    ordered = sorted(state.players.values(), key=lambda s: (key(s), s.name.casefold(), s.name))
    result, rank = [], 0
    for i, standing in enumerate(ordered):
        if i == 0 or key(standing) != key(ordered[i - 1]):
            rank = i + 1
        result.append(Place(rank, standing,
                            _finish(standing, champion, runner_up, state.limit, round_name)))
    return result


def _finish(s: Standing, champion: str | None, runner_up: str | None, limit: int,
            round_name: Callable[[int], str]) -> str:
    if s.name == champion:
        return "Champion"
    if s.name == runner_up:
        return "Runner-up"
    if s.eliminated_in is None:
        return "Still in" if limit == 1 or not s.match_losses else "Still in (one loss)"
    return f"Out in {round_name(s.eliminated_in)}"


# ---------------------------------------------------------------- checks


def check_eligibility(rounds: Sequence[Round], matches: Sequence[Sequence[MatchResult]],
                      elimination: str, log: ProblemLog) -> None:
    """Errors: a player who is out plays again. Warning (single elimination): a player still in
    is missing from a round."""
    limit = 2 if elimination == "double" else 1
    losses: dict[str, int] = {}
    out_in: dict[str, int] = {}
    for round_, round_matches in zip(rounds, matches):
        for match in round_matches:
            for name in match.players:
                if name in out_in:
                    log.error(round_.path, match.line,
                              f"{name} went out in round {out_in[name]} "
                              f"({'second' if limit == 2 else 'first'} match loss) and cannot play "
                              f"round {round_.number}")
        if limit == 1 and losses:
            present = {p for m in round_matches for p in m.players}
            for name in losses:
                if name not in out_in and name not in present:
                    log.warning(round_.path, 1, f"{name} is still in but has no match or bye in "
                                                f"round {round_.number}: counted as out")
                    out_in[name] = round_.number
        for match in round_matches:
            for name in match.players:
                losses.setdefault(name, 0)
            if match.loser and match.loser not in out_in:
                losses[match.loser] += 1
                if losses[match.loser] >= limit:
                    out_in[match.loser] = round_.number


def check_byes(rounds: Sequence[Round], states: Sequence[State], elimination: str,
               log: ProblemLog) -> None:
    """Seed 4.2.2: a bye goes to the eligible player with the fewest lost games (in double
    elimination, among those who just lost a match), ties to the highest tau at their last loss;
    nobody gets two. The organizer's decision stands, so these are warnings."""
    had_bye: set[str] = set()
    for index, (round_, state) in enumerate(zip(rounds, states)):
        before = states[index - 1] if index else None
        for placed in state.placed[-1]:
            match = placed.match
            if not match.is_bye:
                continue
            name = match.players[0]
            if name in had_bye:
                log.warning(round_.path, match.line, f"{name} gets a second bye: no player may "
                                                     "receive more than one bye (seed 4.2.2)")
                continue
            if before is not None:
                others = {p.match.players[0] for p in state.placed[-1] if p.match.is_bye}
                _check_bye_choice(round_, match, name, before, had_bye | others - {name},
                                  elimination, log)
        had_bye |= {p.match.players[0] for p in state.placed[-1] if p.match.is_bye}


def _check_bye_choice(round_: Round, match: MatchResult, name: str, before: State,
                      had_bye: set[str], elimination: str, log: ProblemLog) -> None:
    previous_round = round_.number - 1
    eligible = [s for s in before.players.values()
                if s.eliminated_in is None and s.name not in had_bye
                and (elimination == "single" or s.lost_match_in == previous_round)]
    mine = before.players.get(name)
    if mine is None:
        return
    if elimination == "double" and mine.lost_match_in != previous_round:
        if eligible:
            log.warning(round_.path, match.line,
                        f"{name} gets a bye without having just lost a match: in double "
                        "elimination the seed gives it to a player who just lost one (4.2.2), "
                        f"e.g. {_names(eligible)}")
        return
    better = [s for s in eligible if s.name != name and (
        s.lost_for_byes < mine.lost_for_byes or (
            s.lost_for_byes == mine.lost_for_byes
            and None not in (s.tau_at_last_loss, mine.tau_at_last_loss)
            and s.tau_at_last_loss > mine.tau_at_last_loss))]
    if better:
        log.warning(round_.path, match.line,
                    f"{name} ({mine.lost_for_byes} games lost) gets the bye, but {_names(better)} "
                    "lost fewer games or as many with more tau at the last loss: seed 4.2.2 gives "
                    "the bye to that player")


def _names(standings: Sequence[Standing]) -> str:
    shown = [f"{s.name} ({s.lost_for_byes} lost)" for s in standings[:3]]
    return ", ".join(shown) + (" …" if len(standings) > 3 else "")
