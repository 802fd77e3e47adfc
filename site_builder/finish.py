"""Finish stage: the files a host needs beside the pages (sitemap, .nojekyll)."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from .config import SiteConfig
from .plan import Page
from .write import MARKER


def sitemap(config: SiteConfig, urls: Iterable[str], lines: dict[str, str] | None = None) -> bytes:
    """sitemap.xml of these page URLs (the site's HTML pages), sorted; absolute URLs when
    base_url is a full URL. `lines` remembers each URL's line between calls (watch mode)."""
    lines = {} if lines is None else lines
    body = []
    for url in sorted(set(urls)):
        line = lines.get(url)
        if line is None:
            line = lines[url] = f"  <url><loc>{escape(config.base_url.absolute(url))}</loc></url>"
        body.append(line)
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
                      *body, "</urlset>", ""]).encode("utf-8")


def sitemap_urls(pages: Iterable[Page]) -> set[str]:
    return {page.url for page in pages if page.in_sitemap}


def extra_files(config: SiteConfig, urls: Iterable[str],
                lines: dict[str, str] | None = None) -> dict[str, bytes]:
    return {MARKER: b"", "sitemap.xml": sitemap(config, urls, lines)}
