"""Render stage: pages and static files to bytes, with Jinja2 templates from the theme.

Autoescaping is on for every template whatever its extension: player names and reports are data,
and `<b>Bob</b>` must show as text. Templates get plain objects and only format them.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import jinja2.ext
import jinja2.lexer
from markupsafe import Markup, escape

from .config import SiteConfig
from .content import split_title
from .markdown import make_renderer
from .model import ContentPage
from .numbers import decimals, exact_text, percent_text
from .plan import Page
from .problems import TemplateError
from .htmlrows import AsciiText, ascii_html, game_rows, row_cells, standing_rows
from .recent import RecentStrings, packed_ids
from .templates import PARTIAL_OF_FILTER
from .themefiles import ThemeLoader, static_files, theme_dirs

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def _ascii_output(value: Any) -> Any:
    """Jinja's `finalize`: every `{{ value }}` as escaped ASCII HTML (see ascii_html); a
    placeholder of a spliced piece as it is (see Renderer.render)."""
    if isinstance(value, str) and not value.isascii() and type(value) is not _Splice:
        return Markup(ascii_html(escape(value)))
    return value


def long_date(value: dt.date) -> str:
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def short_date(value: dt.date) -> str:
    """For table cells: '21 Nov 2026' (months spelled out in English, whatever the locale)."""
    return f"{value.day} {MONTHS[value.month - 1][:3]} {value.year}"


class Renderer:
    def __init__(self, source: Path, config: SiteConfig, nav: list[ContentPage] = ()):
        self.config = config
        self.dirs = theme_dirs(source, config)
        self.env = jinja2.Environment(
            loader=jinja2.ChoiceLoader([ThemeLoader(d, source) for d in self.dirs]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # A theme edit makes a new Renderer (watch mode sees the file change), so templates
            # need no check of their file's time on every use: that was a stat per page.
            auto_reload=False,
            finalize=_ascii_output,
            extensions=[AsciiText],
        )
        self.markdown = make_renderer(config.base_url.path)
        self.static = static_files(source, config)
        """The static files by path under static/."""
        self._caches: dict[tuple[str, str], RecentStrings] = {}
        """("value" | "identity" | "runs", template) → that template's cache of that kind."""
        self._splices: list[list[str]] | None = None
        """The large pieces of the page being rendered, spliced in afterwards (see render)."""
        self._depth = 0
        """How many fragment templates are being rendered inside the page (see _spliced)."""
        self.env.filters.update(dec3=decimals, exact=exact_text, pct=percent_text, long_date=long_date,
                                short_date=short_date, cells=row_cells, fragment=self._fragment,
                                fragments=self._fragments_of,
                                ranking_rows=self._ranking_rows,
                                game_rows=lambda games, event_url: game_rows(
                                    games, event_url, config.base_url.page),
                                standing_rows=lambda standings: standing_rows(
                                    standings, config.base_url.page),
                                markdown=self._markdown, markdown_body=self._markdown_body)
        self.env.globals.update(site=config, url=config.base_url.page, asset=self._asset_url,
                                nav=[p for p in nav if p.url.count("/") == 1])

    FRAGMENT_CACHE_LIMIT = 300_000
    CACHE_CHARACTERS = 512_000_000
    """Each template's caches drop their oldest strings beyond this many characters
    (one byte each, as pages are ASCII) or FRAGMENT_CACHE_LIMIT entries: a rebuild only adds
    entries, and the ones it replaced are never asked for again. Kept per template because a
    full build of the 1,000-event archive renders 450 MB of round bodies: with one budget for
    all, they pushed out every player's history rows, and the first correction of an old
    event re-rendered its players' whole tables (23 ms a regular)."""

    def _cache(self, kind: str, template: str) -> RecentStrings:
        cache = self._caches.get((kind, template))
        if cache is None:
            cache = self._caches[kind, template] = RecentStrings(self.CACHE_CHARACTERS,
                                                                 self.FRAGMENT_CACHE_LIMIT)
        return cache

    def _fragment(self, item: Any, template: str) -> Markup:
        """`template` rendered with `item`, remembered by value: long lists (a regular's history,
        the rankings, the archive) re-render only the rows whose data changed. Items are frozen,
        hashable view objects; the cache belongs to this renderer, which a theme edit replaces.

        Hashing a deep view object costs about as much as rendering it, so the objects
        themselves are tried first: an unchanged event keeps its objects between rebuilds, and
        the entry holds them, so an id seen here can only be that same object. (A number made
        afresh is a new object: it misses here and is found by value below.)"""
        same_objects = tuple(map(id, item)) if type(item) is tuple else id(item)
        by_identity = self._cache("identity", template)
        known = by_identity.get(same_objects)
        if known is not None:
            return known[1]
        by_value = self._cache("value", template)
        known = by_value.get(item)
        if known is None:
            self._depth += 1  # what it renders is remembered: nothing in it may be spliced
            try:
                known = (None, Markup(self.env.get_template(template).render(item=item)))
            finally:
                self._depth -= 1
            by_value.add(item, known)  # the key holds the item
        by_identity.add(same_objects, (item, known[1]))  # missed above
        return known[1]

    CHUNK = 16

    def _fragments_of(self, items: Any, template: str) -> Markup:
        """`fragment` for every item of a list, joined, and remembered a run of items at a time.

        A regular's page lists a hundred events and the rankings thousands of people; a new
        round changes one row of the first and a few of the second. Looking up every row in a
        cache of hundreds of thousands costs more than the page's other work (each lookup
        wanders through memory), so runs of rows are looked up by their objects' ids, and only a
        run with a new object is taken row by row. A run is kept as one joined string: a page
        then copies a few long strings instead of gathering a hundred short ones from all over
        memory.

        Runs are counted from the end of the list. Lists grow at the front (a player's newest
        event comes first, as in the archive), so a new row leaves every older run, and its key,
        as it was."""
        return self._runs_of(items, template, lambda item: self._fragment(item, template))

    RANKING_ROW = PARTIAL_OF_FILTER["ranking_rows"]

    def _ranking_rows(self, rows: Any) -> Markup:
        """The `<tr>` rows of a rankings table: each row's rank, then the rest of it (the
        `ranking_row.html` fragment of its line, which a moved rank leaves as it was).

        The rank is written here rather than through a template: a corrected result moves one
        total, which shifts the rank of everyone between its old and new place (a thousand
        rows of the 1,000-event archive), and a template render a shifted row cost 10 µs."""
        def row_html(row: Any) -> str:
            return (f'      <tr><td class="num">{row.rank}</td>'
                    f'{self._fragment(row.line, self.RANKING_ROW)}</tr>\n')
        return self._runs_of(rows, "ranking rows", row_html)

    def _runs_of(self, items: Any, name: str, draw: Callable[[Any], str]) -> Markup:
        """`draw` for every item, joined, remembered in runs by the items' ids under `name`
        (see _fragments_of)."""
        items = items if isinstance(items, (list, tuple)) else list(items)
        packed = packed_ids(items)
        if packed is None:  # rows of mixed shapes: each row on its own
            return self._spliced([draw(item) for item in items])
        width, ids = packed
        size = (1 if width < 0 else width) * 8  # bytes of ids per row
        runs = self._cache("runs", name)
        parts = []
        start = 0
        for stop in range(len(items) % self.CHUNK or self.CHUNK, len(items) + 1, self.CHUNK):
            key = (width, stop - start, ids[start * size:stop * size])
            known = runs.get(key)
            if known is None:
                # The entry holds the run, so its objects (and their ids) outlive the entry.
                run = items[start:stop]
                known = (run, Markup("".join([draw(item) for item in run])))
                runs.add(key, known)
            parts.append(known[1])
            start = stop
        return self._spliced(parts)

    SPLICE_FROM = 16_384
    """Pieces of this many characters or more are spliced into their page (see render)."""

    def _spliced(self, parts: list[str]) -> Markup:
        """These parts joined, or, when they are large and drawn at a page's top level, a
        placeholder for them that `render` replaces once the page's template is done."""
        if (self._splices is None or self._depth or sum(map(len, parts)) < self.SPLICE_FROM
                or not all(map(str.isascii, parts))):  # else `finalize` makes it ASCII
            return Markup("".join(parts))
        self._splices.append(parts)
        return _Splice(f"{SPLICE_MARK}{len(self._splices) - 1}{SPLICE_MARK}")

    def _markdown(self, text: str) -> Markup:
        return Markup(self.markdown.render(text))

    def _markdown_body(self, text: str) -> Markup:
        """Markdown without its `# Title` line, for pages that show the title as their heading."""
        return self._markdown(split_title(text))

    def _asset_url(self, name: str) -> str:
        """A static file's URL. No content hash in it on purpose: a hash would put the stylesheet's
        bytes into every page, so a one-line CSS edit would rewrite the whole site (and its
        incremental rebuild); GitHub Pages revalidates within ten minutes anyway."""
        if name not in self.static:
            raise TemplateError(f"asset('{name}'): no static/{name} in the theme")
        return self.config.base_url.page(f"static/{name}")

    def render(self, page: Page) -> bytes:
        if page.template is None:
            if page.data is None:
                return b""
            data = page.data()  # text, or bytes already (the rankings' JSON)
            return data if isinstance(data, bytes) else data.encode("utf-8")
        html, splices = self._render_template(page, splice=True)
        if splices:
            html = _spliced_page(html, splices) or self._render_template(page, splice=False)[0]
        return html.encode("utf-8")

    def _render_template(self, page: Page, splice: bool) -> tuple[str, list[list[str]]]:
        """The page's template rendered. With `splice`, the large lists drawn by `fragments` and
        `ranking_rows` are left out, as placeholders, and returned beside it.

        Why: Jinja copies every value it outputs (escaping a Markup makes a new one), then joins
        the page. The rankings of a large archive are a 4.7 MB list of rows, already joined
        once: five copies of it made two thirds of the page's rendering after a correction, and
        a regular's history a good part of their page's. Spliced in, the rows are copied once,
        when the page is joined."""
        splices: list[list[str]] = []
        self._splices = splices if splice else None
        try:
            template = self.env.get_template(page.template)
            return template.render(page=page, **page.context), splices
        except jinja2.TemplateSyntaxError as exc:
            raise _syntax_error(exc) from None
        except jinja2.TemplateNotFound as exc:
            raise TemplateError(f"template '{exc.name}' not found in {self._theme_names()}") from None
        except TemplateError:
            raise  # a template that cannot be read (ThemeLoader): it names itself
        except RecursionError:
            raise TemplateError(f"{_template_position()}: a macro or include calls itself without "
                                f"end (rendering /{page.url})") from None
        except (jinja2.UndefinedError, TypeError, AttributeError, KeyError) as exc:
            raise TemplateError(f"{_template_position()}: {exc} (rendering /{page.url})") from None
        except Exception as exc:  # anything else a template can raise: `{{ 1 // 0 }}`, a filter
            raise TemplateError(f"{_template_position()}: {type(exc).__name__}: {exc} "
                                f"(rendering /{page.url})") from None
        finally:
            self._splices = None

    def compile(self, name: str) -> None:
        """Load and compile a template, so a syntax error in one just saved is reported even
        when no page it draws is rendered again; TemplateError says where."""
        try:
            self.env.get_template(name)
        except jinja2.TemplateSyntaxError as exc:
            raise _syntax_error(exc) from None
        except jinja2.TemplateNotFound:
            pass  # deleted, or of a theme not in use: the pages that need it will say so

    def _theme_names(self) -> str:
        return ", ".join(str(d / "templates") for d in self.dirs)

    def static_outputs(self) -> dict[str, bytes]:
        return {f"static/{name}": data for name, data in self.static.items()}


SPLICE_MARK = "\ue000"
"""Brackets a placeholder's number. A page's output is ASCII (see ascii_html) but for raw text
inside its template's <script> and <style>, so this private-use character marks nothing else."""


class _Splice(Markup):
    """The placeholder of a spliced piece (see Renderer._render_template)."""

    __slots__ = ()


def _spliced_page(html: str, splices: list[list[str]]) -> str | None:
    """The page with its placeholders replaced by their pieces; None when a piece went missing
    (a template that captured a list and did not output it, or passed it through a filter that
    changed its placeholder): the page is then rendered again without splicing."""
    pieces = html.split(SPLICE_MARK)
    if len(pieces) % 2 == 0:
        return None
    joined, found = [], set()
    for position, piece in enumerate(pieces):
        if position % 2 == 0:
            joined.append(piece)
            continue
        index = int(piece) if piece.isdigit() else len(splices)
        if index >= len(splices):
            return None
        joined += splices[index]
        found.add(index)
    return "".join(joined) if len(found) == len(splices) else None


def _syntax_error(exc: jinja2.TemplateSyntaxError) -> TemplateError:
    return TemplateError(f"{exc.filename or exc.name}:{exc.lineno}: {exc.message}")


def _template_position() -> str:
    """The template file and line of the exception being handled, from Jinja's rewritten traceback."""
    tb = sys.exc_info()[2]
    where = "a template"
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".html"):
            where = f"{filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


def render_all(renderer: Renderer, pages: list[Page],
               progress: Callable[[int, int], None] | None = None) -> dict[str, bytes]:
    outputs: dict[str, bytes] = {}
    for index, page in enumerate(pages, start=1):
        outputs[page.output_path] = renderer.render(page)
        if progress is not None:
            progress(index, len(pages))
    return outputs
