"""Plan stage: which pages and files an event has, what each shows, and what it is made from.

A `Page` names its template and a plain context, and `key`: the values it is made from (digests
of the inputs behind it), so the build renders it again only when they change. The templates a
page is drawn with are recorded while it renders (render.Renderer). The rest of the site's pages
(home, archive, players, rankings) are planned from every event's facts in sitepages.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .facts import EventSummary
from ..core.jsonfile import dump_json
from ..core.model import ContentPage
from ..rules.views import RoundView, ScoredEvent, Standings, as_json_number
from ..rules.pairings import pairings_json
from .nrtm import has_nrtm, nrtm_json


@dataclass(frozen=True, slots=True)
class Page:
    url: str
    """Relative to the site root: 'events/x/' (written as events/x/index.html) or a file name."""
    template: str | None
    context: dict[str, Any] | Callable[[], dict[str, Any]] = field(default_factory=dict)
    """What the template reads; or a function making it, called only if the page is drawn (a
    player page reads results kept packed until then)."""
    key: tuple = ()
    """What the page is made from besides the site's settings and templates: digests and small
    values with a stable repr. Equal keys, equal pages."""
    data: Callable[[], str | bytes] | None = None
    """Makes the file's text for pages without a template (JSON twins): called when the page is
    rendered, so planning stays cheap and unchanged pages are never serialized."""
    in_sitemap: bool = True

    @property
    def output_path(self) -> str:
        return output_path(self.url)


def output_path(url: str) -> str:
    """The file of a page URL: 'events/x/' is written as events/x/index.html."""
    return url + "index.html" if url.endswith("/") or not url else url


def event_pages(scored: ScoredEvent, summary: EventSummary, report: ContentPage | None,
                key: str) -> list[Page]:
    """`key`: the digest of the event's inputs (its report aside, which is added here)."""
    slug = scored.slug
    made_of = (key, report)
    base = {"event": scored, "summary": summary}
    pages = [
        Page(f"events/{slug}/", "event.html", {**base, "report": report, "warnings": ()},
             made_of),
        Page(f"events/{slug}/standings.json", None, key=made_of, in_sitemap=False,
             data=partial(standings_json, scored, scored.standings)),
    ]
    for index, round_ in enumerate(scored.rounds):
        neighbours = {"previous": scored.rounds[index - 1] if index else None,
                      "next": scored.rounds[index + 1] if index + 1 < len(scored.rounds) else None}
        pages.append(Page(f"events/{slug}/round-{round_.number}/", "round.html",
                          {**base, "round": round_, **neighbours}, made_of))
        if not round_.in_progress:  # a round being played has no standings after it yet
            pages.append(Page(f"events/{slug}/round-{round_.number}/standings.json", None,
                              key=made_of, in_sitemap=False,
                              data=partial(standings_json, scored, round_.standings)))
        if round_.pairings is not None:
            pages.append(Page(f"events/{slug}/round-{round_.number}/pairings.json", None,
                              key=made_of, in_sitemap=False,
                              data=partial(round_pairings_json, scored, round_)))
        if round_.in_progress:
            pages.append(Page(f"events/{slug}/round-{round_.number}/slips/", "slips.html",
                              {**base, "round": round_}, made_of))
    if has_nrtm(scored):
        pages.append(Page(f"events/{slug}/nrtm.json", None, key=made_of, in_sitemap=False,
                          data=partial(nrtm_json, scored)))
    if scored.bracket is not None:
        pages.append(Page(f"events/{slug}/bracket/", "bracket.html",
                          {**base, "bracket": scored.bracket}, made_of))
    return pages


def round_pairings_json(scored: ScoredEvent, round_: RoundView) -> str:
    """round-<n>/pairings.json: the round's tables, players and results (null while playing)."""
    event = dict(zip(("slug", "name", "date", "game", "format"), _event_head(scored)))
    return dump_json(pairings_json(event, round_.number, round_.label, round_.pairings))


def _event_head(scored: ScoredEvent) -> tuple:
    info = scored.info
    return info.slug, scored.display_name, info.date.isoformat(), info.game, info.format


def standings_json(scored: ScoredEvent, standings: Standings | None) -> str:
    """The JSON twin of a standings table (data contract §5); numbers unrounded."""
    slug, name, date, game, format_ = _event_head(scored)
    payload: dict[str, Any] = {
        "event": {"slug": slug, "name": name, "date": date, "game": game, "format": format_},
        "after_round": standings.after_round if standings else 0,
        "complete": standings.complete if standings else False,
    }
    if standings is not None and standings.phase:
        payload["phase"] = standings.phase
    if standings is not None:
        payload.update({key: as_json_number(value) for key, value in standings.meta.items()})
    payload["standings"] = [_row_json(row) for row in standings.rows] if standings else []
    if standings is not None and standings.officials:
        payload["officials"] = [{"player": o.player.name, "player_id": o.player.id, "role": o.role,
                                 "points": o.points} for o in standings.officials]
    return dump_json(payload)


def _row_json(row) -> dict[str, Any]:
    data: dict[str, Any] = {"rank": row.rank, "player": row.player.name, "player_id": row.player.id}
    for key, value in row.values.items():
        data[key] = as_json_number(value)
    data["dropped"] = row.dropped
    data["tiebreak"] = row.tiebreak
    return data
