"""What each player played, from the event's players.csv (`deck`, or `faction`), carried into
the event's pages: a Deck column in every standings table and its JSON twin, the deck on each
player's history, and the event's metagame section. Also, for every event, each player's rank
after each round (the line of the chart on their history).

Runs on a scored event, after its ruleset: the rulesets know nothing of decks. The Decks
section is counted from what `dress` returns by metagame.py, which the build imports only for
an event that names decks (pandas).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from .deckentry import DeckEntry, deck_key
from ..core.model import Registration
from ..rules.base import Ruleset
from ..rules.views import Column, ScoredEvent, Standings

DECK_COLUMN = Column("deck", "Deck", kind="deck", numeric=False)
OUTCOMES = ("win", "loss", "draw")


class EventDecks(NamedTuple):
    """What the Decks section of an event counts (metagame.decks_section)."""

    entries: tuple[DeckEntry, ...]
    stage: str | None
    """"cut" or "final": what the entries' `reached` counts; None when the event has neither."""


def dress(scored: ScoredEvent, ruleset: Ruleset) -> EventDecks | None:
    """Add the event's decks and rank lines to the scored event (in place). Its deck entries,
    and the stage they count players reaching; None when its registrations name no decks."""
    decks = {r.name: r for r in scored.registrations if r.deck}
    ranks = rank_lines(scored)
    if decks:
        scored.standings = with_decks(scored.standings, decks)
        scored.rounds = tuple(replace(r, standings=with_decks(r.standings, decks))
                              for r in scored.rounds)
    players = {}
    for name, result in scored.players.items():
        registration = decks.get(name)
        players[name] = replace(result, ranks=ranks.get(name, ()),
                                deck=registration.deck if registration else None,
                                deck_url=registration.deck_url if registration else None)
    scored.players = players
    if not decks:
        return None
    stage, reached = event_stage(scored, ruleset)
    scored.decks = deck_entries(scored, reached if stage else None)
    return EventDecks(scored.decks, stage)


def with_decks(standings: Standings | None, decks: dict[str, Registration]
               ) -> Standings | None:
    """The table with a Deck column (first after the deciding ones) and `deck`, `deck_url` in
    every row of its JSON twin (null where the registration does not say)."""
    if standings is None:
        return None
    rows = []
    for row in standings.rows:
        registration = decks.get(row.player.name)
        rows.append(replace(row, values={
            **row.values, "deck": registration.deck if registration else None,
            "deck_url": registration.deck_url if registration else None}))
    return replace(standings, columns=(DECK_COLUMN, *standings.columns), rows=tuple(rows))


def rank_lines(scored: ScoredEvent) -> dict[str, tuple[tuple[str, int | None, int], ...]]:
    """Name → (round label, their rank after it, players ranked) for each round with
    standings."""
    lines: dict[str, list] = {}
    tables = [(r.label, r.standings) for r in scored.rounds
              if r.standings is not None and not r.in_progress]
    for index, (label, standings) in enumerate(tables):
        field = len(standings.rows)
        for row in standings.rows:
            line = lines.setdefault(row.player.name, [(t[0], None, 0) for t in tables[:index]])
            line.append((label, row.rank, field))
        for name, line in lines.items():
            if len(line) == index:
                line.append((label, None, field))
    return {name: tuple(line) for name, line in lines.items()}


def event_stage(scored: ScoredEvent, ruleset: Ruleset) -> tuple[str | None, frozenset[str]]:
    """("cut" or "final", who reached it): the stage the metagame counts players reaching.
    The cut is the first round after rounds everyone plays (Conquest's top cut); the final,
    the last round of an event of elimination rounds only, once it is over. (None, {}) when
    the event has neither (all Swiss, or not over)."""
    event = scored.event
    everyone = [ruleset.everyone_plays(event, r.number) for r in event.rounds]
    if any(everyone) and not all(everyone):
        first_cut = event.rounds[everyone.index(False, everyone.index(True))]
        return "cut", frozenset(row.player for row in first_cut.rows)
    if not any(everyone) and len(event.rounds) > 1 and scored.complete:
        return "final", frozenset(row.player for row in event.rounds[-1].rows)
    return None, frozenset()


def deck_entries(scored: ScoredEvent, reached: frozenset[str] | None
                 ) -> tuple[DeckEntry, ...]:
    """Every ranked player of an event with deck data (with or without a deck of their own),
    in standings order: what its metagame table, and the game's across events, count.
    `reached`: who reached the cut or final, None when the event has neither. Before the first
    results, every registered player, unranked: the field as registered."""
    decks = {r.name: deck_key(r.deck) for r in scored.registrations if r.deck}
    spelled = {r.name: " ".join(r.deck.split()) for r in scored.registrations if r.deck}
    if scored.standings is None:
        players = scored.event.players
        return tuple(DeckEntry(players[r.name].id, r.name, spelled.get(r.name), None, None,
                               0, 0, 0)
                     for r in scored.registrations if r.name in players)
    entries = []
    for row in scored.standings.rows:
        name = row.player.name
        deck = decks.get(name)
        counts = dict.fromkeys(OUTCOMES, 0)
        result = scored.players.get(name)
        for game in result.games if result else ():
            opponents = [decks.get(o.name) for o in game.opponents]
            mirror = deck is not None and bool(opponents) and all(d == deck for d in opponents)
            if game.outcome in counts and game.opponents and not mirror:
                counts[game.outcome] += 1
        entries.append(DeckEntry(row.player.id, name, spelled.get(name), row.rank,
                                 None if reached is None else name in reached,
                                 counts["win"], counts["loss"], counts["draw"]))
    return tuple(entries)
