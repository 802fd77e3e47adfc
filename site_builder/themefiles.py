"""A theme's files: which theme folders a site uses, its templates' loader and its static files,
each read by the rules of sources.py (no link out of the site, no pipe, no oversized file)."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2

from .config import SiteConfig
from .problems import Problem, ProblemLog, TemplateError
from .sources import files_under, inside

PACKAGE_DIR = Path(__file__).resolve().parent
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
    built-in theme's template of that name is used, and the theme's problems say why."""

    def __init__(self, theme: Path, source: Path):
        super().__init__(theme / "templates")
        self.source = theme if theme == builtin_theme() else source

    def get_source(self, environment: jinja2.Environment, template: str):
        path = Path(self.searchpath[0], *jinja2.loaders.split_template_path(template))
        if not _usable(path, self.source):
            raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


def _usable(path: Path, source: Path) -> bool:
    try:
        return (path.is_file() and inside(path, source)
                and os.stat(path).st_size <= TEMPLATE_LIMIT)
    except OSError:
        return False


def theme_files(dirs: list[Path], source: Path) -> tuple[dict[str, bytes], list[Problem]]:
    """The static files by path under static/ (the site's theme overrides the built-in one),
    and the warnings about what was skipped in the site's theme (links out of the site, pipes,
    files too large): its templates/ is looked through too, so a skipped template is reported."""
    files: dict[str, bytes] = {}
    log = ProblemLog()
    builtin = builtin_theme()
    for theme in reversed(dirs):
        own = theme != builtin
        shown = f"themes/{theme.name}" if own else str(theme)
        theme_log = log if own else ProblemLog()  # the package's own files are not the site's
        root = source if own else theme
        if own and (theme / "templates").is_dir():
            for relative, path in files_under(theme / "templates", f"{shown}/templates", root,
                                              theme_log):
                if os.stat(path).st_size > TEMPLATE_LIMIT:
                    theme_log.warning(f"{shown}/templates/{relative}", None,
                                      f"is larger than {TEMPLATE_LIMIT // 1_000_000} MB, the "
                                      "largest a template may be: skipped")
        if (theme / "static").is_dir():
            for relative, path in files_under(theme / "static", f"{shown}/static", root, theme_log):
                if os.stat(path).st_size > STATIC_LIMIT:
                    theme_log.warning(f"{shown}/static/{relative}", None,
                                      f"is larger than {STATIC_LIMIT // 1_000_000} MB, the largest "
                                      "a static file may be (GitHub Pages refuses files over "
                                      "100 MB): skipped")
                    continue
                files[relative] = path.read_bytes()
    return dict(sorted(files.items())), log.problems
