"""Score stage: every event that loaded without errors, scored by its game's ruleset."""

from __future__ import annotations

from .model import Site
from .problems import Problem, ProblemLog
from .rules import RULESETS
from .rules.base import ScoredEvent


def events_with_errors(site: Site, problems: list[Problem]) -> set[str]:
    """Slugs of events that have an error in one of their files (they are not scored)."""
    folders = {e.folder: e.slug for e in site.events}
    broken = set()
    for problem in problems:
        if problem.is_error:
            folder = "/".join(problem.path.split("/")[:3])
            if folder in folders:
                broken.add(folders[folder])
    return broken


def score_site(site: Site, log: ProblemLog) -> list[ScoredEvent]:
    skip = events_with_errors(site, log.problems)
    scored = []
    for event in site.events:
        if event.slug in skip:
            continue
        result = RULESETS[event.info.game].score(event)
        log.extend(list(result.warnings))
        scored.append(result)
    return scored
