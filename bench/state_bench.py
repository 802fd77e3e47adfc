"""The build state's costs on a built site: reading it, writing it, and checking every published
page against its record (what a new process's first build does).

    python bench/state_bench.py OUT [--runs 5]

OUT is an output folder built by site-builder, with its state beside it (`OUT.state`), e.g. the
`hugo_ratio.py` archive built with `site-builder build --source ARCHIVE --out ARCHIVE/_site`.
The state is read whatever version of the code wrote it (the code digest is taken from its own
header), so the figures stay comparable while the code changes. Prints medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.build.ondisk import check_output  # noqa: E402
from site_builder.build.state import (MAGIC, Header, _LENGTH, BuildState, load_state,  # noqa: E402
                                save_state, state_file)
from site_builder.core.statecodec import unpack  # noqa: E402


def written_by(out: Path) -> str:
    """The code digest in the state's header."""
    with open(state_file(out), "rb") as handle:
        head = handle.read(len(MAGIC) + _LENGTH.size)
        (length,) = _LENGTH.unpack(head[len(MAGIC):])
        return unpack(handle.read(length)[1:], Header).code


def median_seconds(work, runs: int) -> tuple[float, object]:
    times, made = [], None
    for _ in range(runs):
        started = time.perf_counter()
        made = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    code = written_by(args.out)
    read, state = median_seconds(lambda: load_state(args.out, code), args.runs)
    if not isinstance(state, BuildState):
        raise SystemExit(f"the state beside {args.out} was not read: {state}")
    checked, on_disk = median_seconds(lambda: check_output(args.out, state), args.runs)
    written, _ = median_seconds(lambda: save_state(args.out, state), args.runs)
    pages = sum(len(unit.pages) for unit in state.events.values()) + len(state.pages)
    size = state_file(args.out).stat().st_size
    print(f"state {size / 1e6:.1f} MB, {len(state.events)} events, {pages} pages | read "
          f"{read:.3f} s | pages checked {checked:.3f} s ({len(on_disk.changed)} changed) | "
          f"written {written:.3f} s   (medians of {args.runs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
