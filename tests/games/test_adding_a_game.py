"""Adding a game, as docs/architecture.md's checklist says, and nothing else (issue 31).

A sixth game, Marbles, is made here by the checklist's steps only: its package (written into a
temporary folder, as rules/marbles/ would be: the ruleset in __init__.py, its forming in
pairing.py), its entry in the one registry (RULESETS), and its template partial (in the site's
own theme). Then `pair` forms and writes its rounds, `check` accepts them, and `build` draws its
event with its standings, its rounds with the partial, and its result slips. The steps with no
code (its docs page, its tests) are for the maintainer.

The rest of this file keeps it so: no module outside rules/ names a game (a second registry or
a game's branch would), no ruleset is looked at with hasattr or getattr, a ruleset missing a
required part cannot be made, and the build loads no pairing code.
"""

from __future__ import annotations

import ast
import csv
import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from site_builder.rules import RULESETS
from site_builder.rules.base import Ruleset

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "site_builder"
TEMPLATES = REPO / "themes" / "default" / "templates"
EV = "data/events/marbles-night"

# ---------------------------------------------------------------- step 1: the game's package

MARBLES = '''
"""Marbles, a made-up game of two-player tables: a win is a point, and so is a bye."""

from dataclasses import dataclass, replace

from site_builder.rules.base import Ruleset, SlipField
from site_builder.rules.views import (Column, PlayerGame, PlayerResult, RoundView, ScoredEvent,
                                      StandingRow, Standings)
from site_builder.files.textfiles import ColumnSpec
from site_builder.rules.pairings import (in_progress_view, pairings_of, round_in_progress,
                                         with_round_in_progress)

RESULTS = ("win", "loss", "bye")


@dataclass(frozen=True)
class Options:
    format: str = "swiss"


@dataclass(frozen=True)
class Row:
    line: int
    table: int | None
    player: str
    result: str
    """A word of RESULTS, or "" while the table plays."""


class Marbles(Ruleset):
    game = "marbles"
    title = "Marbles"

    def read_options(self, keys):
        return Options()

    def columns(self, options):
        return ColumnSpec(("table", "player", "result"))

    def read_rows(self, table, shown, options, log):
        rows = []
        for cells in table.rows:
            result = cells.get("result").lower()
            if result and result not in RESULTS:
                log.error(shown, cells.line, f"result '{result}' is not a Marbles result: "
                                             "expected win, loss or bye")
                continue
            number = cells.get("table")
            rows.append(Row(cells.line, int(number) if number else None, cells.get("player"),
                            result))
        return tuple(rows)

    def validate(self, event, log):
        pass  # a real game checks its tables here; Marbles trusts them

    def everyone_plays(self, event, number):
        return True

    def pending(self, round_):
        return [row for row in round_.rows if not row.result]

    def slip(self, event, round_):
        return (SlipField("Won", tick=True),)

    def form(self, context):
        from . import pairing
        return pairing.form(context)

    def score(self, event):
        current = round_in_progress(event, self.pending)
        if current is None:
            return _scored(event)
        done = _scored(replace(event, rounds=event.rounds[:-1]))
        view = in_progress_view(current, f"Round {current.number}", _pairings(current, event),
                                self.slip(event, current))
        return with_round_in_progress(done, event, view, current.number)


def _pairings(round_, event):
    return pairings_of(round_, event.ref, "Table", Marbles().pending,
                       lambda row, others: (row.result, row.result.title()), "bye")


def _standings(points, event, number):
    order = sorted(points, key=lambda name: (-points[name], name))
    rows = tuple(StandingRow(1 + sum(p > points[name] for p in points.values()), event.ref(name),
                             {"points": points[name]}) for name in order)
    return Standings(f"Standings after round {number}", number, False,
                     (Column("points", "Points", deciding=True),), rows)


def _scored(event):
    points, views, games = {}, [], {}
    for round_ in event.rounds:
        for row in round_.rows:
            points[row.player] = points.get(row.player, 0) + (row.result in ("win", "bye"))
            games.setdefault(row.player, []).append(PlayerGame(
                round_.number, f"Round {round_.number}", str(row.table or ""), (), row.result,
                str(int(row.result in ("win", "bye")))))
        standings = _standings(points, event, round_.number)
        views.append(RoundView(round_.number, f"Round {round_.number}", round_.path,
                               "games/marbles/round.html",
                               tuple((event.ref(r.player), r.result) for r in round_.rows),
                               standings, pairings=_pairings(round_, event)))
    standings = views[-1].standings if views else None
    ranks = {row.player.name: row.rank for row in standings.rows} if standings else {}
    players = {name: PlayerResult(event.ref(name), ranks[name], f"#{ranks[name]}",
                                  str(points[name]), "", tuple(games[name]))
               for name in points}
    return ScoredEvent(event, event.info.name, (), None, False, standings, tuple(views), None,
                       players, status_line="Under way")
'''

PAIRING = '''
"""Marbles' rounds: the players at random in round 1, then in standings order, two by two."""

from site_builder.rules.forming import Formed, Table


def form(context):
    if context.scored.standings is None:
        order = list(context.players)
        context.rng.shuffle(order)
    else:
        ranked = [row.player.name for row in context.scored.standings.rows]
        order = [name for name in ranked if name in context.players]
        order += [name for name in context.players if name not in order]
    tables = [Table(k + 1, tuple(order[2 * k:2 * k + 2])) for k in range(len(order) // 2)]
    if len(order) % 2:
        tables.append(Table(None, (order[-1],), bye=True))
    return Formed(tables, f"Round {context.number}")
'''

# ---------------------------------------------------------------- step 3: its partial

PARTIAL = """\
{#- A Marbles round: each player and their result. -#}
<ul class="marbles-round">
{% for player, result in round.tables %}  <li>{{ player.name }}: {{ result or 'playing' }}</li>
{% endfor %}</ul>
"""


@pytest.fixture
def marbles(tmp_path, monkeypatch):
    """Steps 1 and 2: the package, importable as `marbles`, and its entry in RULESETS."""
    folder = tmp_path / "packages" / "marbles"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(MARBLES).lstrip(), encoding="utf-8")
    (folder / "pairing.py").write_text(textwrap.dedent(PAIRING).lstrip(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder.parent))
    import marbles as package
    monkeypatch.setitem(RULESETS, "marbles", package.Marbles())
    yield package
    for name in [name for name in sys.modules if name.split(".")[0] == "marbles"]:
        del sys.modules[name]


def marbles_site(site):
    """A league with one Marbles event of five registered players, and the game's partial in
    the league's own theme (step 3)."""
    return site.write({
        "site.toml": 'title = "Marbles League"\ntheme = "league"\n',
        "themes/league/templates/games/marbles/round.html": PARTIAL,
        f"{EV}/event.toml": 'name = "Marbles Night"\ndate = 2025-03-01\ngame = "marbles"\n',
        f"{EV}/players.csv": "player\nAnn\nBob\nCy\nDi\nEd\n",
    })


def play(path: Path, winners: set[str]) -> None:
    """Type each result into a round file pair wrote: a win for `winners`, a loss for the
    others at a table, the bye as pair wrote it."""
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    for row in rows:
        if not row["result"]:
            row["result"] = "win" if row["player"] in winners else "loss"
    out = io.StringIO()
    writer = csv.DictWriter(out, ["table", "player", "result"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_a_sixth_game_added_by_the_checklist_pairs_checks_and_builds(marbles, site, pair,
                                                                    run_cli):
    marbles_site(site)
    code, out, err = pair(site, "--seed", "7")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Marbles Night, Round 1:"
    first = rows_of(site.root / EV / "round-1.csv")
    assert [(r["table"], r["result"]) for r in first] == [
        ("1", ""), ("1", ""), ("2", ""), ("2", ""), ("", "bye")]
    assert sorted(r["player"] for r in first) == ["Ann", "Bob", "Cy", "Di", "Ed"]
    assert (site.root / EV / "round-1.csv").read_text().startswith("table,player,result\n")

    winners = {first[0]["player"], first[2]["player"]}
    play(site.root / EV / "round-1.csv", winners)
    checked = run_cli("check", "--source", site.root)
    assert (checked.code, checked.out.splitlines()) == (0, ["Checked 1 event: no problems."])

    assert site.build() == 0
    slug = "events/marbles-night"
    standings = site.json(f"{slug}/standings.json")["standings"]
    leaders = {r["player"] for r in standings if r["points"] == 1}
    assert leaders == winners | {first[4]["player"]}  # the two winners and the bye
    assert all(r["rank"] == 1 for r in standings if r["player"] in leaders)
    page = site.html(f"{slug}/")
    assert "Marbles Night" in page and all(name in page for name in "Ann Bob Cy Di Ed".split())
    round_page = site.html(f"{slug}/round-1/")
    assert '<ul class="marbles-round">' in round_page
    assert f"<li>{first[0]['player']}: win</li>" in round_page

    # Round 2 from the standings, written and shown while it is played, with its slips.
    assert pair(site, "--seed", "7")[0] == 0
    second = rows_of(site.root / EV / "round-2.csv")
    ranked = [r["player"] for r in sorted(standings, key=lambda r: r["rank"])]
    assert [r["player"] for r in second] == ranked
    assert site.build() == 0
    assert site.json(f"{slug}/round-2/pairings.json")["in_progress"] is True
    slips = site.html(f"{slug}/round-2/slips/")
    assert slips.count('<span class="box" aria-hidden="true"></span>Won') == 4


def test_a_game_flag_is_offered_by_pair_and_read_by_its_game(marbles, site, pair, monkeypatch):
    """A game's own flag of `pair` (Ruleset.pair_flags) is on the command line with its help,
    and its `form` finds it in the context, with no change to the command."""
    from site_builder.cli import _parser
    from site_builder.rules.base import PairFlag

    seen = []
    form = marbles.Marbles.form
    monkeypatch.setattr(marbles.Marbles, "pair_flags",
                        (PairFlag("--all-in-one", "seat everyone at one table"),))
    monkeypatch.setattr(marbles.Marbles, "form",
                        lambda self, context: seen.append(context.flags) or form(self, context))
    assert "--all-in-one" in _parser().parse_args(["pair", EV, "--all-in-one"]).flags
    marbles_site(site)
    assert pair(site, "--all-in-one", "--dry-run")[0] == 0
    assert seen == [frozenset({"--all-in-one"})]
    assert not (site.root / EV / "round-1.csv").exists()


def test_a_ruleset_missing_a_required_part_cannot_be_made():
    class Unfinished(Ruleset):
        game = "unfinished"
        title = "Unfinished"

    with pytest.raises(TypeError, match="abstract"):
        Unfinished()


def test_every_registered_game_is_a_ruleset_under_its_own_key_with_its_partials():
    """The registry is the games' one list: each entry a Ruleset under its `game` key, and its
    partials in the default theme under games/<game>/ (checklist step 3)."""
    for key, ruleset in RULESETS.items():
        assert isinstance(ruleset, Ruleset) and ruleset.game == key
        assert any((TEMPLATES / "games" / key).glob("*.html")), key


# ---------------------------------------------------------------- nothing else names a game

GAME = re.compile(r"(?<![a-z])(" + "|".join(RULESETS) + r")(?![a-z])")
ALLOWED = {"organizer/scaffold/event.toml"}
"""The example league `site-builder new` writes is data, not code: its event names its game."""


def words(node: ast.AST) -> list[str]:
    """What a node of code spells: a string, a name, an attribute, a definition, an import."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def games_named(source: str) -> list[tuple[int, str]]:
    """(line, word) for each game key the code spells. Prose is left out: docstrings, the
    strings under attributes that document them, and comments (which ast drops) explain by
    example ("Conquest's top cut") and decide nothing."""
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    return [(getattr(node, "lineno", 0), word) for node in ast.walk(tree) if id(node) not in prose
            for word in words(node) if GAME.search(word.lower())]


def named_outside_rules(package: Path, templates: Path) -> list[str]:
    found = []
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if not path.is_file() or relative.parts[0] in ("rules", "__pycache__") \
                or relative.as_posix() in ALLOWED or path.suffix == ".pyc":
            continue
        text = path.read_text(encoding="utf-8")
        hits = games_named(text) if path.suffix == ".py" else [
            (n, line) for n, line in enumerate(text.splitlines(), 1) if GAME.search(line.lower())]
        found += [f"{relative}:{line}: {word!r}" for line, word in hits]
    for path in sorted(templates.rglob("*.html")):
        relative = path.relative_to(templates)
        if relative.parts[0] != "games":
            found += [f"templates/{relative}:{n}" for n, line in
                      enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                      if GAME.search(line.lower())]
    return found


def test_no_module_outside_rules_names_a_game():
    """What a game is lives in its ruleset: a second registry (`{"conquest": …}`), a branch on
    one game (`if info.game == "spellfire"`), a game's own flag or import outside rules/, or a
    game named in a page template other than its partials, fails here."""
    assert named_outside_rules(PACKAGE, TEMPLATES) == []


def test_the_scan_sees_a_game_named_in_code(tmp_path):
    fake = tmp_path / "site_builder"
    (fake / "organizer").mkdir(parents=True)
    (fake / "rules" / "heresy").mkdir(parents=True)
    (fake / "rules" / "heresy" / "__init__.py").write_text('game = "heresy"\n')
    (fake / "organizer" / "pair.py").write_text(textwrap.dedent('''\
        """Pairs every game (Heresy too): prose, not code."""
        from ..rules.heresy import pairing as heresy_pairing
        FORMERS = {"kingdom": None}
        # a comment naming INWO decides nothing
        if game == "SPELLFIRE":
            pass
        '''))
    assert sorted(named_outside_rules(fake, tmp_path / "templates")) == [
        "organizer/pair.py:2: 'heresy_pairing'", "organizer/pair.py:2: 'rules.heresy'",
        "organizer/pair.py:3: 'kingdom'", "organizer/pair.py:5: 'SPELLFIRE'"]


def test_no_ruleset_or_options_is_looked_at_with_hasattr_or_getattr():
    """A game's optional parts have defaults on Ruleset: nothing looks for them."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("hasattr", "getattr") and node.args
                    and re.search(r"ruleset|options|\brows?\b", ast.unparse(node.args[0]))):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_checking_and_building_load_no_pairing_code(tmp_path):
    """Each game imports its pairing inside Ruleset.form: a build (in a process of its own,
    as the organizer runs it) never loads networkx, rustworkx or any game's forming."""
    from conftest import copy_demo
    source = copy_demo(tmp_path / "site")
    script = ("import sys\nfrom pathlib import Path\nfrom site_builder.build import build\n"
              f"build(Path({str(source)!r}), Path({str(tmp_path / 'out')!r}))\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('networkx', "
              "'rustworkx') or m.endswith('pairing')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=REPO)
    assert done.stdout == "[]\n"
