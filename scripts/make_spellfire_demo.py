#!/usr/bin/env python3
"""Write deterministic demo data: three SPELLFIRE tournaments.

    .venv/bin/python scripts/make_spellfire_demo.py

Writes `data/events/<slug>/` (event.toml and round-<n>.csv) for a 27-player Championship, a
13-player King's Decree (Questing) with a four-player bracket, and an 8-player unscored World War!
whose final needs the "another chance" rule. It touches nothing else: the Conquest events and
`data/players.csv` belong to `scripts/make_demo_data.py`, whose pool of names is reused here so
that people recur across games. Every random choice comes from `random.Random` with a fixed
seed, so every run writes byte-identical files.

The structure follows the SPELLFIRE Tournament Rules 2.0 (seed 002):

* A bracket is three players, or four to balance a round ("Players should never be turned
  away … because they would create a four-player game"): a round of X players has X mod 3
  brackets of four, the rest of three, the brackets of four numbered last.
* A bracket plays games until one player has won two; no game is played after that. Every
  player's unrazed realms are recorded at the end of every game; the game's winner has reached
  the victory condition (6 realms, or 10 under Enhanced conditions).
* The bracket's winner places first; the others by unrazed realms summed over the bracket's
  games. Place points are 4, 3, 2, 1 × the round number; in the final (a single bracket) 5, 3,
  2, 1 × the round number.
* Round 1 is seated at random. The bracket winners advance in bracket order: the winners of
  brackets 1–3 make up the next round's bracket 1, and so on. The round that is a single
  bracket is the final.
* "If at the end of bracket there are only two players for the next round, the player who has
  scored the highest ranking thus far … gets another chance": the eliminated player with the
  most points joins the two winners in a three-player final (equal points: more unrazed realms;
  a draw still equal is re-drawn from the next seed).
* Ties on realms between players other than the winner are avoided (the bracket is re-drawn),
  except in one chosen bracket of the Championship, where the two players who did not win the
  bracket tie and the judge settles it in a `place` column: the one who won a game places
  above the one who won none.

Results: each person has a hidden skill. A game is won with weights 10^(skill/400); the realms
of the players who did not win the game are drawn around a skill-dependent mean below the
victory condition.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_demo_data import NAMES, toml_string, write_csv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ROOT / "examples" / "northern-league" / "data" / "events"

MASTER_SEED = 1994  # the year SPELLFIRE came out; every random choice derives from this
MAX_ATTEMPTS = 200
MAX_BRACKET_DRAWS = 500

ORGANIZER = "Leeds Spellfire Guild"

# SPELLFIRE players who come to all three events (all from the shared pool of names).
SPELLFIRE_REGULARS = ("Declan Byrne", "Priya Raman", "Gareth Pryce", "Niamh Kelly",
                      "Robert Mills")

PLACE_POINTS = {1: 4, 2: 3, 3: 2, 4: 1}
WIN_REALMS = {"standard": 6, "barbaric": 6, "enhanced": 10}


@dataclass(frozen=True)
class EventSpec:
    slug: str
    name: str
    date: dt.date
    tournament: str
    victory: str
    deck_size: int
    location: str
    coordinator: str
    judges: tuple[str, ...]
    size: int
    variants: tuple[str, ...] = ()
    tie_bracket: tuple[int, int] | None = None
    """(round, bracket) whose two non-winners tie on realms, settled by a `place` column."""
    spelling: dict[str, str] = field(default_factory=dict)
    """Names written differently in this event's files."""

    @property
    def officials(self) -> tuple[str, ...]:
        return (self.coordinator,) + self.judges


SPECS = (
    EventSpec(
        slug="2025-12-06-leeds-winter-championship",
        name="Leeds Winter Championship",
        date=dt.date(2025, 12, 6),
        tournament="Championship", victory="standard", deck_size=55,
        location="Royal Armouries Conference Centre, Leeds",
        coordinator="Eleanor Hughes",
        judges=("Thomas Weber", "Grace Kim"),
        size=27,
        tie_bracket=(1, 6),
    ),
    EventSpec(
        slug="2026-05-16-kings-decree-spring-open",
        name="King's Decree Spring Open",
        date=dt.date(2026, 5, 16),
        tournament="King's Decree", victory="enhanced", deck_size=75, variants=("Questing",),
        location="Spellbound Cards & Comics, York",
        coordinator="Thomas Weber",
        judges=("Grace Kim", "Declan Byrne"),  # Declan Byrne plays: he forfeits the judge's points
        size=13,
        spelling={"Gareth Pryce": "Gaz Pryce"},
    ),
    EventSpec(
        slug="2026-08-22-world-war-summer-night",
        name="World War! Summer Night",
        date=dt.date(2026, 8, 22),
        tournament="World War!", victory="barbaric", deck_size=55,
        location="The Warp Gate Games Café, Leeds",
        coordinator="Eleanor Hughes",
        judges=(),
        size=8,
    ),
)


class Redraw(Exception):
    """The draw does not make a good demo: try the next seed."""


# ---------------------------------------------------------------- people


def make_skills(rng: random.Random) -> dict[str, int]:
    return {name: round(rng.gauss(1500, 170)) for name in NAMES}


def choose_rosters(rng: random.Random) -> dict[str, list[str]]:
    """Each event's players: the regulars plus a draw from everyone else, never an official
    (except a judge who is also a regular: they play and forfeit the judge's points)."""
    missing = [n for n in SPELLFIRE_REGULARS + tuple(o for s in SPECS for o in s.officials)
               if n not in NAMES]
    if missing:
        raise SystemExit(f"not in make_demo_data.NAMES: {', '.join(missing)}")
    rosters = {}
    for spec in SPECS:
        regulars = [n for n in SPELLFIRE_REGULARS if n != spec.coordinator]
        others = [n for n in NAMES if n not in SPELLFIRE_REGULARS and n not in spec.officials]
        roster = regulars + rng.sample(others, spec.size - len(regulars))
        rng.shuffle(roster)
        rosters[spec.slug] = roster
    return rosters


def loser_realms(skill: int, goal: int, rng: random.Random) -> int:
    """Unrazed realms of a player who did not win the game: 0 … goal − 1."""
    mean = goal * 0.5 + (skill - 1500) / (150 if goal <= 6 else 100)
    spread = 1.2 if goal <= 6 else 1.8
    return max(0, min(goal - 1, round(rng.gauss(mean, spread))))


# ---------------------------------------------------------------- brackets


def bracket_sizes(players: int) -> list[int]:
    """Brackets of three, with X mod 3 brackets of four (numbered last) to balance."""
    fours = players % 3
    threes = (players - 4 * fours) // 3
    if players < 3 or threes < 0:
        raise SystemExit(f"{players} players cannot be split into brackets of 3 and 4")
    return [3] * threes + [4] * fours


@dataclass
class Bracket:
    number: int
    seating: list[str]
    games: list[tuple[str, dict[str, int]]]
    """(game winner, realms by player) per game, in order."""
    place: dict[str, int] | None = None
    """The judge's places (only in the bracket with a tie)."""

    @property
    def wins(self) -> dict[str, int]:
        return {p: sum(w == p for w, _ in self.games) for p in self.seating}

    @property
    def realms(self) -> dict[str, int]:
        return {p: sum(r[p] for _, r in self.games) for p in self.seating}

    @property
    def winner(self) -> str:
        return next(p for p, w in self.wins.items() if w == 2)

    def placings(self) -> list[str]:
        """Players in place order: the winner, then by realms (or the judge's places)."""
        if self.place is not None:
            return sorted(self.seating, key=lambda p: self.place[p])
        realms = self.realms
        others = sorted((p for p in self.seating if p != self.winner), key=lambda p: -realms[p])
        return [self.winner] + others


def play_games(seating: list[str], skills: dict[str, int], goal: int,
               rng: random.Random) -> list[tuple[str, dict[str, int]]]:
    wins = dict.fromkeys(seating, 0)
    games = []
    while max(wins.values()) < 2:
        weights = [10 ** (skills[p] / 400) for p in seating]
        winner = rng.choices(seating, weights=weights)[0]
        wins[winner] += 1
        games.append((winner, {p: goal if p == winner else loser_realms(skills[p], goal, rng)
                               for p in seating}))
    return games


def play_bracket(number: int, players: list[str], skills: dict[str, int], goal: int,
                 want_tie: bool, rng: random.Random) -> Bracket:
    seating = rng.sample(players, len(players))
    for _ in range(MAX_BRACKET_DRAWS):
        bracket = Bracket(number, seating, play_games(seating, skills, goal, rng))
        realms, wins = bracket.realms, bracket.wins
        others = [p for p in seating if p != bracket.winner]
        totals = [realms[p] for p in others]
        if not want_tie:
            if len(set(totals)) == len(totals):
                return bracket
            continue
        # Exactly one tie, between two players of whom one won a game and the other none: the
        # judge places the one with the game win higher.
        if len(others) == 2 and totals[0] == totals[1] and sorted(wins[p] for p in others) == [0, 1]:
            second, third = sorted(others, key=lambda p: -wins[p])
            bracket.place = {bracket.winner: 1, second: 2, third: 3}
            return bracket
    raise Redraw(f"bracket {number}: no suitable draw")


# ---------------------------------------------------------------- one event


@dataclass
class Simulated:
    rounds: list[list[Bracket]]
    points: dict[str, int]
    chance: tuple[int, str, int] | None = None
    """(round, player, points so far) of the player back under the "another chance" rule."""


def simulate(spec: EventSpec, roster: list[str], skills: dict[str, int],
             rng: random.Random) -> Simulated:
    goal = WIN_REALMS[spec.victory]
    points = dict.fromkeys(roster, 0)
    realms_total = dict.fromkeys(roster, 0)
    rounds: list[list[Bracket]] = []
    playing = rng.sample(roster, len(roster))
    chance = None
    k = 0
    while True:
        k += 1
        sizes = bracket_sizes(len(playing))
        final = len(sizes) == 1
        brackets = []
        start = 0
        for number, size in enumerate(sizes, start=1):
            want_tie = spec.tie_bracket == (k, number)
            bracket = play_bracket(number, playing[start:start + size], skills, goal, want_tie, rng)
            start += size
            brackets.append(bracket)
            realms = bracket.realms
            for place, player in enumerate(bracket.placings(), start=1):
                points[player] += ({1: 5, 2: 3, 3: 2, 4: 1} if final else PLACE_POINTS)[place] * k
                realms_total[player] += realms[player]
        rounds.append(brackets)
        if final:
            break
        playing = [b.winner for b in brackets]
        if len(playing) == 2:
            # Another chance: the eliminated player with the most points so far.
            out = [p for p in roster if p not in playing]
            order = sorted(out, key=lambda p: (-points[p], -realms_total[p]))
            best, runner = order[0], order[1]
            if (points[best], realms_total[best]) == (points[runner], realms_total[runner]):
                raise Redraw("the another-chance place is tied")
            chance = (k + 1, best, points[best])
            playing.append(best)
    if spec.tie_bracket and not any(b.place for r in rounds for b in r):
        raise Redraw("the judged tie was not played")
    return Simulated(rounds, points, chance)


def generate(spec: EventSpec, roster: list[str], skills: dict[str, int],
             index: int) -> Simulated:
    """The event from the first seed that makes a good demo."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(MASTER_SEED * 100 + index * 1000 + attempt)
        try:
            return simulate(spec, roster, skills, rng)
        except Redraw:
            continue
    raise SystemExit(f"{spec.slug}: no good draw in {MAX_ATTEMPTS} attempts")


# ---------------------------------------------------------------- writing


def write_event(spec: EventSpec, simulated: Simulated) -> None:
    folder = EVENTS / spec.slug
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    lines = [
        f"name = {toml_string(spec.name)}",
        f"date = {spec.date.isoformat()}",
        'game = "spellfire"',
        f"tournament = {toml_string(spec.tournament)}",
        f"victory = {toml_string(spec.victory)}",
        f"deck_size = {spec.deck_size}",
    ]
    if spec.variants:
        lines.append(f"variants = [{', '.join(toml_string(v) for v in spec.variants)}]")
    lines.append(f"coordinator = {toml_string(spec.coordinator)}")
    if spec.judges:
        lines.append(f"judges = [{', '.join(toml_string(j) for j in spec.judges)}]")
    lines += [f"location = {toml_string(spec.location)}",
              f"organizer = {toml_string(ORGANIZER)}"]
    (folder / "event.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    name = lambda p: spec.spelling.get(p, p)  # noqa: E731
    for k, brackets in enumerate(simulated.rounds, start=1):
        judged = any(b.place for b in brackets)
        header = ("table", "game", "player", "realms", "result") + (("place",) if judged else ())
        rows = []
        for bracket in brackets:
            for game, (winner, realms) in enumerate(bracket.games, start=1):
                for player in bracket.seating:
                    row = (bracket.number, game, name(player), realms[player],
                           "win" if player == winner else "")
                    if judged:
                        row += (bracket.place[player] if bracket.place else None,)
                    rows.append(row)
        write_csv(folder / f"round-{k}.csv", header, rows)


def summary(spec: EventSpec, simulated: Simulated) -> str:
    final = simulated.rounds[-1][0]
    winner = final.winner
    parts = [f"{sum(len(b.seating) for b in simulated.rounds[0])} players",
             f"{len(simulated.rounds)} rounds",
             f"winner {winner} ({simulated.points[winner]} points)"]
    fours = [f"round {k} bracket {b.number} ({', '.join(b.seating)})"
             for k, r in enumerate(simulated.rounds, start=1) for b in r if len(b.seating) == 4]
    if fours:
        parts.append("four-player: " + "; ".join(fours))
    if simulated.chance:
        k, player, before = simulated.chance
        parts.append(f"another chance in round {k}: {player} ({before} points after round "
                     f"{k - 1}, {simulated.points[player]} in all)")
    judged = [f"round {k} bracket {b.number}" for k, r in enumerate(simulated.rounds, start=1)
              for b in r if b.place]
    if judged:
        parts.append("judged tie: " + ", ".join(judged))
    return "; ".join(parts)


def main() -> None:
    rng = random.Random(MASTER_SEED)
    skills = make_skills(rng)
    rosters = choose_rosters(rng)
    for index, spec in enumerate(SPECS):
        simulated = generate(spec, rosters[spec.slug], skills, index)
        write_event(spec, simulated)
        print(f"data/events/{spec.slug}: {summary(spec, simulated)}")


if __name__ == "__main__":
    main()
