"""One player of an event with deck data, as the deck tables count them: what decks.py makes
of each scored event, the state keeps (facts.py), and metagame.py counts."""

from __future__ import annotations

from dataclasses import dataclass


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class DeckEntry:
    """One player of an event with deck data, as the metagame tables count them."""

    person: str
    name: str
    deck: str | None
    """None when their registration does not say."""
    rank: int | None
    reached: bool | None
    """Whether they reached the event's cut or final; None when the event has neither."""
    wins: int
    losses: int
    draws: int
    """Their matches against other decks: mirrors (every opponent on their deck) and games
    against nobody (byes, unpaired losses) are left out."""


def deck_key(deck: str) -> str:
    """Two spellings of one deck ("Dark Eldar", "dark  eldar") count as one."""
    return " ".join(deck.split()).casefold()
