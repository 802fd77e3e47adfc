"""Run a command and print its time and the peak of the summed resident memory of its process
tree (the build and its worker processes), sampled every 20 ms. `/usr/bin/time -v` reports the
largest single process only.

    python bench/peak_memory.py .venv/bin/site-builder build --clean --source DIR --out OUT

The sum counts pages that forked workers still share with the build once per process, so it is
an upper bound."""

from __future__ import annotations

import os
import subprocess
import sys
import time


def descendants(root: int) -> list[int]:
    """The process and every process under it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def resident_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> int:
    started = time.perf_counter()
    process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, sum(resident_kb(pid) for pid in descendants(process.pid)))
        time.sleep(0.02)
    print(f"{time.perf_counter() - started:.2f} s, peak resident memory of the process tree "
          f"{peak / 1024:.0f} MB, exit code {process.returncode}")
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
