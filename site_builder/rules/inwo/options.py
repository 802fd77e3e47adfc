"""INWO event settings (seed 003): the format and the victory condition in groups."""

from __future__ import annotations

from dataclasses import dataclass

from ...files.tomlkeys import KeyReader

MULTIPLAYER, HEAD_TO_HEAD = "multiplayer", "head-to-head"
FORMATS = (MULTIPLAYER, HEAD_TO_HEAD)
GOAL_GROUPS = {MULTIPLAYER: 11, HEAD_TO_HEAD: 12}
"""GenCon plays to the standard 11 groups; the two-player rules say "no less than 12"."""


@dataclass(frozen=True, slots=True)
class InwoOptions:
    format: str
    goal_groups: int

    @property
    def multiplayer(self) -> bool:
        return self.format == MULTIPLAYER


def read_options(keys: KeyReader) -> InwoOptions:
    fmt = keys.choice("format", FORMATS, required=True) or MULTIPLAYER
    goal = keys.integer("goal_groups", minimum=1, example="goal_groups = 11")
    if goal is not None and fmt == HEAD_TO_HEAD and goal < GOAL_GROUPS[HEAD_TO_HEAD]:
        keys.log.warning(keys.doc.shown, keys.doc.line_of("goal_groups"),
                         f"goal_groups = {goal}: the seed's two-player rules play to no less than "
                         f"{GOAL_GROUPS[HEAD_TO_HEAD]} groups")
    return InwoOptions(fmt, goal or GOAL_GROUPS[fmt])
