"""One event's way through the per-event pipeline, as data follows it: the modules it visits,
in order, and how often it comes back to a module it had left (issue 31).

    .venv/bin/python bench/event_way.py [module:function]

Builds a copy of the tests' demo league, with decks registered for its event in progress (so
every stage runs: the absence check, decks and their metagame section, pages drawn), and traces
that one event's call of the pipeline function (`sys.setprofile`).

The way is the order in which the event first reaches each function, by module: a loop (one
call per player, per page) counts once. A frame outside site_builder (the standard library,
Jinja), of core/ (the vocabulary every stage uses), of a special method (a dataclass's
__init__, the __repr__ a digest reads) or of a property (a value read) is part of its caller's
stay. The game's modules (rules/…)
count as one, "rules". Two depths are shown: 1, the modules the pipeline's module hands the
event to (its stages); 2, those and the modules they call in turn. The pipeline's own module is
the walker, not a stay.

A stay is a run of the way in one module; coming back to a module the way had left is a climb
back.
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from conftest import copy_demo  # noqa: E402
from site_builder.build import engine as engine_module  # noqa: E402
from site_builder.build.engine import Engine  # noqa: E402

SLUG = "2026-11-21-november-store-night"
DECKS = ("Space Marines", "Orks", "Eldar", "Tyranids")
Call = tuple[int, str, str, bool]
"""(how many modules below the pipeline's, module, function, whether its caller is in another
module)."""


def module_of(name: str) -> str:
    name = name.removeprefix("site_builder.")
    return "rules" if name.startswith("rules") else name


def transparent(frame) -> bool:
    module, function = frame.f_globals.get("__name__", ""), frame.f_code.co_name
    return (not module.startswith("site_builder.") or module.startswith("site_builder.core.")
            or (function.startswith("__") and function.endswith("__")) or is_property(frame))


def is_property(frame) -> bool:
    """A property's getter: reading a value, as an attribute is read."""
    owner = frame.f_locals.get("self")
    found = getattr(type(owner), frame.f_code.co_name, None) if owner is not None else None
    return isinstance(found, property) and found.fget.__code__ is frame.f_code


def traced_calls(target: str) -> list[Call]:
    """Every call of one event's way through `target` (module:function), in order."""
    module_name, function_name = target.split(":")
    module = importlib.import_module(module_name)
    real = getattr(module, function_name)
    calls: list[Call] = []
    stack: list[tuple[str, int]] = []

    def profile(frame, event, arg):
        if event == "call":
            if transparent(frame):
                stack.append(stack[-1] if stack else ("", 0))  # a frame of its caller's stay
                return
            name, function = module_of(frame.f_globals["__name__"]), frame.f_code.co_name
            caller, depth = stack[-1] if stack else (name, 0)
            depth += name != caller
            stack.append((name, depth))
            calls.append((depth, name, function, name != caller))
        elif event == "return" and stack:
            stack.pop()

    def traced(job, folder):
        if folder.name != SLUG:
            return real(job, folder)
        sys.setprofile(profile)
        try:
            return real(job, folder)
        finally:
            sys.setprofile(None)

    root = Path(tempfile.mkdtemp())
    try:
        source = copy_demo(root / "site")
        register_decks(source / "data/events" / SLUG)
        setattr(module, function_name, traced)
        setattr(engine_module, function_name, traced)
        Engine(source, root / "out", parallel=False).build(save=False)
    finally:
        setattr(module, function_name, real)
        setattr(engine_module, function_name, real)
        shutil.rmtree(root)
    return calls


def register_decks(folder: Path) -> None:
    """A players.csv naming a deck for everyone who plays in the event."""
    players = sorted({line.split(",")[1] for path in folder.glob("round-*.csv")
                      for line in path.read_text(encoding="utf-8").splitlines()[1:]})
    rows = "".join(f"{name},{DECKS[i % len(DECKS)]}\n" for i, name in enumerate(players))
    (folder / "players.csv").write_text("player,faction\n" + rows, encoding="utf-8")


def the_way(calls: list[Call], depth: int) -> list[tuple[str, str]]:
    """(module, function) in the order each is first reached, down to `depth`. The pipeline's
    own module is left out: it is what walks the event from stage to stage."""
    way = dict.fromkeys((module, function) for below, module, function, _ in calls
                        if 0 < below <= depth)
    return list(way)


def stages(calls: list[Call]) -> list[str]:
    """The functions of other modules that the pipeline's module calls, in order: its stages."""
    return list(dict.fromkeys(f"{module}.{function}" for below, module, function, entered
                              in calls if below == 1 and entered))


def stays(way: list[tuple[str, str]]) -> list[str]:
    runs: list[str] = []
    for module, _ in way:
        if not runs or runs[-1] != module:
            runs.append(module)
    return runs


def main() -> None:
    targets = [a for a in sys.argv[1:] if a != "-v"]
    target = targets[0] if targets else "site_builder.build.pipeline:event_outcome"
    calls = traced_calls(target)
    for depth in (1, 2):
        runs = stays(the_way(calls, depth))
        print(f"depth {depth}: {len(set(runs))} modules, {len(runs)} stays, "
              f"{len(runs) - len(set(runs))} climbs back")
        print("   ", " → ".join(runs))
        if "-v" in sys.argv:
            print("   ", ", ".join(f"{m}.{f}" for m, f in the_way(calls, depth)))
    print("stages:", " → ".join(stages(calls)))


if __name__ == "__main__":
    main()
