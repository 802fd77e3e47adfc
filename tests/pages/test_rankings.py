"""Cross-event rankings, as a reader meets them: the overview of each game's top rows, each game's
pages of 100 rows, and the JSON twin with every row. Totals over scored events (officials
included, names joined through data/players.csv aliases), unscored and unfinished events left
out, the season, shared ranks, pagination, and a ranking after edits equal to one from scratch."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import shutil
from pathlib import Path

import pytest

from conftest import conquest_event, read_page
from site_builder.build import build
from site_builder.league.config import RankingsConfig
from site_builder.core.model import Person, PlayerRef
from site_builder.pages.rankings import EventRef, RankedEvent, build_rankings, ranking_json
from site_builder.rules.views import RankingEntry
from spellfire_events import HEADER, NINE, bracket, event

# NINE, worked by hand in test_spellfire: A 4 + 10 = 14, E 4 + 6 = 10, H 4 + 4 = 8; the round-1
# seconds B, D and G 3 each; the thirds C, F and I 2 each.
NINE_RANKING = [(1, "A", 14), (2, "E", 10), (3, "H", 8), (4, "B", 3), (4, "D", 3), (4, "G", 3),
                (7, "C", 2), (7, "F", 2), (7, "I", 2)]
EIGHT = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"])
         + bracket(2, ["E", "F", "G", "H"], ["E", "E"]),
         2: bracket(1, ["A", "E", "B"], ["A", "A"])}
ROW = re.compile(r'<tr><td class="num">(\d+)</td>\s*'
                 r'<th scope="row"><a href="[^"]*">([^<]*)</a></th>\s*<td class="num">(\d+)</td>')


def spellfire_event(site, slug: str, date: str, rounds: dict[int, str], **keys) -> None:
    toml = event(**keys).replace("date = 2026-01-10", f"date = {date}")
    site.event(slug, toml, {n: f"{HEADER}\n{text}" for n, text in rounds.items()})


def rename(rounds: dict[int, str], old: str, new: str) -> dict[int, str]:
    return {n: text.replace(f",{old},", f",{new},") for n, text in rounds.items()}


def heresy_event(site, slug: str, points: dict[str, int]) -> None:
    """A one-round Reascension event where every table ran out of time, so each player scores
    exactly their tau + 2 (the tau goal is set out of reach): `points` are the totals to give.
    Tables as seed 3.2.2 groups them: (players mod 3) tables of four, then threes."""
    names, fours = list(points), len(points) % 3
    rows, at, table = ["table,player,result,tau"], 0, 1
    while at < len(names):
        size = 4 if table <= fours else 3
        rows += [f"{table},{name},time,{points[name] - 2}" for name in names[at:at + size]]
        at, table = at + size, table + 1
    toml = (f'name = "{slug[11:].title()}"\ndate = {slug[:10]}\ngame = "heresy"\n'
            'format = "reascension"\ntau_goal = 999\nwin_points = 1000\nrounds = 1\n')
    site.event(slug, toml, {1: "\n".join(rows) + "\n"})


def table_rows(html: str) -> list[tuple[int, str, int]]:
    """(rank, player, points) of every rankings row on a page, in page order."""
    return [(int(rank), name, int(points)) for rank, name, points in ROW.findall(html)]


def json_rows(site_or_out, game: str) -> list[tuple[int, str, int]]:
    out = getattr(site_or_out, "out", site_or_out)
    data = json.loads((out / f"rankings/{game}.json").read_text(encoding="utf-8"))
    return [(r["rank"], r["player"], r["points"]) for r in data["rankings"]]


def names_on(page: bytes) -> set[str]:
    return {name for _, name, _ in table_rows(page.decode("utf-8"))}


def snapshot(out: Path) -> dict[str, bytes]:
    """Every file under rankings/, and the home page (its teaser shows each game's top three)."""
    files = {p.relative_to(out).as_posix(): p.read_bytes()
             for p in sorted((out / "rankings").rglob("*")) if p.is_file()}
    return {**files, "index.html": (out / "index.html").read_bytes()}


# ---------------------------------------------------------------- what counts, and how much


def test_totals_over_scored_events_with_aliases_and_officials(site):
    """Event 1 (9 players): A 14, coordinator Greg 9 (1 point a player). Event 2 (9 players) has
    A written as "Ann", an alias of A in data/players.csv: A wins again (14), so A totals 28
    over 2 events and Greg 18; everyone else doubles NINE's points. Event 3 has 8 players:
    unscored, left out with the reason."""
    site.write({"data/players.csv": "id,name,aliases\na,A,Ann\n"})
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE, coordinator="Greg")
    spellfire_event(site, "2026-02-14-two", "2026-02-14", rename(NINE, "A", "Ann"),
                    coordinator="Greg")
    spellfire_event(site, "2026-03-14-three", "2026-03-14", EIGHT)
    assert site.build() == 0
    ranking = site.json("rankings/spellfire.json")
    assert ranking["events"] == ["2026-02-14-two", "2026-01-10-one"]
    rows = {r["player_id"]: r for r in ranking["rankings"]}
    assert (rows["a"]["rank"], rows["a"]["points"], rows["a"]["events"]) == (1, 28, 2)
    assert rows["a"]["best_finish"] == "Winner"
    assert [c["points"] for c in rows["a"]["contributions"]] == [14, 14]
    assert (rows["greg"]["points"], rows["greg"]["best_finish"]) == (18, "Coordinator")
    assert [c["role"] for c in rows["greg"]["contributions"]] == ["coordinator", "coordinator"]
    expected = [(1, "A", 28), (2, "E", 20), (3, "Greg", 18), (4, "H", 16), (5, "B", 6), (5, "D", 6),
                (5, "G", 6), (8, "C", 4), (8, "F", 4), (8, "I", 4)]
    page = site.html("rankings/spellfire/")
    assert json_rows(site, "spellfire") == table_rows(page) == expected
    assert ("SPELLFIRE: Championship—Standard [55]</a> (Winter Open) — not counted: unscored: "
            "8 players") in page
    # A's page: each scored event's line says its 14 ranking points; the unscored one says none.
    history = site.html("players/a/").split('<ol class="history"', 1)[1].split("</ol>", 1)[0]
    lines = re.findall(r"<li>.*?</li>", history, re.S)
    assert [re.search(r'href="/events/([^/]+)/"', line)[1] for line in lines] == [
        "2026-03-14-three", "2026-02-14-two", "2026-01-10-one"]
    assert "ranking point" not in lines[0]
    assert [line.count("· 14 ranking points") for line in lines[1:]] == [1, 1]
    greg = site.html("players/greg/")
    assert greg.count("<strong>Coordinator</strong>") == 2
    assert greg.count("· 9 ranking points</small>") == 2


def test_equal_totals_share_a_rank(site):
    """NINE worked by hand: three round-1 seconds with 3 points share 4th, three thirds with 2
    share 7th (not 5th or 8th); equal totals are listed by name. Page and JSON agree."""
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    assert site.build() == 0
    assert json_rows(site, "spellfire") == NINE_RANKING
    assert table_rows(site.html("rankings/spellfire/")) == NINE_RANKING
    assert table_rows(site.html("rankings/")) == NINE_RANKING  # fewer than ten: all on the overview


def test_the_season_limits_which_events_count(site):
    """Only the February event is in the 2026 spring season: every total is NINE's once, and
    the January event is listed as not counted, with the season it is outside of."""
    site.write({"site.toml": '[rankings]\ntitle = "2026 spring season"\nfrom = 2026-02-01\n'
                             'until = 2026-06-30\n'})
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    spellfire_event(site, "2026-02-14-two", "2026-02-14", NINE)
    assert site.build() == 0
    ranking = site.json("rankings/spellfire.json")
    assert ranking["events"] == ["2026-02-14-two"]
    assert ranking["season"] == {"from": "2026-02-01", "until": "2026-06-30"}
    assert ranking["title"] == "2026 spring season"
    assert json_rows(site, "spellfire") == NINE_RANKING
    assert "<h1>2026 spring season</h1>" in site.html("rankings/")
    page = site.html("rankings/spellfire/")
    assert '<a href="/rankings/">2026 spring season</a>' in page
    assert "not counted: outside the season (events from 2026-02-01 to 2026-06-30)" in page


def test_an_event_in_progress_does_not_count_yet(site):
    """Round 1 of 2 played: nobody has points yet, and the event is listed as in progress."""
    spellfire_event(site, "2026-01-10-one", "2026-01-10", {1: NINE[1]})
    assert site.build() == 0
    ranking = site.json("rankings/spellfire.json")
    assert ranking["events"] == [] and ranking["rankings"] == []
    page = site.html("rankings/spellfire/")
    assert "not counted: still in progress" in page and table_rows(page) == []


def test_conquest_ranks_by_swiss_points(site):
    """Win 5, modified win 4, loss 0: the two losers share 3rd, by name."""
    site.event("2024-05-18-c", conquest_event("C", "2024-05-18", structure="custom",
                                              swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,mw\n2,Dan,loss\n"})
    assert site.build() == 0
    assert json_rows(site, "conquest") == [(1, "Ada", 5), (2, "Cleo", 4), (3, "Bram", 0),
                                           (3, "Dan", 0)]


def test_home_page_teaser_shows_the_top_three(site):
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    assert site.build() == 0
    home = site.html("")
    teaser = home[home.index('id="rankings-teaser"'):]
    assert teaser.index(">A</a>") < teaser.index(">E</a>") < teaser.index(">H</a>")
    assert ">B</a>" not in teaser  # 4th


def test_a_bad_season_is_an_error(site, run_cli):
    site.write({"site.toml": "[rankings]\nfrom = 2026-06-01\nuntil = 2026-01-01\n"})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert result.lines[0] == ("site.toml:3: [rankings] until = 2026-01-01 is before "
                               "from = 2026-06-01")


def test_the_rankings_json_is_whole_for_nobody_one_person_and_several():
    """The JSON twin parses, with every row in ranking order, whether the ranking has no row
    (its only event is in progress), one, or several (Bo and Cy tie on 9 and share 2nd, Cy
    ahead of Émile by points, accents kept as UTF-8)."""
    ref = EventRef("2026-01-10-one", dt.date(2026, 1, 10), "One", "")
    people = {pid: Person(pid, name) for pid, name in
              [("ann", "Ann"), ("bo", "Bo"), ("cy", "Cy"), ("emile", "Émile")]}

    def ranked(reason, *scores):
        entries = tuple(RankingEntry(PlayerRef(people[pid].name, pid), points, f"{i}th", i)
                        for i, (pid, points) in enumerate(scores, start=1))
        return RankedEvent("conquest", ref, reason, entries if reason is None else ())

    cases = [(ranked("still in progress", ("ann", 14)), [], []),
             (ranked(None, ("ann", 14)), [ref.slug], [(1, "Ann", 14)]),
             (ranked(None, ("emile", 2), ("cy", 9), ("ann", 14), ("bo", 9)), [ref.slug],
              [(1, "Ann", 14), (2, "Bo", 9), (2, "Cy", 9), (4, "Émile", 2)])]
    for event_, events, expected in cases:
        (ranking,) = build_rankings([event_], people, {"conquest": "Conquest"})
        text = ranking_json(ranking, RankingsConfig())
        data = json.loads(text)
        assert data["events"] == events
        assert [(r["rank"], r["player"], r["points"]) for r in data["rankings"]] == expected
    assert '"player":"Émile"' in text and text.endswith("]}\n")


# ---------------------------------------------------------------- pages of a large ranking


def test_a_large_ranking_is_paged_by_a_hundred_with_the_top_ten_on_the_overview(site, tmp_path):
    """230 Heresy players, Player i scoring i + 1 (so Player 230 leads with 231 and Player 1 is
    last with 2: the reverse of name order). Rank r is Player 231 - r: ranks 1-100 on the game's
    page, 101-200 on page 2, 201-230 on page 3, with a pager between them. The overview shows
    each game's top ten only (twelve Conquest players: six winners share 1st, the losers 7th,
    by name) with a link to the whole ranking; the JSON lists all 230. With 30 fewer, the
    build into the same folder drops page 3, as a clean build has none."""
    heresy_event(site, "2026-03-07-big", {f"Player {i:03d}": i + 1 for i in range(1, 231)})
    rooks = "".join(f"{t},Rook {2 * t - 1:02d},win\n{t},Rook {2 * t:02d},loss\n"
                    for t in range(1, 7))
    site.event("2026-03-14-small", conquest_event("Small", "2026-03-14", structure="custom",
                                                  swiss_rounds=1, cut=0),
               {1: "table,player,result\n" + rooks})
    out = tmp_path / "out"
    build(site.root, out)
    expected = [(r, f"Player {231 - r:03d}", 232 - r) for r in range(1, 231)]
    assert json_rows(out, "heresy") == expected
    pages = ["rankings/heresy/index.html", "rankings/heresy/page/2/index.html",
             "rankings/heresy/page/3/index.html"]
    html = [read_page(out / page) for page in pages]
    assert [table_rows(page) for page in html] == [expected[:100], expected[100:200],
                                                   expected[200:]]
    assert not (out / "rankings/heresy/page/4").exists()
    assert not (out / "rankings/heresy/page/1").exists()  # page 1 is rankings/heresy/
    assert "230 players with points over all events: page 2 of 3." in html[1]
    first, middle, last = (page[page.index('<nav class="pager"'):] for page in html)
    assert 'rel="prev"' not in first and 'rel="next"' not in last
    assert '<a rel="next" href="/rankings/heresy/page/2/">Ranks 101–200 →</a>' in first
    assert '<a rel="prev" href="/rankings/heresy/">← Ranks 1–100</a>' in middle
    assert '<span aria-current="page">2</span>' in middle
    assert '<a rel="next" href="/rankings/heresy/page/3/">Ranks 201–230 →</a>' in middle
    assert '<a rel="prev" href="/rankings/heresy/page/2/">← Ranks 101–200</a>' in last
    assert '<a href="/rankings/heresy/">1</a>' in last
    # The events counted are listed on the first page only.
    assert "1 event counted" in html[0] and "event counted" not in html[1] + html[2]

    overview = read_page(out / "rankings/index.html")
    heresy, conquest = overview.split('<section aria-labelledby="')[1:]  # "Heresy" < "Warhammer"
    assert table_rows(heresy) == expected[:10]
    assert '<a href="/rankings/heresy/">Heresy: Kingdom Come: all 230 players' in heresy
    assert table_rows(conquest) == [(1, f"Rook {n:02d}", 5) for n in (1, 3, 5, 7, 9, 11)] + \
        [(7, f"Rook {n:02d}", 0) for n in (2, 4, 6, 8)]
    assert '<a href="/rankings/conquest/">Warhammer 40,000: Conquest: all 12 players' in conquest
    assert len(json_rows(out, "conquest")) == 12
    small = read_page(out / "rankings/conquest/index.html")
    assert len(table_rows(small)) == 12 and 'class="pager"' not in small
    assert not (out / "rankings/conquest/page").exists()
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "/rankings/heresy/page/3/" in sitemap and "/rankings/heresy/page/4/" not in sitemap

    # The last 30 leave: built into the same folder, page 3 is gone and page 2's pager ends.
    heresy_event(site, "2026-03-07-big", {f"Player {i:03d}": i + 1 for i in range(31, 231)})
    build(site.root, out)
    build(site.root, tmp_path / "clean", clean=True)
    assert snapshot(out) == snapshot(tmp_path / "clean")
    assert not (out / "rankings/heresy/page/3").exists()
    assert 'rel="next"' not in read_page(out / "rankings/heresy/page/2/index.html")


# ---------------------------------------------------------------- a ranking after edits


def league(*swaps: tuple[int, int]) -> dict[str, int]:
    """Forty players, Player i scoring 60 - i (Player 01 59 ... Player 40 20), with the results
    of each pair of players in `swaps` exchanged (a corrected result)."""
    points = {f"Player {i:02d}": 60 - i for i in range(1, 41)}
    for a, b in swaps:
        points[f"Player {a:02d}"], points[f"Player {b:02d}"] = 60 - b, 60 - a
    return points


def test_a_correction_with_a_newcomer_come_and_gone_between_builds(site, tmp_path):
    """Between two rankings, a correction moves two totals (Players 01 and 02 swap results)
    while newcomers join with an event that is withdrawn again. Fed to the old incremental index
    (main's RankingIndex) as the changes since its last ranking, one refresh each, this crashed
    it: with 43 rows and 5 moved, `_rerank` took Player 01's old standing out and put a None
    placeholder row in for the new one, then raised on the newcomers, with no standing before
    or after (`-None`); the next ranking no longer found Player 01's old standing, returned
    False, and `_rank_all` crashed on the None row. (The old watch session ranked after every
    single event change, which hid it.) Here each build goes into the same folder, brought up
    to date from the state beside it, and must equal a clean build and the order worked by hand:

    1. Correction and newcomers: Nadia 70 leads; Player 02 59, Player 01 58; Omar 47 ties with
       Player 13 and is listed first by name (both 14th); Pia 2 last, below the opener's three.
    2. The newcomers' event withdrawn, and Players 03 and 04 swapped too: ranks 1-43 as by hand.
    3. Player 01 and 02 swapped back, and an event with the newcomers added and removed again
       before the build (the old crash): Player 01 leads again, nobody else moved."""
    heresy_event(site, "2026-02-07-opener", {"Quinn": 5, "Rafa": 4, "Sol": 3})
    heresy_event(site, "2026-03-07-league", league())
    out, clean = tmp_path / "out", tmp_path / "clean"
    build(site.root, out)

    def tail(at: int) -> list[tuple[int, str, int]]:
        return [(at, "Quinn", 5), (at + 1, "Rafa", 4), (at + 2, "Sol", 3)]

    def player(i: int, rank: int, points: int | None = None) -> tuple[int, str, int]:
        return rank, f"Player {i:02d}", 60 - i if points is None else points

    heresy_event(site, "2026-03-07-league", league((1, 2)))
    heresy_event(site, "2026-03-28-newcomers", {"Nadia": 70, "Omar": 47, "Pia": 2})
    step_1 = ([(1, "Nadia", 70), player(2, 2, 59), player(1, 3, 58)]
              + [player(i, i + 1) for i in range(3, 13)] + [(14, "Omar", 47), player(13, 14)]
              + [player(i, i + 2) for i in range(14, 41)] + tail(43) + [(46, "Pia", 2)])

    def rebuilt_equals_clean(expected: list[tuple[int, str, int]]) -> None:
        done = build(site.root, out)
        fresh = build(site.root, clean, clean=True)
        assert done.rendered < fresh.rendered  # brought up to date, not built again
        assert snapshot(out) == snapshot(clean)
        assert table_rows(read_page(out / "rankings/heresy/index.html")) == expected
        assert json_rows(out, "heresy") == expected

    rebuilt_equals_clean(step_1)

    shutil.rmtree(site.root / "data/events/2026-03-28-newcomers")
    heresy_event(site, "2026-03-07-league", league((1, 2), (3, 4)))
    rebuilt_equals_clean([player(2, 1, 59), player(1, 2, 58), player(4, 3, 57), player(3, 4, 56)]
                         + [player(i, i) for i in range(5, 41)] + tail(41))

    heresy_event(site, "2026-03-07-league", league((3, 4)))
    heresy_event(site, "2026-03-28-newcomers", {"Nadia": 70, "Omar": 47, "Pia": 2})
    shutil.rmtree(site.root / "data/events/2026-03-28-newcomers")
    rebuilt_equals_clean([player(1, 1, 59), player(2, 2, 58), player(4, 3, 57), player(3, 4, 56)]
                         + [player(i, i) for i in range(5, 41)] + tail(41))


def test_a_correction_to_a_games_only_event_keeps_everyone_ranked(site, tmp_path):
    """Cleo's modified win (4) corrected to a win (5) in the only Conquest event: Ada, Cleo and
    Eve share 1st with 5, Bram, Dan and Finn 4th with 0, as a clean build says. The old index
    dropped a game with its last event and ranked again only those whose contribution changed,
    so main's watch session lost Eve (unchanged) from the ranking after this correction."""
    toml = conquest_event("C", "2024-05-18", structure="custom", swiss_rounds=1, cut=0)
    table = ("table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,{}\n2,Dan,loss\n"
             "3,Eve,win\n3,Finn,loss\n")
    site.event("2024-05-18-c", toml, {1: table.format("mw")})
    out, clean = tmp_path / "out", tmp_path / "clean"
    build(site.root, out)
    assert json_rows(out, "conquest")[2] == (3, "Cleo", 4)
    site.event("2024-05-18-c", toml, {1: table.format("win")})
    build(site.root, out)
    build(site.root, clean, clean=True)
    assert snapshot(out) == snapshot(clean)
    expected = [(1, "Ada", 5), (1, "Cleo", 5), (1, "Eve", 5), (4, "Bram", 0), (4, "Dan", 0),
                (4, "Finn", 0)]
    assert table_rows(read_page(out / "rankings/conquest/index.html")) == expected
    assert json_rows(out, "conquest") == expected


@pytest.mark.slow
def test_rankings_after_random_corrections_equal_rankings_built_from_scratch(site, tmp_path):
    """Four one-round Conquest events of 56 players drawn from a pool of 150 (129 ranked, so two
    pages; 0, 4 or 5 points an event, so many shared ranks). Each step corrects one event,
    seeded: a winner and a loser exchange results, or a player is replaced by a newcomer (one
    leaves the ranking, one joins). After each step the build into the same folder writes
    rankings/ (and the home page's teaser) byte for byte as a clean build does. Each step
    changes the JSON, and some step moves people between pages 1 and 2, so the comparison
    covers rows crossing the page boundary."""
    rng = random.Random(2024)
    pool = [f"Racer {n:03d}" for n in range(150)]
    rounds: dict[str, list[list[str]]] = {}
    for month in range(1, 5):
        slug = f"2026-0{month}-10-cup"
        names = rng.sample(pool, 56)
        rounds[slug] = [[str(t + 1), names[2 * t], rng.choice(["win", "win", "mw"])]
                        for t in range(28)]
        rounds[slug] += [[str(t + 1), names[2 * t + 1], "loss"] for t in range(28)]
        site.event(slug, conquest_event(f"Cup {month}", slug[:10], structure="custom",
                                        swiss_rounds=1, cut=0), {})

    def write(slug: str) -> None:
        rows = sorted(rounds[slug], key=lambda row: int(row[0]))
        site.write({f"data/events/{slug}/round-1.csv":
                    "table,player,result\n" + "".join(",".join(row) + "\n" for row in rows)})

    for slug in rounds:
        write(slug)
    out, clean = tmp_path / "out", tmp_path / "clean"
    build(site.root, out)
    before = snapshot(out)
    assert (out / "rankings/conquest/page/2/index.html").exists()
    crossed = 0
    for step in range(8):
        slug = rng.choice(sorted(rounds))
        rows = rounds[slug]
        if step % 3 == 2:
            rng.choice(rows)[1] = f"Newcomer {step}"
        else:
            winner = rng.choice([row for row in rows if row[2] != "loss"])
            loser = rng.choice([row for row in rows if row[2] == "loss"])
            winner[1], loser[1] = loser[1], winner[1]
        write(slug)
        build(site.root, out)
        build(site.root, clean, clean=True)
        now = snapshot(out)
        assert now == snapshot(clean), f"step {step}: {slug}"
        assert now["rankings/conquest.json"] != before["rankings/conquest.json"]
        page = "rankings/conquest/page/2/index.html"
        crossed += names_on(now[page]) != names_on(before[page])
        before = now
    assert crossed >= 1
