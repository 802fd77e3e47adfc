"""The `site-builder` command: build, check and serve a results site."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import __version__
from .core.problems import (EXIT_ERRORS, EXIT_OK, ConfigError, DataError, Problem, ProblemLog,
                       SiteError, one_line, print_problems, terminal_safe)

SIGNAL_CHECK_SECONDS = 0.2
"""How often watch and serve look for Ctrl-C or `kill` that the system gave another thread."""


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
        print(one_line(f"site-builder: {_system_error(exc, args.out)}{kept}."), file=sys.stderr)
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

    def parse_known_args(self, args=None, namespace=None):
        if self.arguments is not None:
            add, self.arguments = self.arguments, None
            add(self)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):
        super().error(terminal_safe(message))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="site-builder",
        description="Publish card-game tournament results as a static website.")
    parser.add_argument("--version", action="version", version=f"site-builder {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--source", default=".", metavar="DIR",
                         help="the results site: site.toml, data/, content/, themes/ (default: .)")
        sub.add_argument("--strict", action="store_true", help="treat warnings as errors")

    build_cmd = commands.add_parser("build", help="build the site into the output folder")
    common(build_cmd)
    build_cmd.add_argument("--out", default="_site", metavar="DIR", help="output folder (default: _site)")
    build_cmd.add_argument("--base-url", metavar="URL",
                           help="path or URL the site is served under, e.g. /my-league/ "
                                "(default: base_url in site.toml, else /)")
    build_cmd.add_argument("--clean", action="store_true",
                           help="ignore what the last build left (its state file beside the "
                                "output) and render every page")
    build_cmd.set_defaults(run=_run_build)

    check_cmd = commands.add_parser("check", help="validate the data without writing anything")
    common(check_cmd)
    check_cmd.set_defaults(run=_run_check, out=None)

    pair_cmd = commands.add_parser(
        "pair", help="form an event's next round by its game's rules and write it as "
                     "round-<n>.csv with the results empty", arguments=_pair_arguments)
    pair_cmd.set_defaults(run=_run_pair, out=None, source=".")

    def watching(sub: argparse.ArgumentParser) -> None:
        common(sub)
        sub.add_argument("--out", default="_site", metavar="DIR", help="output folder (default: _site)")
        sub.add_argument("--base-url", metavar="URL", help="as for build")

    watch_cmd = commands.add_parser(
        "watch", help="build, then rebuild what changed whenever data/, content/, themes/ or "
                      "site.toml change")
    watching(watch_cmd)
    watch_cmd.set_defaults(run=_run_watch)

    serve_cmd = commands.add_parser(
        "serve", help="watch, and serve the site on 127.0.0.1 with pages that reload themselves")
    watching(serve_cmd)
    serve_cmd.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    serve_cmd.add_argument("--host", default="127.0.0.1",
                           help="address to listen on (default: 127.0.0.1, this computer only)")
    serve_cmd.set_defaults(run=_run_serve)

    new_cmd = commands.add_parser(
        "new", help="start a league: a new folder with site.toml, data/, content/, an example "
                    "event and the GitHub Pages workflow")
    new_cmd.add_argument("folder", metavar="FOLDER", help="a new or empty folder")
    new_cmd.add_argument("--title", help="the league's name (default: from the folder's name)")
    new_cmd.add_argument("--install", metavar="REQUIREMENT",
                         help="how the workflow installs the tool (default: site-builder==<this "
                              "version>; or git+https://…@<tag>)")
    new_cmd.set_defaults(run=_run_new, source=".", out=None)
    return parser


def _pair_arguments(pair_cmd: argparse.ArgumentParser) -> None:
    from .rules import pair_flags  # here: only `pair` loads the games (see _Parser.arguments)

    pair_cmd.add_argument("folder", metavar="EVENT_FOLDER", help="the event: data/events/<slug>")
    pair_cmd.add_argument("--seed", type=int, metavar="N",
                          help="the draw's seed (default: from the event's seed and the round)")
    pair_cmd.add_argument("--drop", action="append", default=[], metavar="NAME",
                          help="a player who leaves before this round (repeatable)")
    pair_cmd.add_argument("--add", action="append", default=[], metavar="NAME",
                          help="a late arrival, or a player rejoining (repeatable)")
    for flag, text in pair_flags().items():  # each game's own (Ruleset.pair_flags)
        pair_cmd.add_argument(flag, action="append_const", const=flag, dest="flags", help=text)
    pair_cmd.add_argument("--dry-run", action="store_true",
                          help="print the pairings, write nothing")
    pair_cmd.set_defaults(flags=[])


def _run_new(args: argparse.Namespace) -> int:
    from .organizer.newleague import run_new
    return run_new(args)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0–65535)")
    return int(text)


def _run_build(args: argparse.Namespace) -> int:
    from .build import build  # here, not above: `--help` answers without the build's imports

    started = time.perf_counter()
    progress = _ProgressLine() if sys.stderr.isatty() else None
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
    print(f"Checked {_count(result.events, 'event')}: {found}.", file=sys.stderr)
    return EXIT_OK


def _run_pair(args: argparse.Namespace) -> int:
    from .organizer.pairterminal import run_pair
    return run_pair(args)


def _run_watch(args: argparse.Namespace) -> int:
    return _watch_loop(args, None)


def _run_serve(args: argparse.Namespace) -> int:
    from .league.config import load_config
    from .live.serve import LiveState, make_server

    config = load_config(Path(args.source), ProblemLog()).with_base_url(args.base_url)
    live = LiveState(config.base_url.path)
    server = make_server(Path(args.out), config.base_url.path, args.host, args.port, live)
    return _watch_loop(args, (server, live, _served_url(server, config.base_url.path)))


def _served_url(server, base_path: str) -> str:
    host = server.server_address[0]
    shown_host = f"[{host}]" if ":" in host else host
    return f"http://{shown_host}:{server.server_address[1]}{base_path}"


def _watch_loop(args: argparse.Namespace, serving) -> int:
    """Build, then rebuild on every burst of changes until Ctrl-C; serve too if asked."""
    import threading

    from .live.session import Session
    from .live.watch import Watcher

    session = Session(Path(args.source), Path(args.out), args.base_url)
    shown: set[Problem] = set()

    def report(result) -> None:
        problems = result.problems
        fresh = [p for p in problems if p.is_error or p not in shown]
        print_problems(fresh, args.source)
        shown.clear()
        shown.update(problems)
        print(result.line(), file=sys.stderr, flush=True)
        for note in result.notes:
            print(terminal_safe(f"site-builder: {note}"), file=sys.stderr, flush=True)
        if serving:
            follow_base_url()
            serving[1].publish(result.changed_urls, problems, built=result.site_on_disk)

    def follow_base_url() -> None:
        """Serve under site.toml's base_url as it is now: an edit moves the site (and open
        pages follow it)."""
        server, live, url = serving
        if session.config is not None and session.config.base_url.path != live.base_path:
            live.set_base_path(session.config.base_url.path)
            print(terminal_safe(f"base_url changed: now serving at "
                                f"{_served_url(server, live.base_path)}"),
                  file=sys.stderr, flush=True)

    def failed(message: str) -> None:
        """A rebuild that could not finish: one line in the terminal and the browsers' overlay."""
        print(one_line(f"site-builder: {message}"), file=sys.stderr, flush=True)
        if serving:
            serving[1].publish(set(), [Problem("", None, message)], built=session.has_site())

    def attempt(build, first: bool = False) -> None:
        """Run a build or rebuild and report it. Nothing it raises stops the watching: the
        organizer fixes what the message names, and that save rebuilds."""
        try:
            report(build())
        except ConfigError as exc:
            if first:  # the command line itself is unusable (an --out that is not a build)
                raise
            session.failed()
            failed(str(exc))
        except SiteError as exc:
            session.failed()
            failed(str(exc))
        except OSError as exc:  # a full disk, a folder in the way: say so and keep watching
            session.failed()
            failed(f"{_system_error(exc, args.out)}. The next change writes everything again.")
        except Exception as exc:  # a bug of ours: the organizer's next save tries again
            session.failed()
            failed(f"the rebuild failed: {type(exc).__name__}: {exc}. This is a bug in "
                   "site-builder (please report it with the file you changed); the next change "
                   "rebuilds the whole site.")

    progress = _ProgressLine() if sys.stderr.isatty() else None  # as `build` shows it
    attempt(lambda: session.build_all(progress=progress), first=True)
    if progress:
        progress.clear()

    def rebuild(batch: list[str]) -> None:
        attempt(lambda: session.rebuild(batch))

    watcher = Watcher(Path(args.source), rebuild)
    watcher.start()
    if serving:
        server, live, url = serving
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(terminal_safe(f"Serving {args.out}/ at {url}  (pages reload themselves; Ctrl-C "
                            "to stop)"), file=sys.stderr, flush=True)
    print("Watching data/, content/, themes/ and site.toml for changes.", file=sys.stderr,
          flush=True)
    signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops as cleanly as Ctrl-C
    try:
        # Python acts on a signal when the main thread runs again. The system may hand Ctrl-C
        # to any thread (watchdog's, the server's), and a main thread blocked for good in a
        # wait would then never stop: it wakes up often instead.
        while True:
            time.sleep(SIGNAL_CHECK_SECONDS)
    finally:
        watcher.stop()
        try:
            session.close()
        except OSError as exc:  # a full disk (state.StateNotSaved)
            then = getattr(exc, "then", "the next build will draw every page")
            print(terminal_safe(f"site-builder: warning: the state beside {args.out}/ could not "
                                f"be saved ({getattr(exc, 'reason', exc)}): {then}."),
                  file=sys.stderr)
        if serving:
            serving[1].close()
            serving[0].shutdown()
            serving[0].server_close()
    return EXIT_OK


def _system_error(exc: OSError, out: str | None) -> str:
    """What the system refused, said as reading the site or writing its output: a failure in the
    output folder or a staging folder beside it (`._site.staging-…`) is a write."""
    where = f" ({exc.filename})" if exc.filename else ""
    reason = exc.strerror or str(exc)
    if out is not None and exc.filename:
        path, output = Path(os.fsdecode(exc.filename)).resolve(), Path(out).resolve()
        if path.is_relative_to(output) or path == output or (
                path.is_relative_to(output.parent)
                and path.relative_to(output.parent).parts[0].startswith(f".{output.name}.")):
            return f"could not write the site: {reason}{where}"
        return f"could not read {exc.filename}: {reason}"
    return f"could not write the site: {reason}{where}" if out else f"could not read: {reason}{where}"


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


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


class _ProgressLine:
    """A one-line counter on the terminal while a slow build scores events and renders pages."""

    EVERY = 0.1
    """Seconds between two updates of the line."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def __call__(self, what: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self.started < 0.5 or (now - self.last < self.EVERY and done != total):
            return
        self.last = now
        print(f"\r{what} {done}/{total}\033[K", end="", file=sys.stderr, flush=True)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
