"""Finish stage: the files a host needs beside the pages (sitemap, .nojekyll)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from .config import SiteConfig
from .plan import Page
from .write import MARKER


def sitemap(config: SiteConfig, pages: list[Page]) -> bytes:
    """sitemap.xml of every HTML page, sorted; absolute URLs when base_url is a full URL."""
    urls = sorted({config.base_url.absolute(p.url) for p in pages if p.in_sitemap})
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <url><loc>{escape(url)}</loc></url>" for url in urls]
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def extra_files(config: SiteConfig, pages: list[Page]) -> dict[str, bytes]:
    return {MARKER: b"", "sitemap.xml": sitemap(config, pages)}
