"""The site-wide inputs of a build, loaded every build (they are small): site.toml, the theme's
files, data/players.csv, the event folders, content/, and the league's games."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.digests import digest
from ..core.model import ContentPage
from ..core.problems import ProblemLog
from ..files.inputs import FileDigests
from ..league.config import SiteConfig, load_config
from ..league.content import load_content
from ..league.load import event_folders
from ..league.people import PLAYERS_FILE, Directory, load_directory
from ..rules.registry import Games, games_for
from .themefiles import scan_theme, theme_dirs


@dataclass(slots=True)
class SiteLoad:
    config: SiteConfig
    directory: Directory
    folders: list[Path]
    """data/events/'s event folders."""
    pages: list[ContentPage]
    """content/'s Markdown pages."""
    home_text: ContentPage | None
    """content/index.md."""
    reports: dict[str, ContentPage]
    """Event slug → its report (content/events/<slug>.md)."""
    league_digest: str
    """What every event's key holds besides its own folder: data/players.csv and the league's
    game declarations (a changed declaration scores each event again)."""
    site_key: str
    theme_key: str
    games: Games
    """The games the league can score (rules/registry.py), read once for the build."""


def load_site(source: Path, base_url: str | None, code: str, digests: FileDigests,
              log: ProblemLog) -> SiteLoad:
    config = load_config(source, log).with_base_url(base_url)
    static = scan_theme(source, config, log)
    directory = load_directory(source, log)
    folders = event_folders(source, log)
    pages, home, reports = load_content(source, {f.name for f in folders}, log)
    nav = [(p.url, p.title) for p in pages if p.url.count("/") == 1]
    games = games_for(source)
    log.extend(games.problems)
    league = digest(digests.file(str(source / PLAYERS_FILE)) or "", games.digest)
    theme = digest(*(digests.folder_tree(str(d)) for d in theme_dirs(source, config)))
    site_key = digest(code, config, nav, sorted(static))
    return SiteLoad(config, directory, folders, pages, home, reports, league, site_key, theme,
                    games)
