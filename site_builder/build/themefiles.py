"""A theme's files: which theme folders a site uses, its templates' loader and its static files,
each read by the rules of sources.py (no link out of the site, no pipe, no oversized file)."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from ..league.config import SiteConfig
from ..core.problems import ProblemLog, TemplateError
from ..files.sources import FOLDER, files_under, inside, kind

PACKAGE_DIR = Path(__file__).resolve().parent.parent
TEMPLATE_LIMIT = 1_000_000
"""The largest template, in bytes (the default theme's largest is 5 KB)."""
STATIC_LIMIT = 50_000_000
"""The largest static file, in bytes: GitHub warns at 50 MB and refuses files over 100 MB, and
a build holds the theme's static files in memory."""


def builtin_theme() -> Path:
    """The default theme: inside the package when installed from a wheel, else the repository's."""
    for candidate in (PACKAGE_DIR / "_theme", PACKAGE_DIR.parent / "themes" / "default"):
        if (candidate / "templates").is_dir():
            return candidate
    raise TemplateError("the built-in default theme is missing from this installation")


def theme_dirs(source: Path, config: SiteConfig) -> list[Path]:
    """The site's own theme first (its files override), then the built-in default."""
    own = source / "themes" / config.theme
    builtin = builtin_theme()
    dirs = [own] if own.is_dir() and own.resolve() != builtin.resolve() else []
    return dirs + [builtin]


class ThemeLoader(jinja2.FileSystemLoader):
    """Jinja's file loader for one theme folder, except that a template the site may not read
    (a link leading out of the site, a pipe, one over TEMPLATE_LIMIT) is not found here: the
    built-in theme's template of that name is used, and the theme's scan (scan_theme) said why.
    One that cannot be read or is not UTF-8 is a TemplateError naming it."""

    def __init__(self, theme: Path, source: Path):
        super().__init__(theme / "templates")
        self.source = theme if theme == builtin_theme() else source

    def get_source(self, environment: jinja2.Environment, template: str):
        path = Path(self.searchpath[0], *jinja2.loaders.split_template_path(template))
        if not _usable(path, self.source):
            raise jinja2.TemplateNotFound(template)
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError as exc:
            raise TemplateError(f"{path}: is not UTF-8 text (byte 0x{exc.object[exc.start]:02x}):"
                                " save it as UTF-8") from None
        except OSError as exc:
            raise TemplateError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def _usable(path: Path, source: Path) -> bool:
    try:
        return (path.is_file() and inside(path, source)
                and os.stat(path).st_size <= TEMPLATE_LIMIT)
    except OSError:
        return False


def scan_theme(source: Path, config: SiteConfig, log: ProblemLog) -> dict[str, Path]:
    """The static files by path under static/ (the site's theme overrides the built-in one),
    with what the site's theme folder holds that cannot be used logged: links out of the site,
    pipes, unreadable files (errors), files too large (skipped with a warning). Its templates/
    is looked through too, so a template the loader will not take is reported."""
    files: dict[str, Path] = {}
    builtin = builtin_theme()
    for theme in reversed(theme_dirs(source, config)):
        own = theme != builtin
        shown = f"themes/{theme.name}" if own else str(theme)
        theme_log = log if own else ProblemLog()  # the package's own files are not the site's
        root = source if own else theme
        if own and kind(theme, shown, root, theme_log) != FOLDER:
            continue
        for part, limit in (("templates", TEMPLATE_LIMIT), ("static", STATIC_LIMIT)):
            folder = theme / part
            if not (folder.exists() or folder.is_symlink()) or \
                    kind(folder, f"{shown}/{part}", root, theme_log) != FOLDER:
                continue
            for relative, path in files_under(folder, f"{shown}/{part}", root, theme_log):
                if _too_large(path, f"{shown}/{part}/{relative}", part, limit, theme_log):
                    continue
                if part == "static":
                    files[relative] = path
    return dict(sorted(files.items()))


def _too_large(path: Path, shown: str, part: str, limit: int, log: ProblemLog) -> bool:
    try:
        size = os.stat(path).st_size
        readable = os.access(path, os.R_OK)
    except OSError as exc:
        log.error(shown, None, f"cannot be read: {exc.strerror or exc}")
        return True
    if not readable:
        log.error(shown, None, "cannot be read: Permission denied: give the build access to it "
                               "(chmod), or move it out of the site")
        return True
    if size <= limit:
        return False
    what = "a template" if part == "templates" else "a static file"
    why = "" if part == "templates" else " (GitHub Pages refuses files over 100 MB)"
    log.warning(shown, None, f"is larger than {limit // 1_000_000} MB, the largest {what} may "
                             f"be{why}: skipped")
    return True


def static_files(source: Path, config: SiteConfig) -> dict[str, bytes]:
    """The theme's static files by path under static/, read (the load stage reported what it
    skips: see scan_theme)."""
    return {relative: path.read_bytes()
            for relative, path in scan_theme(source, config, ProblemLog()).items()}
