"""The players index: by family name (the last word of the name as written, suffixes aside),
accents and case ignored, with A–Z jump links; past SPLIT_ABOVE names, a page per letter."""

from __future__ import annotations

import re

from conftest import conquest_event
from site_builder.pages.playersindex import SPLIT_ABOVE, family_name, initial, sort_key


def test_the_family_name_is_the_last_word_suffixes_aside():
    assert family_name("Cleo B. Fujita") == "Fujita"
    assert family_name("Martin Luther King Jr.") == "King"
    assert family_name("Henry Ford III") == "Ford"
    assert family_name("Zed") == "Zed"
    assert initial("Élodie Ørsted") == "O"  # Ø has no decomposition: spelled out
    assert initial("Jan Łukasiewicz") == "L"
    assert initial("Борис Петров") == "#"  # no Latin letters at all
    assert initial("Boris 12") == "#"
    assert sorted(["Mohammed Al-Farsi", "José Álvarez", "Samuel Adeyemi", "ada lovelace"],
                  key=sort_key) == ["Samuel Adeyemi", "Mohammed Al-Farsi", "José Álvarez",
                                    "ada lovelace"]


def names(count: int) -> list[str]:
    """Distinct players whose family names run through the alphabet, plus one outside it."""
    return [f"Player{i} {chr(ord('A') + i % 26)}amily{i:03d}" for i in range(count - 1)] + ["Zoë 42"]


def test_a_large_index_is_split_into_a_page_per_letter(site):
    players = names(SPLIT_ABOVE + 2)  # 302: one over the line, and even
    rows = "".join(f"{i // 2 + 1},{name},{'win' if i % 2 == 0 else 'loss'}\n"
                   for i, name in enumerate(players))
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n" + rows})
    assert site.build() == 0
    index = site.html("players/")
    assert "/players/player0-aamily000/" not in index  # no names on the overview…
    letters = re.findall(r'<a href="/players/_(\w+)/"[^>]*>(.)</a>', index)
    assert letters == [(c.lower(), c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + [("0", "#")]
    listed = []
    for slug, letter in letters:
        page = site.html(f"players/_{slug}/")
        assert f'<a href="/players/_{slug}/" aria-current="page">{letter}</a>' in page
        shown = re.findall(r'<li><a href="/players/([^"]+)/">([^<]+)</a>', page)
        assert all(initial(name) == letter for _, name in shown), (letter, shown[:3])
        listed += [name for _, name in shown]
    assert sorted(listed) == sorted(players)  # everyone once
    a_page = site.html("players/_a/")
    assert re.findall(r'<li><a href="/players/[^"]+/">([^<]+)</a>', a_page)[:2] == [
        "Player0 Aamily000", "Player26 Aamily026"]
    assert "Zoë 42" in site.html("players/_0/")


def test_a_small_index_is_one_page_with_anchors(site):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada Zeller,win\n1,Bram Abbott,loss\n"})
    assert site.build() == 0
    index = site.html("players/")
    assert re.findall(r'<li><a href="/players/[^"]+/">([^<]+)</a>', index) == [
        "Bram Abbott", "Ada Zeller"]
    assert '<a href="/players/#letter-a">A</a>' in index
    assert '<h2 id="letter-z" class="letter">Z <small>1</small></h2>' in index
    assert not (site.out / "players" / "_a").exists()
