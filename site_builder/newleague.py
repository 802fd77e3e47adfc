"""`site-builder new FOLDER`: a league repository with nothing of the tool inside it.

The files come from scaffold/ (package data), with <<title>>, <<date>> and <<install>> filled in.
The workflow installs the tool pinned to the version that made the league: by default from a
package index (`site-builder==<version>`); `--install` names another requirement, such as the
tool's git repository at a tag.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from importlib import resources
from pathlib import Path

from . import __version__
from .people import slugify
from .problems import ConfigError

# scaffold file → where it goes in the league (dot files are stored without their dot, so that
# they do not act on the tool's own repository)
FILES = {
    "site.toml": "site.toml",
    "players.csv": "data/players.csv",
    "event.toml": "data/events/{slug}/event.toml",
    "registrations.csv": "data/events/{slug}/players.csv",
    "round-1.csv": "data/events/{slug}/round-1.csv",
    "round-2.csv": "data/events/{slug}/round-2.csv",
    "index.md": "content/index.md",
    "about.md": "content/about.md",
    "gitignore": ".gitignore",
    "README.md": "README.md",
    "pages.yml": ".github/workflows/pages.yml",
}


def default_install() -> str:
    return f"site-builder=={__version__}"


def title_from(folder: Path) -> str:
    """'northern-league' → 'Northern League'."""
    words = re.split(r"[-_\s]+", folder.resolve().name)
    return " ".join(word[:1].upper() + word[1:] for word in words if word) or "Our League"


def create_league(folder: Path, title: str | None = None, install: str | None = None,
                  today: dt.date | None = None) -> list[str]:
    """Write the league into `folder` (missing or empty); the paths written, relative."""
    _refuse_unless_empty(folder)
    title = title if title is not None else title_from(folder)
    if not title.strip() or any(ord(c) < 32 for c in title):
        raise ConfigError(f"--title {title!r}: give the league's name on one line")
    install = install or default_install()
    if not install.strip() or any(c in install for c in "\"\n\r"):
        raise ConfigError(f"--install {install!r}: give one pip requirement, such as "
                          f"{default_install()} or git+https://…/site-builder@v{__version__}")
    today = today or dt.date.today()
    slug = f"{today.isoformat()}-{slugify('Example Store Night')}"
    values = {"title": title, "date": today.isoformat(), "install": install.strip()}
    written = []
    scaffold = resources.files(__package__) / "scaffold"
    for name, target in FILES.items():
        text = scaffold.joinpath(name).read_text(encoding="utf-8")
        relative = target.format(slug=slug)
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_fill(text, values, toml=name.endswith(".toml")), encoding="utf-8")
        written.append(relative)
    return written


def _fill(text: str, values: dict[str, str], toml: bool) -> str:
    for key, value in values.items():
        if toml and key == "title":  # inside a TOML basic string
            value = value.replace("\\", "\\\\").replace('"', '\\"')
        text = text.replace(f"<<{key}>>", value)
    return text


def _has_entries(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return any(True for _ in entries)


def _refuse_unless_empty(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} is a file: give a new folder for the league")
    if folder.is_dir() and _has_entries(folder):
        raise ConfigError(f"{folder} is not empty: `new` writes a league only into a new or "
                          "empty folder, so that nothing of yours is overwritten")


def run_new(args) -> int:
    """The command: write the league, then say what to do next."""
    folder = Path(args.folder)
    written = create_league(folder, args.title, args.install)
    print(f"Created a league in {folder}/ ({len(written)} files, with an example event):")
    for path in written:
        print(f"  {path}")
    print(f"\nNext:\n  cd {folder}\n  site-builder serve        # preview on http://127.0.0.1:8000/"
          "\nThen put the folder on GitHub and turn on Pages (Settings → Pages → Source: GitHub "
          "Actions);\nits README.md tells the rest.")
    return 0
