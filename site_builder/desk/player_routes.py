"""The pages players and the room see: a seat's report page (by the code on its slip), the
wall with its timer and the stream that keeps it current, and the printable slips."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass

import segno
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from ..core.problems import Problem
from ..league.load import EVENTS_DIR, is_event_folder
from . import eventdesk, roundfile
from .app import (
    NO_STORE,
    PREFIX,
    Desk,
    csrf_ok,
    form_of,
    is_organizer,
    organizer_form,
    organizer_only,
    refused_page,
)
from .eventdesk import DeskTable, Loaded, Refused
from .reports import agreed
from .store import Journal

KEEPALIVE = 15.0
WALL_PAGE_ROWS = 12
"""Pairings shown at once on the wall; longer lists turn page by themselves (desk.js)."""


def routes(desk: Desk) -> list[Route]:

    async def phone(request: Request) -> Response:
        found = await run_in_threadpool(_seat, desk, request)
        if isinstance(found, Response):
            return found
        loaded, table, seat, code = found
        return _phone_page(desk, loaded, table, seat, code, request.query_params.get("sent", ""))

    async def report(request: Request) -> Response:
        form = await form_of(request)
        found = await run_in_threadpool(_seat, desk, request)
        if isinstance(found, Response):
            return found
        loaded, table, seat, code = found
        if not csrf_ok(desk, form, code):
            return refused_page(desk, [Problem("desk", None, "this form is not the desk's: "
                                               "open your slip's link again")], 403)
        try:
            said = await run_in_threadpool(_report, desk, loaded, table, seat, form)
        except Refused as exc:
            return _phone_page(desk, loaded, table, seat, code, "", status=422,
                               problems=[p.message for p in exc.problems], draft=form)
        return RedirectResponse(f"{request.url.path}?sent={said}", status_code=303)

    async def wall(request: Request) -> Response:
        slug = request.path_params["slug"]
        if not is_event_folder(desk.source, slug):
            return refused_page(desk, [Problem(slug, None, "there is no such event")], 404)
        generation = desk.bulletin.generation  # before reading: a change after it is news
        context = await run_in_threadpool(_wall, desk, slug)
        template = "desk/wall_part.html" if request.query_params.get("part") else "desk/wall.html"
        return desk.page(template, **context, organizer=is_organizer(desk, request),
                         csrf=desk.secrets.csrf("organizer"), generation=generation)

    async def timer(request: Request) -> Response:
        form, refusal = await organizer_form(desk, request)
        if refusal is not None:
            return refusal
        slug = request.path_params["slug"]
        loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
        if loaded.event is None or loaded.ruleset is None:
            return refused_page(desk, loaded.errors, 422)
        await run_in_threadpool(desk.venue.act, slug, Journal(loaded.folder), loaded.round_number,
                                _minutes(loaded), form.get("action", ""))
        desk.bulletin.raise_generation()
        return RedirectResponse(f"{PREFIX}/wall/{slug}", status_code=303)

    async def stream(request: Request) -> Response:
        async def messages():
            generation = -1
            yield b"retry: 2000\n\n"
            while not desk.bulletin.closed:
                now = await desk.bulletin.wait(generation, KEEPALIVE)
                if await request.is_disconnected():
                    return
                if now == generation:
                    yield b": keep-alive\n\n"
                else:
                    generation = now
                    yield f"data: {now}\n\n".encode()
        return StreamingResponse(messages(), media_type="text/event-stream", headers=NO_STORE)

    async def slips(request: Request) -> Response:
        if (locked := organizer_only(desk, request)) is not None:
            return locked
        slug = request.path_params["slug"]
        loaded = await run_in_threadpool(eventdesk.load, desk.source, slug)
        base = desk.origin or f"{request.url.scheme}://{request.url.netloc}"
        slips = await run_in_threadpool(_slips, desk, loaded, base)
        return desk.page("desk/slips.html", title="Result slips", loaded=loaded, slips=slips,
                         phones=desk.venue.of(slug, Journal(loaded.folder)).phones)

    return [Route(f"{PREFIX}/p/{{slug}}/{{round:int}}/{{table}}/{{seat:int}}/{{code}}", phone),
            Route(f"{PREFIX}/p/{{slug}}/{{round:int}}/{{table}}/{{seat:int}}/{{code}}", report,
                  methods=["POST"]),
            Route(f"{PREFIX}/wall/{{slug}}", wall),
            Route(f"{PREFIX}/wall/{{slug}}/timer", timer, methods=["POST"]),
            Route(f"{PREFIX}/stream", stream),
            Route(f"{PREFIX}/e/{{slug}}/slips", slips)]


# ------------------------------------------------------------------ a seat's report


def _seat(desk: Desk, request: Request):
    """(event, table, seat, code) when the code is this seat's for the round being played;
    else the page telling the player why not (the same page for a wrong code as for an
    expired one, so a guess learns nothing)."""
    p = request.path_params
    slug, number, table, seat, code = p["slug"], p["round"], p["table"], p["seat"], p["code"]
    if not is_event_folder(desk.source, slug):
        return _expired(desk)
    loaded = eventdesk.load(desk.source, slug)
    current = loaded.table(table) if loaded.round_number == number else None
    if current is None or not 0 <= seat < len(current.rows.seats) or not desk.secrets.is_seat(
            code, slug, number, table, current.rows.seats[seat]):
        return _expired(desk)
    if not desk.venue.of(slug, Journal(loaded.folder)).phones:
        return desk.page("desk/phone_off.html", status=403, title="Reports are off")
    return loaded, current, seat, code


def _expired(desk: Desk) -> Response:
    return desk.page("desk/phone_off.html", status=404, title="This code is not open",
                     expired=True)


def _phone_page(desk: Desk, loaded: Loaded, table: DeskTable, seat: int, code: str,
                sent: str, status: int = 200, problems=(), draft=None) -> Response:
    state = desk.venue.of(loaded.slug, Journal(loaded.folder))
    reports = state.reports.get((loaded.round_number, table.number), {})
    return desk.page("desk/phone.html", status=status, title=f"Table {table.number}",
                     loaded=loaded, table=table, seat=seat, csrf=desk.secrets.csrf(code),
                     reports=reports, sent=sent[:200], problems=list(problems),
                     draft=draft or {})


def _report(desk: Desk, loaded: Loaded, table: DeskTable, seat: int, form: dict[str, str]) -> str:
    """Record the seat's report; save the table when every seat agrees. The note for the
    player."""
    entry = loaded.entry
    if entry is None:
        raise Refused([Problem("desk", None, "this game's results are entered by the organizer")])
    if not table.waiting:
        raise Refused([Problem("desk", None, f"table {table.number}'s result is in already: "
                               "ask the organizer to change it")])
    games = eventdesk.games_from_form(entry, table.rows.seats, form)
    problems = eventdesk.check_values(entry, table.rows.seats, games, "your report")
    if problems:
        raise Refused(problems)
    # Checked as a save would be, before it waits for the others: a player hears of a
    # mistake (tau over the goal) now, not when the last seat reports.
    lines = roundfile.table_lines(loaded.text, table.rows, entry, games)
    errors = eventdesk.new_errors(desk.source, loaded,
                                  {loaded.round_file: loaded.text.with_table(table.number, lines)})
    if errors:
        raise Refused(errors)
    journal = Journal(loaded.folder)
    with eventdesk.WRITE_LOCK:
        reports = desk.venue.report(loaded.slug, journal, loaded.round_number, table.number,
                                    seat, games)
        result = agreed(reports, len(table.rows.seats))
        desk.bulletin.raise_generation()
        if result is None:
            return "Your report is in. The table's result is saved when every player has sent " \
                   "the same; the organizer sees any difference."
        try:
            _apply(desk, loaded.slug, loaded.round_number, table.number, result, "phones")
        except Refused:
            return "Your report is in; the organizer will check the table's result."
    return "Every player sent the same result: it is saved. Thank you!"


def _apply(desk: Desk, slug: str, round_number: int, table: str, games, by: str) -> None:
    """Save a result the phones agreed on (or the organizer accepted), over the table as it is."""
    with eventdesk.WRITE_LOCK:
        written = eventdesk.save_table(desk.source, slug, round_number, table, None,
                                       lambda *_: games, by)
        desk.venue.clear(slug, Journal(desk.source / EVENTS_DIR / slug), round_number, table)
    desk.changed([f"{EVENTS_DIR}/{slug}/{written}"])


def accept_report(desk: Desk, slug: str, round_number: int, table: str, seat: int) -> None:
    """The organizer accepts one seat's report for its table."""
    state = desk.venue.of(slug, Journal(desk.source / EVENTS_DIR / slug))
    games = state.reports.get((round_number, table), {}).get(seat)
    if games is None:
        raise Refused([Problem(slug, None, f"table {table} has no such report")])
    _apply(desk, slug, round_number, table, games, "accepted")


@dataclass(slots=True)
class Waiting:
    table: DeskTable
    reports: dict[int, list]
    agree: bool


def queue_of(desk: Desk, loaded: Loaded) -> list[Waiting]:
    """Tables of the round being played with reports and no result: disagreements, and
    tables where some seats have not reported yet."""
    state = desk.venue.of(loaded.slug, Journal(loaded.folder))
    queue = []
    for table in loaded.tables:
        reports = state.reports.get((loaded.round_number, table.number))
        if reports and table.waiting:
            queue.append(Waiting(table, dict(sorted(reports.items())),
                                 agreed(reports, len(reports)) is not None))
    return queue


# ------------------------------------------------------------------ the wall and the slips


def _minutes(loaded: Loaded) -> int | None:
    if loaded.event is None or loaded.ruleset is None:
        return None
    return loaded.event.info.round_minutes or loaded.ruleset.round_minutes(loaded.event,
                                                                           loaded.round_number)


def _wall(desk: Desk, slug: str) -> dict:
    loaded = eventdesk.load(desk.source, slug)
    standings = None
    if loaded.event is not None and loaded.ruleset is not None and not loaded.errors:
        standings = loaded.ruleset.score(loaded.event).standings
    timer = None
    if loaded.round_number and loaded.to_go:
        timer = desk.venue.timer(slug, Journal(loaded.folder), loaded.round_number,
                                 _minutes(loaded)).as_json(time.time())
    return {"title": loaded.event.info.name if loaded.event else slug, "loaded": loaded,
            "standings": standings, "timer": timer, "page_rows": WALL_PAGE_ROWS,
            "ruled_minutes": _minutes(loaded)}


def qr_svg(url: str) -> Markup:
    """The QR code of `url` as inline SVG, drawn here (segno): nothing is fetched."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=3, border=2, xmldecl=False,
                                    svgns=True, omitsize=False)
    return Markup(out.getvalue().decode("utf-8"))


def _slips(desk: Desk, loaded: Loaded, base: str) -> list[dict]:
    slips = []
    for table in loaded.tables:
        seats = []
        for index, player in enumerate(table.rows.seats):
            code = desk.secrets.seat(loaded.slug, loaded.round_number, table.number, player)
            url = (f"{base}{PREFIX}/p/{loaded.slug}/{loaded.round_number}/{table.number}/"
                   f"{index}/{code}")
            seats.append({"player": player, "url": url, "qr": qr_svg(url)})
        slips.append({"table": table, "seats": seats})
    return slips
