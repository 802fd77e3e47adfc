"""Cross-event rankings: totals over scored events, officials included, names joined through
data/players.csv aliases, unscored and unfinished events left out, and the season setting."""

from __future__ import annotations

from test_spellfire import HEADER, NINE, bracket, event


def spellfire_event(site, slug: str, date: str, rounds: dict[int, str], **keys) -> None:
    toml = event(**keys).replace("date = 2026-01-10", f"date = {date}")
    site.event(slug, toml, {n: f"{HEADER}\n{text}" for n, text in rounds.items()})


EIGHT = {1: bracket(1, ["A", "B", "C", "D"], ["A", "A"]) + bracket(2, ["E", "F", "G", "H"], ["E", "E"]),
         2: bracket(1, ["A", "E", "B"], ["A", "A"])}


def rename(rounds: dict[int, str], old: str, new: str) -> dict[int, str]:
    return {n: text.replace(f",{old},", f",{new},") for n, text in rounds.items()}


def test_totals_over_scored_events_with_aliases_and_officials(site):
    """Event 1 (9 players): A 14, coordinator Greg 9. Event 2 (9 players) has A written as
    "Ann" — an alias of A in data/players.csv: A wins again (14), so A totals 28 over 2 events.
    Event 3 has 8 players: unscored, left out."""
    site.write({"data/players.csv": "id,name,aliases\na,A,Ann\n"})
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE, coordinator="Greg")
    spellfire_event(site, "2026-02-14-two", "2026-02-14", rename(NINE, "A", "Ann"), coordinator="Greg")
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
    html = site.html("rankings/")
    assert "SPELLFIRE: Championship—Standard [55]</a> (Winter Open) — not counted: unscored: 8 players" in html
    player = site.html("players/a/")
    assert 'abbr title="points toward the rankings"' in player and ">14</td>" in player


def test_equal_totals_share_a_rank(site):
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    assert site.build() == 0
    rows = site.json("rankings/spellfire.json")["rankings"]
    ranks = {r["player"]: r["rank"] for r in rows}
    assert ranks["B"] == ranks["D"] == ranks["G"]  # three round-1 seconds with 3 points each


def test_the_season_limits_which_events_count(site):
    site.write({"site.toml": '[rankings]\ntitle = "2026 spring season"\nfrom = 2026-02-01\n'
                             'until = 2026-06-30\n'})
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    spellfire_event(site, "2026-02-14-two", "2026-02-14", NINE)
    assert site.build() == 0
    ranking = site.json("rankings/spellfire.json")
    assert ranking["events"] == ["2026-02-14-two"]
    assert ranking["season"] == {"from": "2026-02-01", "until": "2026-06-30"}
    assert ranking["title"] == "2026 spring season"
    html = site.html("rankings/")
    assert "<h1>2026 spring season</h1>" in html
    assert "not counted: outside the season (events from 2026-02-01 to 2026-06-30)" in html


def test_an_event_in_progress_does_not_count_yet(site):
    spellfire_event(site, "2026-01-10-one", "2026-01-10", {1: NINE[1]})
    assert site.build() == 0
    ranking = site.json("rankings/spellfire.json")
    assert ranking["events"] == [] and ranking["rankings"] == []
    assert "not counted: still in progress" in site.html("rankings/")


def test_conquest_ranks_by_swiss_points(site):
    site.event("2024-05-18-c", 'name = "C"\ndate = 2024-05-18\ngame = "conquest"\nstructure = "custom"\n'
                               "swiss_rounds = 1\ncut = 0\n",
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,mw\n2,Dan,loss\n"})
    assert site.build() == 0
    rows = site.json("rankings/conquest.json")["rankings"]
    assert [(r["player"], r["points"]) for r in rows] == [("Ada", 5), ("Cleo", 4), ("Bram", 0), ("Dan", 0)]


def test_home_page_teaser_shows_the_top_three(site):
    spellfire_event(site, "2026-01-10-one", "2026-01-10", NINE)
    assert site.build() == 0
    home = site.html("")
    teaser = home[home.index('id="rankings-teaser"'):]
    assert teaser.index(">A</a>") < teaser.index(">E</a>") < teaser.index(">H</a>")


def test_a_bad_season_is_an_error(site, run_cli):
    site.write({"site.toml": "[rankings]\nfrom = 2026-06-01\nuntil = 2026-01-01\n"})
    result = run_cli("check", "--source", site.root)
    assert result.code == 1
    assert result.lines[0] == "site.toml:3: [rankings] until = 2026-01-01 is before from = 2026-06-01"


def test_the_rankings_json_is_whole_for_nobody_one_person_and_several():
    """The JSON twin is joined from each row's ready bytes with the head and tail added to the
    first and last rows: with one row those are the same row, with none there is no row."""
    import datetime as dt
    import json

    from site_builder.config import RankingsConfig
    from site_builder.model import Person, PlayerRef
    from site_builder.rankings import (Contribution, EventRef, GameRanking, Standing, _row,
                                       ranking_json)
    from site_builder.rules.base import RankingEntry

    ref = EventRef("2026-01-10-one", dt.date(2026, 1, 10), "One", "")

    def row(rank: int, name: str, points: int):
        person = Person(name.lower(), name)
        entry = RankingEntry(PlayerRef(name, person.id), points, "1st of 9", rank)
        return _row(rank, Standing.of(person, (Contribution.of(ref, entry),)), None)

    for rows in ((), (row(1, "Ann", 14),), (row(1, "Ann", 14), row(2, "Bo", 9), row(2, "Cy", 9))):
        ranking = GameRanking("conquest", "Conquest", rows, (ref,), ())
        data = json.loads(ranking_json(ranking, RankingsConfig()))
        assert data["events"] == ["2026-01-10-one"]
        assert [(r["rank"], r["player"], r["points"]) for r in data["rankings"]] == \
            [(r.rank, r.person.name, r.points) for r in rows]


def test_a_ranking_brought_up_to_date_equals_one_ranked_from_scratch():
    """Watch mode re-ranks only around the totals that moved. After each of many random event
    changes (added, replaced, removed, its date moved past others; ties frequent; now and then a
    person renamed), its rows are those of an index built afresh from the same events: same
    order, ranks, points, JSON (which lists each person's events newest first)."""
    import datetime as dt
    import random
    from types import SimpleNamespace

    from site_builder.config import RankingsConfig
    from site_builder.model import Person, PlayerRef
    from site_builder.rankings import RankingIndex
    from site_builder.rules.base import RankingEntry

    rng = random.Random(5)
    people = {f"p{i:03}": Person(f"p{i:03}", f"Player {i}") for i in range(80)}

    def scored(slug: str, entries: list[tuple[str, int]], moved: int = 0):
        days = int(slug[1:]) + moved  # `moved`: the event's date corrected, past others
        info = SimpleNamespace(game="conquest", date=dt.date(2026, 1, 1) + dt.timedelta(days))
        return SimpleNamespace(
            event=SimpleNamespace(slug=slug, info=info), display_name=slug.upper(), subtitle="",
            ranking_note=None, complete=True,
            ranking=tuple(RankingEntry(PlayerRef(people[pid].name, pid), points, f"{i + 1}th", i + 1)
                          for i, (pid, points) in enumerate(entries)))

    import site_builder.rankings as rankings_module
    swaps = []
    swap = rankings_module._with_swapped
    rankings_module._with_swapped = lambda *a: swaps.append(swap(*a)) or swaps[-1]
    live = RankingIndex(RankingsConfig(), {"conquest": "Conquest"})
    full_rankings = []
    live._rank_all = lambda *a, _all=live._rank_all: (full_rankings.append(1), _all(*a))
    events: dict[str, object] = {}
    for step in range(200):
        slug = f"e{rng.randrange(40)}"
        new = None if slug in events and rng.random() < 0.2 else scored(slug, [
            (pid, rng.choice([0, 1, 3, 5, 8])) for pid in rng.sample(sorted(people), rng.randrange(1, 7))],
            moved=rng.choice([0, 0, 0, 0, 25, -25]))
        touched = live.replace(events.get(slug), new)
        if new is None:
            events.pop(slug, None)
        else:
            events[slug] = new
        # A new display name moves a person among those tied with them.
        _refresh_and_compare(live, touched, events, people, rng,
                             lambda: f"{rng.choice('ABZ')} renamed {step}")
    rankings_module._with_swapped = swap
    assert 0 < len(full_rankings) < 100  # most steps were brought up to date, not ranked again
    # A replaced event's contribution was swapped into place, or sorted when its date moved.
    assert sum(s is not None for s in swaps) >= 5 and None in swaps


def test_corrected_results_swapped_into_standings_equal_standings_made_afresh():
    """A corrected result replaces each player's contribution from that event in place (no
    sort of their events, the total adjusted): after each of many corrections, with people
    renamed and an event's title changed now and then, the rows and JSON equal an index built
    afresh."""
    import datetime as dt
    import random
    from types import SimpleNamespace

    import site_builder.rankings as rankings_module
    from site_builder.config import RankingsConfig
    from site_builder.model import Person, PlayerRef
    from site_builder.rankings import RankingIndex
    from site_builder.rules.base import RankingEntry

    rng = random.Random(11)
    # Twenty events a person: most of them outside the ten a row shows, so a title corrected
    # there changes nothing shown until the event becomes someone's best.
    people = {f"p{i:02}": Person(f"p{i:02}", f"Player {i}") for i in range(20)}
    players = {f"e{n}": rng.sample(sorted(people), 10) for n in range(40)}
    titles = {slug: slug.upper() for slug in players}

    def scored(slug: str, ranking: tuple | None = None):
        order = rng.sample(players[slug], len(players[slug]))
        info = SimpleNamespace(game="conquest", date=dt.date(2026, 1, 1) + dt.timedelta(int(slug[1:])))
        return SimpleNamespace(
            event=SimpleNamespace(slug=slug, info=info), display_name=titles[slug], subtitle="",
            ranking_note=None, complete=True,
            ranking=ranking or tuple(RankingEntry(PlayerRef(people[pid].name, pid),
                                                  rng.choice([0, 2, 5]), f"{i + 1}th", i + 1)
                                     for i, pid in enumerate(order)))

    swaps = []
    swap = rankings_module._with_swapped
    rankings_module._with_swapped = lambda *a: swaps.append(swap(*a)) or swaps[-1]
    try:
        live = RankingIndex(RankingsConfig(), {"conquest": "Conquest"})
        events = {slug: scored(slug) for slug in players}
        for first in events.values():
            live.refresh(live.add(first), people.__getitem__)
        for step in range(300):
            slug = rng.choice(sorted(players))
            if rng.random() < 0.3:  # only its title corrected: shown where it is a best or recent
                titles[slug] = f"{slug.upper()} v{step}"
                new = scored(slug, events[slug].ranking)
            else:
                new = scored(slug)
            touched = live.replace(events[slug], new)
            events[slug] = new
            _refresh_and_compare(live, touched, events, people, rng, lambda: f"Renamed {step}")
    finally:
        rankings_module._with_swapped = swap
    assert sum(s is not None for s in swaps) > 300  # the corrections went through the swap


def _refresh_and_compare(live, touched: set, events: dict, people: dict, rng, renamed_as) -> None:
    """Refresh `live` after a change, now and then renaming someone first (`renamed_as()` gives
    the new name), and check its rows against an index built afresh from `events`: same order,
    ranks, points, shown line and JSON."""
    from site_builder.config import RankingsConfig
    from site_builder.model import Person
    from site_builder.rankings import RankingIndex

    def rows(index: RankingIndex) -> list:
        return [[(r.rank, r.person.id, r.person.name, r.points, r.line, r.json) for r in game.rows]
                for game in index.rankings()]

    if rng.random() < 0.1:
        pid = rng.choice(sorted(people))
        people[pid] = Person(pid, renamed_as())
        touched.add(pid)
    live.refresh(touched, people.__getitem__)
    fresh = RankingIndex(RankingsConfig(), {"conquest": "Conquest"})
    for kept in events.values():
        fresh.refresh(fresh.add(kept), people.__getitem__)
    assert rows(live) == rows(fresh)
