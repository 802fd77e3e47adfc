"""SPELLFIRE event settings and the seed's shorthand event name (seed 002, "shorthand form")."""

from __future__ import annotations

from dataclasses import dataclass

from ...files.tomlkeys import KeyReader
from ..base import PairFlag

VICTORY = ("standard", "enhanced", "barbaric")
DECK_SIZES = (55, 75, 110)
ALLOW_FIVE = PairFlag("--allow-five", "seat winners in a bracket of five where no brackets of "
                                      "three and four can")
"""The organizer's choice, when five bracket winners cannot be seated in threes and fours, of
one bracket of five rather than another chance for someone out (pairing.py)."""


@dataclass(frozen=True, slots=True)
class SpellfireOptions:
    tournament: str
    victory: str
    deck_size: int
    variants: tuple[str, ...]
    coordinator: str | None

    @property
    def format(self) -> str:
        return self.tournament

    @property
    def officials(self) -> tuple[str, ...]:
        """Names besides the judges who ran the event (the loader gives them person ids)."""
        return (self.coordinator,) if self.coordinator else ()

    def shorthand(self) -> str:
        """`SPELLFIRE: <Tournament> (<Variants>)—<Victory> [<deck size>]`, e.g.
        `SPELLFIRE: King's Decree (Questing)—Enhanced [75]`."""
        variants = f" ({', '.join(self.variants)})" if self.variants else ""
        return f"SPELLFIRE: {self.tournament}{variants}—{self.victory.title()} [{self.deck_size}]"


def read_options(keys: KeyReader) -> SpellfireOptions:
    tournament = keys.text("tournament", default="Championship",
                           example='tournament = "King\'s Decree"') or "Championship"
    victory = keys.choice("victory", VICTORY, default="standard") or "standard"
    deck_size = keys.integer("deck_size", default=55, example="deck_size = 75")
    if deck_size not in DECK_SIZES:
        keys.log.error(keys.doc.shown, keys.doc.line_of("deck_size"),
                       f"deck_size = {deck_size} is not a SPELLFIRE deck size: expected 55, 75 or 110")
        deck_size = 55
    variants = keys.text_list("variants", example='["Questing"]')
    coordinator = keys.text("coordinator", example='coordinator = "Ann Lee"')
    return SpellfireOptions(tournament, victory, deck_size or 55, variants, coordinator)
