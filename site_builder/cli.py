"""The `site-builder` command: build, check and serve a results site."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import __version__
from .core.notice import ProgressLine
from .core.problems import (EXIT_ERRORS, EXIT_OK, DataError, ProblemLog, SiteError, one_line,
                            print_problems, system_error, terminal_safe)

def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except DataError as exc:
        print_problems(exc.problems, args.source)
        errors = sum(p.is_error for p in exc.problems)
        verdict = (f"{_count(errors, 'error')}" if errors else
                   f"{_count(len(exc.problems), 'warning')} (--strict makes them errors)")
        after = ("nothing was written; the previous site in "
                 f"{args.out}/ is unchanged" if args.command == "build" else "")
        print(terminal_safe(f"{verdict}{': ' + after if after else ''}."), file=sys.stderr)
        return EXIT_ERRORS
    except SiteError as exc:
        print(f"site-builder: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_ERRORS
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`site-builder pair … | head`): no message
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:  # a full disk, a folder the user may not write or read
        kept = (f"; the previous site in {args.out}/ is unchanged"
                if args.command == "build" else "")
        print(one_line(f"site-builder: {system_error(exc, args.out)}{kept}."), file=sys.stderr)
        return EXIT_ERRORS
    except Exception as exc:  # a bug of ours: one line the organizer can report, no traceback
        if os.environ.get("SITE_BUILDER_TRACEBACK"):
            raise
        print(one_line(f"site-builder: internal error: {type(exc).__name__}: {exc}. This is a "
                       "bug in site-builder: please report it (SITE_BUILDER_TRACEBACK=1 shows "
                       "where)."), file=sys.stderr)
        return EXIT_ERRORS


class _Parser(argparse.ArgumentParser):
    """argparse, with what its errors quote (`unrecognized arguments: …`, a bad --port) escaped
    as every message is: an argument can be a name pasted from a registration."""

    def __init__(self, *args, arguments: Callable[[argparse.ArgumentParser], None] | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.arguments = arguments
        """Adds the command's arguments once it is the command run: pair's ask the games for
        their flags, which other commands and `--help` must not wait for the games to load."""

    def complete(self) -> None:
        """Adds the deferred arguments now (parsing does it; so can a test listing options)."""
        if self.arguments is not None:
            add, self.arguments = self.arguments, None
            add(self)

    def parse_known_args(self, args=None, namespace=None):
        self.complete()
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        super().error(terminal_safe(message))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="site-builder",
        description="Publish card-game tournament results as a static website.")
    parser.add_argument("--version", action="version", version=f"site-builder {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_build, _add_check, _add_pair, _add_watch, _add_serve, _add_desk, _add_new,
                _add_import):
        add(commands)
    return parser


def _source_and_strict(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--source", default=".", metavar="DIR",
                     help="the results site: site.toml, data/, content/, themes/ (default: .)")
    sub.add_argument("--strict", action="store_true", help="treat warnings as errors")


def _out_and_base_url(sub: argparse.ArgumentParser, base_url_help: str) -> None:
    sub.add_argument("--out", default="_site", metavar="DIR", help="output folder (default: _site)")
    sub.add_argument("--base-url", metavar="URL", help=base_url_help)


def _add_build(commands) -> None:
    sub = commands.add_parser("build", help="build the site into the output folder")
    _source_and_strict(sub)
    _out_and_base_url(sub, "path or URL the site is served under, e.g. /my-league/ (default: "
                           "base_url in site.toml, else /)")
    sub.add_argument("--clean", action="store_true",
                     help="ignore what the last build left (its state file beside the output) "
                          "and render every page")
    sub.set_defaults(run=_run_build)


def _add_check(commands) -> None:
    sub = commands.add_parser("check", help="validate the data without writing anything")
    _source_and_strict(sub)
    sub.set_defaults(run=_run_check, out=None)


def _add_pair(commands) -> None:
    sub = commands.add_parser(
        "pair", help="form an event's next round by its game's rules and write it as "
                     "round-<n>.csv with the results empty", arguments=_pair_arguments)
    sub.set_defaults(run=_run_pair, out=None, source=".")


def _pair_arguments(sub: argparse.ArgumentParser) -> None:
    from .rules import pair_flags  # here: only `pair` loads the games (see _Parser.arguments)

    sub.add_argument("folder", metavar="EVENT_FOLDER", help="the event: data/events/<slug>")
    sub.add_argument("--seed", type=int, metavar="N",
                     help="the draw's seed (default: from the event's seed and the round)")
    sub.add_argument("--drop", action="append", default=[], metavar="NAME",
                     help="a player who leaves before this round (repeatable)")
    sub.add_argument("--add", action="append", default=[], metavar="NAME",
                     help="a late arrival, or a player rejoining (repeatable)")
    for flag, text in pair_flags().items():  # each game's own (Ruleset.pair_flags)
        sub.add_argument(flag, action="append_const", const=flag, dest="flags", help=text)
    sub.add_argument("--dry-run", action="store_true", help="print the pairings, write nothing")
    sub.set_defaults(flags=[])


def _add_watch(commands) -> None:
    sub = commands.add_parser(
        "watch", help="build, then rebuild what changed whenever data/, content/, themes/ or "
                      "site.toml change")
    _source_and_strict(sub)
    _out_and_base_url(sub, "as for build")
    sub.set_defaults(run=_run_watch)


def _add_serve(commands) -> None:
    sub = commands.add_parser(
        "serve", help="watch, and serve the site on 127.0.0.1 with pages that reload themselves")
    _source_and_strict(sub)
    _out_and_base_url(sub, "as for build")
    sub.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    sub.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default: 127.0.0.1, this computer only)")
    sub.set_defaults(run=_run_serve)


def _add_desk(commands) -> None:
    sub = commands.add_parser(
        "desk", help="serve, and run events from the browser: results entered per table, "
                     "reports from players' phones, the wall with pairings and the timer")
    _source_and_strict(sub)
    _out_and_base_url(sub, "as for build")
    sub.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    sub.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default: 127.0.0.1, this computer only; "
                          "0.0.0.0 for the venue's network, phones included)")
    sub.set_defaults(run=_run_desk)


def _run_desk(args: argparse.Namespace) -> int:
    from .desk.run import DeskLoop
    return DeskLoop(Path(args.source), Path(args.out), args.base_url, args.host, args.port).run()


def _add_new(commands) -> None:
    sub = commands.add_parser(
        "new", help="start a league: a new folder with site.toml, data/, content/, an example "
                    "event and the GitHub Pages workflow", arguments=_new_arguments)
    sub.set_defaults(run=_run_new, source=".", out=None)


def _new_arguments(sub: argparse.ArgumentParser) -> None:
    from .organizer.newleague import example_games  # here: only `new` reads the games

    sub.add_argument("folder", metavar="FOLDER", help="a new or empty folder")
    sub.add_argument("--title", help="the league's name (default: from the folder's name)")
    games = example_games()
    sub.add_argument("--game", choices=games,
                     help=f"the example event's game: {', '.join(games)} (default: {games[0]})")
    sub.add_argument("--install", metavar="REQUIREMENT",
                     help="how the workflow installs the tool (default: site-builder==<this "
                          "version>; or git+https://…@<tag>)")


def _run_new(args: argparse.Namespace) -> int:
    from .organizer.newleague import run_new
    return run_new(args)


def _add_import(commands) -> None:
    sub = commands.add_parser(
        "import", help="make an event folder from an NRTM JSON results file (as Cobra exports "
                       "it), with a report of what it could not carry")
    sub.add_argument("file", metavar="FILE", help="the NRTM .json file")
    sub.add_argument("--source", default=".", help="the site's folder (default: .)")
    sub.add_argument("--game", default="netrunner",
                     help="the declared game of the event (default: netrunner)")
    sub.set_defaults(run=_run_import, out=None)


def _run_import(args: argparse.Namespace) -> int:
    from .organizer.nrtmimport import run_import
    return run_import(Path(args.file), Path(args.source), args.game.strip().lower())


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0–65535)")
    return int(text)


def _run_build(args: argparse.Namespace) -> int:
    from .build import build  # here, not above: `--help` answers without the build's imports

    started = time.perf_counter()
    progress = ProgressLine() if sys.stderr.isatty() else None
    result = build(Path(args.source), Path(args.out), args.base_url, args.strict, progress,
                   clean=args.clean)
    if progress:
        progress.clear()
    print_problems(result.problems, args.source)
    _print_summary(result, args.source, args.out, time.perf_counter() - started)
    from .live.session import state_notes
    for note in state_notes(result):
        print(terminal_safe(f"site-builder: {note}"), file=sys.stderr)
    return EXIT_OK


def _run_check(args: argparse.Namespace) -> int:
    from .build import check

    result = check(Path(args.source), strict=args.strict)
    print_problems(result.problems, args.source)
    found = _count(len(result.warnings), "warning") if result.warnings else "no problems"
    print(f"Checked {_count(result.events, 'event')}: {found}.")  # the result: stdout
    return EXIT_OK


def _run_pair(args: argparse.Namespace) -> int:
    from .organizer.pairterminal import run_pair
    return run_pair(args)


def _run_watch(args: argparse.Namespace) -> int:
    from .live.loop import WatchLoop
    return WatchLoop(Path(args.source), Path(args.out), args.base_url).run()


def _run_serve(args: argparse.Namespace) -> int:
    from .league.config import load_config
    from .live.loop import Serving, WatchLoop
    from .live.serve import LiveState, make_server, served_url

    config = load_config(Path(args.source), ProblemLog()).with_base_url(args.base_url)
    live = LiveState(config.base_url.path)
    server = make_server(Path(args.out), config.base_url.path, args.host, args.port, live)
    serving = Serving(server, live, served_url(server, config.base_url.path))
    return WatchLoop(Path(args.source), Path(args.out), args.base_url, serving).run()



def _print_summary(result, source: str, out: str, seconds: float) -> None:
    stages = " · ".join(f"{name} {secs:.2f}s" for name, secs in result.timings.items())
    warnings = f", {_count(len(result.warnings), 'warning')}" if result.warnings else ""
    print(terminal_safe(
        f"Built {_count(result.events, 'event')}, {_count(result.pages, 'page')} "
        f"({result.files} files: {result.rendered} rendered, {result.written} written"
        f"{f', {result.deleted} deleted' if result.deleted else ''}) into {out}/ in "
        f"{seconds:.2f}s{warnings}  [{stages}]"), file=sys.stderr)
    if not result.events:
        print(terminal_safe(f"No events yet: add a folder {Path(source) / 'data' / 'events'}/"
                            "<slug>/ with an event.toml and its round files, then build "
                            "again."), file=sys.stderr)
    options = "".join(f" --{name} {value}" for name, value in (("source", source), ("out", out))
                      if value not in (".", "_site"))
    print(terminal_safe(f"Preview: {_invocation()} serve{options}  →  "
                        f"http://127.0.0.1:8000{result.config.base_url.path}  (rebuilds as "
                        "you edit)"), file=sys.stderr)


def _invocation() -> str:
    """How the user can run this same command again: `site-builder` when that is on PATH, else
    the path they used (.venv/bin/site-builder) or `python -m site_builder`."""
    program = Path(sys.argv[0])
    if program.name == "__main__.py":
        return "python -m site_builder"
    on_path = shutil.which(program.name)
    if on_path and Path(on_path).resolve() == program.resolve():
        return program.name
    return os.path.relpath(program) if program.is_absolute() else str(program)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


