"""Forming INWO rounds (seed 003, "Official Tournament Rules").

Multi-player: "Five players per table ... Winners, shared victories and ties all advance, so some
tables may have six players in later rounds. In Round Three, the top three finishers at each table
(there will only be two tables at this point) advance to the Final Round."

* Every round seats its players at random (the seed's player "happens to get placed" at a
  table; the draw is seeded), five at a table and six where the count needs it: as few tables of
  six as the count allows. Counts that make no such tables (fewer than five, 7–9, 13, 14 and 19)
  are refused with the organizer's options.
* Round 1 seats the registrations; a later round seats only those who advanced from the round
  before (tables.advancing: winners, shared victories, ties and the referee's `advanced`).
  Players who advanced from the same table are seated apart where the tables allow, so a shared
  victory is not an alliance carried into the next game (the seed's concern with friends
  colluding); the seating is random otherwise.
* A round of two tables sends its top three of each to the final table (whatever their count:
  ties for third go too). A round of one table is the final: `pair` refuses once it has a winner.

Head-to-head: single elimination by issue 19's procedure (pair/elimination.py): round 1 with
random byes up to a power of two and random game numbers, later rounds Game i against the i-th
from the end.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from ...core.model import Round
from ..elimination import bracket_size, round_label
from . import headtohead, tables
from .. import bracketpairing as elimination
from ..forming import Context, Formed, Table, refuse

FIVE, SIX = 5, 6
SEED_RULE = "the seed seats five at a table, six where the count needs it"


# ---------------------------------------------------------------- table sizes


def table_sizes(players: int) -> list[int] | None:
    """Tables of five, with as few of six as make the count: 16 → [5, 5, 6]. None when no mix
    of fives and sixes seats exactly that many (fewer than 5, 7–9, 13, 14, 19)."""
    sixes = players % FIVE  # each six instead of a five seats one more
    fives = (players - SIX * sixes) // FIVE
    if players < FIVE or fives < 0:
        return None
    return [FIVE] * fives + [SIX] * sixes


def nearest_fits(players: int) -> tuple[int | None, int]:
    """The closest counts below and above `players` that make tables of five or six (below is
    None under five)."""
    below = next((n for n in range(players - 1, FIVE - 1, -1) if table_sizes(n)), None)
    above = next(n for n in range(players + 1, players + FIVE + 2) if table_sizes(n))
    return below, above


def what_count_makes(players: int) -> str:
    """"6 make one table, the final", "10 make two tables, …", "16 make 3 tables: 2 of five,
    1 of six"."""
    sizes = table_sizes(players)
    if len(sizes) == 1:
        return f"{players} make one table, the final"
    if len(sizes) == 2:
        return f"{players} make two tables, the top three of each going to the final table"
    fives, sixes = sizes.count(FIVE), sizes.count(SIX)
    if not (fives and sixes):
        return f"{players} make {len(sizes)} tables of {'five' if fives else 'six'}"
    return f"{players} make {len(sizes)} tables: {fives} of five, {sixes} of six"


# ---------------------------------------------------------------- seating


def seat(players: list[str], sizes: list[int], came_from: dict[str, object],
         rng: random.Random) -> list[tuple[str, ...]]:
    """Players at random into tables of `sizes`, those who came from the same table (the same
    `came_from` value) at different tables where there are tables enough."""
    order = list(players)
    rng.shuffle(order)
    group_of = {name: came_from.get(name, name) for name in order}
    together = Counter(group_of.values())
    first_seen: dict[object, int] = {}
    for index, name in enumerate(order):
        first_seen.setdefault(group_of[name], index)
    # The largest groups first, each group's players one after another, so each can still find
    # a table without one of its own; the rest (almost everyone) then fill the seats in the
    # shuffled order.
    order.sort(key=lambda name: (-together[group_of[name]], first_seen[group_of[name]]))
    seated: list[list[str]] = [[] for _ in sizes]
    for name in order:
        group = group_of[name]
        open_tables = [i for i, size in enumerate(sizes) if len(seated[i]) < size]
        clash = {i: sum(group_of[other] == group for other in seated[i])
                 for i in open_tables}
        fewest = min(clash.values())
        seated[rng.choice([i for i in open_tables if clash[i] == fewest])].append(name)
    return [tuple(table) for table in seated]


# ---------------------------------------------------------------- forming


def form(context: Context) -> Formed:
    if context.number > 1 and context.added:
        raise refuse(context.where, None, f"--add '{context.added[0]}': INWO rounds after the "
                                          "first are played by those who went on from the round "
                                          "before; nobody joins later")
    if context.event.options.multiplayer:
        return _multiplayer(context)
    return _head_to_head(context)


def _multiplayer(context: Context) -> Formed:
    if context.number == 1:
        players, came_from, notes = list(context.players), {}, []
        sizes = table_sizes(len(players))
        if sizes is None:
            raise refuse(context.where, None, _registrations_do_not_fit(len(players)))
    else:
        players, came_from, notes, sizes = _going_on(context)
    seated = seat(players, sizes, came_from, context.rng)
    notes += _seating_notes(seated, sizes, came_from)
    if len(sizes) == 2:
        notes.append("two tables: the top three of each go on to the final table")
    elif len(sizes) == 1:
        notes.append("the final: the winner takes the event, Percentage of Goal places 2nd and 3rd")
    label = "Final table" if len(sizes) == 1 else f"Round {context.number}"
    return Formed([Table(k, players_at) for k, players_at in enumerate(seated, start=1)], label,
                  notes)


def _going_on(context: Context) -> tuple[list[str], dict[str, object], list[str], list[int]]:
    """Who advanced from the latest round (without --drop), the table each came from, notes,
    and the tables' sizes: one table for all after a round of two tables (the final)."""
    latest = context.event.rounds[-1]
    results = tables.round_results(latest, context.event.options.goal_groups)
    if len(results) == 1:
        final = results[0]
        raise refuse(latest.path, final.placed[0].seat.line, _final_is_over(latest, final))
    going_on = tables.advancing(results)
    players = [name for name in going_on if name not in context.dropped]
    came_from = {name: going_on[name].number for name in players}
    notes = [f"{name} dropped: not seated" for name in going_on if name in context.dropped]
    if len(results) == 2:
        if len(players) < 2:
            raise refuse(latest.path, None, f"only {len(players)} player"
                                            f"{'s' if len(players) != 1 else ''} left for the "
                                            "final table: a game needs two")
        return players, came_from, notes, [len(players)]
    sizes = table_sizes(len(players))
    if sizes is None:
        raise refuse(latest.path, None, _advancing_do_not_fit(latest, len(players)))
    return players, came_from, notes, sizes


def _seating_notes(seated: list[tuple[str, ...]], sizes: list[int],
                   came_from: dict[str, object]) -> list[str]:
    notes = []
    sixes = [k for k, size in enumerate(sizes, start=1) if size == SIX]
    if sixes and len(sizes) > 1:
        where = ", ".join(map(str, sixes))
        notes.append(f"six at table{'s' if len(sixes) > 1 else ''} {where}, five at the others")
    if len(sizes) > 1:
        for k, players_at in enumerate(seated, start=1):
            met = Counter(came_from[name] for name in players_at if name in came_from)
            again = [name for name in players_at if met[came_from.get(name)] > 1]
            if again:
                notes.append(f"table {k}: {', '.join(again)} came from the same table (more of "
                             "them than tables)")
    return notes


def _registrations_do_not_fit(players: int) -> str:
    below, above = nearest_fits(players)
    options = [f"register {above - players} more (players.csv, or --add NAME: "
               f"{what_count_makes(above)})"]
    if below is not None:
        options.append(f"drop {players - below} (--drop NAME: {what_count_makes(below)})")
    return (f"{players} players do not make tables of five or six ({SEED_RULE}): "
            + ", or ".join(options) + "; or write the round 1 file by hand with the tables you "
                                      "choose")


def _advancing_do_not_fit(latest: Round, players: int) -> str:
    below, above = nearest_fits(players)
    options = [f"the referee can advance {above - players} more (advanced = yes on their rows "
               f"in {Path(latest.path).name}: {what_count_makes(above)})"]
    if below is not None:
        options.append(f"hold {players - below} back (advanced = no, or --drop a player who "
                       f"leaves: {what_count_makes(below)})")
    return (f"round {latest.number} sends {players} players on (winners, shared victories, ties "
            f"and the referee's decisions) and {players} do not make tables of five or six "
            f"({SEED_RULE}): " + ", or ".join(options)
            + f"; or write the round {latest.number + 1} file by hand with the tables you choose")


def _final_is_over(latest: Round, final: tables.TableResult) -> str:
    first = [p.player for p in final.placed if p.place == 1]
    how = "shared the victory" if final.shared else "tied for first"
    won = (f"{first[0]} won it" if len(first) == 1 else
           f"{', '.join(first[:-1])} and {first[-1]} {how}")
    return (f"round {latest.number} was the final (a single table) and {won}: the event is "
            "over, there is no next round to pair")


def _head_to_head(context: Context) -> Formed:
    number, notes = context.number, []
    if number == 1:
        planned = headtohead.planned_rounds(len(context.players))
        games = elimination.opening_round(context.players, context.rng)
    else:
        event = context.event
        latest = event.rounds[-1]
        played, _ = headtohead.matches_of(latest, event.options.goal_groups)
        if len(played) == 1:
            winner = played[0].winner
            line = next(s.line for s in latest.rows if s.player == winner)
            raise refuse(latest.path, line, f"round {latest.number} was the final and {winner} "
                                            "won it: the event is over, there is no next round "
                                            "to pair")
        planned = headtohead.planned_rounds(len(event.rounds[0].rows))
        previous = [(match.number, match.winner) for match in played]
        games = elimination.next_round(previous, context.dropped)
        notes = [f"{name} dropped: their opponent has a bye" for _, name in previous
                 if name in context.dropped]
    label = (round_label(bracket_size(planned, number - 1)) if number <= planned
             else f"Round {number}")
    return Formed([Table(g.number, g.players, bye=len(g.players) == 1) for g in games], label,
                  notes)
