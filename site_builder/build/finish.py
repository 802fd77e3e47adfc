"""Finish stage: the files beside the pages (sitemap, .nojekyll, the build marker)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from ..league.config import SiteConfig
from .write import BUILD_MARKER, BUILD_MARKER_TEXT, MARKER


def sitemap(config: SiteConfig, sorted_urls: Sequence[str]) -> bytes:
    """sitemap.xml of these page URLs (the site's HTML pages, sorted, without repeats); absolute
    URLs when base_url is a full URL."""
    body = [sitemap_line(config, url) for url in sorted_urls]
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
                      *body, "</urlset>", ""]).encode("utf-8")


def sitemap_line(config: SiteConfig, url: str) -> str:
    return f"  <url><loc>{escape(config.base_url.absolute(url))}</loc></url>"


def extra_files(config: SiteConfig, sorted_urls: Sequence[str]) -> dict[str, bytes]:
    return {MARKER: b"", BUILD_MARKER: BUILD_MARKER_TEXT,
            "sitemap.xml": sitemap(config, sorted_urls)}
