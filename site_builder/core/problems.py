"""Problems found in a site's files, and the errors that carry them.

Every stage reports what is wrong with the input as a `Problem` tied to a file and line, and keeps
going, so an organizer sees every mistake of a run at once and fixes each file once.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from pathlib import Path
from dataclasses import dataclass, field


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong (error) or unusual (warning) in the input.

    `path` is relative to the site's source folder, with `/` separators; `line` is 1-based, or
    None when the problem belongs to a whole file or folder.
    """

    path: str
    line: int | None
    message: str
    severity: Severity = Severity.ERROR

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def location(self, source: str = ".") -> str:
        shown = os.path.normpath(os.path.join(source, self.path)) if source != "." else self.path
        return f"{shown}:{self.line}" if self.line is not None else shown

    def format(self, source: str = ".") -> str:
        """`path:line: message`, the form editors and CI annotate; warnings say so. A template
        error's message already starts with its own `template:line`."""
        label = "" if self.is_error else "warning: "
        message = one_line(self.message)
        if self.path in ("", "themes") and self.line is None:  # of no one file, or a template's
            return f"{label}{message}"
        return f"{one_line(self.location(source))}: {label}{message}"

    def __str__(self) -> str:
        return self.format()


LONGEST_MESSAGE = 600
"""Characters of a message shown; the middle of a longer one (a list of 20,000 names at one
table of a broken file) is left out, its start and its end (what to do) kept."""
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
"""What a terminal must never be given raw from data: C0 and C1 control characters and DEL (ESC
starts the sequences that clear the screen or set the window title; NEL, like U+2028 and
U+2029, breaks a line for readers that split as Python's str.splitlines does), the bidi
controls that reorder what is shown (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), and
lone surrogates (a file name's bytes that are not UTF-8, which a strict stdout cannot encode)."""
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(char: str) -> str:
    """One character as Python writes its escape: `\\n`, `\\x1b`, `\\u2028`."""
    code = ord(char)
    return _SHORT.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def terminal_safe(text: str) -> str:
    """The text as it may be printed: every character of `_UNSAFE` shown as its visible escape,
    the way Python writes it (`\\x1b`, `\\n`, `\\u2028`), so a name can neither move the
    cursor, clear the screen, reorder the line, nor start another line. Used on everything from
    data (names, paths, file contents, exception texts) on its way to stdout or stderr. A
    backslash is left as it is: the escapes are for a person reading, not for a parser."""
    return _UNSAFE.sub(lambda match: escaped(match.group()), text)


def one_line(text: str) -> str:
    """The text on one line, as editors and CI read `path:line: message`: a line break or other
    control character inside a name shows as its escape (\\n, see `terminal_safe`), and a very
    long text is cut."""
    text = terminal_safe(text)
    if len(text) > LONGEST_MESSAGE:
        text = f"{text[:LONGEST_MESSAGE - 160]} … {text[-150:]}"
    return text


@dataclass(slots=True)
class ProblemLog:
    """Collects problems in the order they were found."""

    problems: list[Problem] = field(default_factory=list)

    def error(self, path: str, line: int | None, message: str) -> None:
        self.problems.append(Problem(path, line, message, Severity.ERROR))

    def warning(self, path: str, line: int | None, message: str) -> None:
        self.problems.append(Problem(path, line, message, Severity.WARNING))

    def extend(self, problems: list[Problem]) -> None:
        self.problems.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    def has_errors(self) -> bool:
        return any(p.is_error for p in self.problems)


def sorted_problems(problems: list[Problem]) -> list[Problem]:
    """Stable report order: by file, then line, keeping the order found within a line."""
    return sorted(problems, key=lambda p: (p.path, p.line or 0))


EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
"""What the commands exit with: done, the data or the system said no, the command line is wrong."""


def print_problems(problems: list[Problem], source: str) -> None:
    """Each problem on stderr, one line each, paths shown from `source`."""
    for problem in problems:
        print(problem.format(source), file=sys.stderr)


class SiteError(Exception):
    """Base of every error the CLI reports without a traceback."""


class ConfigError(SiteError):
    """The command line or site configuration cannot be used."""


class DataError(SiteError):
    """The data has errors; `problems` lists all of them (warnings included)."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        count = sum(p.is_error for p in problems)
        super().__init__(f"{count} error{'s' if count != 1 else ''} in the data")


class TemplateError(SiteError):
    """A theme template is broken; the message names the template file and line."""


def system_error(exc: OSError, out: str | None) -> str:
    """What the system refused, said as reading the site or writing its output: a failure in the
    output folder or a staging folder beside it (`._site.staging-…`) is a write."""
    where = f" ({exc.filename})" if exc.filename else ""
    reason = exc.strerror or str(exc)
    if out is not None and exc.filename:
        path, output = Path(os.fsdecode(exc.filename)).resolve(), Path(out).resolve()
        if path.is_relative_to(output) or path == output or (
                path.is_relative_to(output.parent)
                and path.relative_to(output.parent).parts[0].startswith(f".{output.name}.")):
            return f"could not write the site: {reason}{where}"
        return f"could not read {exc.filename}: {reason}"
    return f"could not write the site: {reason}{where}" if out else f"could not read: {reason}{where}"
