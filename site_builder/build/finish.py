"""Finish stage: the files beside the pages (sitemap, .nojekyll, the build marker)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from ..league.config import SiteConfig
from .buildresult import url_of
from .state import BuildState
from .write import BUILD_MARKER, BUILD_MARKER_TEXT, MARKER


def sitemap(config: SiteConfig, sorted_urls: Sequence[str],
            lines: dict[str, str] | None = None) -> bytes:
    """sitemap.xml of these page URLs (the site's HTML pages, sorted, without repeats); absolute
    URLs when base_url is a full URL. `lines`: each URL's line as made before, if known."""
    lines = lines or {}
    body = [lines.get(url) or sitemap_line(config, url) for url in sorted_urls]
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
                      *body, "</urlset>", ""]).encode("utf-8")


def sitemap_line(config: SiteConfig, url: str) -> str:
    return f"  <url><loc>{escape(config.base_url.absolute(url))}</loc></url>"


def extra_files(config: SiteConfig, sorted_urls: Sequence[str]) -> dict[str, bytes]:
    return {MARKER: b"", BUILD_MARKER: BUILD_MARKER_TEXT,
            "sitemap.xml": sitemap(config, sorted_urls)}


class ExtraFiles:
    """The files beside the pages, made again only when the pages the sitemap lists changed.
    Each event's list of pages is kept with the event's record (an unchanged event keeps its
    record object), and each URL's escaped line: a watch rebuild that adds a round page does
    not go through every page's record, and makes the sitemap from lines already made."""

    def __init__(self) -> None:
        self._config: SiteConfig | None = None
        self._by_event: dict[str, tuple[object, list[str]]] = {}
        self._paths: list[str] = []
        self._files: dict[str, bytes] = {}
        self._lines: dict[str, str] = {}

    def files(self, config: SiteConfig, state: BuildState) -> dict[str, bytes]:
        by_event = {}
        paths = []
        for slug, unit in state.events.items():
            known = self._by_event.get(slug)
            if known is None or known[0] is not unit:
                known = (unit, [path for path, record in unit.pages.items() if record.in_sitemap])
            by_event[slug] = known
            paths += known[1]
        self._by_event = by_event
        paths += [path for path, record in state.pages.items() if record.in_sitemap]
        paths.sort()
        if config != self._config or paths != self._paths:
            urls = sorted(url_of(path) for path in paths)
            lines = self._lines if config == self._config else {}
            self._lines = {url: lines.get(url) or sitemap_line(config, url) for url in urls}
            self._config, self._paths = config, paths
            self._files = {MARKER: b"", BUILD_MARKER: BUILD_MARKER_TEXT,
                           "sitemap.xml": sitemap(config, urls, self._lines)}
        return self._files
