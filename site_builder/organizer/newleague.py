"""`site-builder new FOLDER`: a league repository with nothing of the tool inside it.

The files come from scaffold/ (package data), with their <<placeholders>> filled in. What the
organizer typed (the title, the --install requirement) is written in the form each place needs
(a TOML string, a YAML comment, a YAML string holding a shell word), so it stays one value: it
can add no key to the workflow and reach the shell only as one literal argument.
The workflow installs the tool pinned to the version that made the league: by default from a
package index (`site-builder==<version>`); `--install` names another requirement, such as the
tool's git repository at a tag.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from .. import __version__
from ..league.people import slugify
from .installsource import install_source, index_requirement
from ..core.problems import ConfigError, escaped, one_line, terminal_safe

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

TITLE_RULE = "as one line of text, with no control characters (U+0000–U+001F, U+007F)"
_NOT_IN_TOML = re.compile(r"[\x00-\x1f\x7f]")
"""What a TOML basic string cannot hold as typed (tab aside, which a one-line name has no use
for either): a title with one is refused, not written into site.toml."""
_NOT_UTF8 = re.compile("[\ud800-\udfff]")
"""Lone surrogates: bytes of a command-line argument or folder name that are not UTF-8."""
_HIDDEN = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
                     "|[\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]")
"""What is never written raw into the league's TOML and YAML: what a YAML reader refuses in a
file (C0 and C1 controls, DEL, surrogates, U+FFFE, U+FFFF), what it takes as a line break
(NEL, U+2028 and U+2029 for PyYAML: a title holding one once added a top-level key to the
workflow), the bidi controls, which make a line read otherwise than it runs, and the invisible
ones (zero-width spaces and joiners, U+2060, and U+FEFF, a byte-order mark YAML allows only at
the start of a document)."""
_PLACEHOLDER = re.compile(r"<<([a-z-]+)>>")


def default_install() -> str:
    """The requirement the workflow installs: how this copy was installed, when a CI runner
    can install it the same way, else the package index's (installsource.py)."""
    return install_source().requirement


def title_from(folder: Path) -> str:
    """'northern-league' → 'Northern League'."""
    words = re.split(r"[-_\s]+", folder.resolve().name)
    return " ".join(word[:1].upper() + word[1:] for word in words if word) or "Our League"


def example_games() -> tuple[str, ...]:
    """The games `new --game` writes its example event in: scaffold/'s own first (the default),
    then the declarations that ship with the tool, made from them (`_declared_example`)."""
    from ..rules import games_for
    return (_scaffold_game(), *sorted(games_for(None).declared))


def _scaffold_game() -> str:
    text = (resources.files(__package__) / "scaffold" / "event.toml").read_text(encoding="utf-8")
    return re.search(r'^game = "([a-z0-9-]+)"', text, re.MULTILINE).group(1)


def create_league(folder: Path, title: str | None = None, install: str | None = None,
                  today: dt.date | None = None, game: str | None = None) -> list[str]:
    """Write the league into `folder` (missing or empty); the paths written, relative. Every
    value is checked before the first file is written."""
    _refuse_unless_empty(folder)
    title = _checked_title(title, folder)
    install = _checked_install(install or default_install())
    today = today or dt.date.today()
    slug = f"{today.isoformat()}-{slugify('Example Store Night')}"
    values = _values(title, install, today)
    example = {} if game in (None, _scaffold_game()) else _declared_example(game)
    written = []
    scaffold = resources.files(__package__) / "scaffold"
    for name, target in FILES.items():
        text = example.get(name) or scaffold.joinpath(name).read_text(encoding="utf-8")
        relative = target.format(slug=slug)
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        # one pass: a value holding "<<date>>" is written as it is, not filled in again
        path.write_text(_PLACEHOLDER.sub(lambda match: values[match.group(1)], text),
                        encoding="utf-8")
        written.append(relative)
    return written


PLAYERS = ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra")
ARCHETYPES = ("Aggro", "Control", "Midrange", "Aggro")


def _declared_example(game: str) -> dict[str, str]:
    """The example event's files in a shipped declared game: the same four players and two
    rounds as Conquest's, in the game's own words (and games, where it records them)."""
    from ..rules import games_for
    declaration = games_for(None)[game].declaration
    win = next(r.word for r in declaration.results if r.outcome == "win")
    loss = next(r.word for r in declaration.results if r.outcome == "loss")
    games = declaration.game_records
    head = "table,player,result" + (",games_won,games_drawn" if games else "")

    def row(table: int, player: str, result: str, won: int) -> str:
        return f"{table},{player},{result}" + (f",{won},0" if games else "")

    rounds = [((PLAYERS[0], PLAYERS[1]), (PLAYERS[2], PLAYERS[3])),
              ((PLAYERS[0], PLAYERS[2]), (PLAYERS[1], PLAYERS[3]))]
    files = {}
    for number, tables in enumerate(rounds, start=1):
        lines = [head]
        for table, (winner, loser) in enumerate(tables, start=1):
            lines += [row(table, winner, win, 2), row(table, loser, loss, 1)]
        files[f"round-{number}.csv"] = "\n".join(lines) + "\n"
    files["event.toml"] = (
        "# An example event, to see the site working: delete this folder when your first event "
        "is in.\n# `example = true` keeps it out of the rankings and the deck tables, and its "
        "page says so.\nexample = true\nname = \"Example Store Night\"\ndate = <<date>>\n"
        f"game = \"{game}\"\nswiss_rounds = 2\ncut = 0\nlocation = \"Your game store\"\n")
    files["registrations.csv"] = ("player\n" + "".join(f"{p}\n" for p in PLAYERS)
                                  if game == "chess" else "player,deck\n" + "".join(
                                      f"{p},{d}\n" for p, d in zip(PLAYERS, ARCHETYPES)))
    return files


def _game_title(game: str) -> str:
    from ..rules import games_for
    return games_for(None)[game].title


def _values(title: str, install: str, today: dt.date) -> dict[str, str]:
    """Each placeholder of scaffold/ and the text it stands for, in its file's syntax."""
    command = f"python -m pip install {shell_word(install)}"
    return {
        "title": title,  # Markdown text (README.md, content/): shown as typed
        "title-toml": quoted_string(title),
        "description-toml": quoted_string(f"Tournament results of {title}."),
        "title-yaml-comment": yaml_comment(title),
        "install-command": command,  # the README's line, to copy into a terminal
        "install-run-yaml": quoted_string(command),
        "date": today.isoformat(),
    }


def _checked_title(title: str | None, folder: Path) -> str:
    """The title, or ConfigError naming it and what a title may be."""
    given = title is not None
    title = title if given else title_from(folder)
    what = f"--title {_quoted(title)}" if given else \
        f"the title from the folder's name, {_quoted(title)},"
    how = f"give the league's name {TITLE_RULE}" if given else \
        f"give the league's name with --title, {TITLE_RULE}"
    if bad := _NOT_IN_TOML.search(title):
        raise ConfigError(f"{what} holds a control character ({escaped(bad.group())}): {how}")
    if bad := _NOT_UTF8.search(title):
        raise ConfigError(f"{what} holds bytes that are not UTF-8 text "
                          f"({escaped(bad.group())}): {how}")
    if not title.strip():
        raise ConfigError(f"{what}: {how}")
    return title


def _checked_install(install: str) -> str:
    """The requirement, stripped, or ConfigError naming it and why it cannot be written."""
    example = (f"give one pip requirement, such as {default_install()} or "
               f"git+https://…/site-builder@v{__version__}")
    shown = f"--install {_quoted(install)}"
    if bad := _HIDDEN.search(install):
        raise ConfigError(f"{shown} holds {escaped(bad.group())}: a requirement is one line of "
                          f"printable text; {example}")
    # GitHub evaluates ${{ … }} in every value of a workflow, quoted or not, before the shell
    # sees it (`${{ secrets.X }}` would be the secret). Its only escape is an expression that
    # yields the text (${{ '${{' }}), which few would recognize in their workflow; a pip
    # requirement never needs it, so it is refused.
    if "${{" in install:
        raise ConfigError(f"{shown} holds ${{{{, which GitHub Actions would evaluate as an "
                          f"expression (a secret, say) in the workflow: {example}")
    if install.strip().startswith("-"):
        raise ConfigError(f"{shown} starts with -: pip would read it as an option, not a "
                          f"requirement; {example}")
    if not install.strip():
        raise ConfigError(f"{shown}: {example}")
    return install.strip()


def _quoted(value: str) -> str:
    return f'"{terminal_safe(value)}"'


def shell_word(text: str) -> str:
    """`text` as one literal argument of a POSIX shell: in single quotes, where nothing ($, `,
    \\, ") is special but the quote itself, which is closed, written in double quotes, and
    reopened. Always quoted, so the install line reads the same for every requirement."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _unicode_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def quoted_string(text: str) -> str:
    """`text` in double quotes, as a TOML basic string and a YAML double-quoted scalar (YAML 1.1
    and 1.2) read it alike: \\ and " escaped, and what `_HIDDEN` finds written as \\uXXXX, the
    same character to both readers. No character of it can end the value, start a line or a key
    (C0 controls and DEL never reach site.toml: a title with one is refused)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _HIDDEN.sub(_unicode_escape, text) + '"'


def yaml_comment(text: str) -> str:
    """`text` inside a YAML comment, which runs to the end of its line: what could end that
    line for some reader, or make it unreadable, shows as its escape instead."""
    return _HIDDEN.sub(_unicode_escape, text)


def _has_entries(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return any(True for _ in entries)


def _refuse_unless_empty(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} is a file: give a new folder for the league")
    if folder.is_dir() and _has_entries(folder):
        raise ConfigError(f"{folder} is not empty: `new` writes a league only into a new or "
                          "empty folder, so that nothing of yours is overwritten")


def start_repository(folder: Path) -> str:
    """`git init` the league on branch main (the branch its workflow publishes), when git is
    installed; what happened, in a line for the organizer."""
    git = shutil.which("git")
    if git is None:
        return ("git is not installed here: install it, then run `git init -b main` in the "
                "folder (the README's loop commits and pushes).")
    try:
        done = subprocess.run([git, "init", "-q", "-b", "main", str(folder)],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:  # a git older than 2.28 has no -b
            done = subprocess.run([git, "init", "-q", str(folder)], capture_output=True,
                                  text=True, timeout=60)
            if done.returncode == 0:
                done = subprocess.run([git, "-C", str(folder), "symbolic-ref", "HEAD",
                                       "refs/heads/main"], capture_output=True, text=True,
                                      timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"git init did not run ({exc}): run `git init -b main` in the folder."
    if done.returncode != 0:
        said = one_line(done.stderr.strip() or f"exit {done.returncode}")
        return f"git init failed ({said}): run `git init -b main` in the folder."
    return "Started a git repository there, on branch main (nothing committed yet)."


def install_lines(given: str | None) -> list[str]:
    """What `new` says of how the league's workflow will install the tool, and whether that is
    known to work."""
    if given:
        return [f"The workflow installs the tool with: python -m pip install {shell_word(given.strip())}"
                " (as --install says; `new` cannot check that it installs: run that line "
                "yourself once)."]
    source = install_source()
    said = [f"The workflow installs the tool with: python -m pip install "
            f"{shell_word(source.requirement)}"]
    if source.reachable:
        said[0] += f" (where this copy came from: {source.origin})."
        return said
    said[0] += "."
    said.append(f"Check it: this copy of site-builder came from {source.origin}, which GitHub's "
                f"runners cannot reach, so the workflow asks the package index for "
                f"{index_requirement()}. If that version is not published there, write where "
                "the tool's repository is, at its tag, in the step \"Install site-builder\" of "
                ".github/workflows/pages.yml (or make the league with --install "
                f"\"git+https://…/site-builder@v{__version__}\").")
    return said


def run_new(args) -> int:
    """The command: write the league, start its git repository, then say what to do next."""
    folder = Path(args.folder)
    written = create_league(folder, args.title, args.install, game=args.game)
    kind = "" if args.game in (None, _scaffold_game()) else f"{_game_title(args.game)} "
    print(f"Created a league in {terminal_safe(str(folder))}/ ({len(written)} files, with an "
          f"example {kind}event):")
    for path in written:
        print(f"  {path}")
    print(terminal_safe(start_repository(folder)))
    print(f"\nNext:\n  cd {terminal_safe(str(folder))}\n"
          "  site-builder serve        # preview on http://127.0.0.1:8000/"
          "\nThen put the folder on GitHub and turn on Pages (Settings → Pages → Source: GitHub "
          "Actions);\nits README.md tells the rest.")
    for line in install_lines(args.install):
        print(terminal_safe(line))
    return 0
