"""Markdown for content pages and event reports: CommonMark plus tables, raw HTML off.

Raw HTML is disabled so a report can never inject markup; links starting with `/` are rewritten
under the site's base path, so `[events](/events/)` keeps working on a GitHub Pages project site.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore


def make_renderer(base_path: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")

    def prefix(url: str) -> str:
        if url.startswith("/") and not url.startswith("//") and not url.startswith(base_path):
            return base_path + url.lstrip("/")
        return url

    def rebase_links(state: StateCore) -> None:
        for token in state.tokens:
            for child in token.children or ():
                if child.type == "link_open" and isinstance(child.attrs.get("href"), str):
                    child.attrs["href"] = prefix(child.attrs["href"])
                elif child.type == "image" and isinstance(child.attrs.get("src"), str):
                    child.attrs["src"] = prefix(child.attrs["src"])

    if base_path != "/":
        md.core.ruler.push("rebase_links", rebase_links)
    return md
