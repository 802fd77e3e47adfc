"""The games: one package per game (rules/<game>/), its ruleset registered here, in RULESETS, by
the `game` key of event.toml. The one registry: everything else asks a game's ruleset
(base.Ruleset), never a list of games of its own."""

from __future__ import annotations

from .base import Ruleset
from .conquest import Conquest
from .heresy import Heresy
from .inwo import Inwo
from .kingdom import Kingdom
from .spellfire import Spellfire

RULESETS: dict[str, Ruleset] = {ruleset.game: ruleset
                                for ruleset in (Conquest(), Heresy(), Inwo(), Kingdom(),
                                                Spellfire())}

# Games the data contract names whose rules are not implemented yet.
PLANNED_GAMES: tuple[str, ...] = ()


def pair_flags() -> dict[str, str]:
    """Every game flag of `site-builder pair` (Ruleset.pair_flags), in the registry's order,
    with its help led by the title of each game that reads it ("SPELLFIRE: seat winners…")."""
    helps: dict[str, list[str]] = {}
    for ruleset in RULESETS.values():
        for flag in ruleset.pair_flags:
            helps.setdefault(flag.flag, []).append(f"{ruleset.title}: {flag.help}")
    return {flag: "; ".join(texts) for flag, texts in helps.items()}


__all__ = ["RULESETS", "PLANNED_GAMES", "Ruleset", "pair_flags"]
