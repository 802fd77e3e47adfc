"""Cross-event rankings: every person's points over the events that count, one table per game.

As TSR did for SPELLFIRE: a running total per person (officials' points included), with the
number of events, the best finish and each event's contribution. Which events count is the
season in site.toml's [rankings]; an event counts only if its ruleset says it is ranked (a
SPELLFIRE event needs 9 players, for instance) and it is final.

`RankingIndex` keeps the rankings as events come and go: a full build adds every event, a watch
rebuild swaps one. Rows of people an event does not touch stay the same objects, so their
rendered HTML and JSON are reused.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter

from .config import RankingsConfig
from .model import Person
from .rules.base import RankingEntry, ScoredEvent
from .rules.tiebreaks import shared_ranks

RECENT_CONTRIBUTIONS = 10


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event as the rankings page names it."""

    slug: str
    date: dt.date
    title: str
    subtitle: str

    @property
    def label(self) -> str:
        return self.subtitle or self.title


@dataclass(frozen=True, slots=True)
class Contribution:
    event: EventRef
    entry: RankingEntry
    json: str = ""
    """Its item in the JSON twin's `contributions`: made once, as a regular's row is written
    again, with all their events, whenever one of them changes."""
    order: tuple = ()
    """(date, slug) of its event: a regular's hundred contributions are sorted by it whenever
    one of them changes, and a ready key sorts several times faster than one made each time."""

    @classmethod
    def of(cls, event: EventRef, entry: RankingEntry) -> Contribution:
        return cls(event, entry, _compact({"event": event.slug, "points": entry.points,
                                           "finish": entry.finish, "role": entry.role}),
                   (event.date, event.slug))


@dataclass(frozen=True, slots=True)
class RankingLine:
    """What a rankings row shows besides its rank, as a hashable value (ranks shift when anyone's
    total changes, so the rank is kept out and the rest of the row is reused)."""

    person: Person
    points: int
    events: int
    best_finish: str
    best_slug: str
    best_label: str
    recent: tuple[tuple[str, str, str, int], ...]
    """The most recent contributions: (event slug, event title, finish, points)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's place in one game's ranking, without the rank."""

    person: Person
    contributions: tuple[Contribution, ...]
    """Newest first."""
    points: int = 0
    line: RankingLine | None = None
    json_rest: bytes = b""
    """The JSON of the row after its rank, UTF-8: reused while the row is unchanged."""
    order: tuple = ()
    """Where it sorts in the ranking: most points first, then by name (made once, here, as a
    ranking of thousands of people is sorted again after each change)."""

    def __hash__(self) -> int:
        # The JSON holds every contribution: equal standings have equal JSON, and a bytes
        # object remembers its hash (the page cache looks rows up by value).
        return hash((self.person, self.points, self.json_rest))

    def shows_as(self, other: Standing | None) -> bool:
        """Whether `other` shows the same on every page and in the JSON. Everything shown comes
        from the row's line (with the person and points) and its JSON: comparing those is a
        few fields and one bytes comparison, where comparing all contributions is a hundred
        objects for a regular."""
        return other is not None and self.json_rest == other.json_rest and self.line == other.line

    @classmethod
    def of(cls, person: Person, contributions: tuple[Contribution, ...],
           points: int | None = None) -> Standing:
        """`points`: their total, when already known."""
        if points is None:
            points = sum(map(_contribution_points, contributions))
        best = _best(contributions)
        recent = tuple((c.event.slug, c.event.title, c.entry.finish, c.entry.points)
                       for c in contributions[:RECENT_CONTRIBUTIONS])
        line = RankingLine(person, points, len(contributions), best.entry.finish, best.event.slug,
                           best.event.label, recent)
        head = _compact({"player": person.name, "player_id": person.id, "points": points,
                         "events": len(contributions), "best_finish": best.entry.finish})
        rest = f'{head[1:-1]},"contributions":[{",".join(map(_contribution_json, contributions))}]}}'
        return cls(person, contributions, points, line, rest.encode("utf-8"),
                   (-points, person.name.casefold(), person.id))


def _with_swapped(ordered: tuple[Contribution, ...], old: Contribution,
                  new: Contribution) -> tuple[Contribution, ...] | None:
    """Contributions newest first, with one replaced by another from the same event (a corrected
    result); None when `old` is not among them or `new` does not sort in its place. The list
    stays in order without sorting a regular's hundreds of events again."""
    if new.order != old.order:
        return None
    low, high = 0, len(ordered)
    while low < high:  # newest first: the first position not newer than `old`
        middle = (low + high) // 2
        if ordered[middle].order > old.order:
            low = middle + 1
        else:
            high = middle
    if low == len(ordered) or ordered[low] is not old:
        return None
    return (*ordered[:low], new, *ordered[low + 1:])


def _best(contributions: tuple[Contribution, ...]) -> Contribution:
    """The best place played (lowest rank, earliest event on ties), else the latest role."""
    played = [c for c in contributions if c.entry.rank is not None]
    if not played:
        return contributions[0]
    return min(reversed(played), key=_contribution_rank)


_contribution_points = attrgetter("entry.points")
_contribution_rank = attrgetter("entry.rank")
_contribution_order = attrgetter("order")
_contribution_json = attrgetter("json")


@dataclass(frozen=True, slots=True)
class RankingRow:
    rank: int
    standing: Standing
    json: bytes = field(default=b"", compare=False, repr=False)
    """The row in the JSON twin, UTF-8 (its rank and standing's, so not compared): made with the
    row, which is kept while its rank and standing stay, so the 7 MB file of a large archive is
    one join of ready pieces."""

    @property
    def person(self) -> Person:
        return self.standing.person

    @property
    def points(self) -> int:
        return self.standing.points

    @property
    def line(self) -> RankingLine:
        return self.standing.line

    @property
    def contributions(self) -> tuple[Contribution, ...]:
        return self.standing.contributions

    @property
    def events(self) -> int:
        return len(self.standing.contributions)


@dataclass(frozen=True, slots=True)
class GameRanking:
    game: str
    title: str
    rows: tuple[RankingRow, ...]
    counted: tuple[EventRef, ...]
    left_out: tuple[tuple[EventRef, str], ...]
    """Events of the game that do not count, with the reason."""


@dataclass(slots=True)
class _Game:
    events: dict[str, tuple[EventRef, str | None]] = field(default_factory=dict)
    """Slug → (event, why it does not count, or None when it counts)."""
    contributions: dict[str, dict[str, Contribution]] = field(default_factory=dict)
    """Person id → event slug → what the event gives them."""
    standings: dict[str, Standing] = field(default_factory=dict)
    ordered: dict[str, tuple[tuple[Contribution, ...], int]] = field(default_factory=dict)
    """Person id → their contributions newest first and their total, as of the last refresh
    (a standing kept for its object, as it shows the same, may hold older equal-looking ones)."""
    order: list[Standing] | None = None
    """The standings in ranking order when last ranked (None before the first ranking)."""
    rows: list[RankingRow] = field(default_factory=list)
    """Their rows then, position for position."""
    moved: dict[str, Standing | None] = field(default_factory=dict)
    """Person id → their standing in `order` (None when they were not in it), for everyone
    whose standing changed since."""


class RankingIndex:
    def __init__(self, config: RankingsConfig, titles: dict[str, str]):
        self.config, self.titles = config, titles
        self.games: dict[str, _Game] = {}
        self._swapped: dict[str, tuple[tuple[str, Contribution], tuple[str, Contribution]]] = {}
        """Person id → ((game, contribution) before, after) of the event the last `replace`
        swapped, for `refresh` to update their standing instead of making it again."""
        self.points: dict[str, dict[str, int]] = {}
        """Person id → event slug → points that event gives them toward the ranking. By person
        first: a player's page looks up each of their events, and one small dict per person
        answers that several times faster than one dict of every (event, person) pair."""

    def add(self, event: ScoredEvent) -> set[str]:
        """Count an event in (if it counts); returns the ids of the people whose row changed."""
        game = self.games.setdefault(event.event.info.game, _Game())
        ref = EventRef(event.event.slug, event.event.info.date, event.display_name, event.subtitle)
        reason = self._reason(event)
        game.events[ref.slug] = (ref, reason)
        if reason is not None:
            return set()
        touched = set()
        for entry in event.ranking or ():
            game.contributions.setdefault(entry.player.id, {})[ref.slug] = Contribution.of(ref, entry)
            self.points.setdefault(entry.player.id, {})[ref.slug] = entry.points
            touched.add(entry.player.id)
        return touched

    def remove(self, event: ScoredEvent) -> set[str]:
        game = self.games.get(event.event.info.game)
        if game is None or game.events.pop(event.event.slug, None) is None:
            return set()
        touched = set()
        slug = event.event.slug
        for pid in {entry.player.id for entry in event.ranking or ()}:  # those add() counted
            items = game.contributions.get(pid)
            if items is None or items.pop(slug, None) is None:
                continue
            mine = self.points.get(pid, {})
            mine.pop(slug, None)
            if not mine:
                self.points.pop(pid, None)
            touched.add(pid)
        if not game.events:
            del self.games[event.event.info.game]
        return touched

    def replace(self, old: ScoredEvent | None, new: ScoredEvent | None) -> set[str]:
        """Swap an event's old version for its new one (either may be None); returns the ids of
        the people whose contribution from it changed. A corrected result changes every
        player's result at the event, but the points and finish of fewer than half of them:
        the others' rows need not be made again."""
        before = self._contributions_from(old)
        touched = (self.remove(old) if old else set()) | (self.add(new) if new else set())
        after = self._contributions_from(new)
        changed = {pid for pid in touched if before.get(pid) != after.get(pid)}
        self._swapped = {pid: (before[pid], after[pid]) for pid in changed
                         if pid in before and pid in after and before[pid][0] == after[pid][0]}
        return changed

    def _contributions_from(self, event: ScoredEvent | None) -> dict[str, tuple[str, Contribution]]:
        """Person id → (game, what this event gives them), as the index holds it now."""
        if event is None:
            return {}
        game = self.games.get(event.event.info.game)
        if game is None:
            return {}
        slug = event.event.slug
        found = {}
        for entry in event.ranking or ():
            contribution = game.contributions.get(entry.player.id, {}).get(slug)
            if contribution is not None:
                found[entry.player.id] = (event.event.info.game, contribution)
        return found

    def inputs(self, event: ScoredEvent) -> tuple:
        """What the rankings read from an event: its name and date, why it does not count, and
        its entries only when it does (an event in progress changes nothing here)."""
        reason = self._reason(event)
        return (event.event.info.game, event.event.info.date, event.display_name, event.subtitle,
                reason, event.ranking if reason is None else None)

    def _reason(self, event: ScoredEvent) -> str | None:
        if not self.config.counts(event.event.info.date):
            return f"outside the season ({self.config.describe()})"
        if event.ranking is None:
            return event.ranking_note or "not ranked"
        if not event.complete:
            return "still in progress"
        return None

    def refresh(self, ids: set[str], people: Callable[[str], Person]) -> None:
        """Rebuild the rows of these people (their contributions or their name changed).

        A standing that comes out the same is kept as the object it was: a corrected result
        touches every player of the event, but moves the totals of fewer than half of them,
        and the rankings page finds an unchanged row by its object alone."""
        swapped, self._swapped = self._swapped, {}
        for name, game in self.games.items():
            for pid in ids:
                items = game.contributions.get(pid)
                if items:
                    ordered, points = None, None
                    known, swap = game.ordered.get(pid), swapped.get(pid)
                    if swap is not None and swap[0][0] == name and known is not None \
                            and len(known[0]) == len(items):
                        (_, before), (_, after) = swap
                        ordered = _with_swapped(known[0], before, after)
                        points = known[1] - before.entry.points + after.entry.points
                    if ordered is None:
                        ordered = tuple(sorted(items.values(), key=_contribution_order, reverse=True))
                        points = None
                    standing = Standing.of(people(pid), ordered, points)
                    game.ordered[pid] = (ordered, standing.points)
                    old = game.standings.get(pid)
                    if not standing.shows_as(old):
                        game.moved.setdefault(pid, old)
                        game.standings[pid] = standing
                else:
                    game.contributions.pop(pid, None)
                    game.ordered.pop(pid, None)
                    if pid in game.standings:
                        game.moved.setdefault(pid, game.standings.pop(pid))

    def rankings(self) -> list[GameRanking]:
        """One ranking per game that has events, games in alphabetical order of their title."""
        result = []
        for name in sorted(self.games, key=lambda g: self.titles[g]):
            game = self.games[name]
            if game.order is None or len(game.moved) * 8 > len(game.order) or \
                    not self._rerank(game):
                self._rank_all(game)
            game.moved.clear()
            events = sorted(game.events.values(), key=lambda e: (e[0].date, e[0].slug), reverse=True)
            result.append(GameRanking(
                name, self.titles[name], tuple(game.rows),
                tuple(ref for ref, reason in events if reason is None),
                tuple((ref, reason) for ref, reason in events if reason is not None)))
        return result

    def _rank_all(self, game: _Game) -> None:
        last = {row.person.id: row for row in game.rows}
        game.order = sorted(game.standings.values(), key=_ranking_order)
        ranks = shared_ranks(list(map(_points, game.order)))
        game.rows = [_row(rank, standing, last.get(standing.person.id))
                     for rank, standing in zip(ranks, game.order)]

    def _rerank(self, game: _Game) -> bool:
        """Bring the last ranking up to date with the standings that moved since: each is taken
        out and put back in its new place, and only the rows whose rank can have changed are
        looked at. A corrected result moves a few dozen totals of a ranking of thousands, and
        going through every row cost 13 ms on the 1,000-event archive.

        A row's rank is one more than the number of people with more points. A standing that
        goes from a to b points changes that number for the rows with points from the lower of
        a and b up to (not including) the higher: a run of neighbours in ranking order. One that
        comes or goes (b or a missing) changes it for everyone below. False, with nothing to be
        trusted, if a moved standing is not where the last ranking put it (then all is redone)."""
        order, rows = game.order, game.rows
        spans: list[tuple[float, float]] = []
        arrived: list[Standing] = []
        for pid, old in game.moved.items():
            new = game.standings.get(pid)
            if old is not None:
                at = bisect_left(order, old.order, key=_ranking_order)
                if at == len(order) or order[at] is not old:
                    return False
                del order[at], rows[at]
            if new is not None:
                at = bisect_left(order, new.order, key=_ranking_order)
                order.insert(at, new)
                rows.insert(at, None)  # made below
                arrived.append(new)
            before, after = (old.points if old else None), (new.points if new else None)
            if before is None or after is None:
                spans.append((-math.inf, after if before is None else before))
            elif before != after:
                spans.append((min(before, after), max(before, after)))
        # Positions of the rows with points in [low, high): ranking order is most points first.
        positions = {bisect_left(order, new.order, key=_ranking_order) for new in arrived}
        for low, high in spans:
            start = bisect_right(order, -high, key=_negative_points)
            stop = bisect_right(order, -low, key=_negative_points)  # the end for -inf
            positions.update(range(start, stop))
        rank_of: dict = {}
        for i in sorted(positions):
            points = order[i].points
            rank = rank_of.get(points)
            if rank is None:
                rank = rank_of[points] = bisect_left(order, -points, key=_negative_points) + 1
            rows[i] = _row(rank, order[i], rows[i])
        return True


def _row(rank: int, standing: Standing, last: RankingRow | None) -> RankingRow:
    """The person's row: their last one while rank and standing stay, so the page's cache finds
    the unchanged rows by their objects."""
    if last is not None and last.rank == rank and last.standing is standing:
        return last
    return RankingRow(rank, standing, b'{"rank":%d,' % rank + standing.json_rest)


_ranking_order, _points = attrgetter("order"), attrgetter("points")


def _negative_points(standing: Standing) -> int:
    """Ascending along ranking order (most points first), for bisecting it by points."""
    return -standing.points


def build_rankings(scored: list[ScoredEvent], people: dict[str, Person], titles: dict[str, str],
                   config: RankingsConfig) -> tuple[list[GameRanking], RankingIndex]:
    index = RankingIndex(config, titles)
    touched: set[str] = set()
    for event in scored:
        touched |= index.add(event)
    index.refresh(touched, people.__getitem__)
    return index.rankings(), index


def ranking_json(ranking: GameRanking, config: RankingsConfig) -> bytes:
    """The JSON twin of a game's ranking, as UTF-8. Each row's JSON is made with the row, as
    bytes: the file (7 MB for a 1,000-event archive) is then one join, not a text assembled,
    widened for the first accented name, and encoded again after every change."""
    head = {"game": ranking.game, "title": config.title,
            "season": {"from": config.start.isoformat() if config.start else None,
                       "until": config.end.isoformat() if config.end else None},
            "events": [ref.slug for ref in ranking.counted]}
    opening, closing = _compact(head)[:-1].encode("utf-8") + b',"rankings":[', b"]}\n"
    rows = [row.json for row in ranking.rows]
    if not rows:
        return opening + closing
    # One join makes the file: joining the rows first and then adding the head copied its
    # megabytes twice, into memory the system had to map afresh each time.
    rows[0] = opening + rows[0]
    rows[-1] += closing  # the same row when there is one
    return b",".join(rows)


def _compact(payload: dict) -> str:
    """As jsonfile.dump_json writes, without its final newline (rows are joined into a file)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
