"""Conquest event structure: Swiss rounds and cut size (regulations, "Tournament Structures")."""

from __future__ import annotations

from dataclasses import dataclass

from ...files.tomlkeys import KeyReader

STRUCTURES = ("basic", "advanced", "custom")
TIERS = ("relaxed", "formal", "premier")
CUTS = (0, 4, 8, 16, 32)

# (fewest registered players, most or None for "and above", Swiss rounds, cut) — the seed's tables.
BASIC = (
    (4, 8, 3, 0), (9, 16, 4, 0), (17, 24, 4, 4), (25, 40, 5, 4),
    (41, 44, 5, 8), (45, 76, 6, 8), (77, 148, 6, 16), (149, None, 7, 16),
)
ADVANCED = (
    (9, 12, 4, 4), (13, 24, 4, 8), (25, 40, 5, 8), (41, 76, 6, 8),
    (77, 148, 6, 16), (149, 288, 6, 32), (289, 512, 7, 32), (513, None, 8, 32),
)
TABLES = {"basic": BASIC, "advanced": ADVANCED}


@dataclass(frozen=True, slots=True)
class ConquestOptions:
    structure: str
    swiss_rounds: int | None
    cut: int | None
    tier: str | None

    @property
    def format(self) -> str:
        return self.structure


@dataclass(frozen=True, slots=True)
class Plan:
    """The rounds an event runs: Swiss rounds, then single elimination down from the cut."""

    structure: str
    players: int
    swiss_rounds: int
    cut: int
    below_table: bool = False
    """The player count is under the structure's first row; its first row was used."""

    @property
    def elimination_rounds(self) -> int:
        return self.cut.bit_length() - 1 if self.cut else 0

    @property
    def total_rounds(self) -> int:
        return self.swiss_rounds + self.elimination_rounds

    @property
    def knockout(self) -> bool:
        """Single elimination from round 1: no Swiss rounds, `cut` is the bracket's size."""
        return self.swiss_rounds == 0

    def describe(self) -> str:
        if self.knockout:
            return f"Custom: single elimination, a bracket of {self.cut}"
        cut = f"top {self.cut} cut" if self.cut else "no cut"
        rounds = f"{self.swiss_rounds} Swiss round{'s' if self.swiss_rounds != 1 else ''}, {cut}"
        if self.structure == "custom":
            return f"Custom: {rounds}"
        return f"{self.structure.title()} — {self.players} registered players: {rounds}"


def structure_for(structure: str, players: int) -> tuple[int, int, bool]:
    """(Swiss rounds, cut, below the table) for a Basic or Advanced event of `players` players."""
    table = TABLES[structure]
    for fewest, most, rounds, cut in table:
        if players >= fewest and (most is None or players <= most):
            return rounds, cut, False
    return table[0][2], table[0][3], True


def make_plan(options: ConquestOptions, players: int) -> Plan:
    if options.structure == "custom" and options.swiss_rounds == 0:
        # The seed: "byes ... to a number of players equal to the difference between the actual
        # player count and the next-highest exponential power of 2".
        return Plan("custom", players, 0, options.cut or bracket_for(players))
    if options.structure == "custom":
        return Plan("custom", players, options.swiss_rounds or 0, options.cut or 0)
    rounds, cut, below = structure_for(options.structure, players)
    return Plan(options.structure, players, rounds, cut, below)


def bracket_for(players: int) -> int:
    """The smallest power of two that seats everyone (at least 2)."""
    return max(2, 1 << (players - 1).bit_length()) if players > 1 else 2


def read_options(keys: KeyReader) -> ConquestOptions:
    structure = keys.choice("structure", STRUCTURES, default="basic") or "basic"
    tier = keys.choice("tier", TIERS)
    swiss_rounds = cut = None
    if structure == "custom":
        swiss_rounds = keys.integer("swiss_rounds", required=True, minimum=0, example="swiss_rounds = 5")
        # Single elimination from round 1 (swiss_rounds = 0): `cut`, if given, is the bracket's
        # size; by default the bracket seats the registered players.
        cut = keys.integer("cut", required=swiss_rounds != 0, minimum=0, example="cut = 8")
        sizes = CUTS if swiss_rounds != 0 else tuple(c for c in CUTS if c) + (2, 64, 128)
        if cut is not None and cut not in sizes:
            what = "a cut size" if swiss_rounds != 0 else "a bracket size"
            keys.log.error(keys.doc.shown, keys.doc.line_of("cut"),
                           f"cut = {cut} is not {what}: expected one of "
                           f"{', '.join(map(str, sorted(sizes)))}")
            cut = None
    else:
        for key in ("swiss_rounds", "cut"):
            if keys.has(key):
                keys.log.warning(keys.doc.shown, keys.doc.line_of(key),
                                 f"{key} is ignored: the {structure} structure takes it from the number "
                                 f"of players (set structure = \"custom\" to choose it)")
                keys.integer(key)
    return ConquestOptions(structure, swiss_rounds, cut, tier)
