"""The Swiss stage of a two-player event: who played what, drops, rejoins, and pairing checks.

Shared by every game with two-player Swiss rounds. Results are read "as of" a round: the
standings after round k know nothing of later files, so a player who misses round k is dropped in
them, and only a later round that brings the player back turns the missed rounds into unpaired
losses (Conquest regulations, "Pairings": rejoining players are "assigned unpaired losses for
each round they did not attend").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

MISSED = "missed"
"""Result kind of a round a rejoining (or late) player did not attend: an unpaired loss."""


@dataclass(frozen=True, slots=True)
class Game:
    """One player's result in one round."""

    round: int
    kind: str
    points: int
    table: int | None = None
    opponent: str | None = None
    line: int | None = None


@dataclass(slots=True)
class SwissRecord:
    """A player's games up to some round. Build it with `games` complete: the totals below are
    computed once, when the record is made."""

    name: str
    games: list[Game] = field(default_factory=list)
    dropped: bool = False
    first_round: int = 0
    points: int = 0
    opponents: list[str] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        points, opponents, kinds = 0, [], {}
        for game in self.games:  # one pass: this runs for every player after every round
            points += game.points
            if game.opponent is not None:
                opponents.append(game.opponent)
            kinds[game.kind] = kinds.get(game.kind, 0) + 1
        self.points, self.opponents, self.kinds = points, opponents, kinds

    @classmethod
    def made(cls, name: str, games: list[Game], dropped: bool, first_round: int, points: int,
             opponents: list[str], kinds: dict[str, int]) -> SwissRecord:
        """A record whose totals are already known (see records_extended): made without the
        pass over its games."""
        record = cls.__new__(cls)
        record.name, record.games, record.dropped, record.first_round = name, games, dropped, first_round
        record.points, record.opponents, record.kinds = points, opponents, kinds
        return record

    @property
    def rounds_played(self) -> int:
        return len(self.games)

    def count(self, kind: str) -> int:
        return self.kinds.get(kind, 0)

    @property
    def last_round(self) -> int:
        return self.games[-1].round if self.games else 0

    def missed_rounds(self) -> list[int]:
        if MISSED not in self.kinds:
            return []
        return [g.round for g in self.games if g.kind == MISSED]


def records_after(played: Mapping[int, Mapping[str, Game]], k: int) -> dict[str, SwissRecord]:
    """Every player seen in rounds 1..k with their results as they stood after round k.

    A round a player did not attend before their last attended round becomes a MISSED game worth
    0 points that counts as a round played; a player absent from round k is dropped.
    """
    records: dict[str, SwissRecord] = {}
    for number in sorted(r for r in played if r <= k):
        records = records_extended(records, played[number], number)
    if k not in played:  # no file for round k: nobody played it
        records = {name: _as_dropped(record) for name, record in records.items()}
    return records


def records_extended(before: Mapping[str, SwissRecord], games: Mapping[str, Game],
                     number: int) -> dict[str, SwissRecord]:
    """The records after round `number` from those after the round before it and the round's
    games: what `records_after` gives, in one step. Scoring every round's standings then costs a
    pass over each round, not over every earlier round again (a corrected first round re-scores
    them all). Records are shared, never changed: one whose player missed this round again is
    the same object."""
    records: dict[str, SwissRecord] = {}
    for name, record in before.items():
        game = games.get(name)
        if game is None:
            records[name] = record if record.dropped else _as_dropped(record)
            continue
        gap = [Game(r, MISSED, 0) for r in range(record.last_round + 1, number)]
        kinds = dict(record.kinds)
        for missed in gap:
            kinds[MISSED] = kinds.get(MISSED, 0) + 1
        kinds[game.kind] = kinds.get(game.kind, 0) + 1
        records[name] = SwissRecord.made(
            name, [*record.games, *gap, game], False, record.first_round,
            record.points + game.points,
            [*record.opponents, game.opponent] if game.opponent is not None else record.opponents,
            kinds)
    for name, game in games.items():
        if name not in records:  # first seen in this round: the rounds before it were missed
            records[name] = SwissRecord(name, [*(Game(r, MISSED, 0) for r in range(1, number)),
                                               game], first_round=number)
    return records


def _as_dropped(record: SwissRecord) -> SwissRecord:
    return SwissRecord.made(record.name, record.games, True, record.first_round, record.points,
                            record.opponents, record.kinds)


def attendance_notes(record: SwissRecord) -> list[str]:
    """What a player's page and the standings say about missed rounds and drops."""
    if not record.dropped and MISSED not in record.kinds:  # most players, after every round
        return []
    notes = []
    missed = record.missed_rounds()
    late = [r for r in missed if r < record.first_round]
    rejoined = [r for r in missed if r > record.first_round]
    if late:
        notes.append(f"joined in round {record.first_round}: unpaired "
                     f"{_loss_word(late)} for {_rounds_text(late)}")
    if rejoined:
        notes.append(f"missed {_rounds_text(rejoined)} and rejoined: unpaired {_loss_word(rejoined)}")
    if record.dropped:
        notes.append(f"dropped after round {record.last_round}")
    return notes


def _loss_word(rounds: list[int]) -> str:
    return "loss" if len(rounds) == 1 else "losses"


def _rounds_text(rounds: list[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if rounds == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}–{rounds[-1]}"
    return "rounds " + ", ".join(map(str, rounds[:-1])) + f" and {rounds[-1]}"


# ------------------------------------------------------------ pairing checks (warnings only)


def pairing_departures(
    points_before: Mapping[str, int], pairs: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Where a round's pairings depart from the seed's Swiss procedure.

    The seed pairs players within their point group and floats the odd one out of a group down to
    a random player of the next group ("Swiss Rounds" and its pairing example). So a pairing may
    only join neighbouring point groups, and between two neighbours exactly as many players float
    as the groups above leave odd (0 or 1). Avoiding a rematch can force more, so these are
    warnings, never errors. Returns (a player of the pairing concerned, message).
    """
    totals = sorted({points_before[p] for pair in pairs for p in pair}, reverse=True)
    group = {total: i for i, total in enumerate(totals)}
    size = Counter(group[points_before[p]] for pair in pairs for p in pair)
    floated: dict[int, list[tuple[str, str]]] = {}
    found: list[tuple[str, str]] = []
    for a, b in pairs:
        high, low = sorted((a, b), key=lambda p: -points_before[p])
        top, bottom = group[points_before[high]], group[points_before[low]]
        if bottom - top > 1:
            skipped = " and ".join(str(t) for t in totals[top + 1:bottom])
            found.append((high, f"{high} ({points_before[high]} points) was paired with {low} "
                                f"({points_before[low]} points) although players with {skipped} "
                                "points were between them"))
        elif bottom - top == 1:
            floated.setdefault(top, []).append((high, low))
    floated_in = 0
    for i, total in enumerate(totals[:-1]):
        # Players of group i left after pairing those who floated in from above; an odd count
        # floats exactly one down.
        pairs_down = floated.get(i, [])
        expected = (size[i] - floated_in) % 2
        if len(pairs_down) > expected:
            shown = ", ".join(f"{h} with {lo}" for h, lo in pairs_down)
            allowed = "one player (the odd one out)" if expected else "nobody"
            found.append((pairs_down[0][0],
                          f"{shown}: {len(pairs_down)} of the {total}-point players "
                          f"{'was' if len(pairs_down) == 1 else 'were'} paired "
                          f"down to {totals[i + 1]} points where the seed floats {allowed} "
                          "(it pairs equal points first; more only to avoid a rematch)"))
        floated_in = len(pairs_down)
    return found


def rematches(played: Mapping[int, Mapping[str, Game]]) -> dict[int, list[tuple[str, str, int]]]:
    """Round number → its pairs who already met earlier in the stage, with that earlier round:
    every round's in one pass (one round at a time went through all the rounds before it)."""
    met: dict[tuple[str, str], int] = {}
    repeats: dict[int, list[tuple[str, str, int]]] = {}
    for number in sorted(played):
        found = repeats[number] = []
        pairs = [(name, game.opponent) for name, game in played[number].items()
                 if game.opponent and name < game.opponent]
        for pair in pairs:
            if pair in met:
                found.append((*pair, met[pair]))
        for pair in pairs:
            met.setdefault(pair, number)
    return repeats
