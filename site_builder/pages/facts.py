"""What the pages of other events read of one event: its line in the lists, its players'
results and names, and what it gives toward the rankings.

A scored event holds every round's tables and standings; only its own pages need those. The
rest of the site (home, archive, player histories, rankings) is planned from each event's
`EventFacts`, which the build keeps between runs (see state.py) keyed by the digest of the
event's input files, so an unchanged event is neither loaded nor scored again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from .deckentry import DeckEntry
from ..core.digests import bytes_digest, digest
from ..core.model import PlayerRef
from ..core.problems import Problem
from ..rules.base import Ruleset
from ..rules.views import PlayerResult, RankingEntry, ScoredEvent
from ..core.statecodec import pack, unpack


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class EventLabel:
    """What a player's page shows of an event: only what does not move while the event runs, so
    a new round re-renders the pages of the players whose results it changed, not of everyone
    who ever played in the event."""

    slug: str
    url: str
    name: str
    subtitle: str
    date: dt.date
    game_title: str
    complete: bool


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class EventSummary:
    """One line of an event list (home, archive)."""

    slug: str
    url: str
    name: str
    date: dt.date
    game: str
    game_title: str
    status: str
    complete: bool
    players: int
    winner: PlayerRef | None
    location: str | None
    subtitle: str
    label: EventLabel
    rounds_in: tuple[int, ...] = ()
    """The rounds whose results are all in (the feeds list them while the event runs)."""
    example: bool = False
    """An example event: no ranking or deck table counts it (core.model.EventInfo.example)."""


def summarize(scored: ScoredEvent, ruleset: Ruleset) -> EventSummary:
    info = scored.info
    players = len(scored.standings.rows) if scored.standings else len(scored.registrations)
    url, title = f"events/{info.slug}/", ruleset.title
    label = EventLabel(info.slug, url, scored.display_name, scored.subtitle, info.date, title,
                       scored.complete)
    return EventSummary(info.slug, url, scored.display_name, info.date, info.game, title,
                        scored.status_line, scored.complete, players, scored.winner, info.location,
                        scored.subtitle, label,
                        tuple(r.number for r in scored.rounds if not r.in_progress), info.example)


# Kept in the build state (statecodec.py): every field's type is exact.
@dataclass(frozen=True)
class EventFacts:
    key: str
    """The digest of the event's inputs (its files, data/players.csv, the tool's version)."""
    summary: EventSummary
    label_digest: str
    """The digest of `summary.label`: what each of its players' pages shows of the event."""
    results: tuple[tuple[str, str, bytes], ...]
    """(person id, the digest of their history line, the line packed) for everyone with a
    result (see `history_line`). Kept packed: a build from the state reads the few lines the
    pages it draws show (see `result_of`)."""
    names: tuple[tuple[str, bool, str], ...]
    """(person id, whether they played, the name written here): their display name's inputs."""
    ranking: tuple[RankingEntry, ...] | None
    ranking_note: str
    ranking_digest: str
    """The digest of what the rankings read of the event (see rankings.ranked_event)."""
    problems: tuple[Problem, ...]
    """The warnings of the event's files and scoring."""
    decks: tuple[DeckEntry, ...] = ()
    """What the metagame across events counts of this event (deckentry.DeckEntry per ranked
    player); empty when its registrations name no decks."""
    decks_digest: str = ""

    @property
    def slug(self) -> str:
        return self.summary.slug

    @property
    def order(self) -> tuple:
        """(date, slug): how events sort, oldest first."""
        return self.summary.date, self.summary.slug


def event_facts(key: str, scored: ScoredEvent, ruleset: Ruleset, problems: list[Problem]
                ) -> EventFacts:
    event = scored.event
    results = []
    for result in scored.players.values():
        packed = pack(history_line(result, scored.complete), PlayerResult)
        results.append((result.player.id, bytes_digest(packed), packed))
    names = tuple((ref.id, name not in event.official_names, name)
                  for name, ref in sorted(event.players.items()))
    summary = summarize(scored, ruleset)
    ranking = tuple(scored.ranking) if scored.ranking is not None else None
    return EventFacts(key, summary, digest(summary.label), tuple(results), names, ranking,
                      scored.ranking_note, _ranking_digest(summary, ranking, scored.ranking_note),
                      tuple(problems), scored.decks, digest(scored.decks) if scored.decks else "")


def history_line(result: PlayerResult, complete: bool) -> PlayerResult:
    """What a player's page shows of their result: one line (finish, points, record, deck). The
    games, the rank after each round and the notes are the event's pages' to show: kept out, a
    player's page is drawn again only when its line changes (not when a round they sat out
    moved their rank), and the state stays small.

    While the event runs, a player with a row in its standings has a line without finish,
    points or record (and rank 0): their page links to that row, where the live figures are. A
    new round then draws the event's pages again, not every player's page. (Before their first
    result the line says what the event says of them, "playing round 2".)"""
    if not complete and result.rank is not None:
        return replace(result, rank=0, finish="", points="", record="", games=(), notes=(),
                       ranks=())
    return replace(result, games=(), notes=(), ranks=())


def _ranking_digest(summary: EventSummary, ranking: tuple | None, note: str) -> str:
    """The digest of what rankings.ranked_event reads of an event. Not its status line or its
    entries while it runs (it counts only once complete), so a new round of today's event does
    not work the rankings out again."""
    return digest(summary.slug, summary.date, summary.name, summary.subtitle, summary.game,
                  summary.complete, summary.example, ranking is None,
                  ranking if summary.complete else None, note)


def result_of(packed: bytes) -> PlayerResult:
    """A result as `EventFacts.results` keeps it. Read only when a page shows it, so a state
    read from disk is checked here too: statecodec.Damaged if it is not a result (the engine
    then builds again from nothing)."""
    return unpack(packed, PlayerResult)
