"""One event's way through the build: `event_outcome` calls each stage once, in this order.

1. load: the event folder read into a validated `Event` (league/load.py; its ruleset reads its
   own keys and rows and checks them);
2. ids: each name's person id, from data/players.csv (league/load.assign_event_ids);
3. score: its ruleset's `ScoredEvent` (rules/<game>/), unless the first two stages found
   errors;
4. name checks: slips in names, and, while the event is in progress, players missing from a
   round (league/namechecks.py). After scoring, since only scoring says whether the event is
   over; an event with errors is checked too, so one run lists all its mistakes;
5. decks: the Deck column, rank lines and deck entries (pages/decks.py), and the Decks section
   counted from them (pages/metagame.py, with pandas: imported only for an event with decks);
6. facts: what the rest of the site reads of the event, kept in the state (pages/facts.py);
7. plan: its own pages (pages/eventpages.py);
8. draw: each page that is stale rendered (render.py) and handed to the publisher
   (publish.py).

An event with errors stops after its name checks; `check` stops after its facts (it draws
nothing). The engine hands the events that changed to the pool (pool.py), which runs this same
function here or in forked workers; `draw_page` is the piece the pool draws pages across
events with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.digests import digest
from ..core.model import ContentPage
from ..core.problems import Problem, ProblemLog, sorted_problems
from ..league.load import assign_event_ids, load_event
from ..league.namechecks import check_event_names
from ..league.people import Directory
from ..pages.decks import dress
from ..pages.eventpages import Page, event_pages
from ..pages.facts import EventFacts, event_facts
from ..rules.base import Ruleset
from ..rules.registry import Games
from ..rules.views import ScoredEvent
from .publish import Publisher, Written
from .render import Renderer
from .state import EventUnit, PageRecord, page_digest


@dataclass(slots=True)
class Drawing:
    """What drawing pages needs, the same in every process."""

    site_key: str
    renderer: Renderer
    publisher: Publisher
    changed_templates: frozenset[str] = frozenset()
    changed_on_disk: frozenset[str] = frozenset()
    """Pages whose file is not the one their record describes (see ondisk.py)."""

    def stale(self, path: str, key: str, record: PageRecord | None) -> bool:
        return (record is None or record.key != key
                or bool(self.changed_templates.intersection(record.templates))
                or path in self.changed_on_disk)

    def draw(self, page: Page, key: str) -> tuple[PageRecord, Written]:
        rendered = self.renderer.render(page)
        written = self.publisher.write(page.output_path, rendered.data)
        return PageRecord(key, rendered.templates, written.size, page_digest(rendered.data),
                          page.in_sitemap), written


def page_key(site_key: str, made_of: tuple) -> str:
    return digest(site_key, made_of)


@dataclass(slots=True)
class EventJob:
    """What every event of a build shares: the engine makes one, the pool hands it to each."""

    source: Path
    directory: Directory
    keys: dict[str, str]
    """Event slug → its key (the digest of its inputs)."""
    reports: dict[str, ContentPage]
    """Event slug → its report (content/events/<slug>.md)."""
    previous: dict[str, EventUnit]
    """The last build's events: the records of their pages."""
    drawing: Drawing | None
    """None when nothing is drawn (check)."""
    games: Games | None = None
    """The league's games, read once for the build (rules/registry.py)."""


@dataclass(slots=True)
class EventOutcome:
    slug: str
    facts: EventFacts | None = None
    problems: list[Problem] = field(default_factory=list)
    has_errors: bool = False
    pages: dict[str, PageRecord] = field(default_factory=dict)
    written: list[Written] = field(default_factory=list)


def event_outcome(job: EventJob, folder: Path) -> EventOutcome:
    """One event that changed, through every stage (the module's docstring tells each)."""
    slug, log = folder.name, ProblemLog()
    event = load_event(job.source, folder, log, games=job.games)                    # 1. load
    if event is None:
        return EventOutcome(slug, problems=log.problems, has_errors=log.has_errors())
    ruleset = event.ruleset
    assign_event_ids(event, job.directory, log)                                     # 2. ids
    scored = None if log.has_errors() else ruleset.score(event)                     # 3. score
    check_event_names(event, job.directory, ruleset, log,                           # 4. names
                      in_progress=scored is not None and not scored.complete)
    if scored is None:
        return EventOutcome(slug, problems=log.problems, has_errors=log.has_errors())
    add_decks(scored, ruleset)                                                      # 5. decks
    problems = sorted_problems(log.problems + list(scored.warnings))
    facts = event_facts(job.keys[slug], scored, ruleset, problems)                  # 6. facts
    outcome = EventOutcome(slug, facts, problems)
    if job.drawing is not None:
        pages = event_pages(scored, facts.summary, job.reports.get(slug),           # 7. plan
                            job.keys[slug])
        draw_stale(pages, job.drawing, job.previous.get(slug), outcome)             # 8. draw
    return outcome


def add_decks(scored: ScoredEvent, ruleset: Ruleset) -> None:
    """The decks of its registrations, and the Decks section counted from them."""
    decks = dress(scored, ruleset)
    if decks is not None:
        from ..pages.metagame import decks_section  # pandas: only builds with decks load it
        scored.sections += (decks_section(decks.entries, decks.stage),)


def draw_stale(pages: list[Page], drawing: Drawing, previous: EventUnit | None,
               outcome: EventOutcome) -> None:
    """Each page drawn unless its record from the last build is current; every page's record
    and the files written go into `outcome`."""
    for page in pages:
        path, key = page.output_path, page_key(drawing.site_key, page.key)
        record = previous.pages.get(path) if previous else None
        if record is None or drawing.stale(path, key, record):
            record, written = drawing.draw(page, key)
            outcome.written.append(written)
        outcome.pages[path] = record


def draw_page(job: tuple[Drawing, Sequence[tuple[Page, str]]], index: int
              ) -> tuple[PageRecord, Written]:
    """The page at `index` of the job's (page, key) list, drawn and written. Workers are sent
    indexes: they have the pages already, as this process planned them before they forked."""
    drawing, pages = job
    page, key = pages[index]
    return drawing.draw(page, key)
