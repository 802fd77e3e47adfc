"""The renderer's fragment caches: long lists re-render only what changed, and never show a row
for the wrong data."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from site_builder.config import load_config
from site_builder.problems import ProblemLog
from site_builder.recent import packed_ids as _packed_ids
from site_builder.render import Renderer


@dataclass(frozen=True)
class Row:
    name: str
    points: int


def renderer_with(tmp_path: Path, template: str) -> Renderer:
    (tmp_path / "site.toml").write_text('title = "T"\n')
    partials = tmp_path / "themes" / "default" / "templates" / "partials"
    partials.mkdir(parents=True)
    (partials / "row.html").write_text(template)
    return Renderer(tmp_path, load_config(tmp_path, ProblemLog()))


def test_the_same_objects_grouped_otherwise_are_other_rows(tmp_path):
    """Runs are looked up by the ids of their rows' objects: rows of two objects, of one, and
    the objects themselves are different rows, though the ids come in the same order."""
    renderer = renderer_with(tmp_path, "[{{ item|length if item is sequence else 'x' }}]")
    a, b, c, d = (Row(name, 0) for name in "abcd")
    for _ in range(2):  # rendered, then from the cache
        assert renderer._fragments_of([(a, b), (c, d)], "partials/row.html") == "[2][2]"
        assert renderer._fragments_of([(a,), (b,), (c,), (d,)], "partials/row.html") == \
            "[1][1][1][1]"
        assert renderer._fragments_of([a, b, c, d], "partials/row.html") == "[x][x][x][x]"
        assert renderer._fragments_of([(a, b, c), (d,)], "partials/row.html") == "[3][1]"
        assert renderer._fragments_of([(), ()], "partials/row.html") == "[0][0]"
        assert renderer._fragments_of([()], "partials/row.html") == "[0]"
    assert _packed_ids([(a, b, c), (d,)]) is None  # mixed lengths: taken row by row


def test_rows_added_at_the_front_leave_the_older_runs_cached(tmp_path):
    """A player's newest event comes first: runs are counted from the end of the list, so a
    new row at the front makes no older run look up its rows one by one again."""
    renderer = renderer_with(tmp_path, "{{ item.name }};")
    rows = [Row(f"p{i}", i) for i in range(40)]
    renderer._fragments_of(rows, "partials/row.html")
    cached = renderer._caches["runs", "partials/row.html"].entries
    runs = dict(cached)
    rows.insert(0, Row("new", 0))
    assert renderer._fragments_of(rows, "partials/row.html") == \
        "new;" + "".join(f"p{i};" for i in range(40))
    assert runs.items() <= cached.items()
    assert len(cached) == len(runs) + 1  # only the front run is new


def test_a_list_shows_each_rows_current_data(tmp_path):
    renderer = renderer_with(tmp_path, "{{ item.name }}={{ item.points }};")
    rows = [Row(f"p{i}", i) for i in range(40)]  # several runs of the cache
    assert renderer._fragments_of(rows, "partials/row.html") == \
        "".join(f"p{i}={i};" for i in range(40))
    # One row changes (a new object); the others are the same objects as before.
    rows[21] = Row("p21", 99)
    assert renderer._fragments_of(rows, "partials/row.html") == \
        "".join(f"p{i}={99 if i == 21 else i};" for i in range(40))
    # A row equal by value to an earlier one, made afresh, shows that value.
    rows[21] = Row("p21", 21)
    assert renderer._fragments_of(rows, "partials/row.html") == \
        "".join(f"p{i}={i};" for i in range(40))
    # Rows moved: the same objects in another order.
    assert renderer._fragments_of(rows[::-1], "partials/row.html") == \
        "".join(f"p{i}={i};" for i in reversed(range(40)))


def test_names_in_cached_rows_stay_escaped(tmp_path):
    renderer = renderer_with(tmp_path, "<li>{{ item.name }}</li>")
    rows = [Row("<b>Bob</b>", 1)] * 3
    for _ in range(2):  # rendered, then from the cache
        assert renderer._fragments_of(rows, "partials/row.html") == \
            "<li>&lt;b&gt;Bob&lt;/b&gt;</li>" * 3


def test_the_caches_stay_within_their_size_and_still_show_current_rows(tmp_path):
    """Watch mode renders for hours: each cache lets its oldest strings go beyond
    a budget, and rows render the same whether they were kept or not."""
    renderer = renderer_with(tmp_path, "{{ item.name }}={{ item.points }};")
    renderer.CACHE_CHARACTERS = 200
    rows = [Row(f"p{i}", i) for i in range(40)]
    for round_ in range(30):
        rows[round_] = Row(f"p{round_}", 100 + round_)  # one row changes each round
        assert renderer._fragments_of(rows, "partials/row.html") == \
            "".join(f"{r.name}={r.points};" for r in rows)
        for kind in ("runs", "value", "identity"):
            strings = [text for _, text in renderer._caches[kind, "partials/row.html"].entries.values()]
            assert sum(map(len, strings)) <= 200
    by_value = renderer._caches["value", "partials/row.html"].entries
    assert round_ == 29 and len(by_value) < 40  # rows went on the way
    # The ones kept are the latest: the rows changed last are there, the first ones gone.
    assert Row("p29", 129) in by_value and Row("p0", 100) not in by_value


def test_one_templates_large_fragments_leave_the_rows_of_others_cached(tmp_path):
    """A full build renders hundreds of megabytes of round bodies: they must not push out the
    history rows, which the next rebuild needs (each template has its own budget)."""
    renderer = renderer_with(tmp_path, "{{ item.name }};")
    (tmp_path / "themes/default/templates/partials/body.html").write_text("{{ item.name * 50 }}")
    renderer.CACHE_CHARACTERS = 1_000
    rows = [Row(f"p{i}", i) for i in range(40)]
    renderer._fragments_of(rows, "partials/row.html")
    runs = dict(renderer._caches["runs", "partials/row.html"].entries)
    for i in range(100):  # 10 times the budget of large fragments
        renderer._fragment(Row(f"body{i:03}", i), "partials/body.html")
    assert renderer._caches["runs", "partials/row.html"].entries == runs
    assert renderer._caches["value", "partials/body.html"].chars <= 1_000


def _built_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file()}


def test_spliced_pages_equal_pages_joined_by_the_template(tmp_path, monkeypatch):
    """Large lists (a history, the rankings) are spliced into their page after the template
    runs. The bundled demo site, with every list spliced and with none, is the same bytes."""
    from site_builder.build import build
    demo = Path(__file__).resolve().parent.parent
    monkeypatch.setattr(Renderer, "SPLICE_FROM", 0)
    rendered_again = []
    render_template = Renderer._render_template

    def counted(self, page, splice):
        if not splice:
            rendered_again.append(page.url)
        return render_template(self, page, splice)

    monkeypatch.setattr(Renderer, "_render_template", counted)
    build(demo, tmp_path / "spliced")
    assert rendered_again == []  # every placeholder was found: no page needed a second render
    monkeypatch.setattr(Renderer, "SPLICE_FROM", 1 << 60)
    build(demo, tmp_path / "joined")
    spliced, joined = _built_files(tmp_path / "spliced"), _built_files(tmp_path / "joined")
    assert len(spliced) > 50 and spliced.keys() == joined.keys()
    assert [path for path in spliced if spliced[path] != joined[path]] == []


def _page_with(tmp_path: Path, monkeypatch, body: str):
    from site_builder.plan import Page
    monkeypatch.setattr(Renderer, "SPLICE_FROM", 0)
    tmp_path.mkdir(exist_ok=True)
    renderer = renderer_with(tmp_path, "{{ item.name }};")
    (tmp_path / "themes" / "default" / "templates" / "list.html").write_text(body)
    rows = [Row(name, 0) for name in ("Ann", "Bob", "Cy")]
    return renderer.render(Page("list/", "list.html", {"rows": rows}, "content:list"))


def test_a_list_the_template_measures_or_filters_shows_as_without_splicing(tmp_path, monkeypatch):
    """A template that keeps a list for itself, or changes it with a filter, gets the page it
    would get without splicing (the page is rendered again, whole)."""
    measured = "{% set shown = rows|fragments('partials/row.html') %}{{ shown|length }}"
    assert _page_with(tmp_path, monkeypatch, measured) == b"11"
    filtered = "[{{ rows|fragments('partials/row.html')|safe }}]"
    assert _page_with(tmp_path / "b", monkeypatch, filtered) == b"[Ann;Bob;Cy;]"
    twice = "{{ rows|fragments('partials/row.html') }}|{{ rows|fragments('partials/row.html') }}"
    assert _page_with(tmp_path / "c", monkeypatch, twice) == b"Ann;Bob;Cy;|Ann;Bob;Cy;"


def test_a_name_with_the_placeholder_character_is_only_text(tmp_path, monkeypatch):
    """Spliced pieces are marked with a private-use character; data holding it is written as a
    character reference like any other non-ASCII text and marks nothing."""
    from site_builder.plan import Page
    monkeypatch.setattr(Renderer, "SPLICE_FROM", 0)
    renderer = renderer_with(tmp_path, "{{ item.name }};")
    (tmp_path / "themes" / "default" / "templates" / "list.html").write_text(
        "{{ title }}|{{ rows|fragments('partials/row.html') }}")
    page = Page("list/", "list.html", {"title": "\ue0000\ue000", "rows": [Row("\ue0000\ue000", 1)]},
                "content:list")
    assert renderer.render(page) == b"&#57344;0&#57344;|&#57344;0&#57344;;"


def test_exact_cells_show_each_values_own_text_when_drawn_again():
    """Exact cells are remembered by their value object: drawn again, after thousands of other
    values (the memory is emptied when full), each cell still shows its own value."""
    from fractions import Fraction
    from types import SimpleNamespace

    from site_builder.htmlrows import row_cells
    from site_builder.rules.base import Column
    columns = (Column("sos", "SoS", "dec3"), Column("win", "Win %", "pct"))

    def drawn(sos, win):
        return str(row_cells(SimpleNamespace(cells={}, values={"sos": sos, "win": win}), columns))

    expected = ('<td class="num" title="exactly 41/12">3.417</td>'
                '<td class="num" title="exactly 800/11%">72.73%</td>')
    sos, win = Fraction(41, 12), Fraction(800, 11)
    assert drawn(sos, win) == expected
    for n in range(1, 25_000):
        assert drawn(Fraction(n, 7), Fraction(1, n)).startswith(f'<td class="num" title="exactly {Fraction(n, 7)}"')
    assert drawn(sos, win) == expected
    assert drawn(Fraction(82, 24), Fraction(1600, 22)) == expected  # equal values, new objects
