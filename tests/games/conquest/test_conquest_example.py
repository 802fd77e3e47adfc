"""The hand-worked example of ../shared/examples/conquest-small (copied into tests/fixtures):
byes, a modified win and two drops, built with the real CLI and compared number by number."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from conftest import FIXTURES, copy_fixture

EXAMPLE = FIXTURES / "conquest-small"
SLUG = "2016-05-14-byes-and-a-drop"


@pytest.fixture
def built(tmp_path, run_cli):
    source = copy_fixture("conquest-small", tmp_path / "site")
    result = run_cli("build", "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    return tmp_path / "out"


def expected_rows():
    return json.loads((EXAMPLE / "expected-standings.json").read_text())["standings"]


def test_round_3_twin_matches_every_hand_worked_number(built):
    twin = json.loads((built / f"events/{SLUG}/round-3/standings.json").read_text())
    assert twin["after_round"] == 3
    rows = twin["standings"]
    assert [r["player"] for r in rows] == [e["player"] for e in expected_rows()]
    for row, expected in zip(rows, expected_rows()):
        assert row["rank"] == expected["rank"]
        assert row["points"] == expected["points"]
        assert row["rounds_played"] == expected["rounds_played"]
        assert row["dropped"] is expected.get("dropped", False)
        assert row["sos"] == pytest.approx(float(Fraction(expected["sos"])), abs=1e-12)
        assert row["esos"] == pytest.approx(float(Fraction(expected["esos"])), abs=1e-12)
        assert row["sos"] == expected["sos_float"]  # the float nearest the exact fraction
        assert row["esos"] == expected["esos_float"]


def test_event_twin_is_the_final_standings(built):
    event = json.loads((built / f"events/{SLUG}/standings.json").read_text())
    round_3 = json.loads((built / f"events/{SLUG}/round-3/standings.json").read_text())
    assert event["complete"] is True
    assert event["event"] == {"slug": SLUG, "name": "Worked example: byes, a modified win and a drop",
                              "date": "2016-05-14", "game": "conquest", "format": "custom"}
    assert event["standings"] == round_3["standings"]


def test_standings_after_round_2_know_nothing_of_round_3(built):
    """After round 2 nobody has dropped yet: Dmitri had a bye, Bram a loss (worked by hand:
    Ada 10/2, Eun-ji 10/2, Cleo 4/2, Dmitri 5/2, Bram 0/2)."""
    rows = json.loads((built / f"events/{SLUG}/round-2/standings.json").read_text())["standings"]
    by_name = {r["player"]: r for r in rows}
    assert {n: r["points"] for n, r in by_name.items()} == {
        "Ada": 10, "Eun-ji": 10, "Dmitri": 5, "Cleo": 4, "Bram": 0}
    assert not any(r["dropped"] for r in rows)
    # Ada met Bram (0) and Cleo (4/2): SoS (0 + 2) / 2 = 1; Eun-ji met Bram only: SoS 0.
    assert by_name["Ada"]["sos"] == 1.0
    assert by_name["Eun-ji"]["sos"] == 0.0
    assert [r["player"] for r in rows[:2]] == ["Ada", "Eun-ji"]
    assert rows[1]["tiebreak"] == "sos"


def test_event_page_shows_the_final_numbers_rounded_to_three_decimals(built):
    """The final standings (after round 3) on the event page: Eun-ji's row rounds 5/3 and 41/12
    and says the exact values; Dmitri and Bram are marked dropped."""
    html = (built / f"events/{SLUG}/index.html").read_text()
    row = html[html.index('<tr id="p-eun-ji"'):]
    row = row[:row.index("</tr>")]
    assert '<td class="num" title="exactly 5/3">1.667</td>' in row
    assert '<td class="num" title="exactly 41/12">3.417</td>' in row
    for name in ("dmitri", "bram"):
        assert f'<tr id="p-{name}" class="dropped">' in html
    # the round-3 page shows the round, and leads to those standings and to its own twin
    round_3 = (built / f"events/{SLUG}/round-3/index.html").read_text()
    assert '<table class="standings"' not in round_3
    assert f'<a href="/events/{SLUG}/#standings-heading">Final standings</a>' in round_3
    assert f'<a href="/events/{SLUG}/round-3/standings.json" type="application/json">' in round_3
