"""A declared game's scores as the plain objects pages and JSON twins are drawn from: the
standings (each tiebreak under its vocabulary name), the round tables, a player's games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...core.model import PlayerRef, Round
from ...core.numbers import decimals, exact_points, points_text
from ..base import SlipField
from ..elimination import Match
from ..pairings import Pairings, pairings_of
from ..twoplayer import Absence
from ..views import Column, PlayerGame, StandingRow, Standings
from .model import Declaration
from .ranking import Ranked
from .rows import BY_POINTS, PENDING, pending_rows
from .tally import UNPAIRED, Record, Result
from .vocabulary import ABSENT, BYE, TIEBREAKS, UNPLAYED

Ref = Callable[[str], PlayerRef]

UNPLAYED_LABELS = {BYE: "Bye", "forfeit-win": "Won by forfeit", "forfeit-loss": "Lost by forfeit",
                   "half-point-bye": "Half-point bye", "zero-point-bye": "Zero-point bye",
                   ABSENT: "Absent", UNPAIRED: "Not paired"}


def word_label(word: str) -> str:
    """A result word as pages, slips and the desk show it: "modified-win" → "Modified win"."""
    shown = word.replace("-", " ")
    return shown[:1].upper() + shown[1:]


def result_label(result: Result, declaration: Declaration) -> str:
    if result.kind in UNPLAYED_LABELS:
        return UNPLAYED_LABELS[result.kind]
    if result.kind == BY_POINTS:
        return {"win": "Win", "draw": "Draw", "loss": "Loss"}[result.outcome]
    return word_label(result.kind)


def record_text(record: Record) -> str:
    """wins–draws–losses, unplayed rounds counted by what they are (a bye a win)."""
    return f"{record.count('win')}–{record.count('draw')}–{record.count('loss')}"


# ---------------------------------------------------------------- standings


def columns(declaration: Declaration) -> tuple[Column, ...]:
    found = [Column("points", "Points", "points", deciding=True),
             Column("record", "W–D–L", "text", "wins – draws – losses (a bye is a win; rounds "
                                               "missed are losses)")]
    for choice in declaration.tiebreaks:
        if choice.name == "random":
            continue
        known = TIEBREAKS[choice.name]
        kind = "share" if known.kind == "pct" else "points" if known.kind == "num" else "dec3"
        found.append(Column(choice.name, known.label, kind, known.title))
    return tuple(found)


def tiebreak_labels(declaration: Declaration) -> dict[str, str]:
    labels = {c.name: TIEBREAKS[c.name].label for c in declaration.tiebreaks}
    labels["random"] = "random"
    return labels


def explanation(declaration: Declaration, seed: int) -> str:
    """How the order is decided, in one sentence a player can check by hand."""
    points = ", ".join(f"{r.word} {points_text(r.points)}" for r in declaration.results)
    unplayed = ", ".join(f"{UNPLAYED_LABELS[w].lower()} {points_text(p)}"
                         for w, p in declaration.unplayed if w != ABSENT or p)
    said = f"{points}; {unplayed} points." if unplayed else f"{points} points."
    parts = [said[:1].upper() + said[1:]]
    chain = [c for c in declaration.tiebreaks if c.name != "random"]
    if chain:
        said = []
        for choice in chain:
            known = TIEBREAKS[choice.name]
            shares = {name: _share_text(value) for name, value in choice.parameters}
            said.append(f"{known.title} ({known.label}: {known.explained.format(**shares)})")
        parts.append("Equal points are ordered by " + ", then ".join(said) + ",")
        parts.append(f"then by a random draw fixed by the event's seed ({seed}), so every build "
                     "gives the same order.")
    else:
        parts.append("Equal points are ordered by a random draw fixed by the event's seed "
                     f"({seed}).")
    return " ".join(parts)


def _share_text(value: Fraction) -> str:
    percent = value * 100
    return f"{decimals(percent, 0 if percent.denominator == 1 else 2)}%"


def row_values(row: Ranked) -> dict:
    record = row.record
    values = {"points": exact_points(record.points), "rounds_played": len(record.results),
              "wins": record.count("win"), "draws": record.count("draw"),
              "losses": record.count("loss"), "byes": record.byes,
              "tiebreaks": dict(row.values)}
    return values


def standing_row(row: Ranked, ref: Ref, notes: tuple[str, ...]) -> StandingRow:
    cells = {"record": record_text(row.record), **row.values}
    return StandingRow(row.rank, ref(row.name), row_values(row), row.record.dropped, row.tiebreak,
                       notes, cells)


def swiss_standings(rows: Sequence[Ranked], title: str, after_round: int, complete: bool,
                    declaration: Declaration, seed: int, ref: Ref, cut: int = 0,
                    cut_line: int = 0) -> Standings:
    return Standings(
        title=title, after_round=after_round, complete=complete,
        columns=columns(declaration),
        rows=tuple(standing_row(row, ref, attendance(row.record)) for row in rows),
        tiebreak_labels=tiebreak_labels(declaration),
        explanation=explanation(declaration, seed),
        phase="swiss", cut_after=cut_line, cut_label=f"Top {cut} cut" if cut else "")


def attendance(record: Record) -> tuple[str, ...]:
    notes = []
    missed = [r.round for r in record.results if r.kind == ABSENT]
    if missed:
        shown = ", ".join(map(str, missed))
        notes.append(f"absent in round{'s' if len(missed) > 1 else ''} {shown}")
    lost = [r.round for r in record.results if r.kind == UNPAIRED and r.line is None]
    if lost:  # missed rounds of a game that counts them as unpaired losses
        shown = ", ".join(map(str, lost))
        notes.append(f"missed round{'s' if len(lost) > 1 else ''} {shown}: "
                     f"unpaired loss{'es' if len(lost) > 1 else ''}")
    if record.dropped:
        notes.append(f"dropped after round {record.last_round}")
    return tuple(notes)


# ---------------------------------------------------------------- round pages


@dataclass(frozen=True, slots=True)
class Seat:
    player: PlayerRef
    result: str
    points: str
    won: bool
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class DeclaredRound:
    elimination: bool
    tables: tuple[TableView, ...]
    alone: tuple[Seat, ...]
    absent: tuple[Absence, ...]
    games: bool
    """The round file gave games won and drawn: the table shows them."""


def round_tables(results: Mapping[str, Result], declaration: Declaration, elimination: bool,
                 ref: Ref, seeds: Mapping[str, int], absent: Sequence[Absence]) -> DeclaredRound:
    tables: dict[int, list[Seat]] = {}
    alone = []
    for name, result in sorted(results.items(), key=lambda item: item[1].line or 0):
        label = result_label(result, declaration)
        if result.games is not None and result.against is not None:
            label += f" {result.games[0]}–{result.games[2]}" + (
                f"–{result.games[1]}" if result.games[1] else "")
        seat = Seat(ref(name), label, "" if elimination else points_text(result.points),
                    result.outcome == "win", seeds.get(name))
        if result.against is not None and result.table is not None:
            tables.setdefault(result.table, []).append(seat)
        else:
            alone.append(seat)
    views = tuple(TableView(n, tuple(seats)) for n, seats in sorted(tables.items()))
    return DeclaredRound(elimination, views, tuple(alone), tuple(absent),
                         any(r.games for r in results.values()))


def round_pairings(round_: Round, elimination: bool, ref: Ref) -> Pairings:
    return pairings_of(round_, ref, "Game" if elimination else "Table", pending_rows,
                       _result_of, BYE, stage="elimination" if elimination else "swiss")


def _result_of(row, others) -> tuple[str, str]:
    if row.result == BY_POINTS:
        return row.result, f"{points_text(row.points)} points"
    if row.result in UNPLAYED:
        return row.result, UNPLAYED_LABELS[row.result]
    if not others and row.result != PENDING:
        return row.result, UNPLAYED_LABELS[UNPAIRED]
    return row.result, word_label(row.result)


def slip(declaration: Declaration) -> tuple[SlipField, ...]:
    if declaration.points_column:
        fields = [SlipField("Points")]
    else:
        fields = [SlipField(word_label(r.word), tick=True) for r in declaration.results]
    if declaration.game_records:
        fields += [SlipField("Games won"), SlipField("Games drawn")]
    return tuple(fields)


# ---------------------------------------------------------------- player pages


def player_games(record: Record, declaration: Declaration, ref: Ref,
                 elimination: Sequence[tuple[int, str, Match]]) -> tuple[PlayerGame, ...]:
    lines = [PlayerGame(r.round, f"Round {r.round}", str(r.table or ""),
                        (ref(r.against),) if r.against else (), result_label(r, declaration),
                        points_text(r.points), outcome=r.outcome if r.played else "")
             for r in record.results]
    for number, label, match in elimination:
        opponents = tuple(ref(p) for p in match.players if p != record.name)
        lines.append(PlayerGame(number, label, f"Game {match.number}", opponents,
                                match.marks[record.name], "", outcome=match.outcome(record.name)))
    return tuple(lines)


def elimination_row(row: StandingRow, rank: int, finish: str, tiebreak: str | None
                    ) -> StandingRow:
    """A Swiss standings row placed after the elimination rounds: its finish, and its Swiss
    rank kept beside it."""
    values = {"finish": finish, "swiss_rank": row.rank, **row.values}
    return StandingRow(rank, row.player, values, row.dropped, tiebreak, row.notes, row.cells)


FINAL_LEAD = (Column("finish", "Finish", "text", numeric=False, deciding=True),
              Column("swiss_rank", "Swiss", "int", "rank after the Swiss rounds", deciding=True))
