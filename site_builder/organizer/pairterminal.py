"""`site-builder pair` at the terminal: the next round printed, written, and its drops recorded."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..league.drops import DROPS_FILE
from ..core.problems import (EXIT_ERRORS, EXIT_OK, DataError, one_line, print_problems,
                        terminal_safe)
from . import pair as command
from .pair import Request, plan_next_round, record_drops_said


def run_pair(args: argparse.Namespace) -> int:
    """The next round printed as the organizer reads it, then written (unless --dry-run),
    and the --drop names recorded in the event's drops.csv."""
    folder = Path(args.folder)
    site = os.path.normpath(folder / ".." / ".." / "..")  # how problems' paths are shown
    try:
        next_round = plan_next_round(Request(folder, args.seed, args.drop, args.add,
                                             frozenset(args.flags)))
    except DataError as exc:
        print_problems(exc.problems, site)
        print("Nothing was written.", file=sys.stderr)
        return EXIT_ERRORS
    shown = os.path.relpath(next_round.path) if not next_round.path.is_absolute() else next_round.path
    stage = "" if next_round.label == f"Round {next_round.number}" else \
        f" (round {next_round.number})"
    print(terminal_safe(f"{next_round.event_name}, {next_round.label}{stage}:"))
    width = max(len(str(t.number or "")) for t in next_round.tables)
    place = next_round.formed.place
    for table in next_round.tables:
        where = f"{place} {table.number:>{width}}" if table.number is not None else "Bye"
        print(terminal_safe(f"  {where:<{len(place) + 1 + width}}  {' – '.join(table.players)}"
                            + ("  (bye)" if table.bye and table.number is not None else "")))
    for note in next_round.notes:
        print(f"  {terminal_safe(note)}")
    for label, value in next_round.details:  # round 1: the event's structure, before play
        print(terminal_safe(f"  {label}: {value}"))
    games = sum(not t.bye for t in next_round.tables)
    byes = [name for t in next_round.tables if t.bye for name in t.players]
    summary = (f"{games} {place.lower()}{'s' if games != 1 else ''}"
               + (f", bye{'s' if len(byes) > 1 else ''}: {', '.join(byes)}" if byes else ""))
    if args.dry_run:
        print(terminal_safe(f"Dry run: {shown} not written ({summary})."))
        return EXIT_OK
    command.write_round(next_round)  # looked up when called: tests replace it
    print(terminal_safe(f"Wrote {shown}: {summary}. Enter each result in that file as its game "
                        "ends; serve and watch publish the pairings now."))
    said, failed = record_drops_said(next_round, os.path.join(os.path.dirname(shown), DROPS_FILE))
    for line in said:
        print(terminal_safe(line))
    if failed:
        print(one_line(failed), file=sys.stderr)
        return EXIT_ERRORS
    return EXIT_OK
