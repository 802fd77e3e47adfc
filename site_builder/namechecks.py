"""Organizers' slips in names, as warnings at the line where they are written: a player who first
plays after round 1 (a late arrival, or a typo: "Alce" in round 3 for "Alice"), and a name so
close to another of the event, or of data/players.csv, that it is likely the same person
("Alce", "alice", "Alíce"). `check --strict` makes them errors.

Known people are left alone: a late arrival registered in the event's players.csv, and two close
names both listed in data/players.csv (two people, as the organizer says).
"""

from __future__ import annotations

from .model import Event
from .people import Directory, fold_letters, name_key
from .problems import ProblemLog


def check_names(event: Event, directory: Directory, log: ProblemLog) -> None:
    first_seen = _first_appearances(event)
    registered = {name_key(r.name) for r in event.registrations}
    # a round that lost a row to an error would make its player look late in the next one
    whole = not any(round_.partial for round_ in event.rounds)
    known = directory_index(directory)
    earlier, ids = NameIndex(), set()
    for name, (number, path, line) in first_seen.items():
        person = event.players[name].id if name in event.players else directory.id_for(name)
        if person in ids:  # another spelling of a person already seen: an error says so
            continue
        ids.add(person)
        close = [(other, f"round {first_seen[other][0]}") for other in earlier.close_to(name)]
        if not directory.listed(name):
            close += [(other, "data/players.csv") for other in known.close_to(name)]
        close = [(other, where) for other, where in close
                 if not (directory.listed(name) and directory.listed(other))]
        late = f" first plays in round {number}, and" if number > 1 and whole else ""
        if close:
            other, where = close[0]
            log.warning(path, line, f'"{name}"{late} is very close to "{other}" ({where}): did '
                        f'you mean "{other}"? If they are two people, list both in '
                        "data/players.csv.")
        elif number > 1 and whole and name_key(name) not in registered:
            log.warning(path, line, f"{name} first plays in round {number}, not in the rounds "
                        "before: a late arrival (list them in the event's players.csv to say "
                        "so), or a typo of another player's name?")
        earlier.add(name)


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
            name = getattr(row, "player", None)
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
