"""What a state read back must be beyond the types its codec checks (statecodec.py): every path
it names inside the output folder, and each event's facts as a build of that event makes them.
A state that breaks one of these rules is `Damaged`, and the build is a full one."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..rules.declared.declaration import GAME_ID
from ..core.statecodec import Damaged

if TYPE_CHECKING:
    from ..pages.facts import EventFacts
    from .state import BuildState


def check_values(state: BuildState) -> None:
    """What the types alone do not say. Every path the state names must lie inside the output
    folder (it is deleted when the site no longer has it), and every template name inside the
    theme; each event's facts must be those a build of it makes (see `_check_facts`)."""
    for unit in state.events.values():
        all_inside(unit.pages)
    for paths in (state.pages, state.files, state.templates, state.stamps):
        all_inside(paths)
    if state.stamps.keys() - state.pages.keys():
        # A stamp of a page the state no longer lists (left by a build from an older state)
        # is of no use: dropped, not a reason to turn the state down.
        pages = set(state.pages).union(*(unit.pages for unit in state.events.values()))
        state.stamps = {path: stamp for path, stamp in state.stamps.items() if path in pages}
    for slug, unit in state.events.items():
        _check_facts(slug, unit.facts)


def _check_facts(slug: str, facts: EventFacts) -> None:
    """An event's facts as a build makes them: its own slug and address, a game the tool
    knows, warnings only (an event with errors is never kept), and every person its results,
    ranking and decks name among its players."""
    summary = facts.summary
    if (summary.slug, summary.label.slug) != (slug, slug) or \
            summary.url != summary.label.url or summary.url != f"events/{slug}/":
        raise Damaged(f"event {slug!r} holds the facts of another event")
    if not GAME_ID.fullmatch(summary.game):
        # Its pages' addresses are made of it (rankings/<game>/): a seed game's id, or a
        # declared one, which a declaration's file name must be to be read at all. (A game
        # no longer declared changes every event's key: such an event is read again.)
        raise Damaged(f"event {slug!r} is of no game site-builder knows")
    if any(problem.is_error for problem in facts.problems):
        raise Damaged(f"event {slug!r} is kept with errors")
    people = {pid for pid, _, _ in facts.names}
    named = ({pid for pid, _, _ in facts.results}
             | {entry.player.id for entry in facts.ranking or ()}
             | {deck.person for deck in facts.decks}
             | ({summary.winner.id} if summary.winner else set()))
    if not named <= people:
        raise Damaged(f"event {slug!r} names people it does not list")


def all_inside(paths) -> None:
    """Damaged unless every path lies inside the output folder."""
    for path in paths:
        if not inside_output(path):
            raise Damaged(f"the path {path!r} leads outside the output folder")


_INSIDE = re.compile(r"(?:(?!\.\.?/)[^/\\\x00]+/)*(?!\.\.?\Z)[^/\\\x00]+")
"""Parts of one or more characters but `/`, `\\` and NUL, none `.` or `..`, joined by `/`."""


def inside_output(path: str) -> bool:
    """Whether `path` names something inside a folder: relative, `/`-separated, with no empty,
    `.` or `..` part (no backslash or NUL either). One match of the whole path: a state names
    tens of thousands of them."""
    return _INSIDE.fullmatch(path) is not None
