"""Rows of the largest tables drawn in Python rather than through templates, each escaped in
one call: standings tables, a player's games, and every page's text as ASCII HTML.

Why in Python: standings are most of a round page, and a correction to a finished event re-draws
every later round's; drawn cell by cell through the template, a 120-player table took 5 ms.
(Issue 21 means to bring this markup back into the theme's templates.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import jinja2.ext
import jinja2.lexer
from markupsafe import Markup, escape

from .numbers import decimals, exact_text, percent_text
from .rules.base import remembered


def row_cells(row: Any, columns: Any) -> Markup:
    """The `<td>` cells of a standings row, formatted and escaped in one Python call (the
    `cells` filter, for themes that draw their own rows; standing_rows draws the default's)."""
    return Markup(_cells_html(row, _cell_formats(columns)))


def _cell_formats(columns: Any) -> list[tuple[str, str, str]]:
    """(key, CSS class, kind) of each column, worked out once a table."""
    return [(column.key, "num" if column.numeric else "text", column.kind) for column in columns]


def _cells_html(row: Any, formats: list[tuple[str, str, str]]) -> str:
    """Standings tables are most of the site's HTML; a macro or an escaped expression per cell
    made a large archive's round pages several times slower to render."""
    parts = []
    shown, values = row.cells, row.values  # as StandingRow.cell reads them
    for key, css, kind in formats:
        value = shown[key] if key in shown else values.get(key)
        if value is None or (isinstance(value, str) and not value):
            parts.append(f'<td class="{css}"></td>')
        elif kind == "dec3" or kind == "pct":
            parts.append(f'<td class="{css}"{_exact_cell_end(kind, value)}')
        elif isinstance(value, int):  # numbers need no escaping
            parts.append(f'<td class="{css}">{value}</td>')
        else:
            parts.append(f'<td class="{css}">{_text_html(str(value))}</td>')
    return "".join(parts)


_EXACT_CELLS: dict[tuple[str, int], tuple[Any, str]] = {}


def _exact_cell_end(kind: str, value: Any) -> str:
    """The rest of an exact value's cell after its class: its exact value as a tooltip, its
    rounded value shown. Remembered by the value object (held by the entry, so its id stands for
    it): SoS and ESoS are shared Fractions (see tiebreaks._fraction), and working out both texts
    in Python was half of drawing a standings table, which a corrected result redraws after every
    round."""
    def cell_end() -> str:
        shown = f"{exact_text(value)}%\">{percent_text(value)}" if kind == "pct" else \
            f'{exact_text(value)}">{decimals(value)}'
        return f' title="exactly {shown}</td>'
    return remembered(_EXACT_CELLS, (kind, id(value)), value, cell_end, 20_000)


_TEXT_HTML: dict[str, str] = {}


def _text_html(text: str) -> str:
    """Text escaped as ASCII HTML (see ascii_html), remembered: a standings table repeats the
    same few records ("4–1–0") down its rows, and an en dash in any piece made the whole table
    go through the slow character-reference conversion once joined."""
    known = _TEXT_HTML.get(text)
    if known is None:
        if len(_TEXT_HTML) >= 10_000:
            _TEXT_HTML.clear()
        known = _TEXT_HTML[text] = ascii_html(str(escape(text)))
    return known


DROPPED_BADGE = '<span class="badge">dropped</span>'


def standing_rows(standings: Any, page_url: Callable[[str], str]) -> Markup:
    """The `<tr>` rows of a standings table, escaped in one Python call.

    Standings are most of a round page, and a correction to a finished event re-renders every
    later round's: drawn row by row through the template, a 120-player table took 5 ms."""
    cut, cut_note = standings.cut_after, ""
    if cut:
        cut_note = f'<span class="visually-hidden">(in the {escape(standings.cut_label.lower())})</span>'
    labels = standings.tiebreak_labels
    # Each label's cell once a table, not once a row.
    tiebreak_cells = {key: f'<td class="tiebreak">{escape(text)}</td>' for key, text in labels.items()}
    no_tiebreak = '<td class="tiebreak"></td>' if labels else ""
    formats = _cell_formats(standings.columns)

    def drawn(row: Any) -> str:
        dropped = row.dropped
        notes = "".join([f'<small class="note">{escape(note)}</small>' for note in row.notes]) \
            if row.notes else ""
        tiebreak = tiebreak_cells[row.tiebreak] if labels and row.tiebreak else no_tiebreak
        return (
            f'    <tr class="{"dropped" if dropped else ""}'
            f'{" cut-line" if cut and row.rank == cut else ""}">\n'
            f'      <td class="num">{row.rank}</td>\n'
            '      <th scope="row" class="player">\n'
            f'        <a href="{_text_html(page_url(f"players/{row.player.id}/"))}">'
            f'{_text_html(row.player.name)}</a>\n'
            f'{DROPPED_BADGE if dropped else ""}'
            f'{cut_note if cut and row.rank <= cut and not dropped else ""}{notes}'
            '      </th>\n'
            f'      {_cells_html(row, formats)}\n'
            f'{tiebreak}    </tr>\n')

    # Each row's <tr> is remembered by the row object, per kind of table (columns, cut, labels,
    # links): a row that stays the same object from one table to the next (see conquest's
    # final_standings_view) is drawn once.
    kind = (standings.columns, cut, cut_note, tuple(labels.items()), page_url(""))
    known = remembered(_DRAWN_ROWS, kind, None, dict, 64)
    return Markup(ascii_html("".join([remembered(known, id(row), row, lambda: drawn(row), 5_000)
                                      for row in standings.rows])))


_DRAWN_ROWS: dict[tuple, tuple[None, dict]] = {}


def game_rows(games: Any, event_url: str, page_url: Callable[[str], str]) -> Markup:
    """The `<tr>` rows of a player's games at one event (player pages), escaped in one Python call.

    Every player's page gains a game each round; drawing its rows through the template cost
    more than the rest of the page."""
    rows = []
    for game in games:
        opponents = ", ".join(
            f'<a href="{escape(page_url(f"players/{o.id}/"))}">{escape(o.name)}</a>'
            for o in game.opponents) or "—"
        rows.append(
            "      <tr>\n"
            f'        <th scope="row"><a href="{escape(page_url(f"{event_url}round-{game.round_number}/"))}">'
            f"{escape(game.round_label)}</a></th>\n"
            f"        <td>{escape(game.table)}</td>\n"
            f"        <td>{opponents}</td>\n"
            f'        <td class="result result-{escape(game.result.split(" ")[0].lower())}">'
            f"{escape(game.result)}</td>\n"
            f'        <td class="num">{escape(game.points)}</td>\n'
            "      </tr>\n")
    return Markup("".join(rows))


def ascii_html(html: str) -> str:
    """HTML with every non-ASCII character written as a character reference (`–` as `&#8211;`).

    Pages are made of thousands of cached pieces joined together. One en dash in a record
    makes Python store the whole page at two bytes a character: every ASCII piece is widened
    when joined, and the page is transcoded when encoded: a fifth to a quarter of a large player
    page's rendering time. As ASCII, joining is a copy, and encoding is one too.
    Browsers read the references as the characters themselves."""
    return html if html.isascii() else html.encode("ascii", "xmlcharrefreplace").decode("ascii")


class AsciiText(jinja2.ext.Extension):
    """The templates' own text as ASCII HTML (see ascii_html), once, when a template compiles.

    Left as written inside `<script>` and `<style>`, whose text browsers do not decode."""

    _RAW_START = re.compile(r"<(?:script|style)\b", re.IGNORECASE)
    _RAW_END = re.compile(r"</(?:script|style)", re.IGNORECASE)

    def filter_stream(self, stream: jinja2.lexer.TokenStream) -> Any:
        raw = False  # inside <script> or <style>; a tag may span several data tokens
        for token in stream:
            if token.type == "data":
                text, raw = self._ascii_outside_raw_text(token.value, raw)
                token = jinja2.lexer.Token(token.lineno, "data", text)
            yield token

    def _ascii_outside_raw_text(self, text: str, raw: bool) -> tuple[str, bool]:
        parts = []
        while True:
            boundary = (self._RAW_END if raw else self._RAW_START).search(text)
            end = boundary.end() if boundary else len(text)
            parts.append(text[:end] if raw else ascii_html(text[:end]))
            if boundary is None:
                return "".join(parts), raw
            text, raw = text[end:], not raw
