"""Times the Swiss pairing of `site-builder pair` on large synthetic events.

    .venv/bin/python bench/pair_bench.py [--players 2000] [--seeds 50] [--rounds 7]
    .venv/bin/python bench/pair_bench.py --one-group 100 200 500 --seeds 3
    .venv/bin/python bench/pair_bench.py --end-to-end [--players 2000] [--seeds 50]

Each seed plays a synthetic Conquest event of N players for R Swiss rounds (random round 1,
then by points with rematches avoided where a simple greedy can, Elo-like winners, one win in
ten a modified win, so point groups split as they do at real events) and times the pairing of
round R + 1 (`swiss.later_round`), the random draw seeded by the seed.

* default: the pure function on the event's standings (points, then a random order in a group).
  It says which seeds left the quick path (the seed's procedure, group by group) for the
  fallback matching, and how often a point group needed a matching because first come, first
  served left two who had met.
* --one-group N...: the fallback on one point group of N - 3 players below three leaders who
  have met each other (N even): the matching's growth with the size of a group.
* --end-to-end: the real command, `site-builder pair EVENT --dry-run --seed S` in a new process,
  on the event written as an event folder (loading, checking and scoring included).
* --profile: cProfile of one end-to-end `pair` run, in this process (the top 25 by cumulative).

Prints each seed's time, then min / median / max and the slowest seed. --timeout S abandons a
pairing after S seconds (counted as S, marked ">").
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.rules import swisspairing as swiss  # noqa: E402
from site_builder.rules.swisspairing import Entrant  # noqa: E402


class TimedOut(Exception):
    pass


Rows = list[tuple[str, str, str]]


def simulate(players: int, rounds: int, seed: int) -> tuple[list[Rows], list[Entrant]]:
    """The event's rounds (rows of table, player, result) and its standings as Entrants."""
    rng = random.Random(seed)
    names = [f"Player {k:04d}" for k in range(players)]
    skill = {n: rng.gauss(1500, 200) for n in names}
    points, met, byes = dict.fromkeys(names, 0), {n: set() for n in names}, set()
    played = []
    for number in range(1, rounds + 1):
        order = sorted(names, key=lambda n: (-points[n], rng.random())) if number > 1 else \
            rng.sample(names, len(names))
        rows = []
        if len(order) % 2:
            bye = next((n for n in reversed(order) if n not in byes), order[-1])
            order.remove(bye)
            byes.add(bye)
            points[bye] += 5
            rows.append(("", bye, "bye"))
        for table, (a, b) in enumerate(_greedy_pairs(order, met), start=1):
            chance = 1 / (1 + 10 ** ((skill[b] - skill[a]) / 400))
            winner, loser = (a, b) if rng.random() < chance else (b, a)
            result = "modified-win" if rng.random() < 0.1 else "win"
            points[winner] += 5 if result == "win" else 4
            met[a].add(b)
            met[b].add(a)
            rows += [(str(table), winner, result), (str(table), loser, "loss")]
        played.append(rows)
    ranked = sorted(names, key=lambda n: (-points[n], rng.random()))
    return played, [Entrant(n, points[n], n in byes, frozenset(met[n])) for n in ranked]


def _greedy_pairs(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Top down, each with the next one they have not met (the next one at all if none)."""
    left, pairs = list(order), []
    while left:
        a = left.pop(0)
        k = next((k for k, b in enumerate(left) if b not in met[a]), 0)
        pairs.append((a, left.pop(k)))
    return pairs


def one_group(size: int, seed: int) -> list[Entrant]:
    """Three leaders (15 points) who have met each other, over one group of size - 3 (10
    points, an odd count, after 3 random rounds among themselves): the leaders cannot be paired
    by point groups, so the fallback pairs all three down into the group, over all of it."""
    rng = random.Random(seed)
    leaders = ["Leader A", "Leader B", "Leader C"]
    group = [f"G{k:04d}" for k in range(size - 3)]
    met = {n: set() for n in group}
    for _ in range(3):
        order = rng.sample(group, len(group))
        for a, b in zip(order[::2], order[1::2]):
            met[a].add(b)
            met[b].add(a)
    return ([Entrant(n, 15, met=frozenset(set(leaders) - {n})) for n in leaders]
            + [Entrant(n, 10, met=frozenset(met[n])) for n in group])


def timed_pairing(entrants: list[Entrant], seed: int, timeout: float | None) -> tuple[float, str]:
    """Seconds for later_round, and which path it took."""
    calls = _count_calls()
    if timeout:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    started = time.perf_counter()
    try:
        pairing = swiss.later_round(entrants, random.Random(seed))
    except TimedOut:
        stage = "fallback" if calls["_fewest_pair_downs"] else "quick"
        return timeout, f"{stage}, > {timeout:.0f} s, abandoned"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.perf_counter() - started
    path = "fallback" if calls["_fewest_pair_downs"] else "quick"
    if calls["_match_group"]:
        count = calls["_match_group"]
        path += f", {count} group matching{'s' if count > 1 else ''}"
    return seconds, (f"{path}, {len(pairing.pair_downs)} pair-downs, "
                     f"{len(pairing.rematches)} rematches")


def _count_calls() -> dict[str, int]:
    """Counts the calls of the group matching (where first come, first served failed) and of
    the fallback, by wrapping them in the module."""
    calls = dict.fromkeys(("_match_group", "_fewest_pair_downs"), 0)
    for name in calls:
        original = getattr(swiss, f"{name}_unwrapped", getattr(swiss, name))

        def counted(*args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)
        setattr(swiss, f"{name}_unwrapped", original)
        setattr(swiss, name, counted)
    return calls


def write_event(folder: Path, played: list[Rows], players: int) -> Path:
    """The synthetic event as a site's event folder: custom structure, one more Swiss round."""
    event = folder / "data" / "events" / "2026-01-10-pair-bench"
    event.mkdir(parents=True)
    (folder / "site.toml").write_text('title = "Pair benchmark"\n', encoding="utf-8")
    (event / "event.toml").write_text(
        'name = "Pair benchmark"\ndate = 2026-01-10\ngame = "conquest"\nstructure = "custom"\n'
        f"swiss_rounds = {len(played) + 1}\ncut = 0\n", encoding="utf-8")
    (event / "players.csv").write_text(
        "player\n" + "".join(f"Player {k:04d}\n" for k in range(players)), encoding="utf-8")
    for number, rows in enumerate(played, start=1):
        (event / f"round-{number}.csv").write_text(
            "table,player,result\n" + "".join(f"{t},{p},{r}\n" for t, p, r in rows),
            encoding="utf-8")
    return event


def end_to_end(event: Path, seed: int) -> tuple[float, str]:
    command = [str(Path(sys.executable).with_name("site-builder")), "pair", str(event),
               "--dry-run", "--seed", str(seed)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"pair failed ({done.returncode}):\n{done.stderr}")
    notes = [line for line in done.stdout.splitlines() if line.startswith("  ")
             and not line.lstrip().startswith(("Table", "Bye"))]
    downs = sum(line.lstrip().startswith("pair-down") for line in notes)
    fallback = any("fewest pair-downs" in n or "as few as" in n for n in notes)
    return seconds, f"{'fallback' if fallback else 'quick'}, {downs} pair-downs"


def profile(event: Path, seed: int) -> None:
    from site_builder.organizer.pair import Request, plan_next_round
    profiler = cProfile.Profile()
    profiler.runcall(plan_next_round, Request(event, seed))
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def _time_out(*_) -> None:
    raise TimedOut


def report(label: str, times: list[tuple[float, int, str]]) -> None:
    seconds = [t for t, _, _ in times]
    slowest = max(times)
    print(f"{label}: min {min(seconds):.3f} s, median {statistics.median(seconds):.3f} s, "
          f"max {max(seconds):.3f} s (seed {slowest[1]}: {slowest[2]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7, help="Swiss rounds played before")
    parser.add_argument("--one-group", type=int, nargs="+", metavar="N")
    parser.add_argument("--end-to-end", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--timeout", type=float)
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _time_out)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    if args.one_group:
        for size in args.one_group:
            times = [(*timed_pairing(one_group(size, s), s, args.timeout), s) for s in seeds]
            for seconds, path, s in times:
                print(f"one group of {size}, seed {s}: {seconds:.3f} s ({path})", flush=True)
            report(f"one group of {size}", [(t, s, p) for t, p, s in times])
        return
    times, fallbacks, matchings = [], 0, 0
    for seed in seeds:
        played, entrants = simulate(args.players, args.rounds, seed)
        if args.end_to_end or args.profile:
            with tempfile.TemporaryDirectory() as work:
                event = write_event(Path(work), played, args.players)
                if args.profile:
                    profile(event, seed)
                    return
                seconds, path = end_to_end(event, seed)
        else:
            seconds, path = timed_pairing(entrants, seed, args.timeout)
        fallbacks += path.startswith("fallback")
        matchings += "group matching" in path
        times.append((seconds, seed, path))
        print(f"seed {seed}: {seconds:.3f} s ({path})", flush=True)
    what = "end-to-end pair" if args.end_to_end else "later_round"
    report(f"{what}, {args.players} players after {args.rounds} rounds, {len(times)} seeds", times)
    print(f"fallback matching in {fallbacks} of {len(times)} seeds" + (
        "" if args.end_to_end else f"; a group's matching in the quick path in {matchings}"))


if __name__ == "__main__":
    main()
