"""Forming SPELLFIRE rounds (seed 002, the tournament structure before "Scoring", and its
advancement grid).

* Round 1: the registered players at random in brackets of three, with brackets of four only
  where the count needs them ("it will be necessary at times to have four-player games to
  balance things out"): as few fours as possible, numbered last.
* Later rounds: the bracket winners only, in the order of their brackets, as an advancement grid
  reads (the winners of brackets 1–3 make the next bracket 1, and so on), in threes with fours
  where needed. A single bracket is the final.
* A round that leaves two winners gives the eliminated player with the most points so far
  "another chance" (ties drawn with the round's seeded generator); the player sits last. The
  scoring recognises them the same way (rules.spellfire.scoring.another_chance).
* Five winners cannot be seated in threes and fours: the organizer chooses another chance for
  an eliminated player (`--add NAME`, two brackets of three) or one bracket of five
  (`--allow-five`).
* Once the final (a single bracket) has a winner there is nothing more to pair.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..views import ScoredEvent
from .rows import FIVE, bracket_winner, brackets_of
from .scoring import ANOTHER_CHANCE_AT, SCORED_MINIMUM
from ..forming import Context, Formed, Table, refuse
from .options import ALLOW_FIVE


def bracket_sizes(players: int) -> list[int] | None:
    """Brackets of three, and of four as few as the count allows (the fours last); None when
    the count cannot be seated so (1, 2 and 5)."""
    fours = players % 3  # a four in place of a three seats one player more: one per player over
    if players < 3 or 4 * fours > players:
        return None
    return [3] * ((players - 4 * fours) // 3) + [4] * fours


def seat(players: list[str], sizes: list[int]) -> list[tuple[str, ...]]:
    """The players in order, cut into brackets of the given sizes."""
    brackets, start = [], 0
    for size in sizes:
        brackets.append(tuple(players[start:start + size]))
        start += size
    return brackets


def first_round(names: list[str], rng: random.Random) -> list[tuple[str, ...]] | None:
    """Round 1: random brackets; None when the count cannot be seated."""
    sizes = bracket_sizes(len(names))
    if sizes is None:
        return None
    shuffled = list(names)
    rng.shuffle(shuffled)
    return seat(shuffled, sizes)


@dataclass(frozen=True, slots=True)
class Chance:
    player: str
    points: int
    tied: tuple[str, ...]
    """Everyone eliminated on those points: the draw's pool (one name when there was no draw)."""


def another_chance(points: dict[str, int], rng: random.Random) -> Chance | None:
    """The eliminated player with the most points so far (the seed's "highest ranking thus far
    in the tournament"), a tie drawn at random; None when nobody is left to ask."""
    if not points:
        return None
    best = max(points.values())
    tied = tuple(sorted(name for name, p in points.items() if p == best))
    return Chance(rng.choice(tied) if len(tied) > 1 else tied[0], best, tied)


# ---------------------------------------------------------------- the pair command


def form(context: Context) -> Formed:
    if context.number == 1:
        return _round_one(context)
    return _later_round(context)


def _five_allowed(context: Context) -> bool:
    """Whether the organizer chose one bracket of five (`pair --allow-five`)."""
    return ALLOW_FIVE.flag in context.flags


def _round_one(context: Context) -> Formed:
    names = context.players
    brackets = first_round(names, context.rng)
    if brackets is None:
        raise refuse(context.where, None,
                     _unseatable_registrations(len(names), _five_allowed(context)))
    notes = []
    if len(names) < SCORED_MINIMUM:
        notes.append(f"{len(names)} players: an unscored tournament (a scored SPELLFIRE "
                     f"tournament needs {SCORED_MINIMUM} or more)")
    return _formed(context, brackets, notes)


def _unseatable_registrations(count: int, allow_five: bool) -> str:
    if count < 3:
        return (f"only {count} players to seat in round 1: a SPELLFIRE bracket needs three "
                "(register more players, or --add NAME)")
    return (f"{count} players cannot be seated in brackets of three or four: --add a sixth player "
            "for two brackets of three, or --drop one for a single bracket of four"
            + (" (a bracket of five, --allow-five, seats five bracket winners from round 2 on)"
               if allow_five else ""))


def _later_round(context: Context) -> Formed:
    latest = context.event.rounds[-1]
    brackets = brackets_of(latest)
    winners = [bracket_winner(rows) for rows in brackets.values()]
    if len(brackets) == 1:
        raise refuse(latest.path, None, f"the event is over: round {latest.number} was the final, "
                                        f"and {winners[0]} won it")
    playing = [name for name in winners if name not in context.dropped]
    points = _points(context.scored)
    if len(playing) < len(winners):
        return _without_dropped_winners(context, playing, winners)
    if context.added and len(winners) not in ANOTHER_CHANCE_AT:
        raise refuse(context.where, None,
                     f"--add '{context.added[0]}': only bracket winners play round "
                     f"{context.number}; another chance is for a round that leaves two winners "
                     "(or five)")
    chance, notes = _chance(context, winners, points) if (
        len(winners) == 2 or context.added) else (None, [])
    if len(winners) == FIVE and chance is None:
        if not _five_allowed(context):
            raise refuse(latest.path, None, _five_winners(latest.number, winners, points, context))
        notes.append(f"a bracket of five: the five bracket winners of round {latest.number} "
                     "play one bracket (--allow-five)")
        return _formed(context, seat(winners, [FIVE]), notes)
    seated = winners + ([chance] if chance else [])
    return _formed(context, seat(seated, bracket_sizes(len(seated))), notes)


def _chance(context: Context, winners: list[str], points: dict[str, int]) -> tuple[str, list[str]]:
    """Who plays on under "another chance", and the summary's line about it: the organizer's
    --add, or else the eliminated player with the most points."""
    best = another_chance(_eliminated(context, winners, points), context.rng)
    if not context.added:
        if best is None:
            raise refuse(context.where, None, f"round {context.number - 1} leaves two bracket "
                                              "winners and no eliminated player to give another "
                                              "chance: a bracket needs three")
        tie = (f"; drawn from {_listed(list(best.tied))}, tied on {best.points}"
               if len(best.tied) > 1 else "")
        return best.player, [f"another chance: {best.player} ({best.points} points), the "
                             f"eliminated player with the most points{tie}"]
    if len(context.added) > 1:
        raise refuse(context.where, None, f"--add '{context.added[1]}': one player gets another "
                                          f"chance, and --add '{context.added[0]}' already does")
    name = context.added[0]
    if name not in points:
        raise refuse(context.where, None, f"--add '{name}': {name} has not played this event: "
                                          "after round 1 only bracket winners play, and another "
                                          "chance goes to an eliminated player")
    if _five_allowed(context) and len(winners) == FIVE:
        raise refuse(context.where, None, f"--add '{name}' and --allow-five: choose one, another "
                                          f"chance for {name} (two brackets of three) or one "
                                          "bracket of five")
    note = f"another chance: {name} ({points[name]} points), named with --add"
    if best is not None and best.points > points[name]:
        note += f"; {_listed(list(best.tied))} scored more ({best.points} points)"
    return name, [note]


def _five_winners(number: int, winners: list[str], points: dict[str, int],
                  context: Context) -> str:
    eliminated = _eliminated(context, winners, points)
    best = max(eliminated.values(), default=0)
    leaders = sorted(name for name, p in eliminated.items() if p == best)
    most = (f"; {_listed(leaders)} {'has' if len(leaders) == 1 else 'have'} the most points so "
            f"far, {best}") if leaders else ""
    return (f"round {number} leaves 5 bracket winners ({', '.join(winners)}), who cannot be "
            f"seated in brackets of three or four: pair again with --add NAME to give an "
            f"eliminated player another chance (two brackets of three{most}), or with "
            "--allow-five for one bracket of five")


def _eliminated(context: Context, winners: list[str], points: dict[str, int]) -> dict[str, int]:
    """Who may get another chance, with their points so far: everyone who played and is out,
    except a player leaving now (--drop)."""
    return {name: p for name, p in points.items()
            if name not in winners and name not in context.dropped}


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _without_dropped_winners(context: Context, playing: list[str], winners: list[str]) -> Formed:
    """A bracket winner leaves: the others play on as they can be seated. Another chance makes
    up only for a round that left two (or five) winners, not for a winner who left."""
    number = context.number - 1
    gone = [name for name in winners if name not in playing]
    who = f"bracket winner{'s' if len(gone) > 1 else ''} {_listed(gone)}"
    left = f"round {number}'s {who} dropped, leaving {len(playing)} to play round {context.number}"
    if context.added:
        raise refuse(context.where, None, f"--add '{context.added[0]}': {left}; another chance "
                                          "does not replace a winner who leaves")
    five = len(playing) == FIVE
    sizes = [FIVE] if five and _five_allowed(context) else bracket_sizes(len(playing))
    if sizes is None:
        choices = ["pair without that --drop", *(["with --allow-five for one bracket of five"]
                                                  if five else []),
                   "end the event with status = \"final\" in event.toml"]
        raise refuse(context.where, None, f"{left}, who cannot be seated in brackets of three or "
                                          f"four: {', or '.join(choices)}")
    notes = [f"dropped: {who} of round {number}"]
    if len(sizes) == 1:
        # The scoring takes a single bracket for the final only when every winner is in it.
        notes.append("once this final has a winner, set status = \"final\" in event.toml: a "
                     "final without every bracket winner is not taken for one otherwise")
    return _formed(context, seat(playing, sizes), notes)


def _formed(context: Context, brackets: list[tuple[str, ...]], notes: list[str]) -> Formed:
    label = "Final" if len(brackets) == 1 else f"Round {context.number}"
    tables = [Table(k, players) for k, players in enumerate(brackets, start=1)]
    return Formed(tables, label, notes, place="Bracket")


def _points(scored: ScoredEvent) -> dict[str, int]:
    """Everyone's points after the latest round."""
    rows = scored.standings.rows if scored.standings else ()
    return {row.player.name: row.values["points"] for row in rows}
