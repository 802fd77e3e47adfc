"""Heresy: Kingdom Come event settings (seed 000, sections 3.2.5, 3.3.1, 4.2.1, 4.2.8, 5.2.2)."""

from __future__ import annotations

from dataclasses import dataclass

from ...files.tomlkeys import KeyReader

FORMATS = ("reascension", "revelations", "armageddon")
ELIMINATION = ("single", "double")
TAU_GOAL = {"reascension": 9, "revelations": 7, "armageddon": 7}
WIN_POINTS = {9: 14, 7: 11}
"""The seed's win awards: 14 at tau goal 9 (3.3.1), 11 at goal 7 (5.2.2)."""


@dataclass(frozen=True, slots=True)
class HeresyOptions:
    format: str
    tau_goal: int
    win_points: int
    rounds: int | None
    """Rounds the judges announced (3.2.3 "or as announced"); None: the seed's minimum."""
    elimination: str
    win_points_note: str = ""
    """Set when win_points was derived from a custom tau goal rather than written."""

    @property
    def multiplayer(self) -> bool:
        return self.format != "armageddon"


def scaled_win_points(tau_goal: int) -> int:
    """3.3.1: "Should the Tau goal be changed ..., this number should also be changed." The seed
    gives 14 for 9 and 11 for 7; other goals scale by the same 14/9, rounded."""
    return WIN_POINTS.get(tau_goal, round(tau_goal * 14 / 9))


def read_options(keys: KeyReader) -> HeresyOptions:
    fmt = keys.choice("format", FORMATS, required=True) or "reascension"
    tau_goal = keys.integer("tau_goal", minimum=1, example="tau_goal = 9") or TAU_GOAL[fmt]
    elimination = "single"
    rounds = win_points = None
    note = ""
    if fmt == "armageddon":
        elimination = keys.choice("elimination", ELIMINATION, default="single") or "single"
        for key in ("win_points", "rounds"):
            if keys.has(key):
                keys.log.warning(keys.doc.shown, keys.doc.line_of(key),
                                 f"{key} is ignored: Armageddon matches are won by games, not points")
                keys.integer(key)
    else:
        win_points = keys.integer("win_points", minimum=1, example="win_points = 14")
        rounds = keys.integer("rounds", minimum=1, example="rounds = 5")
        if win_points is None:
            win_points = scaled_win_points(tau_goal)
            if tau_goal not in WIN_POINTS:
                note = (f"win_points not set: a win is worth {win_points} at tau goal {tau_goal} "
                        "(the seed's 14 at goal 9, scaled)")
                keys.log.warning(keys.doc.shown, keys.doc.line_of("tau_goal"), note)
        if keys.has("elimination"):
            keys.log.warning(keys.doc.shown, keys.doc.line_of("elimination"),
                             "elimination is ignored: only Armageddon is played as elimination")
            keys.choice("elimination", ELIMINATION)
    return HeresyOptions(fmt, tau_goal, win_points or 0, rounds, elimination, note)
