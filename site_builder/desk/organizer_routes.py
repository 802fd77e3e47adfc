"""The organizer's pages: the events in progress, an event's round table by table, the next
round, the phones' queue and corrections of earlier rounds. Each needs the organizer's cookie
(app.organizer_only), and each write the organizer's form token."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..core.problems import ConfigError, DataError, Problem, ProblemLog
from ..league.load import EVENTS_DIR, event_folders, is_event_folder
from ..organizer.pair import Request as PairRequest
from ..organizer.pair import plan_next_round, record_drops_said, write_round
from . import correction, eventdesk, roundfile
from .app import Desk, organizer_form, organizer_only, picks_of, refused_page
from .eventdesk import Loaded, Refused
from .player_routes import accept_report, queue_of
from .store import Journal, read_text, write_atomically

RECENT_DAYS = 3
"""The home page lists events dated this many days around today, and any marked in-progress."""


def routes(desk: Desk) -> list[Route]:
    prefix = "/_desk"

    async def home(request: Request) -> Response:
        if (locked := organizer_only(desk, request)) is not None:
            return locked
        show_all = request.query_params.get("all") == "1"
        events = await run_in_threadpool(_events, desk.source, show_all)
        return desk.page("desk/home.html", title="The desk", events=events, show_all=show_all,
                         csrf=desk.secrets.csrf("organizer"))

    async def event_page(request: Request) -> Response:
        if (locked := organizer_only(desk, request)) is not None:
            return locked
        slug = request.path_params["slug"]
        if not is_event_folder(desk.source, slug):
            return refused_page(desk, [Problem(f"{EVENTS_DIR}/{slug}", None,
                                               "there is no such event folder")], 404)
        loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
        return _event(desk, loaded, message=request.query_params.get("saved", ""))

    async def save(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        if refusal is not None:
            return refusal
        slug = request.path_params["slug"]
        round_number, table = _int(form.get("round")), form.get("table", "")
        if form.get("add"):  # "Add a game": the form again, one block more, nothing saved
            loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
            return _event(desk, loaded, extra={table: _int(form["add"])}, drafts={table: form})
        try:
            loaded = await run_in_threadpool(_save, desk, slug, round_number, table, form)
        except Refused as exc:
            loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
            return _event(desk, loaded, status=409 if exc.conflict else 422,
                          problems={table: [p.format() for p in exc.problems]},
                          drafts={} if exc.conflict else {table: form})
        left = len(loaded.to_go)
        note = f"Table {table} saved. " + (f"{left} table{'s' if left != 1 else ''} to go."
                                           if left else "Every result of the round is in.")
        return RedirectResponse(f"{prefix}/e/{slug}?saved={note}#t{table}", status_code=303)

    async def next_round(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        if refusal is not None:
            return refusal
        slug = request.path_params["slug"]
        adds = await picks_of(request, "add") + [
            name.strip() for name in form.get("new", "").split(";") if name.strip()][:50]
        said = await run_in_threadpool(_form_next, desk, slug, form,
                                       await picks_of(request, "drop"), adds)
        if isinstance(said, list):
            loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
            return _event(desk, loaded, status=422, next_problems=said)
        return RedirectResponse(f"{prefix}/e/{slug}?saved={said}", status_code=303)

    async def phones(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        slug = request.path_params["slug"]
        if refusal is not None or not is_event_folder(desk.source, slug):
            return refusal or refused_page(desk, [Problem(f"{EVENTS_DIR}/{slug}", None,
                                                          "there is no such event folder")], 404)
        on = form.get("on") == "1"
        await run_in_threadpool(desk.venue.set_phones, slug,
                                Journal(desk.source / EVENTS_DIR / slug), on)
        return RedirectResponse(f"{prefix}/e/{slug}?saved=Reports from phones are "
                                f"{'on' if on else 'off'}.#phones", status_code=303)

    async def accept(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        if refusal is not None:
            return refusal
        slug = request.path_params["slug"]
        try:
            await run_in_threadpool(accept_report, desk, slug, _int(form.get("round")),
                                    form.get("table", ""), _int(form.get("seat")))
        except Refused as exc:
            return refused_page(desk, exc.problems)
        return RedirectResponse(f"{prefix}/e/{slug}?saved=Table {form.get('table', '')}'s "
                                "report accepted.#phones", status_code=303)

    async def earlier(request: Request) -> Response:
        if (locked := organizer_only(desk, request)) is not None:
            return locked
        slug, number = request.path_params["slug"], request.path_params["number"]
        loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
        tables = await run_in_threadpool(_round_tables, loaded, number)
        return desk.page("desk/correct.html", title=f"Correct round {number}", loaded=loaded,
                         number=number, tables=tables, preview=None, problems={},
                         csrf=desk.secrets.csrf("organizer"), drafts={})

    async def correct(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        if refusal is not None:
            return refusal
        slug, number = request.path_params["slug"], request.path_params["number"]
        outcome = await run_in_threadpool(_correct, desk, slug, number, form)
        if isinstance(outcome, str):
            return RedirectResponse(f"{prefix}/e/{slug}?saved={outcome}", status_code=303)
        loaded, tables, preview, problems = outcome
        return desk.page("desk/correct.html", title=f"Correct round {number}", loaded=loaded,
                         number=number, tables=tables, preview=preview, problems=problems,
                         csrf=desk.secrets.csrf("organizer"),
                         drafts={form.get("table", ""): form}, status=422 if problems else 200)

    return [Route(f"{prefix}/", home),
            Route(f"{prefix}/e/{{slug}}", event_page),
            Route(f"{prefix}/e/{{slug}}/table", save, methods=["POST"]),
            Route(f"{prefix}/e/{{slug}}/next", next_round, methods=["POST"]),
            Route(f"{prefix}/e/{{slug}}/phones", phones, methods=["POST"]),
            Route(f"{prefix}/e/{{slug}}/accept", accept, methods=["POST"]),
            Route(f"{prefix}/e/{{slug}}/round/{{number:int}}", earlier),
            Route(f"{prefix}/e/{{slug}}/round/{{number:int}}", correct, methods=["POST"])]


def _int(text: str | None) -> int:
    return int(text) if text and text.isdigit() and len(text) < 7 else -1


def _event(desk: Desk, loaded: Loaded, status: int = 200, message: str = "",
           problems: dict[str, list[str]] | None = None, drafts: dict | None = None,
           extra: dict[str, int] | None = None, next_problems: list[str] | None = None) -> Response:
    journal = Journal(loaded.folder)
    state = desk.venue.of(loaded.slug, journal)
    queue = queue_of(desk, loaded)
    problems = problems or {}
    # Problems of a table the page does not show (one not in the round): said at the top.
    elsewhere = [text for table, texts in problems.items() if loaded.table(table) is None
                 for text in texts]
    return desk.page("desk/event.html", status=status, title=loaded.event.info.name
                     if loaded.event else loaded.slug, loaded=loaded, message=message[:300],
                     problems=problems, elsewhere=elsewhere, drafts=drafts or {}, extra=extra or {},
                     next_problems=next_problems or [], csrf=desk.secrets.csrf("organizer"),
                     phones=state.phones, queue=queue, queued={w.table.number: w for w in queue},
                     players=_players_of(loaded), candidates=_candidates(loaded))


def _save(desk: Desk, slug: str, round_number: int, table: str, form: dict[str, str]) -> Loaded:
    """The table's result as the organizer's form sent it; the event as it is after."""
    written = eventdesk.save_table(
        desk.source, slug, round_number, table, form.get("fp", ""),
        lambda entry, seats: eventdesk.games_from_form(entry, seats, form), "desk")
    desk.venue.clear(slug, Journal(desk.source / EVENTS_DIR / slug), round_number, table)
    desk.changed([f"{EVENTS_DIR}/{slug}/{written}"])
    return eventdesk.load(desk.source, slug)


def _players_of(loaded: Loaded) -> list[str]:
    """Who plays the round being played (the names a drop is picked from)."""
    return sorted({seat for table in loaded.tables for seat in table.rows.seats}
                  | {player for player, _ in loaded.lone}, key=str.casefold)


def _candidates(loaded: Loaded) -> list[str]:
    """Registered players not in the latest round: the names an --add is picked from."""
    if loaded.event is None or not loaded.round_number:
        return []  # round 1 seats every registered player: an --add is a walk-in
    playing = set(_players_of(loaded))
    return sorted((r.name for r in loaded.event.registrations if r.name not in playing),
                  key=str.casefold)


def _form_next(desk: Desk, slug: str, form: dict[str, str], drops: list[str],
               adds: list[str]) -> str | list[str]:
    """Form the next round as `pair` does: a note for the organizer, or the problems."""
    folder = desk.source / EVENTS_DIR / slug
    with eventdesk.WRITE_LOCK:
        loaded = eventdesk.load(desk.source, slug)
        if form.get("round") != str(loaded.round_number):
            return [(f"{EVENTS_DIR}/{slug}: round {loaded.round_number + 1} was formed "
                     "meanwhile (at another desk, or with pair): nothing was done")]
        if loaded.to_go and form.get("override") == "1":
            problems = _unplayed(desk, loaded)
            if problems:
                return problems
        try:
            plan = plan_next_round(PairRequest(folder, None, drops, adds))
            write_round(plan)
        except (DataError, ConfigError) as exc:
            return ([p.format() for p in exc.problems] if isinstance(exc, DataError)
                    else [str(exc)])
        said, failed = record_drops_said(plan, f"{EVENTS_DIR}/{slug}/drops.csv")
    desk.changed([f"{EVENTS_DIR}/{slug}/{plan.path.name}"])
    if failed:
        return [failed]
    count, place = len(plan.tables), plan.formed.place.lower()
    return " ".join([f"{plan.label} is formed: {count} {place}{'s' if count != 1 else ''}."]
                    + said)


def _unplayed(desk: Desk, loaded: Loaded) -> list[str]:
    """The override: each table still without a result is entered as the game's unpaired
    result for every seat (Conquest: an unpaired loss each), so the round can be scored."""
    entry = loaded.entry
    if entry is None or entry.unplayed is None or loaded.text is None:
        return [(f"{EVENTS_DIR}/{loaded.slug}/{loaded.round_file}: {len(loaded.to_go)} tables "
                 "have no result, and this game has no result to give a table that never "
                 "reported: enter their results first")]
    text = loaded.text
    for table in loaded.to_go:
        lines = roundfile.table_lines(text, table.rows, entry, [[{"result": entry.unplayed}
                                                                 for _ in table.rows.seats]],
                                      unseated=True)
        try:
            eventdesk.write_lines(desk.source, loaded, table.number, lines, "override")
        except Refused as exc:
            return [p.format() for p in exc.problems]
        loaded = eventdesk.load(desk.source, loaded.slug)
        text = loaded.text
    return []


def _round_tables(loaded: Loaded, number: int) -> list[roundfile.TableRows]:
    if loaded.event is None or loaded.entry is None:
        return []
    round_ = next((r for r in loaded.event.rounds if r.number == number), None)
    if round_ is None:
        return []
    try:
        text = roundfile.parse(read_text(loaded.folder / Path(round_.path).name))
    except (OSError, UnicodeDecodeError, roundfile.NotEditable):
        return []
    return [roundfile.read_table(text, table, loaded.entry) for table in text.tables()]


def _correct(desk: Desk, slug: str, number: int, form: dict[str, str]):
    """Preview a correction, or apply the one previewed: the note, or what the page shows."""
    table = form.get("table", "")
    with eventdesk.WRITE_LOCK:
        loaded = eventdesk.load(desk.source, slug)
        tables = _round_tables(loaded, number)
        rows = next((t for t in tables if t.table == table), None)
        if loaded.entry is None or rows is None:
            return loaded, tables, None, {table: [f"round {number} has no table {table}"]}
        games = eventdesk.games_from_form(loaded.entry, rows.seats, form)
        try:
            preview = correction.preview(desk.source, loaded, number, table, form.get("fp", ""),
                                         games)
        except Refused as exc:
            return loaded, tables, None, {table: [p.format() for p in exc.problems]}
        if form.get("apply") != "1":
            return loaded, tables, preview, {}
        Journal(loaded.folder).append({"kind": "correction", "file": preview.file,
                                       "table": table, "lines": preview.lines})
        write_atomically(loaded.folder / preview.file, preview.text)
    desk.changed([f"{EVENTS_DIR}/{slug}/{preview.file}"])
    return f"Round {number}, table {table} corrected."


def _events(source: Path, show_all: bool) -> list[dict]:
    """The events at the desk: by event.toml alone (its name, date and status), so the home
    page of a league with years of events stays quick."""
    today = dt.date.today()
    events = []
    for folder in event_folders(source, ProblemLog()):
        try:
            keys = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            keys = {}
        date, status = keys.get("date"), keys.get("status")
        recent = isinstance(date, dt.date) and abs((date - today).days) <= RECENT_DAYS
        if show_all or status == "in-progress" or (recent and status != "final"):
            events.append({"slug": folder.name, "name": str(keys.get("name") or folder.name),
                           "date": date if isinstance(date, dt.date) else None,
                           "game": str(keys.get("game") or ""), "final": status == "final"})
    return sorted(events, key=lambda e: (e["date"] or dt.date.min, e["slug"]), reverse=True)
