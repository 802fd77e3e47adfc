"""Markdown files under content/: pages, the home page's text and event reports."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..core.model import ContentPage
from ..core.problems import ProblemLog
from ..files.sources import FOLDER, files_under, kind
from ..files.textfiles import read_text

CONTENT_DIR = "content"
# Top-level names the generator writes itself; a content page may not take them over.
RESERVED = ("events", "players", "rankings", "static", "index.html", "404.html", "sitemap.xml",
            ".nojekyll", ".site-builder")


def load_content(source: Path, event_slugs: set[str], log: ProblemLog
                 ) -> tuple[list[ContentPage], ContentPage | None, dict[str, ContentPage]]:
    """(pages, home text, reports by event slug)."""
    root = source / CONTENT_DIR
    pages: list[ContentPage] = []
    home = None
    reports: dict[str, ContentPage] = {}
    if kind(root, CONTENT_DIR, source, log) != FOLDER:
        return pages, home, reports
    published: dict[str, str] = {}
    for relative, path in files_under(root, CONTENT_DIR, source, log):
        if not relative.endswith(".md"):
            continue
        shown = f"{CONTENT_DIR}/{relative}"
        # One spelling of each accent (macOS writes 'é' as e + a combining accent): the page's
        # address is the composed one, as everywhere else.
        relative = unicodedata.normalize("NFC", relative)
        if (unsafe := _unsafe_name(relative)) is not None:
            log.error(shown, None, unsafe)
            continue
        text = read_text(path, shown, log)
        if text is None:
            continue
        if relative == "index.md":
            home = ContentPage(shown, "", _title(text, "Home"), text)
        elif relative.startswith("events/") and relative.count("/") == 1:
            slug = relative.removeprefix("events/").removesuffix(".md")
            if slug not in event_slugs:
                log.warning(shown, 1, f"is an event report but there is no event '{slug}' "
                                      f"(data/events/{slug}/): it is not published")
                continue
            reports[slug] = ContentPage(shown, f"events/{slug}/", _title(text, slug), text)
        else:
            url = _url_of(relative)
            if url.split("/")[0] in RESERVED:
                log.error(shown, 1, f"would be published at /{url}, which the generator uses for "
                                    f"its own pages: move or rename it")
                continue
            if url in published:
                log.error(shown, 1, f"would be published at /{url}, like {published[url]}: "
                                    "keep one of the two")
                continue
            published[url] = shown
            stem = Path(relative).stem if Path(relative).stem != "index" else Path(relative).parent.name
            pages.append(ContentPage(shown, url, _title(text, stem.replace("-", " ").title()), text))
    return pages, home, reports


URL_SAFE = re.compile(r"[\w.~-]+")
"""Letters (any script), digits and _ . ~ -: what a URL path segment carries as it is."""


def _unsafe_name(relative: str) -> str | None:
    """Why this content file cannot be published under its name, or None. A name with spaces,
    ? # % or other URL punctuation would need encoding in every link, and GitHub Pages and
    browsers disagree on some of them: refusing them, with the fix, is clearer."""
    segments = relative.removesuffix(".md").split("/")
    for segment in segments:
        if not URL_SAFE.fullmatch(segment):
            bad = sorted({c for c in segment if not URL_SAFE.fullmatch(c)})
            shown = " ".join("a space" if c == " " else repr(c) for c in bad)
            example = re.sub(r"[^\w.~]+", "-", segment).strip("-") or "page"
            return (f"the name '{segment}' has {shown}, which a web address cannot carry as it "
                    f"is: rename it with letters, digits, -, _, . and ~ only, e.g. '{example}'")
        if segment.casefold() == "index.html":  # the page of the folder above is this folder
            # (on a disk that ignores case, Index.html too)
            return ("a page named index.html.md would be published at a folder index.html/, "
                    "where its parent's own page (index.html) is: rename it, e.g. index.md")
    return None


def _url_of(relative: str) -> str:
    """'about.md' → 'about/', 'guides/index.md' → 'guides/', 'guides/x.md' → 'guides/x/'."""
    stem = relative.removesuffix(".md")
    if stem.endswith("/index"):
        stem = stem.removesuffix("/index")
    return stem + "/"


def _title(text: str, fallback: str) -> str:
    """The first level-1 heading (`# Title`), else the fallback."""
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip().strip("#").strip() or fallback
    return fallback


def split_title(text: str) -> str:
    """The Markdown without its first `# Title` line, which the page shows as its heading."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join(lines[:i] + lines[i + 1:])
        if line.strip():
            break
    return text
