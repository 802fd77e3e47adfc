"""Forming the rounds of the two-player games (Conquest, Kingdom): Swiss rounds, then single
elimination from a cut, or single elimination from round 1 (seed 001; see swiss.py and
elimination.py for the procedures)."""

from __future__ import annotations

import sys

from .views import ScoredEvent
from .elimination import round_label
from . import bracketpairing as elimination
from . import swisspairing as swiss
from .forming import Context, Formed, Table, refuse


def form(context: Context, swiss_rounds: int, cut: int) -> Formed:
    """The next round of an event of `swiss_rounds` Swiss rounds and then single elimination
    of the top `cut` (0: none; with no Swiss round, the bracket's size): the stages, which
    the calling game's ruleset works out from its options."""
    total = swiss_rounds + (cut.bit_length() - 1 if cut else 0)
    number = context.number
    if number > total:
        stages = f"{swiss_rounds} Swiss round{'s' if swiss_rounds != 1 else ''}" + (
            f" and the top {cut} elimination rounds" if cut else "")
        raise refuse(context.toml, 1, f"the event is over: all {total} planned rounds ({stages}) "
                                      "are in" + (", and the final is decided" if cut else ""))
    if number > swiss_rounds and context.added:
        raise refuse(context.where, None, f"--add '{context.added[0]}': players join during the "
                                          "Swiss rounds; nobody joins an elimination round")
    if number <= swiss_rounds:
        return _swiss_round(context)
    tables, notes = _elimination_round(context, swiss_rounds, cut)
    return Formed(tables, round_label(2 * 2 ** (total - number)), notes, place="Game")


def _swiss_round(context: Context) -> Formed:
    scored = context.scored
    if context.number == 1 or scored.standings is None:
        pairing = swiss.first_round(context.players, context.rng)
    else:
        pairing = swiss.later_round(_entrants(scored, context.players), context.rng, sys.stderr)
    tables = [Table(k, pair) for k, pair in enumerate(pairing.tables, start=1)]
    if pairing.bye:
        tables.append(Table(None, (pairing.bye,), bye=True))
    points = _points(scored)
    notes = [f"pair-down: {a} ({points.get(a, 0)}) – {b} ({points.get(b, 0)})"
             for a, b in pairing.pair_downs]
    notes += [f"rematch: {a} – {b} played before" for a, b in pairing.rematches]
    return Formed(tables, f"Round {context.number}", pairing.notes + notes)


def _points(scored: ScoredEvent) -> dict[str, int]:
    rows = scored.standings.rows if scored.standings else ()
    return {row.player.name: row.values.get("points", 0) for row in rows}


def _entrants(scored: ScoredEvent, names: list[str]) -> list[swiss.Entrant]:
    """The players to pair in standings order, with their points, byes and past opponents; one
    who joins now (--add) comes last, with no points."""
    met: dict[str, set[str]] = {}
    for view in scored.rounds:
        if view.pairings is None or view.pairings.place != "Table":
            continue
        for table in view.pairings.tables:
            a, b = (seat.player.name for seat in table.seats)
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    playing = set(names)
    entrants = [swiss.Entrant(row.player.name, row.values.get("points", 0),
                              row.values.get("byes", 0) > 0, frozenset(met.get(row.player.name, ())))
                for row in scored.standings.rows if row.player.name in playing]
    known = {e.name for e in entrants}
    entrants += [swiss.Entrant(name, 0, False, frozenset(met.get(name, ())))
                 for name in names if name not in known]
    # By points (the standings already are; a player rejoining with points takes their place).
    return sorted(entrants, key=lambda e: -e.points)


def _elimination_round(context: Context, swiss_rounds: int, cut: int) -> tuple[list[Table], list[str]]:
    scored, number, notes = context.scored, context.number, []
    if swiss_rounds == 0 and number == 1:
        games = elimination.opening_round(context.players, context.rng)
    elif number == swiss_rounds + 1:
        swiss_view = next(v for v in scored.rounds if v.number == swiss_rounds).standings
        playing = set(context.players)
        ranked = [row.player.name for row in swiss_view.rows]
        seeds = [name for name in ranked if name in playing][:cut]
        passed = [name for name in ranked[:ranked.index(seeds[-1])] if name not in playing]
        if passed:
            notes.append(f"not in the cut (dropped): {', '.join(passed)}; the next in the "
                         "standings take their places")
        games = elimination.cut_round(seeds, cut)
    else:
        played = next(r for r in scored.bracket.rounds if r.round_number == number - 1)
        previous = [(game.number, next(s.player.name for s in game.slots if s.won))
                    for game in played.games]
        games = elimination.next_round(previous, context.dropped)
        notes += [f"{name} dropped: their opponent has a bye" for _, name in previous
                  if name in context.dropped]
    return [Table(g.number, g.players, bye=len(g.players) == 1) for g in games], notes
