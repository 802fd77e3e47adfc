"""The games: one package per game of the seeds (rules/<game>/), registered in RULESETS by the
`game` key of event.toml, and the games a league declares in a file (rules/declared/, read by
rules/registry.py with the league's data/games/). An event's ruleset is `event.ruleset`, set as
it is loaded; everything else asks the ruleset (base.Ruleset), never a list of games of its own."""

from __future__ import annotations

from .base import Ruleset
from .registry import BUILT_IN as RULESETS
from .registry import Games, games_for

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


__all__ = ["RULESETS", "PLANNED_GAMES", "Ruleset", "Games", "games_for", "pair_flags"]
