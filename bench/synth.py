"""A seeded synthetic results archive for the benchmark: many Conquest events, recurring people.

    python bench/synth.py OUT_DIR [--events 1000]

Events have 8–150 players (even counts, so no byes), Basic or Advanced structure, Swiss pairings
by point groups without rematches (the regulations' procedure) and, after a cut, seeded single
elimination. People recur: each event draws from a shared pool with a few regulars who play
often. The same arguments always write the same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.core.model import Round  # noqa: E402
from site_builder.rules.conquest.rows import Row  # noqa: E402
from site_builder.rules.conquest.scoring import cut_players, swiss_games, swiss_standings  # noqa: E402
from site_builder.rules.conquest.structure import ConquestOptions, make_plan  # noqa: E402
from site_builder.rules.tiebreaks import default_seed  # noqa: E402

FIRST = ("Ada Bram Cleo Dmitri Eun-ji Farah Gus Hana Ivo Jun Kai Lena Mira Nils Oona Pia Quinn "
         "Rafa Sana Tomas Uma Vik Wren Xia Yusuf Zoë Amir Bea Cyrus Dana Emil Fern Gael Hugo "
         "Ines Joss Kira Luca Maya Noor Otto Petra Rumi Saul Tara Ugo Vera Wim Yara Zane").split()
LAST = ("Abbott Baker Cohen Diaz Evans Fischer Garcia Horvath Ito Jensen Kowalski Larsen Moreau "
        "Nakamura Okafor Petrov Quinlan Rossi Silva Tanaka Ueda Varga Weber Xu Yilmaz Zhou "
        "Andersen Brennan Costa Dubois").split()
SEED = 20261122


def people(rng: random.Random, count: int) -> list[str]:
    names = sorted({f"{f} {m}. {l}" for f in FIRST for m in "ABCD" for l in LAST})
    rng.shuffle(names)
    return names[:count]


def roster(rng: random.Random, pool: list[str], size: int) -> list[str]:
    """Players weighted towards the front of the pool (weight 1/(rank + 30)): the most regular
    people play a few hundred of a thousand events, most people a handful."""
    keyed = sorted(pool, key=lambda p: rng.random() ** (pool_rank[p] + 30), reverse=True)
    return keyed[:size]


def swiss_pairs(rng: random.Random, points: dict[str, int], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Top point group down, random within a group, the odd player floats; no rematches."""
    for _ in range(50):
        order = sorted(points, key=lambda p: (-points[p], rng.random()))
        pairs, left = [], order[:]
        while left:
            a = left.pop(0)
            b = next((p for p in left if frozenset((a, p)) not in met), left[0])
            left.remove(b)
            pairs.append((a, b))
        if all(frozenset(p) not in met for p in pairs):
            return pairs
    return pairs


def play(rng: random.Random, skill: dict[str, float], a: str, b: str) -> tuple[str, str, str]:
    """(winner, loser, 'win' or 'modified-win')."""
    chance = 1 / (1 + 10 ** ((skill[b] - skill[a]) / 400))
    winner, loser = (a, b) if rng.random() < chance else (b, a)
    return winner, loser, "modified-win" if rng.random() < 0.1 else "win"


def cut_of(rounds: list[list[tuple[int, str, str]]], cut: int, seed: int) -> list[str]:
    """The top `cut` of the real Swiss standings (the project's own scorer, tiebreaks included)."""
    if not cut:
        return []
    played = {n: swiss_games(Round(n, "", tuple(Row(i, t, p, r) for i, (t, p, r) in enumerate(rows))))
              for n, rows in enumerate(rounds, start=1)}
    return cut_players(swiss_standings(played, len(rounds), seed), cut)


def event_rounds(rng: random.Random, players: list[str], skill: dict[str, float],
                 structure: str, seed: int) -> list[list[tuple[int, str, str]]]:
    plan = make_plan(ConquestOptions(structure, None, None, None), len(players))
    points = dict.fromkeys(players, 0)
    met: set[frozenset[str]] = set()
    rounds = []
    for _ in range(plan.swiss_rounds):
        rows = []
        for table, (a, b) in enumerate(swiss_pairs(rng, points, met), start=1):
            winner, loser, result = play(rng, skill, a, b)
            points[winner] += 5 if result == "win" else 4
            met.add(frozenset((a, b)))
            rows += [(table, winner, result), (table, loser, "loss")]
        rounds.append(rows)
    seeds = cut_of(rounds, plan.cut, seed)
    games = [(seeds[k], seeds[len(seeds) - 1 - k]) for k in range(len(seeds) // 2)]
    while games:
        rows, winners = [], []
        for number, (a, b) in enumerate(games, start=1):
            winner, loser, result = play(rng, skill, a, b)
            rows += [(number, winner, result), (number, loser, "loss")]
            winners.append(winner)
        rounds.append(rows)
        games = [(winners[i], winners[len(winners) - 1 - i]) for i in range(len(winners) // 2)]
    return rounds


pool_rank: dict[str, int] = {}


def write_archive(out: Path, events: int) -> None:
    rng = random.Random(SEED)
    pool = people(rng, 5000)
    pool_rank.update({p: i for i, p in enumerate(pool)})
    skill = {p: rng.gauss(1500, 200) for p in pool}
    if out.exists():
        shutil.rmtree(out)
    (out / "data" / "events").mkdir(parents=True)
    (out / "site.toml").write_text('title = "Benchmark archive"\n', encoding="utf-8")
    start = dt.date(2010, 1, 2)
    for index in range(events):
        size = rng.randrange(8, 151) // 2 * 2
        date = start + dt.timedelta(days=index * 5 + rng.randrange(5))
        slug = f"{date.isoformat()}-event-{index:04d}"
        structure = "advanced" if size >= 13 and rng.random() < 0.3 else "basic"
        folder = out / "data" / "events" / slug
        folder.mkdir()
        (folder / "event.toml").write_text(
            f'name = "Synthetic event {index}"\ndate = {date.isoformat()}\ngame = "conquest"\n'
            f'structure = "{structure}"\nlocation = "Venue {index % 40}"\n', encoding="utf-8")
        rounds = event_rounds(rng, roster(rng, pool, size), skill, structure, default_seed(slug))
        for number, rows in enumerate(rounds, start=1):
            lines = ["table,player,result"] + [f"{t},{p},{r}" for t, p, r in rows]
            (folder / f"round-{number}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--events", type=int, default=1000)
    args = parser.parse_args()
    write_archive(args.out, args.events)
    print(f"wrote {args.events} events to {args.out}")


if __name__ == "__main__":
    main()
