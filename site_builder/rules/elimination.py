"""Two-player single elimination: the bracket drawn from the data, and how far each player got.

Pairing follows the Conquest regulations ("Single Elimination Rounds"): after the cut, Game #k is
seed k against seed N+1-k; in each later round the new Game #i is the winner of Game #i against the
winner of the game numbered i-th from the end. Rounds that are in the data are drawn as played;
rounds still to come are projected with that rule, naming the games their players come from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..core.model import PlayerRef
from .views import Bracket, BracketGame, BracketRound, BracketSlot


@dataclass(frozen=True, slots=True)
class Match:
    """One game of an elimination round as played: one player (a bye) or two."""

    number: int
    players: tuple[str, ...]
    winner: str | None
    marks: Mapping[str, str]
    """Short result per player for the bracket ("W", "MW", "L", "bye", "2–1")."""
    details: Mapping[str, str] = field(default_factory=dict)
    """Optional second line per player (e.g. "tau 7 · 4 · 7")."""

    def outcome(self, name: str) -> str:
        """The game as a match between decks for `name` (PlayerGame.outcome): a bye, with no
        opponent, was no match, nor was a game without a winner (the checks reject those)."""
        if len(self.players) < 2 or self.winner is None:
            return ""
        return "win" if self.winner == name else "loss"


def round_label(players: int) -> str:
    return {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(players, f"Round of {players}")


def finish_label(players_in_round: int) -> str:
    """What reaching a round and losing there is called on the standings."""
    return {2: "Finalist", 4: "Semi-finalist", 8: "Quarter-finalist"}.get(
        players_in_round, f"Top {players_in_round}")


def bracket_size(planned_rounds: int, index: int) -> int:
    """Players in elimination round `index` (0-based) of a bracket of `planned_rounds` rounds."""
    return 2 ** (planned_rounds - index)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a player got: the last elimination round reached (1-based) and its outcome."""

    depth: int
    won: bool

    @property
    def order(self) -> int:
        """Higher is better: reaching a round and winning it beats losing in it."""
        return 2 * self.depth + self.won


def progress(rounds: Sequence[Sequence[Match]]) -> dict[str, Progress]:
    """Each elimination player's progress through the rounds present.

    A player who won a round and is missing from the next one (present in the data) dropped out:
    they count as out in that next round (their opponent had a bye there).
    """
    reached: dict[str, Progress] = {}
    for depth, matches in enumerate(rounds, start=1):
        for match in matches:
            for name in match.players:
                reached[name] = Progress(depth, match.winner == name)
        for name, where in reached.items():
            if where.depth == depth - 1 and where.won:
                reached[name] = Progress(depth, False)
    return reached


def build_bracket(
    played: Sequence[Sequence[Match]],
    planned_rounds: int,
    first_round_number: int,
    seeds: Mapping[str, int],
    ref: Callable[[str], PlayerRef],
    projected_seeds: Sequence[str] = (),
    project: bool = True,
) -> tuple[BracketRound, ...]:
    """Every round of the bracket in drawing order, played rounds first, then projected ones.

    `projected_seeds` (names in seed order) draws the first round when no elimination round has
    been played yet: seed k meets seed N+1-k of the N-player bracket, and a seed whose opponent
    is missing (fewer players qualified than the cut) stands alone, to have a bye. With
    `project` off only played rounds are drawn (for games whose later pairings are not fixed).
    """
    rounds = [_games_from_matches(m) for m in played]
    if not rounds and projected_seeds:
        size = 2 ** planned_rounds
        seeded = list(projected_seeds) + [None] * (size - len(projected_seeds))
        rounds.append([_Game(k + 1, [(name, None) for name in (seeded[k], seeded[size - 1 - k]) if name])
                       for k in range(size // 2)])
    while project and rounds and len(rounds) < planned_rounds:
        rounds.append(_next_round(rounds[-1]))
    ordered = _drawing_order(rounds, seeds)
    views = []
    for index, games in enumerate(ordered):
        views.append(BracketRound(
            label=round_label(bracket_size(planned_rounds, index)),
            round_number=first_round_number + index,
            games=tuple(g.view(seeds, ref) for g in games),
            played=index < len(played),
        ))
    return tuple(views)


def expected_games(previous: Sequence[Match] | None, seeds: Sequence[str],
                   cut: int) -> dict[str, int]:
    """The Game number each player should have in the next elimination round.

    After a top-N cut (no previous round), seed k plays Game #min(k, N+1-k) — N is the cut size,
    so a seed whose opponent is missing keeps their game; later, the winner of
    the i-th game (by number) of n plays Game #min(i, n+1-i). Used to place a bye written
    without a Game number, as the data contract allows ("a bye has no table").
    """
    if previous is None:
        return {name: min(k, cut + 1 - k) for k, name in enumerate(seeds, start=1)}
    ordered = sorted(previous, key=lambda m: m.number)
    n = len(ordered)
    return {m.winner: min(i, n + 1 - i) for i, m in enumerate(ordered, start=1) if m.winner}


def champion(played: Sequence[Sequence[Match]], planned_rounds: int) -> str | None:
    if len(played) == planned_rounds and len(played[-1]) == 1:
        return played[-1][0].winner
    return None


def finish_text(progress: Progress | None, planned_rounds: int, complete: bool) -> str:
    """'Champion', 'Finalist', 'Semi-finalist', …; 'Through to the Final' while the event goes
    on. In an event declared final before its last elimination round, a player who won their
    last game finishes in the round they reached."""
    if progress is None:
        return ""
    if progress.won:
        if progress.depth == planned_rounds:
            return "Champion"
        reached = bracket_size(planned_rounds, progress.depth)
        return finish_label(reached) if complete else f"Through to the {round_label(reached)}"
    return finish_label(bracket_size(planned_rounds, progress.depth - 1))


def cut_bracket(template: str, cut: int, swiss_rounds: int, swiss_played: int,
                played: Sequence[Sequence[Match]], seeds: Mapping[str, int],
                projected: Sequence[str], ref: Callable[[str], PlayerRef],
                complete: bool) -> Bracket:
    """The bracket of the top `cut` after `swiss_rounds` Swiss rounds (Conquest's, a declared
    game's): waiting for the Swiss rounds, projected from the Swiss standings, or as played."""
    title = f"Top {cut} bracket"
    rounds_planned = cut.bit_length() - 1
    if not played and swiss_played < swiss_rounds:
        return Bracket(template, title, (), empty_message=(
            f"The top {cut} after round {swiss_rounds} play single elimination. The bracket "
            f"appears here when the Swiss rounds are done ({swiss_played} of {swiss_rounds} "
            "played)."))
    rounds = build_bracket(played, rounds_planned, swiss_rounds + 1, seeds, ref,
                           projected_seeds=projected)
    if not played and complete:
        return Bracket(template, title, (), empty_message=(
            "No elimination rounds were played: the event was marked final after the Swiss "
            "rounds, so its Swiss standings are the final ones."))
    winner = champion(played, rounds_planned)
    note = ("" if played else
            "Projected from the Swiss standings: seed 1 meets the last seed, seed 2 the "
            "second-last, and so on. It fills in as the elimination rounds are played.")
    return Bracket(template, title, rounds, ref(winner) if winner else None, note)


# ---------------------------------------------------------------- internals


@dataclass(slots=True)
class _Game:
    number: int
    slots: list[tuple[str | None, int | None]]
    """(player, source game number): a player, or the earlier game whose winner comes here."""
    match: Match | None = None

    @property
    def winner(self) -> str | None:
        if self.match:
            return self.match.winner
        alone = [name for name, _ in self.slots if name]
        return alone[0] if len(self.slots) == 1 and alone else None  # a projected bye

    def mark(self, name: str) -> str:
        if self.match:
            return self.match.marks.get(name, "")
        return "bye" if self.winner == name else ""

    def view(self, seeds: Mapping[str, int], ref: Callable[[str], PlayerRef]) -> BracketGame:
        slots = []
        for name, source in self.slots:
            if name is None:
                slots.append(BracketSlot(None, f"Winner of Game {source}"))
                continue
            seed = seeds.get(name)
            detail = self.match.details.get(name, "") if self.match else ""
            slots.append(BracketSlot(ref(name), f"{seed}" if seed else "", self.mark(name),
                                     self.winner == name, detail))
        return BracketGame(self.number, tuple(slots), self.match is not None)


def _games_from_matches(matches: Sequence[Match]) -> list[_Game]:
    return [_Game(m.number, [(p, None) for p in m.players], m) for m in sorted(matches, key=lambda m: m.number)]


def _next_round(games: list[_Game]) -> list[_Game]:
    ordered = sorted(games, key=lambda g: g.number)
    n = len(ordered)

    def winner_of(game: _Game) -> tuple[str | None, int | None]:
        return (game.winner, None) if game.winner else (None, game.number)

    pairs = [_Game(i + 1, [winner_of(ordered[i]), winner_of(ordered[n - 1 - i])]) for i in range(n // 2)]
    if n % 2:
        pairs.append(_Game(n // 2 + 1, [winner_of(ordered[n // 2])]))
    return pairs


def _drawing_order(rounds: list[list[_Game]], seeds: Mapping[str, int]) -> list[list[_Game]]:
    """Order each round so that the two games feeding a later game are drawn next to each other.

    Works backwards from the last round; a game's feeders are the earlier games its players won
    (or whose winners it awaits), drawn in game-number order, and the game's slots follow them.
    The first round's slots put the better seed on top. Games that feed nothing are kept, in
    number order, at the end.
    """
    if not rounds:
        return []
    ordered = [sorted(rounds[-1], key=lambda g: g.number)]
    for earlier in reversed(rounds[:-1]):
        by_number = {g.number: g for g in earlier}
        won_by = {g.winner: g for g in earlier if g.winner}
        played_by = {p: g for g in earlier for p, _ in g.slots if p}

        def feeder(slot: tuple[str | None, int | None]) -> _Game | None:
            name, source = slot
            return (won_by.get(name) or played_by.get(name)) if name else by_number.get(source)

        placed: list[_Game] = []
        for game in ordered[0]:
            game.slots.sort(key=lambda slot: f.number if (f := feeder(slot)) else len(earlier) + 1)
            for slot in game.slots:
                found = feeder(slot)
                if found is not None and found not in placed:
                    placed.append(found)
        placed += [g for g in sorted(earlier, key=lambda g: g.number) if g not in placed]
        ordered.insert(0, placed)
    for game in ordered[0]:
        game.slots.sort(key=lambda slot: seeds.get(slot[0], len(seeds) + 1) if slot[0] else 0)
    return ordered
