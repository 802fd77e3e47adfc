"""Game rulesets, one module per game, registered by the `game` key of event.toml."""

from __future__ import annotations

from .base import Ruleset
from .conquest import Conquest
from .heresy import Heresy
from .spellfire import Spellfire

RULESETS: dict[str, Ruleset] = {ruleset.game: ruleset
                                for ruleset in (Conquest(), Heresy(), Spellfire())}

# Games the data contract names whose rules are not implemented yet.
PLANNED_GAMES = ("inwo", "kingdom")

__all__ = ["RULESETS", "PLANNED_GAMES", "Ruleset"]
