"""Forming Heresy: Kingdom Come rounds (seed 000). Pure procedures first, then `form`.

Reascension and Revelations (3.2.2–3.2.3): the players, ranked by the current standings (equal
standings in a seeded random order, so round 1 is a random draw), are grouped from the top into
(X div 3) − (X mod 3) tables of three and (X mod 3) tables of four, the fours first: the
best-ranked sit at table 1. There are `rounds` rounds if announced, else 4 plus one per full
fifteen players, and at least six players (3.1).

Armageddon (4.2.1–4.2.3): best-of-three matches in single or double elimination. Round 1 is a
random draw. Then the winners of a round's matches go on (in double elimination, the once-beaten
too); when their count is odd, the bye goes to the eligible player — no bye yet; in double
elimination, one who just lost a match, if any is eligible — with the fewest lost games, then the
highest tau stored at their last lost game, then at random. Single elimination pairs the players
going on in the order of the matches they come from: the winner of table 1 meets the winner of
table 2. Double elimination keeps the brackets as the scoring reads them from the results
(rules/heresy/armageddon.py): unbeaten players meet in the winners' bracket (in that same order);
once-beaten players in the losers' bracket, those who won there (or had a bye) against those just
dropped from the winners' bracket (first against last); when the unbeaten are odd in number the
last of them meets a once-beaten player (a losers' bracket match, as the scoring files it); the
one unbeaten player left waits, without a bye, until one once-beaten player remains for the final,
and a second final follows if the unbeaten player loses it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import armageddon_label, first_round_players, registered
from .armageddon import State, play
from .matches import MatchResult, matches_of
from .multiplayer import groupings, minimum_rounds
from ..forming import Context, Formed, Table, refuse

FEWEST_PLAYERS = 6
"""Seed 3.1: Reascension "is suitable for any number of players from 6"."""


# ---------------------------------------------------------------- Reascension / Revelations


def ranking_order(names: list[str], rank_of: dict[str, int], rng: random.Random) -> list[str]:
    """Best-ranked first; players sharing a rank in a random order; players without a rank
    (round 1, or joining now) last, in a random order among themselves."""
    by_rank: dict[int | None, list[str]] = {}
    for name in names:
        by_rank.setdefault(rank_of.get(name), []).append(name)
    ordered = []
    for rank in sorted(by_rank, key=lambda r: (r is None, r or 0)):
        equal = sorted(by_rank[rank], key=lambda n: (n.casefold(), n))
        rng.shuffle(equal)
        ordered += equal
    return ordered


def group_tables(ordered: list[str]) -> list[tuple[str, ...]]:
    """Seed 3.2.2: from the top, the (X mod 3) tables of four, then the tables of three."""
    threes, fours = groupings(len(ordered))
    sizes = [4] * fours + [3] * threes
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(ordered[start:start + size]))
        start += size
    return tables


def _tables_round(context: Context) -> Formed:
    event, options = context.event, context.event.options
    players = registered(event)
    planned = options.rounds or minimum_rounds(players)
    if context.number > planned:
        how = (f"rounds = {planned} in event.toml" if options.rounds else
               f"seed 3.2.3 for {players} players: 4, plus one per full fifteen players; set "
               "rounds in event.toml to announce more")
        raise refuse(context.toml, event.line_of("rounds"),
                     f"the event is over: all {planned} rounds are in ({how})")
    count = len(context.players)
    if count < FEWEST_PLAYERS:
        raise refuse(context.where, None,
                     f"only {count} player{'s' if count != 1 else ''} left to group for round "
                     f"{context.number}: a {options.format.title()} tournament is for "
                     f"{FEWEST_PLAYERS} or more (seed 3.1), at tables of 3 and 4")
    standings = context.scored.standings
    rank_of = {row.player.name: row.rank for row in standings.rows} if standings else {}
    tables = group_tables(ranking_order(context.players, rank_of, context.rng))
    return Formed([Table(k, t) for k, t in enumerate(tables, start=1)],
                  f"Round {context.number}", [seating_note(count, tables, bool(rank_of))])


def seating_note(count: int, tables: list[tuple[str, ...]], ranked: bool) -> str:
    """How the players sit, in the organizer's words: "7 players at 2 tables (seed 3.2.2):
    table 1 seats four, the highest-ranked; table 2 three". The tables of four come first."""
    fours = sum(len(t) == 4 for t in tables)
    total = len(tables)
    if fours in (0, total):
        return f"{count} players at {total} table{'s' if total != 1 else ''} of " \
               f"{'four' if fours else 'three'} (seed 3.2.2)"

    def numbers(first: int, last: int) -> str:
        return f"table {first}" if first == last else f"tables {first}–{last}"
    highest = ", the highest-ranked;" if ranked else ","
    return (f"{count} players at {total} tables (seed 3.2.2): {numbers(1, fours)} "
            f"seat{'s' if fours == 1 else ''} four{highest} {numbers(fours + 1, total)} three")


# ---------------------------------------------------------------- Armageddon


@dataclass(frozen=True, slots=True)
class Contender:
    """A player still in, as the bye and the brackets see them."""

    name: str
    losses: int = 0
    """Matches lost."""
    lost_games: int = 0
    """Games lost, a 1–0 match's unplayed games included (4.2.5)."""
    tau_at_last_loss: int | None = None
    had_bye: bool = False
    just_lost: bool = False
    """Lost a match in the round before."""


@dataclass(slots=True)
class Draw:
    matches: list[tuple[str, str]]
    """In table order."""
    bye: str | None = None
    brackets: list[str] = field(default_factory=list)
    """Per match: "winners", "losers" or "final" (double elimination)."""
    waiting: str | None = None
    """The unbeaten player who waits for the final (double elimination)."""
    notes: list[str] = field(default_factory=list)


def choose_bye(candidates: list[Contender], rng: random.Random,
               double: bool) -> tuple[Contender, str]:
    """Seed 4.2.2: the eligible player (no bye yet; in double elimination one who just lost a
    match, when any such is eligible) with the fewest lost games, then the highest tau at their
    last loss, then at random. With what the organizer should know."""
    pool = [c for c in candidates if not c.had_bye]
    if double and any(c.just_lost for c in pool):
        pool = [c for c in pool if c.just_lost]
    note = ""
    if not pool:
        pool = list(candidates)
        note = "; everyone who could have it has had one, so it is a second bye"

    def key(c: Contender) -> tuple[int, int]:
        return c.lost_games, -(c.tau_at_last_loss if c.tau_at_last_loss is not None else -1)

    best = min(map(key, pool))
    tied = [c for c in pool if key(c) == best]
    chosen = rng.choice(tied) if len(tied) > 1 else tied[0]
    why = f"{chosen.lost_games} game{'s' if chosen.lost_games != 1 else ''} lost"
    if chosen.tau_at_last_loss is not None:
        why += f", tau {chosen.tau_at_last_loss} at the last loss"
    if len(tied) > 1:
        why += f"; drawn at random among {len(tied)} equal"
    return chosen, f"bye: {chosen.name} ({why}{note}; seed 4.2.2)"


def single_round(order: list[Contender], rng: random.Random) -> Draw:
    """The players going on, in order: a bye when they are odd, the rest paired in turn."""
    draw = Draw([])
    rest = list(order)
    if len(rest) % 2:
        bye, note = choose_bye(rest, rng, double=False)
        draw.bye, rest = bye.name, [c for c in rest if c is not bye]
        draw.notes.append(note)
    draw.matches = [(rest[i].name, rest[i + 1].name) for i in range(0, len(rest), 2)]
    return draw


def double_round(unbeaten: list[Contender], once_beaten: list[Contender],
                 rng: random.Random) -> Draw:
    """One round of double elimination (see the module's docstring). `once_beaten` lists those
    who won in the losers' bracket (or had a bye) first, then those just dropped into it."""
    if len(unbeaten) + len(once_beaten) == 2:
        pair = [*unbeaten, *once_beaten]
        kind = "winners" if len(unbeaten) == 2 else "final"
        return Draw([(pair[0].name, pair[1].name)], brackets=[kind])
    draw = Draw([])
    winners, losers = list(unbeaten), list(once_beaten)
    if len(winners) == 1 and losers:
        draw.waiting = winners.pop().name
    # An odd unbeaten player meets a once-beaten one when there is one; a bye evens out what
    # is left: among the once-beaten (where those who just lost are), else the unbeaten.
    cross = len(winners) % 2 == 1 and bool(losers)
    pool = None
    if (len(losers) - cross) % 2:
        pool = losers
    elif not losers and len(winners) % 2:
        pool = winners  # round 1, or nobody beaten yet
    if pool:
        bye, note = choose_bye(pool, rng, double=True)
        draw.bye = bye.name
        draw.notes.append(note)
        winners = [c for c in winners if c is not bye]
        losers = [c for c in losers if c is not bye]
    for i in range(0, len(winners) - cross, 2):
        draw.matches.append((winners[i].name, winners[i + 1].name))
        draw.brackets.append("winners")
    if cross:
        high, low = winners[-1], losers.pop(0)
        draw.matches.append((high.name, low.name))
        draw.brackets.append("losers")
        draw.notes.append(f"{high.name} (unbeaten) meets {low.name} (one loss): the unbeaten are "
                          "odd in number, so this is a losers' bracket match")
    for i in range(len(losers) // 2):
        draw.matches.append((losers[i].name, losers[-1 - i].name))
        draw.brackets.append("losers")
    return draw


def _elimination_round(context: Context) -> Formed:
    event, options = context.event, context.event.options
    double = options.elimination == "double"
    if context.number > 1 and context.added:
        raise refuse(context.where, None, f"--add '{context.added[0]}': nobody joins an "
                                          "Armageddon event after round 1 (it is an elimination)")
    if context.number == 1:
        order = sorted(context.players, key=lambda n: (n.casefold(), n))
        context.rng.shuffle(order)
        everyone = [Contender(name) for name in order]
        draw = double_round(everyone, [], context.rng) if double else \
            single_round(everyone, context.rng)
        first = len(order)
    else:
        played = [matches_of(r) for r in event.rounds]
        state = play(played, options.elimination)[-1]
        if state.champion is not None:
            raise refuse(event.rounds[-1].path, None, f"the event is over: {state.champion} is the "
                                                      "champion, nobody is left to meet")
        if double:
            _refuse_a_drop_in_double_elimination(context, set(state.alive()))
        draw = _next_round(state, played[-1], context)
        first = first_round_players(event)
    tables = [Table(k, pair) for k, pair in enumerate(draw.matches, start=1)]
    if draw.bye:
        tables.append(Table(None, (draw.bye,), bye=True))
    notes = _bracket_notes(draw) + draw.notes
    notes += [f"{name} dropped: out of the event"
              for name in sorted(context.dropped - context.recorded)]  # pair notes the others
    return Formed(tables, armageddon_label(options.elimination, first, context.number - 1), notes)


def _refuse_a_drop_in_double_elimination(context: Context, alive: set[str]) -> None:
    """A player still in who leaves cannot be shown in double elimination's results. One whom
    drops.csv lists as gone once out (two match losses) changes nothing."""
    leaving = sorted((context.dropped - context.recorded) | (context.recorded & alive))
    if not leaving:
        return
    name = leaving[0]
    said = f"drops.csv lists {name} as gone" if name in context.recorded else f"--drop '{name}'"
    raise refuse(context.where, None,
                 f"{said}: in double elimination the results cannot show that a player left "
                 "(the unbeaten player sits rounds out too); pair the round and record each "
                 "match they do not play as lost 0–2 until they are out (games 1 and 2: loss "
                 "for them, win for their opponent, tau 0 on both rows)")


def _next_round(state: State, previous: list[MatchResult], context: Context) -> Draw:
    """The players still in, in the order of the matches they come from, drawn as the format
    says."""
    alive = set(state.alive()) - context.dropped
    went_on, dropped_in = [], []
    for match in previous:  # in table order, byes last
        if match.winner in alive:
            went_on.append(match.winner)
        if match.loser in alive:
            dropped_in.append(match.loser)
    seen = set(went_on) | set(dropped_in)
    went_on += sorted(alive - seen, key=lambda n: (n.casefold(), n))  # who waited
    number = previous[0].round if previous else 0
    people = {name: _contender(state, name, number) for name in alive}
    if state.limit == 1:
        return single_round([people[n] for n in went_on], context.rng)
    unbeaten = [people[n] for n in went_on if people[n].losses == 0]
    once = [people[n] for n in went_on if people[n].losses == 1] + [people[n] for n in dropped_in]
    return double_round(unbeaten, once, context.rng)


def _contender(state: State, name: str, previous_round: int) -> Contender:
    s = state.players[name]
    return Contender(name, s.match_losses, s.lost_for_byes, s.tau_at_last_loss, s.byes > 0,
                     s.lost_match_in == previous_round)


def _bracket_notes(draw: Draw) -> list[str]:
    names = {"winners": "winners' bracket", "losers": "losers' bracket", "final": "the final"}
    notes = []
    for kind in ("winners", "losers", "final"):
        tables = [str(k) for k, b in enumerate(draw.brackets, start=1) if b == kind]
        if tables:
            plural = "s" if len(tables) > 1 else ""
            notes.append(f"{names[kind]}: table{plural} {', '.join(tables)}")
    if draw.waiting:
        notes.append(f"{draw.waiting} (unbeaten) waits for the final while the losers' bracket "
                     "plays down")
    return notes


# ---------------------------------------------------------------- the game's former


def form(context: Context) -> Formed:
    if context.event.options.multiplayer:
        return _tables_round(context)
    return _elimination_round(context)
