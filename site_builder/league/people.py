"""Who is who across events: stable player ids from `data/players.csv`, or slugs of names."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.problems import ProblemLog
from ..files.sources import FOLDER, kind
from ..files.textfiles import ColumnSpec, read_csv

PLAYERS_FILE = "data/players.csv"
DIRECTORY_LIMIT, DIRECTORY_ROWS = 10_000_000, 100_000
"""data/players.csv lists a community's people over years: room for a hundred thousand."""
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def fold_accents(text: str) -> str:
    """The text in ASCII, accents folded ('Zoë' → 'Zoe') and other letters dropped."""
    if text.isascii():  # most names: nothing to fold
        return text
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


_SPELLED_OUT = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                              "ß": "ss", "ẞ": "SS", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D",
                              "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i"})
"""Letters that Unicode does not decompose into a base letter and an accent, written as readers
type them."""


def fold_letters(text: str) -> str:
    """For sorting and matching names (not for ids, which stay as they were): accents dropped
    ('Zoë' → 'Zoe'), the letters Unicode does not decompose spelled in ASCII ('Søren' → 'Soren',
    'Łukasz' → 'Lukasz'), other scripts kept as written."""
    if text.isascii():  # most names: nothing to fold
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPELLED_OUT))
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))


def slugify(text: str) -> str:
    """ASCII URL slug: accents folded ('Zoë' → 'zoe'), anything else becomes single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", fold_accents(text).lower()).strip("-")


def name_key(name: str) -> str:
    """How names are matched against data/players.csv: case and runs of spaces don't matter."""
    return " ".join(name.split()).casefold()


def default_id(name: str) -> str:
    """The id of a name nobody listed: its slug, or a short hash for names with no Latin letters."""
    return slugify(name) or "p-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]


@dataclass(slots=True)
class Directory:
    """data/players.csv: ids with their display name and aliases."""

    ids_by_key: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    name_index: Any = field(default=None, compare=False, repr=False)
    """namechecks' index of the names above, made the first time an event is checked."""

    def id_for(self, name: str) -> str:
        return self.ids_by_key.get(name_key(name)) or default_id(name)

    def listed(self, name: str) -> bool:
        return name_key(name) in self.ids_by_key


_SPEC = ColumnSpec(required=("id", "name"), optional=("aliases",))


def load_directory(source: Path, log: ProblemLog) -> Directory:
    directory = Directory()
    path = source / PLAYERS_FILE
    found = kind(path, PLAYERS_FILE, source, log)
    if found is None:  # none, or skipped with a warning
        return directory
    if found == FOLDER:
        log.error(PLAYERS_FILE, None, "is a folder: the player directory is a file")
        return directory
    table = read_csv(path, PLAYERS_FILE, _SPEC, log, limit=DIRECTORY_LIMIT,
                     max_rows=DIRECTORY_ROWS)
    if table is None:
        return directory
    claimed: dict[str, tuple[str, int]] = {}
    id_lines: dict[str, int] = {}
    for row in table.rows:
        person_id, name = row.get("id"), row.get("name")
        if not SLUG.fullmatch(person_id):
            log.error(PLAYERS_FILE, row.line,
                      f"id {person_id!r} is not URL-safe: use lowercase letters, digits and '-', "
                      f"e.g. {default_id(name or person_id)!r}")
            continue
        if not name:
            log.error(PLAYERS_FILE, row.line, f"id '{person_id}' has no name")
            continue
        if person_id in id_lines:
            log.error(PLAYERS_FILE, row.line,
                      f"id '{person_id}' is listed twice (first on line {id_lines[person_id]}): "
                      "put every spelling in one row's aliases, separated by |")
            continue
        id_lines[person_id] = row.line
        directory.names[person_id] = name
        spellings = [name] + [a.strip() for a in row.get("aliases").split("|") if a.strip()]
        for spelling in spellings:
            key = name_key(spelling)
            owner = claimed.get(key)
            if owner and owner[0] != person_id:
                log.error(PLAYERS_FILE, row.line,
                          f"'{spelling}' is already the name or alias of '{owner[0]}' "
                          f"(line {owner[1]}): a spelling can stand for one person only")
                continue
            claimed[key] = (person_id, row.line)
            directory.ids_by_key[key] = person_id
    return directory
