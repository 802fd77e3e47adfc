#!/usr/bin/env python3
"""Write deterministic demo data: four Warhammer 40,000: Conquest tournaments.

    .venv/bin/python scripts/make_demo_data.py

Writes the demo league's `data/players.csv` and `data/events/<slug>/` (in examples/northern-league/) (event.toml, round-<n>.csv, drops.csv
where players drop and, for the regional, players.csv). Every random choice comes from `random.Random` with a fixed seed, so
every run writes byte-identical files.

The pairings follow the Conquest Tournament Regulations (seed 001) exactly, ranked with the
project's own scorer so that byes and point groups agree with what the site computes:

* Swiss round 1: random pairs; with an odd number of players a random player gets the bye.
* Later Swiss rounds: with an odd number of players the bye goes to the lowest-ranked player
  who has not had one; then each point group, from most points down, is paired at random, an
  odd player out being paired with a random player of the next group. Nobody meets the same
  opponent twice (the search backtracks within those rules; if it cannot, the whole event is
  re-drawn from the next seed, so the data never needs a "float" the rules do not ask for).
* Top cut: the top C of the final Swiss standings who did not drop, seeded by Swiss rank;
  Game #k is seed k against seed C+1-k, then the winner of Game #i meets the winner of the
  i-th game from the end.

Results: each person has a hidden skill; a game is won by A with probability
1 / (1 + 10^((skill_B - skill_A) / 400)), and about 12% of games go to time and end as a
modified win for the winner.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.core.model import Event, EventInfo, PlayerRef, Registration, Round  # noqa: E402
from site_builder.rules import RULESETS  # noqa: E402
from site_builder.core.problems import ProblemLog  # noqa: E402
from site_builder.rules.conquest.rows import Row  # noqa: E402
from site_builder.rules.conquest.scoring import cut_players, swiss_games, swiss_standings  # noqa: E402
from site_builder.rules.conquest.structure import ConquestOptions, make_plan  # noqa: E402
from site_builder.rules.tiebreaks import default_seed  # noqa: E402

DATA = ROOT / "examples" / "northern-league" / "data"
EVENTS = DATA / "events"

MASTER_SEED = 40_000  # every random choice below derives from this
MODIFIED_WIN_RATE = 0.12
MAX_ATTEMPTS = 200
SEARCH_BUDGET = 20_000

FACTIONS = ("Space Marines", "Astra Militarum", "Orks", "Chaos", "Dark Eldar", "Eldar", "Tau",
            "Tyranids", "Necrons")

# The people: canonical spelling first. Kept in this fixed order; never iterate a set.
NAMES = (
    "Robert Mills", "Siobhán O'Neill", "Zoë Laurent", "José Álvarez", "Kwame Mensah",
    "Aiko Tanaka", "Lucía Ruiz Ortega", "Pieter van Dijk", "Priya Raman", "Tomasz Nowak",
    "Fatima Benali", "Liam Murphy", "Ngozi Okafor", "Björn Lindqvist", "Chen Wei",
    "Dmitri Volkov", "Amara Diallo", "Sofia Rossi", "Mateus Costa", "Hannah Schmidt",
    "Raj Patel", "Emily Clarke", "Jamal Washington", "Yusuf Demir", "Ingrid Haugen",
    "Oliver Bennett", "Marta Kowalska", "Kenji Watanabe", "Leila Haddad", "Declan Byrne",
    "Camille Dubois", "Tariq Hussain", "Nadia Petrova", "Gareth Pryce", "Isabela Santos",
    "Mohammed Al-Farsi", "Eleanor Hughes", "Finn Gallagher", "Grace Kim", "Samuel Adeyemi",
    "Rosa Jiménez", "Thomas Weber", "Ayesha Khan", "Callum MacLeod", "Lena Novak",
    "Daniel O'Brien", "Mia Johansson", "Arjun Mehta", "Chloé Martin", "Viktor Horváth",
    "Sarah Goldberg", "Kofi Boateng", "Hyun-woo Park", "Julia Becker", "Niamh Kelly",
    "Marcus Reid", "Elif Kaya", "Paulo Ferreira", "Anika Sharma", "Rhys Morgan",
)

# The local store's regulars: they play all four events.
REGULARS = ("Robert Mills", "Siobhán O'Neill", "Zoë Laurent", "José Álvarez", "Kwame Mensah",
            "Aiko Tanaka")

# data/players.csv: a handful of people with a chosen id (everyone else: a slug of the name).
DIRECTORY = (
    ("robert-mills", "Robert Mills", ("Rob Mills",)),
    ("siobhan-oneill", "Siobhán O'Neill", ()),
    ("lucia-ruiz", "Lucía Ruiz Ortega", ()),
    ("pieter-van-dijk", "Pieter van Dijk", ()),
    ("gareth-pryce", "Gareth Pryce", ("Gaz Pryce",)),  # SPELLFIRE: make_spellfire_demo.py
)


@dataclass(frozen=True)
class EventSpec:
    slug: str
    name: str
    date: dt.date
    structure: str
    tier: str
    location: str
    organizer: str
    judges: tuple[str, ...]
    size: int
    extra_regulars: int = 0
    """How many of the event's players besides the regulars come from the rest of the pool."""
    rounds_to_write: int | None = None
    """Write only this many rounds (an event still in progress)."""
    misses: tuple[int, ...] = ()
    """Rounds that one rejoining player misses (they come back the round after)."""
    drops: tuple[tuple[int, int], ...] = ()
    """(after round, most points): one player with at most that many points drops for good."""
    registrations: bool = False
    """Write the event's players.csv (player,faction)."""
    spelling: dict[str, str] = field(default_factory=dict)
    """Names written differently in this event's files."""


SPECS = (
    EventSpec(
        slug="2025-10-18-autumn-store-championship",
        name="Autumn Store Championship",
        date=dt.date(2025, 10, 18),
        structure="basic", tier="relaxed",
        location="The Warp Gate Games Café, Leeds",
        organizer="Hollie Sutcliffe",
        judges=("Hollie Sutcliffe",),
        size=8,
        registrations=True,
    ),
    EventSpec(
        slug="2026-03-14-spring-store-championship",
        name="Spring Store Championship",
        date=dt.date(2026, 3, 14),
        structure="basic", tier="formal",
        location="The Warp Gate Games Café, Leeds",
        organizer="Hollie Sutcliffe",
        judges=("Hollie Sutcliffe", "Andrew Penrose"),
        size=24,
        misses=(2,),
        drops=((2, 0), (3, 5)),
        registrations=True,
    ),
    EventSpec(
        slug="2026-06-13-northern-regional-championship",
        name="Northern Regional Championship",
        date=dt.date(2026, 6, 13),
        structure="advanced", tier="premier",
        location="Royal Armouries Conference Centre, Leeds",
        organizer="Northern Conquest League",
        judges=("Andrew Penrose", "Beatriz Moura", "Hollie Sutcliffe"),
        size=44,
        drops=((4, 10),),
        registrations=True,
    ),
    EventSpec(
        slug="2026-11-21-november-store-night",
        name="November Store Night",
        date=dt.date(2026, 11, 21),
        structure="basic", tier="relaxed",
        location="The Warp Gate Games Café, Leeds",
        organizer="Hollie Sutcliffe",
        judges=("Hollie Sutcliffe",),
        size=10,
        rounds_to_write=2,
        spelling={"Robert Mills": "Rob Mills"},
    ),
)


# ---------------------------------------------------------------- people


@dataclass(frozen=True)
class Person:
    name: str
    skill: float
    faction: str


def make_people(rng: random.Random) -> dict[str, Person]:
    people = {}
    for name in NAMES:
        skill = round(rng.gauss(1500, 170))
        people[name] = Person(name, skill, rng.choice(FACTIONS))
    return people


def choose_rosters(rng: random.Random) -> dict[str, list[str]]:
    """Each event's players: the regulars plus a draw from everyone else."""
    others = [n for n in NAMES if n not in REGULARS]
    rosters = {}
    for spec in SPECS:
        roster = list(REGULARS) + rng.sample(others, spec.size - len(REGULARS))
        rng.shuffle(roster)
        rosters[spec.slug] = roster
    return rosters


# ---------------------------------------------------------------- Swiss pairing


class PairingFailed(Exception):
    """No pairing within the seed's rules avoids a rematch (or the search ran too long)."""


def pair_point_groups(groups: list[list[str]], met: set[frozenset[str]],
                      rng: random.Random) -> list[tuple[str, str]]:
    """Pair point groups (most points first) as the seed's "Swiss Rounds" describes.

    Within a group, pairs are random; an odd player out is paired with a random player of the
    next group. The search backtracks over those random choices to avoid rematches and never
    floats anyone the procedure would not.
    """
    budget = [SEARCH_BUDGET]
    groups = [rng.sample(g, len(g)) for g in groups]

    def tick() -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise PairingFailed("search budget exhausted")

    def matching(players: list[str]) -> list[tuple[str, str]] | None:
        """A random perfect matching of `players` without rematches, or None."""
        tick()
        if not players:
            return []
        first, rest = players[0], players[1:]
        for partner in rng.sample(rest, len(rest)):
            if frozenset((first, partner)) in met:
                continue
            tail = matching([p for p in rest if p != partner])
            if tail is not None:
                return [(first, partner)] + tail
        return None

    def solve(index: int, floater: str | None) -> list[tuple[str, str]] | None:
        tick()
        if index == len(groups):
            return [] if floater is None else None
        members = groups[index]
        if floater is None:
            return pair_group(index, members)
        for partner in rng.sample(members, len(members)):
            if frozenset((floater, partner)) in met:
                continue
            rest = pair_group(index, [m for m in members if m != partner])
            if rest is not None:
                return [(floater, partner)] + rest
        return None

    def pair_group(index: int, members: list[str]) -> list[tuple[str, str]] | None:
        if len(members) % 2 == 0:
            pairs = matching(members)
            if pairs is None:
                return None
            tail = solve(index + 1, None)
            return None if tail is None else pairs + tail
        for leftover in rng.sample(members, len(members)):
            pairs = matching([m for m in members if m != leftover])
            if pairs is None:
                continue
            tail = solve(index + 1, leftover)
            if tail is not None:
                return pairs + tail
        return None

    result = solve(0, None)
    if result is None:
        raise PairingFailed("no pairing within the point-group rules avoids a rematch")
    return result


# ---------------------------------------------------------------- one event


def play(a: str, b: str, people: dict[str, Person], rng: random.Random) -> tuple[str, str, str]:
    """(winner, loser, the winner's result) of one game."""
    skill_a, skill_b = people[a].skill, people[b].skill
    p_a = 1 / (1 + 10 ** ((skill_b - skill_a) / 400))
    winner, loser = (a, b) if rng.random() < p_a else (b, a)
    kind = "modified-win" if rng.random() < MODIFIED_WIN_RATE else "win"
    return winner, loser, kind


@dataclass
class Simulated:
    rounds: list[Round]
    roster: list[str]
    drops: list[tuple[str, int]] = field(default_factory=list)
    """(player, the last round they played) of each drop, for the event's drops.csv."""


def round_path(slug: str, number: int) -> str:
    return f"data/events/{slug}/round-{number}.csv"


def make_round(slug: str, number: int, games: list[tuple[int | None, str, str]]) -> Round:
    """A Round from (table, player, result) rows in file order (line 1 is the header)."""
    rows = tuple(Row(line, table, player, result)
                 for line, (table, player, result) in enumerate(games, start=2))
    return Round(number, round_path(slug, number), rows)


def simulate(spec: EventSpec, roster: list[str], people: dict[str, Person],
             rng: random.Random) -> Simulated:
    """Play the event. `roster` holds the names as written in this event's files (the seeded
    tiebreak draws on them), `people` knows every spelling."""
    seed = default_seed(spec.slug)
    regulars = [spec.spelling.get(n, n) for n in REGULARS]
    registered = len(roster)
    plan = make_plan(ConquestOptions(spec.structure, None, None, spec.tier), registered)
    last_round = spec.rounds_to_write or plan.total_rounds

    # Who misses rounds: one rejoining player (chosen now), and drops (chosen when they happen,
    # among players out of contention).
    rejoiner = rng.choice(roster) if spec.misses else None
    dropped: list[str] = []
    drops: list[tuple[str, int]] = []
    drop_after = dict(spec.drops)

    rounds: list[Round] = []
    played: dict[int, dict] = {}
    met: set[frozenset[str]] = set()
    had_bye: list[str] = []

    for k in range(1, min(plan.swiss_rounds, last_round) + 1):
        present = [p for p in roster if p not in dropped and not (p == rejoiner and k in spec.misses)]
        bye = None
        if k == 1:
            order = rng.sample(present, len(present))
            if len(order) % 2:
                bye = order.pop(rng.randrange(len(order)))
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        else:
            standings = swiss_standings(played, k - 1, seed)
            rank = {row.name: row.rank for row in standings}
            points = {row.name: row.record.points for row in standings}
            by_rank = sorted(present, key=lambda p: rank[p])
            if len(by_rank) % 2:
                bye = next(p for p in reversed(by_rank) if p not in had_bye)
                by_rank.remove(bye)
            totals = sorted({points[p] for p in by_rank}, reverse=True)
            groups = [[p for p in by_rank if points[p] == t] for t in totals]
            pairs = pair_point_groups(groups, met, rng)

        games: list[tuple[int | None, str, str]] = []
        for table, (a, b) in enumerate(pairs, start=1):
            met.add(frozenset((a, b)))
            winner, loser, kind = play(a, b, people, rng)
            first, second = (a, b) if rng.random() < 0.5 else (b, a)
            for player in (first, second):
                games.append((table, player, kind if player == winner else "loss"))
        if bye is not None:
            had_bye.append(bye)
            games.append((None, bye, "bye"))
        round_ = make_round(spec.slug, k, games)
        rounds.append(round_)
        played[k] = swiss_games(round_)

        if k in drop_after and k < plan.swiss_rounds:
            after = swiss_standings(played, k, seed)
            candidates = [row.name for row in after
                          if not row.record.dropped and row.record.points <= drop_after[k]
                          and row.name != rejoiner and row.name not in regulars]
            if not candidates:
                raise PairingFailed(f"nobody to drop after round {k}")
            dropped.append(rng.choice(candidates))
            drops.append((dropped[-1], k))

    if last_round > plan.swiss_rounds and plan.cut:
        standings = swiss_standings(played, plan.swiss_rounds, seed)
        seeds = cut_players(standings, plan.cut)
        # Game #k: seed k against seed C+1-k.
        matches = [(seeds[i], seeds[len(seeds) - 1 - i]) for i in range(len(seeds) // 2)]
        for number in range(plan.swiss_rounds + 1, last_round + 1):
            games = []
            winners = []
            for game_number, (a, b) in enumerate(matches, start=1):
                winner, loser, kind = play(a, b, people, rng)
                first, second = (a, b) if rng.random() < 0.5 else (b, a)
                for player in (first, second):
                    games.append((game_number, player, kind if player == winner else "loss"))
                winners.append(winner)
            rounds.append(make_round(spec.slug, number, games))
            # New Game #i: winner of Game #i against the winner of the i-th game from the end.
            matches = [(winners[i], winners[len(winners) - 1 - i]) for i in range(len(winners) // 2)]

    return Simulated(rounds, roster, drops)


def problems_of(spec: EventSpec, rounds: list[Round], registered: list[str]) -> list[str]:
    """What the site itself would report for these rounds (should be nothing): the Conquest
    ruleset's own validation and scoring warnings, through its public protocol."""
    info = EventInfo(spec.slug, spec.name, spec.date, "conquest", spec.structure, None, None, (),
                     default_seed(spec.slug), None)
    event = Event(info, f"data/events/{spec.slug}",
                  ConquestOptions(spec.structure, None, None, spec.tier), tuple(rounds),
                  tuple(Registration(name, line) for line, name in enumerate(registered, start=2)),
                  {name: PlayerRef(name, name) for name in registered})
    ruleset = RULESETS["conquest"]
    log = ProblemLog()
    ruleset.validate(event, log)
    if not log.has_errors():
        log.extend(list(ruleset.score(event).warnings))
    return [str(p) for p in log.problems]


def generate(spec: EventSpec, roster: list[str], people: dict[str, Person], index: int) -> Simulated:
    """The event from the first seed whose pairings the rules allow without any warning."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(MASTER_SEED * 100 + index * 1000 + attempt)
        try:
            simulated = simulate(spec, roster, people, rng)
        except PairingFailed:
            continue
        problems = problems_of(spec, simulated.rounds, roster)
        if not problems:
            return simulated
    raise SystemExit(f"{spec.slug}: no clean draw in {MAX_ATTEMPTS} attempts")


# ---------------------------------------------------------------- writing


def write_csv(path: Path, header: tuple[str, ...], rows: list[tuple]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow(["" if cell is None else cell for cell in row])


def toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_event(spec: EventSpec, simulated: Simulated, people: dict[str, Person]) -> None:
    folder = EVENTS / spec.slug
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    judges = ", ".join(toml_string(j) for j in spec.judges)
    (folder / "event.toml").write_text(
        f"name = {toml_string(spec.name)}\n"
        f"date = {spec.date.isoformat()}\n"
        f'game = "conquest"\n'
        f"structure = {toml_string(spec.structure)}\n"
        f"tier = {toml_string(spec.tier)}\n"
        f"location = {toml_string(spec.location)}\n"
        f"organizer = {toml_string(spec.organizer)}\n"
        f"judges = [{judges}]\n",
        encoding="utf-8")

    if spec.registrations:
        write_csv(folder / "players.csv", ("player", "faction"),
                  [(n, people[n].faction) for n in simulated.roster])
    for round_ in simulated.rounds:
        write_csv(folder / f"round-{round_.number}.csv", ("table", "player", "result"),
                  [(row.table, row.player, row.result) for row in round_.rows])
    if simulated.drops:  # who left, so that check does not ask about their missing rows
        write_csv(folder / "drops.csv", ("player", "after_round"), simulated.drops)


def write_directory() -> None:
    write_csv(DATA / "players.csv", ("id", "name", "aliases"),
              [(pid, name, "|".join(aliases)) for pid, name, aliases in DIRECTORY])


def main() -> None:
    rng = random.Random(MASTER_SEED)
    people = make_people(rng)
    rosters = choose_rosters(rng)
    write_directory()
    for name, spelling in [(n, s) for spec in SPECS for n, s in spec.spelling.items()]:
        people[spelling] = people[name]
    for index, spec in enumerate(SPECS):
        roster = [spec.spelling.get(n, n) for n in rosters[spec.slug]]
        simulated = generate(spec, roster, people, index)
        write_event(spec, simulated, people)
        print(f"data/events/{spec.slug}: {len(simulated.roster)} players, "
              f"{len(simulated.rounds)} rounds")


if __name__ == "__main__":
    main()
