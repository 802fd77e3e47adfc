"""Game rulesets, one module per game, registered by the `game` key of event.toml."""

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

__all__ = ["RULESETS", "PLANNED_GAMES", "Ruleset"]
