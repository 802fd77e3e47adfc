"""Render stage: pages and static files to bytes, with Jinja2 templates from the theme.

Autoescaping is on for every template whatever its extension: player names and reports are data,
and `<b>Bob</b>` must show as text. Templates get plain objects and only format them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NamedTuple

import jinja2
from jinja2 import nodes
from markupsafe import Markup

from ..league.config import SiteConfig
from ..league.content import split_title
from ..core.dates import long_date, short_date
from ..core.digests import bytes_digest
from .markdown import make_renderer
from ..core.model import ContentPage
from ..core.numbers import decimals, exact_text, percent_text, points_text, share_text
from ..pages.eventpages import Page
from ..core.problems import TemplateError
from .themefiles import ThemeLoader, static_files, theme_dirs


class RecordingEnvironment(jinja2.Environment):
    """Jinja's environment, noting every template a render asks for. Extends, includes and
    imports all reach their templates through get_template or select_template, so the set is
    what the page was drawn with (Lektor records a page's dependencies the same way).

    One exception: Jinja makes an imported template's module once and keeps it, so the imports
    made inside an imported template (macros.html importing rows.html) reach get_template only
    while the first page is drawn. Those are added from the imported template's source, once
    per template name, for every page that records it."""

    recorded: set[str] | None = None

    def __init__(self, **options: Any):
        super().__init__(**options)
        self._imports: dict[str, frozenset[str]] = {}
        """Template name → the templates its module imports, and theirs in turn."""

    def get_template(self, name: Any, parent: str | None = None, globals: Any = None) -> jinja2.Template:
        template = super().get_template(name, parent, globals)
        self._record(template.name)
        return template

    def select_template(self, names: Any, parent: str | None = None,
                        globals: Any = None) -> jinja2.Template:
        template = super().select_template(names, parent, globals)
        self._record(template.name)
        return template

    def _record(self, name: str | None) -> None:
        if self.recorded is not None and name is not None:
            self.recorded.add(name)
            self.recorded.update(self._imported_by(name))

    def _imported_by(self, name: str) -> frozenset[str]:
        known = self._imports.get(name)
        if known is not None:
            return known
        self._imports[name] = frozenset()  # an import cycle ends here
        found: set[str] = set()
        try:
            tree = self.parse(self.loader.get_source(self, name)[0])
        except (jinja2.TemplateError, TemplateError):
            tree = None  # drawing the page reports it
        for node in tree.find_all((nodes.Import, nodes.FromImport)) if tree is not None else ():
            if isinstance(node.template, nodes.Const) and isinstance(node.template.value, str):
                found.add(node.template.value)
                found |= self._imported_by(node.template.value)
        known = self._imports[name] = frozenset(found)
        return known


class Renderer:
    def __init__(self, source: Path, config: SiteConfig, nav: list[ContentPage] = ()):
        self.config = config
        self.dirs = theme_dirs(source, config)
        self.env = RecordingEnvironment(
            loader=jinja2.ChoiceLoader([ThemeLoader(d, source) for d in self.dirs]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            # A theme edit makes a new Renderer (the build compares the templates' digests), so
            # templates need no check of their file's time on every use.
            auto_reload=False,
        )
        self.markdown = make_renderer(config.base_url.path)
        self.static = static_files(source, config)
        """The static files by path under static/."""
        self._digests: dict[str, str | None] = {}
        self.env.filters.update(dec3=decimals, exact=exact_text, pct=percent_text, share=share_text,
                                points=points_text, long_date=long_date,
                                short_date=short_date, markdown=self._markdown,
                                markdown_body=self._markdown_body)
        self.env.globals.update(site=config, url=config.base_url.page, asset=self._asset_url,
                                nav=[p for p in nav if p.url.count("/") == 1])

    def template_digest(self, name: str) -> str | None:
        """The digest of a template's text as the theme has it now; None when there is none."""
        if name not in self._digests:
            try:
                text, _, _ = self.env.loader.get_source(self.env, name)
            except (jinja2.TemplateNotFound, TemplateError):
                self._digests[name] = None
            else:
                self._digests[name] = text_digest(text)
        return self._digests[name]

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

    def render(self, page: Page) -> Rendered:
        """The page's bytes, and the templates it was drawn with."""
        if page.template is None:
            data = page.data() if page.data is not None else b""  # text, or bytes already
            return Rendered(data if isinstance(data, bytes) else data.encode("utf-8"), ())
        self.env.recorded = used = set()
        try:
            html = self._render_template(page)
        finally:
            self.env.recorded = None
        return Rendered(html.encode("utf-8"), tuple(sorted(used)))

    def _render_template(self, page: Page) -> str:
        # Made before the template runs: what goes wrong making it (a result kept in a damaged
        # state, see facts.result_of) is not the template's fault.
        context = page.context() if callable(page.context) else page.context
        try:
            return self.env.get_template(page.template).render(page=page, **context)
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

    def _theme_names(self) -> str:
        return ", ".join(str(d / "templates") for d in self.dirs)

    def static_outputs(self) -> dict[str, bytes]:
        return {f"static/{name}": data for name, data in self.static.items()}


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


class Rendered(NamedTuple):
    data: bytes
    templates: tuple[str, ...]
    """Every template the page was drawn with, by name."""


def text_digest(text: str) -> str:
    return bytes_digest(text.encode("utf-8"))
