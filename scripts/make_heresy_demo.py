#!/usr/bin/env python3
"""Write deterministic demo data: three Heresy: Kingdom Come tournaments.

    .venv/bin/python scripts/make_heresy_demo.py

Writes `data/events/<slug>/` (event.toml and round-<n>.csv) for a Reascension, a Revelations and
a double-elimination Armageddon event. It touches nothing else: the Conquest events and
`data/players.csv` belong to `scripts/make_demo_data.py`, whose pool of names is reused here so
that people recur across games. Every random choice comes from `random.Random` with a fixed
seed, so every run writes byte-identical files.

The structure follows the Heresy Official Tournament Rules (seed 000):

* Reascension / Revelations (3, 5): at least 4 rounds plus one per full fifteen players
  (3.2.3). Each round has (X div 3) − (X mod 3) tables of three and (X mod 3) tables of four
  (3.2.2). Round 1 is seated at random; later rounds group players by their total, highest
  first, the tables of four taking the top of the standings (equal totals in a random order).
  A table is won by one player (win points), the others score their tau up to the goal; a table
  that runs out of time has no winner and everyone scores their capped tau + 2 (3.3).
* Armageddon (4), double elimination: best-of-three matches; the player with more game wins
  takes the match, and a second match loss puts a player out. Unbeaten players meet unbeaten
  players (winners' bracket), once-beaten players meet once-beaten players (losers' bracket);
  when one unbeaten and one once-beaten player are left they play the grand final, and a reset
  final follows if the unbeaten player loses it. An odd number of once-beaten players gives a
  bye to the eligible player with the fewest lost games among those who just lost a match,
  ties to the highest tau at their last lost game, then at random; nobody gets two (4.2.2).

Results: each person has a hidden skill. At a table the winner is drawn with weights
10^(skill/400); in a match, A beats B with probability 1 / (1 + 10^((skill_B − skill_A) / 400)).
Tau for the players who did not win is drawn around a skill-dependent mean.
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

MASTER_SEED = 1996  # the year of the Heresy rules; every random choice derives from this
MAX_ATTEMPTS = 200

# Heresy players who come to all three events (all from the shared pool of names).
HERESY_REGULARS = ("Robert Mills", "Aiko Tanaka", "Pieter van Dijk", "Ngozi Okafor",
                   "Declan Byrne")

TABLE_TIMEOUT_RATE = 0.08      # a Reascension / Revelations table that runs out of time
GAME_TIMEOUT_RATE = 0.06       # an Armageddon game decided on tau when time is called
HIGH_TAU_RATE = 0.03           # a player who did not win but stored tau at or past the goal
DEAD_RUBBER_RATE = 0.5         # a 2–0 Armageddon match that plays game 3 anyway (4.2.1)


@dataclass(frozen=True)
class EventSpec:
    slug: str
    name: str
    date: dt.date
    format: str
    location: str
    organizer: str
    judges: tuple[str, ...]
    size: int
    elimination: str | None = None
    min_timeouts: int = 0
    """Tables that must run out of time somewhere in the event (multiplayer formats)."""
    winner_tau: bool = True
    """Write the winner's tau (multiplayer formats); False leaves it empty, as the format allows."""


SPECS = (
    EventSpec(
        slug="2026-04-18-reascension-spring-open",
        name="Reascension Spring Open",
        date=dt.date(2026, 4, 18),
        format="reascension",
        location="The Warp Gate Games Café, Leeds",
        organizer="Leeds Heresy Circle",
        judges=("Gwen Ashworth", "Hollie Sutcliffe"),
        size=14,
        min_timeouts=1,
    ),
    EventSpec(
        slug="2026-09-05-revelations-draft-night",
        name="Revelations Draft Night",
        date=dt.date(2026, 9, 5),
        format="revelations",
        location="Spellbound Cards & Comics, York",
        organizer="Leeds Heresy Circle",
        judges=("Gwen Ashworth",),
        size=9,
        winner_tau=False,
    ),
    EventSpec(
        slug="2026-10-10-armageddon-showdown",
        name="Armageddon Showdown",
        date=dt.date(2026, 10, 10),
        format="armageddon",
        elimination="double",
        location="The Warp Gate Games Café, Leeds",
        organizer="Leeds Heresy Circle",
        judges=("Gwen Ashworth", "Andrew Penrose"),
        size=8,
    ),
)

TAU_GOAL = {"reascension": 9, "revelations": 7, "armageddon": 7}
WIN_POINTS = {"reascension": 14, "revelations": 11}


class Redraw(Exception):
    """The draw does not make a good demo (e.g. no table ran out of time): try the next seed."""


# ---------------------------------------------------------------- people


def make_skills(rng: random.Random) -> dict[str, int]:
    return {name: round(rng.gauss(1500, 170)) for name in NAMES}


def choose_rosters(rng: random.Random) -> dict[str, list[str]]:
    """Each event's players: the Heresy regulars plus a draw from everyone else."""
    missing = [n for n in HERESY_REGULARS if n not in NAMES]
    if missing:
        raise SystemExit(f"not in make_demo_data.NAMES: {', '.join(missing)}")
    others = [n for n in NAMES if n not in HERESY_REGULARS]
    rosters = {}
    for spec in SPECS:
        roster = list(HERESY_REGULARS) + rng.sample(others, spec.size - len(HERESY_REGULARS))
        rng.shuffle(roster)
        rosters[spec.slug] = roster
    return rosters


def loser_tau(skill: int, ceiling: int, rng: random.Random) -> int:
    """Tau stored by a player who did not win: around a skill-dependent mean, 0 … ceiling."""
    mean = ceiling * 0.5 + (skill - 1500) / 120
    return max(0, min(ceiling, round(rng.gauss(mean, 1.8))))


# ---------------------------------------------------------------- Reascension / Revelations


def groupings(players: int) -> tuple[int, int]:
    """(tables of three, tables of four): seed 3.2.2."""
    return players // 3 - players % 3, players % 3


def minimum_rounds(players: int) -> int:
    """Seed 3.2.3: at least 4 rounds, plus one per full fifteen players."""
    return 4 + players // 15


def seat_points(result: str, tau: int | None, goal: int, win_points: int) -> int:
    if result == "win":
        return win_points
    capped = min(tau or 0, goal)
    return capped + 2 if result == "time" else capped


def play_table(players: list[str], skills: dict[str, int], goal: int, winner_tau: bool,
               rng: random.Random) -> list[tuple[str, str, int | None]]:
    """(player, result, tau) for one table, in seating order."""
    seating = rng.sample(players, len(players))
    if rng.random() < TABLE_TIMEOUT_RATE:
        return [(p, "time", loser_tau(skills[p], goal - 1, rng)) for p in seating]
    weights = [10 ** (skills[p] / 400) for p in seating]
    winner = rng.choices(seating, weights=weights)[0]
    rows = []
    for p in seating:
        if p == winner:
            tau = goal + (1 if rng.random() < 0.2 else 0)
            rows.append((p, "win", tau if winner_tau else None))
        elif rng.random() < HIGH_TAU_RATE:
            rows.append((p, "", rng.randint(goal, goal + 2)))
        else:
            rows.append((p, "", loser_tau(skills[p], goal - 1, rng)))
    return rows


@dataclass
class TableEvent:
    rounds: list[list[tuple[int, str, str, int | None]]]
    """Per round: (table, player, result, tau) rows in file order."""
    totals: dict[str, int]


def simulate_tables(spec: EventSpec, roster: list[str], skills: dict[str, int],
                    rng: random.Random) -> TableEvent:
    goal, win_points = TAU_GOAL[spec.format], WIN_POINTS[spec.format]
    threes, fours = groupings(len(roster))
    sizes = [4] * fours + [3] * threes  # the tables of four take the top of the standings
    totals = {p: 0 for p in roster}
    rounds = []
    timeouts = 0
    for k in range(1, minimum_rounds(len(roster)) + 1):
        if k == 1:
            order = rng.sample(roster, len(roster))
        else:
            draw = {p: rng.random() for p in roster}
            order = sorted(roster, key=lambda p: (-totals[p], draw[p]))
        rows = []
        start = 0
        for table, size in enumerate(sizes, start=1):
            seated = play_table(order[start:start + size], skills, goal, spec.winner_tau, rng)
            start += size
            timeouts += seated[0][1] == "time"
            for player, result, tau in seated:
                totals[player] += seat_points(result, tau, goal, win_points)
                rows.append((table, player, result, tau))
        rounds.append(rows)
    if timeouts < spec.min_timeouts:
        raise Redraw(f"{timeouts} tables ran out of time")
    best = sorted(totals.values(), reverse=True)
    if best[0] == best[1]:
        raise Redraw("the top total is shared")
    return TableEvent(rounds, totals)


# ---------------------------------------------------------------- Armageddon


@dataclass
class Entrant:
    name: str
    losses: int = 0
    games_lost: int = 0
    tau_at_last_loss: int = -1
    lost_match_in: int = 0
    had_bye: bool = False
    met: list[str] = field(default_factory=list)


def play_game(a: str, b: str, skills: dict[str, int], goal: int,
              rng: random.Random) -> tuple[str, dict[str, int]]:
    """(winner, tau by player) of one game."""
    p_a = 1 / (1 + 10 ** ((skills[b] - skills[a]) / 400))
    winner, loser = (a, b) if rng.random() < p_a else (b, a)
    if rng.random() < GAME_TIMEOUT_RATE:  # time called: the higher tau takes the game (4.2.7)
        high = rng.randint(3, goal - 1)
        return winner, {winner: high, loser: rng.randint(0, high - 1)}
    return winner, {winner: goal, loser: loser_tau(skills[loser], goal - 1, rng)}


def play_match(a: str, b: str, skills: dict[str, int], goal: int,
               rng: random.Random) -> tuple[str, list[tuple[int, str, str, int]]]:
    """(match winner, rows (game, player, result, tau)) of a best-of-three match."""
    wins = {a: 0, b: 0}
    rows = []
    for game in (1, 2, 3):
        if max(wins.values()) == 2 and (game == 3 and rng.random() >= DEAD_RUBBER_RATE):
            break
        winner, tau = play_game(a, b, skills, goal, rng)
        wins[winner] += 1
        for player in (a, b):
            rows.append((game, player, "win" if player == winner else "loss", tau[player]))
    return (a if wins[a] > wins[b] else b), rows


def pair_without_rematch(players: list[str], entrants: dict[str, Entrant],
                         rng: random.Random) -> list[tuple[str, str]]:
    """A random perfect matching of `players` in which nobody meets an earlier opponent."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for partner in rng.sample(rest, len(rest)):
        if partner in entrants[first].met:
            continue
        tail = pair_without_rematch([p for p in rest if p != partner], entrants, rng)
        if tail is not None:
            return [(first, partner)] + tail
    raise Redraw("no losers' bracket pairing avoids a rematch")


def bye_for(once_beaten: list[str], entrants: dict[str, Entrant], k: int,
            rng: random.Random) -> str:
    """Seed 4.2.2 (double elimination): among those who just lost a match and had no bye, the
    fewest lost games, then the highest tau at the last lost game, then at random."""
    eligible = [p for p in once_beaten
                if entrants[p].lost_match_in == k - 1 and not entrants[p].had_bye]
    if not eligible:
        raise Redraw(f"nobody is eligible for the bye in round {k}")
    draw = {p: rng.random() for p in eligible}
    return min(eligible, key=lambda p: (entrants[p].games_lost, -entrants[p].tau_at_last_loss,
                                        draw[p]))


@dataclass
class MatchEvent:
    rounds: list[list[tuple[int | None, int | None, str, str, int | None]]]
    """Per round: (table, game, player, result, tau) rows in file order."""
    champion: str
    runner_up: str
    byes: list[tuple[int, str]]


def simulate_matches(spec: EventSpec, roster: list[str], skills: dict[str, int],
                     rng: random.Random) -> MatchEvent:
    goal = TAU_GOAL[spec.format]
    entrants = {p: Entrant(p) for p in roster}
    unbeaten = rng.sample(roster, len(roster))  # kept in bracket order
    once_beaten: list[str] = []                  # kept in the order they dropped down
    rounds = []
    byes = []
    last_final: tuple[str, str] | None = None
    k = 0
    while len(unbeaten) + len(once_beaten) > 1:
        k += 1
        pairs: list[tuple[str, str]] = []
        bye = None
        if len(unbeaten) == 1 and len(once_beaten) == 1:  # the grand final
            pairs = [(unbeaten[0], once_beaten[0])]
        else:
            pairs += [(unbeaten[i], unbeaten[i + 1]) for i in range(0, len(unbeaten) - 1, 2)]
            losers = list(once_beaten)
            if len(losers) % 2:
                bye = bye_for(losers, entrants, k, rng)
                losers.remove(bye)
            if last_final is not None and set(losers) == set(last_final):
                pairs.append(last_final)  # the reset final: the same two, unbeaten one first
            else:
                pairs += pair_without_rematch(losers, entrants, rng)
        last_final = pairs[0] if len(unbeaten) == 1 and len(once_beaten) == 1 else None

        rows: list[tuple[int | None, int | None, str, str, int | None]] = []
        next_unbeaten = [p for p in unbeaten if not any(p in pair for pair in pairs)]  # idle
        next_once = [p for p in once_beaten if p == bye]
        dropped_down = []
        for table, (a, b) in enumerate(pairs, start=1):
            winner, games = play_match(a, b, skills, goal, rng)
            loser = b if winner == a else a
            entrants[a].met.append(b)
            entrants[b].met.append(a)
            for game, player, result, tau in games:
                rows.append((table, game, player, result, tau))
                if result == "loss":
                    entrants[player].games_lost += 1
                    entrants[player].tau_at_last_loss = tau
            entrants[loser].losses += 1
            entrants[loser].lost_match_in = k
            for player in (winner, loser):
                if entrants[player].losses == 0:
                    next_unbeaten.append(player)
                elif entrants[player].losses == 1:
                    (dropped_down if player == loser else next_once).append(player)
        if bye is not None:
            entrants[bye].had_bye = True
            byes.append((k, bye))
            rows.append((None, None, bye, "bye", None))
        unbeaten = next_unbeaten  # winners in table order: table 1's meets table 2's next
        once_beaten = next_once + dropped_down
        rounds.append(rows)
        if k > 20:
            raise SystemExit(f"{spec.slug}: the bracket does not finish")

    champion = (unbeaten + once_beaten)[0]
    final = next(r for r in rounds[-1] if r[2] != champion and r[3] != "bye")
    if len(byes) != 1:
        raise Redraw(f"{len(byes)} byes")
    return MatchEvent(rounds, champion, final[2], byes)


# ---------------------------------------------------------------- writing


def write_event(spec: EventSpec, rounds: list[list[tuple]]) -> None:
    folder = EVENTS / spec.slug
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    judges = ", ".join(toml_string(j) for j in spec.judges)
    elimination = f"elimination = {toml_string(spec.elimination)}\n" if spec.elimination else ""
    (folder / "event.toml").write_text(
        f"name = {toml_string(spec.name)}\n"
        f"date = {spec.date.isoformat()}\n"
        f'game = "heresy"\n'
        f"format = {toml_string(spec.format)}\n"
        f"{elimination}"
        f"location = {toml_string(spec.location)}\n"
        f"organizer = {toml_string(spec.organizer)}\n"
        f"judges = [{judges}]\n",
        encoding="utf-8")
    header = (("table", "game", "player", "result", "tau") if spec.format == "armageddon"
              else ("table", "player", "result", "tau"))
    for number, rows in enumerate(rounds, start=1):
        write_csv(folder / f"round-{number}.csv", header, rows)


def generate(spec: EventSpec, roster: list[str], skills: dict[str, int],
             index: int) -> TableEvent | MatchEvent:
    """The event from the first seed that makes a good demo."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(MASTER_SEED * 100 + index * 1000 + attempt)
        try:
            if spec.format == "armageddon":
                return simulate_matches(spec, roster, skills, rng)
            return simulate_tables(spec, roster, skills, rng)
        except Redraw:
            continue
    raise SystemExit(f"{spec.slug}: no good draw in {MAX_ATTEMPTS} attempts")


def summary(spec: EventSpec, event: TableEvent | MatchEvent) -> str:
    if isinstance(event, MatchEvent):
        byes = ", ".join(f"{name} (round {k})" for k, name in event.byes)
        return (f"{len(event.rounds)} rounds; champion {event.champion}, runner-up "
                f"{event.runner_up}; bye: {byes}")
    leader = max(event.totals, key=lambda p: event.totals[p])
    timed = [f"round {k} table {t}" for k, rows in enumerate(event.rounds, start=1)
             for t in sorted({r[0] for r in rows if r[2] == "time"})]
    return (f"{len(event.rounds)} rounds; top: {leader} ({event.totals[leader]} points); "
            f"out of time: {', '.join(timed) or 'none'}")


def main() -> None:
    rng = random.Random(MASTER_SEED)
    skills = make_skills(rng)
    rosters = choose_rosters(rng)
    for index, spec in enumerate(SPECS):
        event = generate(spec, rosters[spec.slug], skills, index)
        write_event(spec, event.rounds)
        print(f"data/events/{spec.slug}: {spec.size} players, {summary(spec, event)}")


if __name__ == "__main__":
    main()
