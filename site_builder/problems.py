"""Problems found in a site's files, and the errors that carry them.

Every stage reports what is wrong with the input as a `Problem` tied to a file and line, and keeps
going, so an organizer sees every mistake of a run at once and fixes each file once.
"""

from __future__ import annotations

import enum
import os
import re
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
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def one_line(text: str) -> str:
    """The text on one line, as editors and CI read `path:line: message`: a line break or other
    control character inside a name shows as its escape (\\n), and a very long text is cut."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
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
