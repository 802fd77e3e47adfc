"""SPELLFIRE scores turned into plain objects: standings, bracket tables, the advancement grid."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...core.model import PlayerRef, Round
from ...core.numbers import ordinal
from ..base import SlipField
from ..views import Column, Official, PlayerGame, Standings, StandingRow
from ..grid import Grid, GridBox, GridEntry, GridRound
from ..pairings import Pairings, pairings_of
from ..tiebreaks import shared_ranks
from .rows import GameRow, brackets_of, first_rows, pending_rows, players_of
from .scoring import Bracket, Placing, Scored, Standing

Ref = Callable[[str], PlayerRef]

COLUMNS = (
    Column("points", "Points", deciding=True),
    Column("finish", "Finish", "text", numeric=False, deciding=True),
    Column("rounds_played", "Rounds"),
    Column("brackets_won", "Brackets won"),
    Column("realms", "Realms", title="unrazed realms over every game played"),
)
FINAL_FINISHES = {1: "Winner", 2: "Runner-up", 3: "Third", 4: "Fourth", 5: "Fifth"}
EXPLANATION = ("Each round's bracket winner scores 4 × the round number; the others, placed by "
               "unrazed realms over the bracket's games, score 3, 2 and 1 × the round number. In "
               "the final the winner scores 5 ×, the runner-up 3 × and third 2 ×. A player's total "
               "adds up every round played; equal totals share a place.")


def finish_of(standing: Standing, final_round: int | None, last_round: int,
              complete: bool = False) -> str:
    last = standing.last
    if last.final:
        return FINAL_FINISHES[last.placing.place]
    won_last = last.bracket.round == last_round and last.placing.place == 1 and final_round is None
    if won_last:
        return (f"Won a round {last_round} bracket" if complete
                else f"Through to round {last_round + 1}")
    return f"Out in round {last.bracket.round}"


def ranked(after: Mapping[str, Standing]) -> list[tuple[int, Standing]]:
    """Points; equal totals share a place (listed by the round reached, then realms, then name)."""
    order = sorted(after.values(), key=lambda s: (-s.points, -s.last.bracket.round, -s.realms,
                                                  s.name.casefold(), s.name))
    return list(zip(shared_ranks([(s.points,) for s in order]), order))


def standings_view(after: Mapping[str, Standing], title: str, after_round: int, complete: bool,
                   final_round: int | None, officials: Sequence[Official], ref: Ref,
                   meta: Mapping[str, object]) -> Standings:
    rows = []
    final_so_far = final_round if final_round is not None and final_round <= after_round else None
    for rank, s in ranked(after):
        values = {"points": s.points, "finish": finish_of(s, final_so_far, after_round, complete),
                  "rounds_played": len(s.rounds), "brackets_won": s.brackets_won,
                  "realms": s.realms, "another_chance": s.another_chance is not None}
        notes = (f"another chance in round {s.another_chance}",) if s.another_chance else ()
        rows.append(StandingRow(rank, ref(s.name), values, False, None, notes))
    return Standings(title, after_round, complete, COLUMNS, tuple(rows), {}, EXPLANATION,
                     officials=tuple(officials), meta=dict(meta))


# ---------------------------------------------------------------- round pages


@dataclass(frozen=True, slots=True)
class Line:
    """One player of a bracket: realms per game, totals, place and points with the arithmetic."""

    player: PlayerRef
    games: tuple[tuple[int, bool], ...]
    realms: int
    place: str
    points: int
    arithmetic: str
    advances: bool
    another_chance: bool


@dataclass(frozen=True, slots=True)
class BracketView:
    number: int
    anchor: str
    game_numbers: tuple[int, ...]
    lines: tuple[Line, ...]
    final: bool


def place_text(scored: Scored) -> str:
    shown = ordinal(scored.placing.place)
    if scored.placing.shared:
        return f"={shown} (tied)"
    return shown + (" (judge)" if scored.placing.by_judge else "")


def bracket_views(brackets: Sequence[Bracket], after: Mapping[str, Standing],
                  chance: str | None, ref: Ref) -> tuple[BracketView, ...]:
    views = []
    for bracket in brackets:
        lines = []
        for placing in bracket.placings:
            scored = next(s for s in after[placing.player].rounds if s.bracket is bracket)
            games = tuple(game[placing.player] for _, game in bracket.games)
            lines.append(Line(ref(placing.player), games, placing.realms, place_text(scored),
                              scored.points, scored.arithmetic, placing.place == 1 and not placing.shared,
                              placing.player == chance))
        views.append(BracketView(bracket.number, anchor(bracket), tuple(g for g, _ in bracket.games),
                                 tuple(lines), any(s.final for s in _scored(bracket, after))))
    return tuple(views)


def _scored(bracket: Bracket, after: Mapping[str, Standing]) -> list[Scored]:
    return [s for p in bracket.players for s in after[p].rounds if s.bracket is bracket]


def anchor(bracket: Bracket) -> str:
    return f"r{bracket.round}-b{bracket.number}"


# ---------------------------------------------------------------- pairings and result slips


def round_pairings(round_: Round, placed: Sequence[Bracket], ref: Ref) -> Pairings:
    """The round's brackets as players look them up (rules.pairings): one seat per player,
    "playing" until someone has won two games, then each player's place. `placed`: the round's
    brackets that have a winner, placed. pairings.json's result is "win" for the bracket's
    winner and the place ("2nd", "=2nd" when shared) for the others."""
    placings = {(b.number, p.player): p for b in placed for p in b.placings}

    def seats(rows: list[GameRow]) -> list[GameRow]:
        """Place order once the bracket has a winner; as seated while it is being played."""
        seated = first_rows(rows)
        if any((row.bracket, row.player) not in placings for row in seated):
            return seated
        return sorted(seated, key=lambda row: placings[(row.bracket, row.player)].place)

    def result_of(row: GameRow, others: list[GameRow]) -> tuple[str, str]:
        return _result(placings[(row.bracket, row.player)])

    return pairings_of(round_, ref, "Bracket", pending_rows, result_of, "", seats=seats,
                       stage="brackets")


def _result(placing: Placing) -> tuple[str, str]:
    place = ("=" if placing.shared else "") + ordinal(placing.place)
    realms = f"{placing.realms} realm{'s' if placing.realms != 1 else ''}"
    if placing.place == 1:  # the one player on two game wins
        return "win", f"Won the bracket ({placing.wins} game wins), {realms}"
    return place, f"{place}{' (judge)' if placing.by_judge else ''}, {realms}"


def slip_fields(round_: Round) -> tuple[SlipField, ...]:
    """What a result slip asks (Spellfire.slip): per game, each player's unrazed realms and a
    box for the game's winner, for as many games as the round's largest bracket can take (n
    players can each win once before a game n + 1 gives someone a second win)."""
    largest = max((len(players_of(rows)) for rows in brackets_of(round_).values()), default=3)
    fields: list[SlipField] = []
    for game in range(1, largest + 2):
        fields += [SlipField(f"Game {game} realms"), SlipField(f"Won game {game}", tick=True)]
    return tuple(fields)


# ---------------------------------------------------------------- the advancement grid


def advancement_grid(all_brackets: Sequence[Sequence[Bracket]], final_after: Mapping[str, Standing],
                     chances: Mapping[int, str], final_round: int | None, ref: Ref) -> Grid:
    next_box: dict[tuple[int, str], str] = {}
    for brackets in all_brackets:
        for bracket in brackets:
            for player in bracket.players:
                next_box[(bracket.round, player)] = anchor(bracket)
    rounds = []
    for brackets in all_brackets:
        number = brackets[0].round
        boxes = []
        for bracket in brackets:
            entries = []
            for placing in bracket.placings:
                scored = next(s for s in final_after[placing.player].rounds if s.bracket is bracket)
                target = next_box.get((number + 1, placing.player))
                note = ("tied on realms: shares the place's points" if placing.shared else
                        "placed by the judge" if placing.by_judge else "")
                compact = ("=" if placing.shared else "") + ordinal(placing.place)
                badge = "another chance" if chances.get(number) == placing.player else ""
                entries.append(GridEntry(ref(placing.player), compact, note, str(scored.points),
                                         target, badge))
            label = "Final" if number == final_round else f"Bracket {bracket.number}"
            boxes.append(GridBox(anchor(bracket), label, tuple(entries)))
        rounds.append(GridRound(number, "Final" if number == final_round else f"Round {number}",
                                tuple(boxes)))
    champion = all_brackets[-1][0].winner if final_round is not None else None
    return Grid(tuple(rounds), ref(champion) if champion else None)


def player_games(standing: Standing, ref: Ref) -> tuple[PlayerGame, ...]:
    return tuple(
        PlayerGame(s.bracket.round, f"Round {s.bracket.round}" + (" (final)" if s.final else ""),
                   f"Bracket {s.bracket.number}",
                   tuple(ref(p) for p in s.bracket.players if p != standing.name),
                   f"{place_text(s)} in bracket, {s.placing.realms} realms", s.arithmetic,
                   outcome=bracket_outcome(s.bracket, standing.name))
        for s in standing.rounds)


def bracket_outcome(bracket: Bracket, name: str) -> str:
    """A bracket as a match between decks: the player on two game wins wins it, everyone else
    loses it, whatever place their realms give them."""
    if len(bracket.players) < 2:
        return ""
    return "win" if bracket.winner == name else "loss"
