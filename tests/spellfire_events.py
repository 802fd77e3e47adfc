"""SPELLFIRE events as the tests write them: event.toml text, bracket rows, the nine-player
event worked out by hand (tests/games/spellfire/test_spellfire.py; the rankings use it too)."""

from __future__ import annotations

import json

HEADER = "table,game,player,realms,result"


def event(**keys) -> str:
    lines = ['name = "Winter Open"', "date = 2026-01-10", 'game = "spellfire"']
    for key, value in keys.items():
        if isinstance(value, (list, tuple)):
            lines.append(f"{key} = [{', '.join(json.dumps(v) for v in value)}]")
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def bracket(table: int, players: list[str], game_winners: list[str], loser_realms: int = 3) -> str:
    """Rows of a bracket: in game g the listed winner has 6 realms; every other player has
    `loser_realms` minus their seat index (so seat order decides placing ties)."""
    rows = []
    for game, winner in enumerate(game_winners, start=1):
        for seat, player in enumerate(players):
            realms = 6 if player == winner else max(loser_realms - seat, 0)
            rows.append(f"{table},{game},{player},{realms},{'win' if player == winner else ''}")
    return "\n".join(rows) + "\n"


NINE = {
    1: bracket(1, ["A", "B", "C"], ["A", "B", "A"]) + bracket(2, ["D", "E", "F"], ["E", "E"])
       + bracket(3, ["G", "H", "I"], ["H", "G", "H"]),
    2: bracket(1, ["A", "E", "H"], ["A", "E", "H", "A"]),
}
