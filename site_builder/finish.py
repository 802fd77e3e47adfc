"""Finish stage: the files a host needs beside the pages (sitemap, .nojekyll)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

from .config import SiteConfig
from .plan import Page
from .write import MARKER


def sitemap(config: SiteConfig, sorted_urls: Sequence[str],
            lines: dict[str, str] | None = None) -> bytes:
    """sitemap.xml of these page URLs (the site's HTML pages, sorted, without repeats); absolute
    URLs when base_url is a full URL. `lines` remembers each URL's line between calls (watch
    mode, where the URLs are kept sorted as pages come and go)."""
    lines = {} if lines is None else lines
    body = [lines.get(url) or _sitemap_line(config, url, lines) for url in sorted_urls]
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
                      *body, "</urlset>", ""]).encode("utf-8")


def _sitemap_line(config: SiteConfig, url: str, lines: dict[str, str]) -> str:
    line = lines[url] = f"  <url><loc>{escape(config.base_url.absolute(url))}</loc></url>"
    return line


def sitemap_urls(pages: Iterable[Page]) -> list[str]:
    """The URLs a sitemap lists, sorted."""
    return sorted({page.url for page in pages if page.in_sitemap})


def extra_files(config: SiteConfig, sorted_urls: Sequence[str],
                lines: dict[str, str] | None = None) -> dict[str, bytes]:
    return {MARKER: b"", "sitemap.xml": sitemap(config, sorted_urls, lines)}
