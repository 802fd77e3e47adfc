"""Organizers' slips in names, as warnings at the line where they are written: a player who first
plays after round 1 (a late arrival, or a typo: "Alce" in round 3 for "Alice"), and a name so
close to another of the event, or of data/players.csv, that it is likely the same person
("Alce", "alice", "Alíce"); and a player who stops appearing in a round everyone plays without
drops.csv saying they left (a forgotten row?). `check --strict` makes them errors.

Known people are left alone: a late arrival registered in the event's players.csv, two close
names both listed in data/players.csv (two people, as the organizer says), and a player listed in
the event's drops.csv.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .drops import DROPS_FILE, csv_cell
from ..core.model import Event
from .people import Directory, fold_letters, name_key
from ..core.problems import ProblemLog

if TYPE_CHECKING:
    from ..rules.base import Ruleset


def check_event_names(event: Event, directory: Directory, ruleset: Ruleset, log: ProblemLog,
                      in_progress: bool) -> None:
    """Every check of the event's names, once its people have ids: slips in names, then, for
    an event in progress (scoring says whether it is), players missing from a round."""
    check_names(event, directory, log)
    if in_progress:
        check_absences(event, directory, ruleset, log)
    elif event.rounds and event.info.status != "final":
        # All planned rounds in: a row forgotten in the last one would drop its player and end
        # the event in silence. Its round alone is asked about (the rounds before were asked
        # while it was played), and not once the organizer says status = "final".
        check_absences(event, directory, ruleset, log, only_round=event.rounds[-1].number)


def check_names(event: Event, directory: Directory, log: ProblemLog,
                close_is_error: bool = False) -> None:
    """Warn of late arrivals and of names close to another's. With `close_is_error` (pair,
    which would otherwise seat a typo as a new player) a close name is an error."""
    first_seen = _first_appearances(event)
    registered = {name_key(r.name) for r in event.registrations}
    # a round that lost a row to an error would make its player look late in the next one
    whole = not any(round_.partial for round_ in event.rounds)
    earlier, ids = NameIndex(), set()
    for name, (number, path, line) in first_seen.items():
        person = event.players[name].id if name in event.players else directory.id_for(name)
        if person in ids:  # another spelling of a person already seen: an error says so
            continue
        ids.add(person)
        close = likely_slips(name, [(other, f"round {first_seen[other][0]}")
                                    for other in earlier.close_to(name)], directory)
        late = f" first plays in round {number}, and" if number > 1 and whole else ""
        if close:
            other, where = close[0]
            say = log.error if close_is_error else log.warning
            say(path, line, f'"{name}"{late} is very close to "{other}" ({where}): did you mean '
                            f'"{other}"? If they are two people, list both in data/players.csv.')
        elif number > 1 and whole and name_key(name) not in registered:
            log.warning(path, line, f"{name} first plays in round {number}, not in the rounds "
                        "before: a late arrival (list them in the event's players.csv to say "
                        "so), or a typo of another player's name?")
        earlier.add(name)


def likely_slips(name: str, close_in_event: list[tuple[str, str]],
                 directory: Directory) -> list[tuple[str, str]]:
    """The names `name` is likely a slip for, each with where it is written: `close_in_event`
    (the event's names close to it, with where), then data/players.csv's unless `name` is
    listed there itself; none that data/players.csv lists beside `name` as two people."""
    close = list(close_in_event)
    if not directory.listed(name):
        close += [(other, "data/players.csv") for other in directory_index(directory).close_to(name)]
    return [(other, where) for other, where in close
            if not (directory.listed(name) and directory.listed(other))]


def check_absences(event: Event, directory: Directory, ruleset: Ruleset,
                   log: ProblemLog, only_round: int | None = None) -> None:
    """A player who plays round N-1 and is in no later round, where round N is one everyone
    still in the event plays (ruleset.everyone_plays): scored as dropped, which is right only
    if they left. Warned once, at round N's file, unless the event's drops.csv lists them
    (drops.read_drops checks its rounds against the rounds played).

    Left alone:
    * a player who comes back in a later round. They did not drop, and the contract scores
      the rounds they missed (Conquest: an unpaired loss each) and the page says so; drops.csv
      cannot say "missed a round", so a warning here could never be silenced.
    * a missing name that a new name of round N is likely a slip for ("Alce" for "Alice"):
      check_names has asked "did you mean" at that row, the one place to fix.
    * rounds only some play (elimination, advancers): who is missing is who lost.
    * an event that is over (check_event_names runs this only while it is in progress): on the
      day the warning catches a forgotten row while it can still be entered; once the event is
      final, a player who stopped appearing is a drop, as the data contract reads it, and years
      of archives kept before drops.csv existed must not light up with warnings."""
    if not event.rounds or any(round_.partial for round_ in event.rounds):
        return  # a round that lost a row to an error would make its player look gone
    last_round: dict[str, int] = {}
    for round_ in event.rounds:
        for row in round_.rows:
            last_round[row.player] = round_.number
    by_number = {round_.number: round_ for round_ in event.rounds}
    seen: set[str] = set()
    for round_ in event.rounds:
        new = {row.player for row in round_.rows} - seen
        seen |= new
        previous = by_number.get(round_.number - 1)
        if previous is None or not ruleset.everyone_plays(event, round_.number):
            continue
        if only_round is not None and round_.number != only_round:
            continue
        gone = dict.fromkeys(row.player for row in previous.rows
                             if last_round[row.player] == previous.number
                             and row.player not in event.drops)
        for name in gone:
            if _written_anew(name, new, directory):
                continue
            later = " or any later round" if round_.number < event.rounds[-1].number else ""
            log.warning(round_.path, 1,
                        f"{name} played round {previous.number} but has no row in round "
                        f"{round_.number}{later}, and {DROPS_FILE} does not say they dropped: "
                        "add their row if they played, or record the drop (a line "
                        f'"{csv_cell(name)},{previous.number}" in the event\'s {DROPS_FILE}; '
                        "site-builder pair --drop does this)" + (
                            '; for an event long over, status = "final" in its event.toml '
                            "says so" if only_round is not None else ""))


def _written_anew(name: str, new: set[str], directory: Directory) -> bool:
    """Whether a name first written in this round is likely `name` written otherwise."""
    person = directory.id_for(name)
    return any(directory.id_for(other) == person or _same_person_likely(name, other)
               for other in new)


class NameIndex:
    """Names by their folded form and every form with one letter left out: two names one typo
    apart share one of these keys, so a name is compared only with the few that might be."""

    def __init__(self, names=()):
        self.keys: dict[str, list[str]] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        for key in _keys(_folded(name)):
            self.keys.setdefault(key, []).append(name)

    def close_to(self, name: str) -> list[str]:
        folded = _folded(name)
        found = {other for key in _keys(folded) for other in self.keys.get(key, ())}
        return sorted(other for other in found if _same_person_likely(name, other))


def directory_index(directory: Directory) -> NameIndex:
    """The index of data/players.csv's names, made once per directory."""
    if directory.name_index is None:
        directory.name_index = NameIndex(sorted(set(directory.names.values())))
    return directory.name_index


def _keys(folded: str) -> set[str]:
    return {folded} | {folded[:i] + folded[i + 1:] for i in range(len(folded))}


def _first_appearances(event: Event) -> dict[str, tuple[int, str, int]]:
    """Each name of the rounds → (the round it first plays, that file, the line)."""
    seen: dict[str, tuple[int, str, int]] = {}
    for round_ in event.rounds:
        for row in round_.rows:
            name = row.player
            if name and name not in seen:
                seen[name] = (round_.number, round_.path, row.line)
    return seen


def _same_person_likely(a: str, b: str) -> bool:
    """Equal but for case, accents or spacing; or one typo apart (a letter added, left out or
    changed, or two letters swapped) in a word of four letters or more: "Alce" for "Alice",
    but "Ann Li" and "Anh Li" are often two people."""
    if a == b:
        return False
    folded_a, folded_b = _folded(a), _folded(b)
    if folded_a == folded_b:
        return True
    words_a, words_b = folded_a.split(), folded_b.split()
    if len(words_a) != len(words_b):  # a space added or left out ("Maryann", "Mary Ann")
        return min(len(folded_a), len(folded_b)) >= 5 and _one_typo_apart(folded_a, folded_b)
    differ = [(x, y) for x, y in zip(words_a, words_b) if x != y]
    return (len(differ) == 1 and max(map(len, differ[0])) >= 4
            and _one_typo_apart(*differ[0]))


def _folded(name: str) -> str:
    return " ".join(fold_letters(name).casefold().split())


def _one_typo_apart(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    return (a[i + 1:] == b[i + 1:]  # one letter changed
            or (a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1]))  # two swapped
