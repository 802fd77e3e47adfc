"""Site-wide settings from `site.toml`, each documented where it is declared."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from ..core.problems import ConfigError, ProblemLog
from ..files.sources import FOLDER, kind
from ..files.textfiles import TomlDoc, read_toml
from ..files.tomlkeys import KeyReader

SITE_FILE = "site.toml"
HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*"
                  r"[A-Za-z0-9])?)*(?::[0-9]{1,5})?")
"""A host name (ASCII: an international one in its xn-- form) and an optional port."""


@dataclass(frozen=True, slots=True)
class BaseUrl:
    """Where the site is published: a path prefix, and the origin when a full URL was given.

    Links are written as `path + page`, so the site works at a domain root and under a GitHub
    Pages project path alike; `origin` makes sitemap entries absolute when it is known.
    """

    path: str = "/"
    origin: str = ""

    @classmethod
    def parse(cls, text: str) -> BaseUrl:
        text = text.strip()
        parts = urlsplit(text)
        if parts.scheme and parts.scheme not in ("http", "https"):
            raise ValueError(f"base_url {text!r} must start with http://, https:// or /")
        if parts.query or parts.fragment:
            raise ValueError(f"base_url {text!r} must not carry a query or #fragment")
        if not parts.scheme and (parts.netloc or not text.startswith("/")):
            raise ValueError(f"base_url {text!r} must be a path like /my-league/ or a full URL")
        if parts.scheme and not HOST.fullmatch(parts.netloc):
            raise ValueError(f"base_url {text!r} must name a host after {parts.scheme}://, "
                             "like https://example.org/my-league/")
        path = "/" + parts.path.strip("/") + "/" if parts.path.strip("/") else "/"
        if not re.fullmatch(r"[A-Za-z0-9._~/-]+", path):
            raise ValueError(f"base_url {text!r} may only use letters, digits and . _ ~ - in its path")
        origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme else ""
        return cls(path, origin)

    def page(self, relative: str) -> str:
        """The site path of a page: '' → '/base/', 'events/x/' → '/base/events/x/'."""
        return self.path + relative.lstrip("/")

    def absolute(self, relative: str) -> str:
        return self.origin + self.page(relative)


@dataclass(frozen=True, slots=True)
class RankingsConfig:
    """Which events count toward the cross-event rankings ([rankings] in site.toml)."""

    title: str = "Rankings"
    start: dt.date | None = None
    """Only events on or after this date count (`from = 2026-01-01`)."""
    end: dt.date | None = None
    """Only events on or before this date count (`until = 2026-12-31`)."""

    def counts(self, date: dt.date) -> bool:
        return (self.start is None or date >= self.start) and (self.end is None or date <= self.end)

    def describe(self) -> str:
        if self.start and self.end:
            return f"events from {self.start.isoformat()} to {self.end.isoformat()}"
        if self.start:
            return f"events from {self.start.isoformat()} on"
        if self.end:
            return f"events up to {self.end.isoformat()}"
        return "all events"


@dataclass(frozen=True, slots=True)
class SiteConfig:
    title: str = "Tournament results"
    """Shown in every page's header and in browser tabs."""
    description: str = ""
    """One line under the title on the home page."""
    base_url: BaseUrl = BaseUrl()
    """Path (or full URL) the site is served under, e.g. "/my-league/" on GitHub Pages."""
    theme: str = "default"
    """Folder under themes/ whose templates and static files are used; missing files fall back
    to the built-in default theme."""
    latest_events: int = 6
    """How many recent events the home page lists."""
    language: str = "en"
    """The pages' `lang` attribute."""
    rankings: RankingsConfig = RankingsConfig()
    """The season the rankings cover; every scored event by default."""

    def with_base_url(self, text: str | None) -> SiteConfig:
        if text is None:
            return self
        try:
            return replace(self, base_url=BaseUrl.parse(text))
        except ValueError as exc:
            raise ConfigError(f"--base-url: {exc}") from None


def load_config(source: Path, log: ProblemLog) -> SiteConfig:
    """Read `site.toml` if present; every default applies to a site without one."""
    path = source / SITE_FILE
    found = kind(path, SITE_FILE, source, log)
    if found is None:  # none (every default applies), or skipped with a warning
        return SiteConfig()
    if found == FOLDER:
        log.error(SITE_FILE, None, "is not a file: site settings go in a site.toml file")
        return SiteConfig()
    doc = read_toml(path, SITE_FILE, log)
    if doc is None:
        return SiteConfig()
    keys = KeyReader(doc, log)
    defaults = SiteConfig()
    base_url = defaults.base_url
    base_text = keys.text("base_url", example='base_url = "/my-league/"')
    if base_text is not None:
        try:
            base_url = BaseUrl.parse(base_text)
        except ValueError as exc:
            log.error(SITE_FILE, doc.line_of("base_url"), str(exc))
    config = SiteConfig(
        title=keys.text("title", default=defaults.title) or defaults.title,
        description=keys.text("description", default="") or "",
        base_url=base_url,
        theme=keys.text("theme", default=defaults.theme) or defaults.theme,
        latest_events=keys.integer("latest_events", default=defaults.latest_events, minimum=1)
        or defaults.latest_events,
        language=keys.text("language", default=defaults.language) or defaults.language,
        rankings=_read_rankings(doc, keys, log),
    )
    if not re.fullmatch(r"[A-Za-z0-9_-]+", config.theme):
        log.error(SITE_FILE, doc.line_of("theme"), f"theme = {config.theme!r} must be a folder name under themes/")
        config = replace(config, theme=defaults.theme)
    elif config.theme != defaults.theme and not (source / "themes" / config.theme).is_dir():
        log.warning(SITE_FILE, doc.line_of("theme"),
                    f"theme = {config.theme!r}: there is no themes/{config.theme}/ folder, so the "
                    "default theme is used")
    keys.unknown_keys()
    return config


def _read_rankings(doc: TomlDoc, keys: KeyReader, log: ProblemLog) -> RankingsConfig:
    table = keys.table("rankings")
    if table is None:
        return RankingsConfig()
    sub = KeyReader(TomlDoc(doc.shown, doc.text, table), log)
    config = RankingsConfig(
        title=sub.text("title", default="Rankings", example='title = "2026 season"') or "Rankings",
        start=sub.date("from", example="2026-01-01"),
        end=sub.date("until", example="2026-12-31"),
    )
    sub.unknown_keys()
    if config.start and config.end and config.start > config.end:
        log.error(doc.shown, doc.line_of("until"), f"[rankings] until = {config.end} is before "
                                                   f"from = {config.start}")
    return config
