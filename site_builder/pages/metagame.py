"""Metagame tables: how each deck did, in one event, across a game's events, in the rankings
season and year by year. Counted with pandas (imported only by builds that have deck data);
the ratios are made exact (Fractions) from pandas' integer counts, and rounded only on the page.

What is counted (docs/rankings-and-decks.md):
* share: the deck's players over every ranked player of the events counted;
* win rate: (wins + half the draws) over the deck's matches against other decks, mirrors (every
  opponent on the same deck) and games against nobody (byes, unpaired losses) left out. At a
  table of three or four, winning the table is a win and another player winning it a loss;
* reached: of the deck's players in events with a cut or a final, how many got there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from .deckentry import DeckEntry, deck_key
from ..rules.views import Section

CHART_DECKS = 7
"""The chart of shares over time draws this many decks; the rest are one band, "Other decks"."""
NOT_GIVEN = "Not given"
UNRANKED = 10**9
"""The rank of a player without one (an official): after every real rank, so never the best."""


@dataclass(frozen=True)
class DeckLine:
    deck: str
    """As most players spelled it; NOT_GIVEN for players whose registration names no deck."""
    players: int
    share: Fraction
    """Percent of the field counted."""
    wins: int
    losses: int
    draws: int
    win_rate: Fraction | None
    """Percent; None without a match against another deck."""
    reached: int | None
    """How many reached the cut or final; None when no event counted had one."""
    conversion: Fraction | None
    """`reached`, percent of the deck's players in events with a cut or final."""
    best_rank: int | None
    best: tuple[str, str] | None
    """(name, person id) of the best finish (the first of equals in standings order)."""
    titles: int
    """Events won (rank 1)."""
    events: int

    @property
    def given(self) -> bool:
        return self.deck != NOT_GIVEN

    @property
    def record(self) -> str:
        return f"{self.wins}–{self.losses}" + (f"–{self.draws}" if self.draws else "")


@dataclass(frozen=True)
class Metagame:
    lines: tuple[DeckLine, ...]
    field: int
    """Players counted."""
    stage: str | None
    """"cut", "final", "cut or final" (across events) or None: what `reached` counts."""
    events: int = 1


@dataclass(frozen=True)
class Timeline:
    """Each deck's share year by year (the chart's bands, the largest decks first)."""

    periods: tuple[str, ...]
    fields: tuple[int, ...]
    """Players counted in each period."""
    bands: tuple[tuple[str, tuple[Fraction, ...]], ...]
    """(deck, its share in each period, percent); the last may be "Other decks"."""


def frame(entries: Iterable[tuple[str, str, DeckEntry]]) -> pd.DataFrame:
    """One row per (event slug, period, entry)."""
    rows = [(slug, period, e.person, e.name, e.deck or "", deck_key(e.deck) if e.deck else "",
             e.rank if e.rank is not None else UNRANKED, e.reached is not None, bool(e.reached),
             e.wins, e.losses, e.draws) for slug, period, e in entries]
    return pd.DataFrame(rows, columns=[
        "event", "period", "person", "name", "spelling", "deck", "rank", "staged", "reached",
        "wins", "losses", "draws"])


def event_metagame(entries: tuple[DeckEntry, ...], stage: str | None) -> Metagame:
    return metagame(frame(("", "", e) for e in entries), stage)


def decks_section(entries: tuple[DeckEntry, ...], stage: str | None) -> Section:
    """An event's Decks section (partials/metagame.html): its metagame table and chart."""
    return Section("Decks", "partials/metagame.html", event_metagame(entries, stage))


def metagame(table: pd.DataFrame, stage: str | None) -> Metagame:
    """The deck lines of the rows of `table`, the most played first (NOT_GIVEN last)."""
    field = len(table)
    if not field:
        return Metagame((), 0, stage, 0)
    spellings = _spellings(table)
    table = table.assign(won=table["rank"] == 1,
                         staged_players=table["staged"].astype(int),
                         reached_players=(table["staged"] & table["reached"]).astype(int))
    grouped = table.groupby("deck", sort=True).agg(
        players=("person", "size"), wins=("wins", "sum"), losses=("losses", "sum"),
        draws=("draws", "sum"), staged=("staged_players", "sum"),
        reached=("reached_players", "sum"), titles=("won", "sum"), events=("event", "nunique"))
    # each deck's best finish: its first row in rank order (standings order among equals)
    best = table.sort_values("rank", kind="stable").drop_duplicates("deck").set_index("deck")
    lines = []
    for key, row in grouped.iterrows():
        players, wins, losses, draws = (int(row[c]) for c in ("players", "wins", "losses", "draws"))
        staged, reached = int(row["staged"]), int(row["reached"])
        matches = wins + losses + draws
        best_rank = int(best.at[key, "rank"])
        lines.append(DeckLine(
            spellings.get(key, NOT_GIVEN), players, Fraction(100 * players, field),
            wins, losses, draws,
            Fraction(50 * (2 * wins + draws), matches) if matches else None,
            reached if staged else None, Fraction(100 * reached, staged) if staged else None,
            best_rank if best_rank < UNRANKED else None,
            (best.at[key, "name"], best.at[key, "person"]) if best_rank < UNRANKED else None,
            int(row["titles"]), int(row["events"])))
    lines.sort(key=lambda line: (not line.given, -line.players, line.deck.casefold(), line.deck))
    return Metagame(tuple(lines), field, stage if table["staged"].any() else None,
                    table["event"].nunique())


def timeline(table: pd.DataFrame) -> Timeline:
    """Shares by period of the decks most played overall (the others as one band)."""
    spellings = _spellings(table)
    given = table[table["deck"] != ""]
    counts = pd.crosstab(table["deck"], table["period"])
    fields = counts.sum(axis=0)
    overall = given.groupby("deck").size().reset_index(name="n")
    overall["order"] = overall["deck"].map(lambda k: spellings[k].casefold())
    top = list(overall.sort_values(["n", "order"], ascending=[False, True],
                                   kind="stable")["deck"][:CHART_DECKS])
    periods = list(counts.columns)
    bands = [(spellings[key], tuple(Fraction(100 * int(counts.at[key, p]), int(fields[p]))
                                    for p in periods)) for key in top]
    rest = [key for key in counts.index if key and key not in top]
    for label, keys in (("Other decks", rest), (NOT_GIVEN, [k for k in counts.index if not k])):
        if keys:
            bands.append((label, tuple(Fraction(100 * int(counts.loc[keys, p].sum()),
                                                int(fields[p])) for p in periods)))
    return Timeline(tuple(str(p) for p in periods), tuple(int(fields[p]) for p in periods),
                    tuple(bands))


def _spellings(table: pd.DataFrame) -> dict[str, str]:
    """Deck key → the spelling most players wrote (the first in order among equals)."""
    given = table[table["deck"] != ""]
    counted = given.groupby(["deck", "spelling"]).size().reset_index(name="n")
    counted = counted.sort_values(["deck", "n", "spelling"], ascending=[True, False, True],
                                  kind="stable").drop_duplicates("deck")
    return dict(zip(counted["deck"], counted["spelling"]))
