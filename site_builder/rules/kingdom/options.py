"""Kingdom event settings: points per result and the planned Swiss rounds."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...files.tomlkeys import KeyReader

WIN_POINTS, DRAW_POINTS = 2, 1
MAX_HOUSES = 22
"""The Hero House deck makes at most 22 hero houses in one game (seed 004, "Objective")."""


@dataclass(frozen=True, slots=True)
class KingdomOptions:
    win_points: int = WIN_POINTS
    draw_points: int = DRAW_POINTS
    rounds: int | None = None
    """Planned Swiss rounds as written in event.toml; None: ceil(log2(players))."""

    @property
    def format(self) -> str:
        return "swiss"


def read_options(keys: KeyReader) -> KingdomOptions:
    win = keys.integer("win_points", minimum=0, default=WIN_POINTS, example="win_points = 2")
    draw = keys.integer("draw_points", minimum=0, default=DRAW_POINTS, example="draw_points = 1")
    win = WIN_POINTS if win is None else win
    draw = DRAW_POINTS if draw is None else draw
    if draw > win:
        written = "draw_points" if keys.has("draw_points") else "win_points"
        keys.log.error(keys.doc.shown, keys.doc.line_of(written),
                       f"draw_points = {draw} is more than win_points = {win}: a cosmic struggle "
                       f"(a draw) can't be worth more than a win; expected {win} or less")
    rounds = keys.integer("rounds", minimum=1, example="rounds = 4")
    return KingdomOptions(win, draw, rounds)


def default_rounds(players: int) -> int:
    """Enough Swiss rounds for one unbeaten player: ceil(log2(players)), at least 1."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1
