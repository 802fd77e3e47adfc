"""Markdown files under content/: pages, the home page's text and event reports."""

from __future__ import annotations

from pathlib import Path

from .model import ContentPage
from .problems import ProblemLog
from .textfiles import read_text

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
    if not root.is_dir():
        return pages, home, reports
    published: dict[str, str] = {}
    for path in sorted(root.rglob("*.md"), key=lambda p: p.relative_to(root).as_posix()):
        relative = path.relative_to(root).as_posix()
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        shown = f"{CONTENT_DIR}/{relative}"
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
