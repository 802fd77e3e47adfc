"""The desk's web application: Starlette routes over the event folders, and the site preview.

Starlette (with uvicorn, run.py) rather than the standard library's http.server, which `serve`
uses for its preview: the desk takes forms (python-multipart parses them, with limits), keeps a
server-sent-events stream open per wall without a thread each, and runs its blocking work (the
loader, scoring, writes) on a bounded thread pool. Pages are the theme's templates (desk/*.html),
so a league restyles them like every other page; nothing is loaded from another site.

Who may do what:
* the organizer (the token the desk printed, kept in a SameSite=Strict cookie): everything;
* a player with a seat's code: see their table and report its result, while the round lasts;
* anyone who reaches the desk: the wall and the site preview, which show what the public site
  shows.
Every form carries a token derived from the secret and its sender (codes.py); guards.py checks
the host, the size, the rate and the origin of every request first.
"""

from __future__ import annotations

import hmac
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..build.themefiles import ThemeLoader, builtin_theme, theme_dirs
from ..core.problems import Problem
from ..live.httpguards import Hosts
from .bulletin import Builder, Bulletin
from .codes import Secrets
from .guards import Guard
from .reports import Venue

PREFIX = "/_desk"
COOKIE = "site_builder_desk"
MAX_FIELDS = 400


@dataclass(slots=True)
class Desk:
    """Everything the routes share."""

    source: Path
    out: Path
    secrets: Secrets
    base_path: str = "/"
    bulletin: Bulletin = field(default_factory=Bulletin)
    venue: Venue = field(default_factory=Venue)
    builder: Builder | None = None
    origin: str = ""
    """Where players' phones reach the desk (printed on the slips), e.g. http://192.168.1.20:8000."""
    config: Any = None
    """The site's configuration as the last good build read it (its theme), or None."""
    _env: jinja2.Environment | None = None

    @property
    def env(self) -> jinja2.Environment:
        if self._env is None:
            dirs = theme_dirs(self.source, self.config) if self.config else [builtin_theme()]
            self._env = jinja2.Environment(
                loader=jinja2.ChoiceLoader([ThemeLoader(d, self.source) for d in dirs]),
                autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                lstrip_blocks=True)
            from .eventdesk import shown_games
            self._env.globals.update(prefix=PREFIX, site_base=self.base_path,
                                     shown_games=shown_games)
        return self._env

    def configure(self, config: Any) -> None:
        """The site's configuration as a build read it: its theme's templates and base path
        from the next page on."""
        if config is not None and config is not self.config:
            self.config, self._env, self.base_path = config, None, config.base_url.path

    def page(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(template).render(**context)
        return HTMLResponse(html, status_code=status, headers=NO_STORE)

    def changed(self, paths: list[str]) -> None:
        """A file of the site was written: walls hear of it now, and the site is rebuilt at
        once. The watcher reports the same write a moment later; that second rebuild finds
        nothing new. Waiting for the watcher alone cost up to its 3 s limit now and then
        (bench/desk_latency.py: worst 3.1 s against 0.18 s), and the desk knows what it wrote."""
        self.bulletin.raise_generation()
        if self.builder is not None:
            self.builder.request(paths)


NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff"}


# ------------------------------------------------------------------ who is asking


def is_organizer(desk: Desk, request: Request) -> bool:
    return desk.secrets.is_organizer(request.cookies.get(COOKIE))


def organizer_only(desk: Desk, request: Request) -> Response | None:
    """None when the organizer asks; else the page saying how to become one."""
    if is_organizer(desk, request):
        return None
    return desk.page("desk/locked.html", status=403, title="The organizer's desk")


async def form_of(request: Request) -> dict[str, str]:
    """The form's fields (text only, a bounded number of them; of a field sent several times,
    the last: `picks_of` has them all)."""
    form = await request.form(max_files=0, max_fields=MAX_FIELDS)
    return {key: value for key, value in form.items() if isinstance(value, str)}


async def picks_of(request: Request, name: str, most: int = 200) -> list[str]:
    """Every value of a field sent several times (the ticked boxes of a list)."""
    form = await request.form(max_files=0, max_fields=MAX_FIELDS)
    return [value for value in form.getlist(name) if isinstance(value, str) and value][:most]


def csrf_ok(desk: Desk, form: dict[str, str], session: str) -> bool:
    return hmac.compare_digest(form.get("csrf", "").encode(), desk.secrets.csrf(session).encode())


STALE_FORM = ("this form is not the desk's (or the desk's secret changed since it was opened): "
              "open the page again and resend")


async def organizer_form(desk: Desk, request: Request) -> tuple[dict[str, str], Response | None]:
    """The organizer's form, or the page refusing it: not the organizer (403 and how to become
    one), or a form without the organizer's form token (403)."""
    if (locked := organizer_only(desk, request)) is not None:
        return {}, locked
    form = await form_of(request)
    if not csrf_ok(desk, form, "organizer"):
        return form, refused_page(desk, [Problem("desk", None, STALE_FORM)], 403)
    return form, None


def refused_page(desk: Desk, problems: list[Problem], status: int = 422) -> HTMLResponse:
    return desk.page("desk/refused.html", status=status, title="Not saved",
                     problems=[p.format() for p in problems])


# ------------------------------------------------------------------ the application


def make_app(desk: Desk, hosts: Hosts) -> Any:
    from . import organizer_routes, player_routes  # the routes import this module

    async def login(request: Request) -> Response:
        token = request.query_params.get("token", "")
        if not desk.secrets.is_organizer(token):
            return desk.page("desk/locked.html", status=403, title="The organizer's desk",
                             wrong=bool(token))
        response = RedirectResponse(f"{PREFIX}/", status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path=PREFIX,
                            max_age=7 * 24 * 3600)
        return response

    routes = [Route(f"{PREFIX}/login", login),
              *organizer_routes.routes(desk), *player_routes.routes(desk),
              Mount(f"{PREFIX}/static", StaticFiles(directory=builtin_theme() / "desk"),
                    name="desk-static")]
    site = _WholeFiles(directory=desk.out, html=True, check_dir=False)
    if desk.base_path != "/":
        routes.append(Route("/", lambda request: RedirectResponse(desk.base_path)))
    routes.append(Mount(desk.base_path.rstrip("/") or "/", app=_NoCache(site), name="site"))
    app = Starlette(routes=routes)
    app.add_exception_handler(404, lambda request, exc: PlainTextResponse(
        "Not found.", status_code=404, headers=NO_STORE))
    return Guard(app, hosts)


class _WholeFiles(StaticFiles):
    """The site's files, each read whole when it is served. A build replaces a page by a
    rename, often while phones are polling it: a response sized by the stat of the page before
    and sent from the file after was cut short, or said it was longer than it was (and the
    client dropped it). Pages are small; read at once, the bytes and the size always agree."""

    def file_response(self, full_path, stat_result, scope, status_code: int = 200) -> Response:
        try:
            with open(full_path, "rb") as handle:
                data = handle.read()
        except OSError:  # gone between the lookup and the read: as if it were never there
            return PlainTextResponse("Not found.", status_code=404, headers=NO_STORE)
        kind, _ = mimetypes.guess_type(str(full_path))
        if kind is not None and kind.startswith("text/"):
            kind += "; charset=utf-8"
        return Response(data, status_code=status_code,
                        media_type=kind or "application/octet-stream")


class _NoCache:
    """The preview always shows the latest build."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def sending(message):
            if message["type"] == "http.response.start":
                message["headers"] = [h for h in message.get("headers", [])
                                      if h[0].lower() not in (b"etag", b"last-modified")]
                message["headers"].append((b"cache-control", b"no-store"))
            await send(message)
        await self.app(scope, receive, sending)
