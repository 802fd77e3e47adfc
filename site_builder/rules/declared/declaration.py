"""A game declared in a file (data/games/<id>.toml): read, checked, and turned into the plain
`Declaration` (model.py) the declared ruleset scores with.

Every problem is a `path:line` message and reading goes on, so one run lists all of a file's
mistakes (docs/games/declared.md is the reference this follows).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ...core.problems import ProblemLog
from ...files.textfiles import TomlDoc
from .lines import KeyLines
from .model import CUTS, Declaration, ResultWord, Stage, TiebreakChoice
from .values import _exact, _shown, shown
from .vocabulary import (ABSENT, BYE, FORFEIT_LOSS, FORFEIT_WIN, OUTCOMES, TIEBREAKS,
                         UNPLAYED)

GAME_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
TOP_KEYS = ("name", "results", "unplayed", "missed_rounds", "points_column", "most_points",
            "game_records", "bye_games", "tiebreaks", "swiss_rounds", "cut", "structure",
            "round_minutes")
MISSED = ("absent", "unpaired-loss")
"""What a round a player has no row in is: absent, no round played (Cobra, the MTR, Play!
Pokémon, FIDE), or an unpaired loss, a round played and lost (Conquest's seed: rejoining players
"are assigned unpaired losses for each round they did not attend")."""
MOST_POINTS = 1000
"""No game gives a player more points for one round: a larger number is a slip."""


class DeclarationReader:
    """Reads one declaration's document; `read()` is None when it has errors (all logged)."""

    def __init__(self, game: str, doc: TomlDoc, log: ProblemLog):
        self.game, self.doc, self.log = game, doc, log
        self.lines = KeyLines(doc.text)
        self.errors = 0

    def error(self, table: tuple, key: str | None, message: str) -> None:
        self.errors += 1
        self.log.error(self.doc.shown, self.lines.line(table, key), message)

    def read(self) -> Declaration | None:
        data = self.doc.data
        for key in data:
            if key not in TOP_KEYS:
                self.log.warning(self.doc.shown, self.lines.line((), key),
                                 f"unknown key '{key}' is ignored (a typo?): a game declaration "
                                 f"takes {', '.join(TOP_KEYS)}")
        name = self._name(data.get("name"))
        results = self._results(data.get("results"))
        unplayed = self._unplayed(data.get("unplayed"), results)
        points_column = self._flag("points_column", False)
        most = self._number(data.get("most_points"), (), "most_points") \
            if "most_points" in data else None
        if points_column and most is None:
            most = max((r.points for r in results), default=Fraction(0)) * 2
        game_records = self._flag("game_records", False)
        bye_games = self._whole(data.get("bye_games", 2 if game_records else 0), (), "bye_games",
                                0, 9)
        tiebreaks = self._tiebreaks(data.get("tiebreaks", []))
        structure = self._structure(data)
        minutes = (self._whole(data["round_minutes"], (), "round_minutes", 1, 24 * 60)
                   if "round_minutes" in data else None)
        missed = data.get("missed_rounds", "absent")
        if missed not in MISSED:
            self.error((), "missed_rounds", f"missed_rounds = {shown(missed)} is not one of "
                                            f"{', '.join(repr(m) for m in MISSED)}")
        if self.errors:
            return None
        return Declaration(self.game, name, self.doc.shown, results, unplayed, points_column,
                           most or Fraction(0), game_records, bye_games or 0, tiebreaks,
                           structure, minutes, missed)

    # ------------------------------------------------------------ plain values

    def _name(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            self.error((), "name", 'the game needs a name: expected e.g. name = "Magic: The '
                                   'Gathering"')
            return ""
        return " ".join(value.split())

    def _flag(self, key: str, default: bool) -> bool:
        value = self.doc.data.get(key, default)
        if not isinstance(value, bool):
            self.error((), key, f"{key} = {shown(value)} is not true or false: expected e.g. "
                                f"{key} = true (no quotes)")
            return default
        return value

    def _whole(self, value: Any, table: tuple, key: str, least: int, most: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            self.error(table, key, f"{key} = {shown(value)} is not a whole number from {least} to "
                                   f"{most}")
            return None
        return value

    def _number(self, value: Any, table: tuple, key: str,
                most: Fraction = Fraction(MOST_POINTS)) -> Fraction | None:
        """A number of points: 3, 0.5 or "1/2" (text, for a fraction a decimal cannot write)."""
        number = _exact(value)
        if number is None or number < 0 or number > most:
            self.error(table, key, f"{key} = {shown(value)} is not a number of points: expected a "
                                   f"number from 0 to {most}, e.g. 3, 0.5 or \"1/2\"")
            return None
        return number

    # ------------------------------------------------------------ [results]

    def _results(self, value: Any) -> tuple[ResultWord, ...]:
        if not isinstance(value, dict) or not value:
            self.error(("results",), None,
                       "the game needs its result words and their points: expected a [results] "
                       "table, e.g. win = 3, draw = 1, loss = 0 under it")
            return ()
        words, seen = [], {}
        for word, given in value.items():
            result = self._result(word, given)
            if result is None:
                continue
            for spelling in (result.word, *result.spellings):
                taken = spelling in UNPLAYED or spelling.replace(" ", "-") in UNPLAYED
                if spelling in seen or taken:
                    other = seen.get(spelling, "the unplayed rounds")
                    self.error(("results",), word, f"'{spelling}' is a spelling of {other} "
                                                   "already: each spelling means one result")
                seen[spelling] = result.word
            words.append(result)
        self._check_order(words)
        return tuple(words)

    def _result(self, word: str, given: Any) -> ResultWord | None:
        table = ("results",)
        clean = " ".join(word.lower().split())
        if clean != word or not clean or "," in clean:
            self.error(table, word, f"result word '{word}' must be written in lowercase, without "
                                    "commas or extra spaces, as round files write it")
            return None
        if isinstance(given, dict):
            outcome = given.get("outcome", word if word in OUTCOMES else None)
            points = self._number(given.get("points"), (*table, word), "points")
            spellings = given.get("spellings", [])
            extra = set(given) - {"points", "outcome", "spellings"}
            if extra:
                self.error((*table, word), sorted(extra)[0],
                           f"{word} = {{ {', '.join(sorted(extra))} … }} is not known: a result "
                           "takes points, outcome and spellings")
        else:
            outcome = word if word in OUTCOMES else None
            points, spellings = self._number(given, table, word), []
        if outcome not in OUTCOMES:
            self.error(table, word, f"'{word}' does not say what it is as a match: write "
                                    f'{word} = {{ points = …, outcome = "win" }} (outcome: win, '
                                    "draw or loss)")
            return None
        if not isinstance(spellings, list) or not all(isinstance(s, str) and s.strip()
                                                      for s in spellings):
            self.error((*table, word), "spellings", f"the spellings of '{word}' are not a list "
                                                    'of words: expected e.g. spellings = ["w"]')
            spellings = []
        if points is None:
            return None
        return ResultWord(word, points, outcome,
                          tuple(" ".join(s.lower().split()) for s in spellings))

    def _check_order(self, words: list[ResultWord]) -> None:
        """A draw is worth no more than a win, a loss no more than either: else the standings
        would reward losing (a slip in the file, never a game's rule)."""
        by_outcome = {outcome: [w for w in words if w.outcome == outcome] for outcome in OUTCOMES}
        if words and (not by_outcome["win"] or not by_outcome["loss"]):
            missing = "win" if not by_outcome["win"] else "loss"
            self.error(("results",), None, f"no result word is a {missing}: a two-player game "
                                           f"needs one (e.g. {missing} = "
                                           f"{3 if missing == 'win' else 0})")
            return
        for lower, higher in (("draw", "win"), ("loss", "draw"), ("loss", "win")):
            for low in by_outcome[lower]:
                for high in by_outcome[higher]:
                    if low.points > high.points:
                        self.error(("results",), low.word,
                                   f"{low.word} ({_shown(low.points)} points) is worth more than "
                                   f"{high.word} ({_shown(high.points)}): a {lower} is worth at "
                                   f"most a {higher}")
                        return

    # ------------------------------------------------------------ [unplayed]

    def _unplayed(self, value: Any, results: tuple[ResultWord, ...]
                  ) -> tuple[tuple[str, Fraction], ...]:
        win = max((r.points for r in results if r.outcome == "win"), default=Fraction(0))
        if value is None:
            value = {}
        if not isinstance(value, dict):
            self.error(("unplayed",), None, "unplayed is not a table: expected an [unplayed] "
                                            "table, e.g. bye = 3 under it")
            return ((BYE, win), (ABSENT, Fraction(0)))
        chosen: dict[str, Fraction] = {}
        for word, given in value.items():
            if word not in UNPLAYED:
                self.error(("unplayed",), word, f"'{word}' is not a kind of unplayed round: "
                                                f"expected {', '.join(UNPLAYED)}")
                continue
            points = self._number(given, ("unplayed",), word, most=max(win, Fraction(0)) or
                                  Fraction(MOST_POINTS))
            if points is not None:
                chosen[word] = points
        chosen.setdefault(BYE, win)
        chosen.setdefault(ABSENT, Fraction(0))
        if (FORFEIT_WIN in chosen) != (FORFEIT_LOSS in chosen):
            have, need = ((FORFEIT_WIN, FORFEIT_LOSS) if FORFEIT_WIN in chosen
                          else (FORFEIT_LOSS, FORFEIT_WIN))
            self.error(("unplayed",), have, f"{have} needs {need} too: a forfeit is written on "
                                            "both rows of the table")
        return tuple((word, chosen[word]) for word in UNPLAYED if word in chosen)

    # ------------------------------------------------------------ tiebreaks

    def _tiebreaks(self, value: Any) -> tuple[TiebreakChoice, ...]:
        if not isinstance(value, list):
            self.error((), "tiebreaks", f"tiebreaks = {shown(value)} is not a list: expected e.g. "
                                        'tiebreaks = ["mtg-omw", "mtg-gw", "mtg-ogw"]')
            return ()
        chosen, names = [], set()
        for item in value:
            choice = self._tiebreak(item)
            if choice is None:
                continue
            if choice.name in names:
                self.error((), "tiebreaks", f"{choice.name} is in tiebreaks twice: a second time "
                                            "could never break a tie")
                continue
            names.add(choice.name)
            chosen.append(choice)
        return tuple(chosen)

    def _tiebreak(self, item: Any) -> TiebreakChoice | None:
        given = {}
        if isinstance(item, dict):
            given = {k: v for k, v in item.items() if k != "name"}
            item = item.get("name")
        if not isinstance(item, str) or item not in TIEBREAKS:
            self.error((), "tiebreaks", f"{shown(item)} is not a tiebreak site-builder knows: "
                                        f"expected one of {', '.join(TIEBREAKS)} "
                                        "(docs/games/declared.md#tiebreaks)")
            return None
        known = TIEBREAKS[item]
        parameters = []
        allowed = {p.name: p for p in known.parameters}
        for key in given:
            if key not in allowed:
                takes = (f"it takes {', '.join(allowed)}" if allowed else "it takes none")
                self.error((), "tiebreaks", f"{item} has no parameter '{key}': {takes}")
        for parameter in known.parameters:
            if parameter.name not in given:
                parameters.append((parameter.name, parameter.default))
                continue
            share = _exact(given[parameter.name])
            if share is None or not 0 <= share <= 1:
                written = shown(given[parameter.name])
                self.error((), "tiebreaks", f"{item}'s {parameter.name} = {written} "
                                            "is not a share from 0 to 1: expected e.g. 0.33 or "
                                            '"1/3"')
                continue
            parameters.append((parameter.name, share))
        return TiebreakChoice(item, tuple(parameters))

    # ------------------------------------------------------------ rounds and cut

    def _structure(self, data: dict) -> tuple[Stage, ...]:
        rows = data.get("structure")
        if rows is not None:
            for key in ("swiss_rounds", "cut"):
                if key in data:
                    self.error((), key, f"{key} is given both on its own and in [[structure]]: "
                                        "keep one")
            return self._stages(rows)
        rounds = None
        if "swiss_rounds" not in data:
            self.error((), "swiss_rounds", "the game needs its number of Swiss rounds: expected "
                                           "e.g. swiss_rounds = 5, or a [[structure]] table by "
                                           "player count (an event may set its own)")
        else:
            rounds = self._whole(data["swiss_rounds"], (), "swiss_rounds", 1, 99)
        cut = self._cut(data.get("cut", 0), ())
        return (Stage(None, rounds or 1, cut),)

    def _cut(self, value: Any, table: tuple) -> int:
        if type(value) is not int or value not in CUTS:  # 8.0 == 8, but is no bracket size
            self.error(table, "cut", f"cut = {shown(value)} is not a cut size: expected one of "
                                     f"{', '.join(map(str, CUTS))} (0: no cut)")
            return 0
        return value

    def _stages(self, rows: Any) -> tuple[Stage, ...]:
        if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
            self.error(("structure",), None, "structure is not a list of [[structure]] tables, "
                                             "each with up_to, swiss_rounds and cut")
            return ()
        stages, last = [], 0
        for index, row in enumerate(rows):
            table = ("structure", index)
            up_to = row.get("up_to")
            final = index == len(rows) - 1
            if up_to is None and not final:
                self.error(table, None, "only the last [[structure]] may leave out up_to (it "
                                        "covers every larger event)")
            elif up_to is not None:
                up_to = self._whole(up_to, table, "up_to", 2, 100_000)
                if up_to is not None and up_to <= last:
                    self.error(table, "up_to", f"up_to = {up_to} is not above the row before "
                                               f"({last}): rows go from small events to large")
                last = up_to or last
            rounds = self._whole(row.get("swiss_rounds"), table, "swiss_rounds", 1, 99)
            cut = self._cut(row.get("cut", 0), table)
            for key in set(row) - {"up_to", "swiss_rounds", "cut"}:
                self.error(table, key, f"'{key}' is not a key of [[structure]]: it takes up_to, "
                                       "swiss_rounds and cut")
            stages.append(Stage(up_to, rounds or 1, cut))
        return tuple(stages)
