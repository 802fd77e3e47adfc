"""`events/<slug>/nrtm.json`: a two-player Swiss event in the NRTM JSON results format, as Cobra
(the Netrunner tournament software) exports it and AlwaysBeRunning imports it: the one exchange
format card-game communities share (docs/data-format.md, "NRTM export").

Drawn from the scored event alone, like every JSON twin. What AlwaysBeRunning reads is always
there: `players` (each with id, name, rank and the two identity keys, null where the event's
players.csv names none), `cutToTop`, `eliminationPlayers`. Ids are 1..N by final Swiss rank,
as NRTM numbers players. A round's `combinedScore` is the points a player earned in it (see
`_seat` for what is left out).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.jsonfile import dump_json
from ..rules.views import ScoredEvent, Standings, as_json_number

SCHEMA = "http://steffens.org/nrtm/nrtm-schema.json"


def has_nrtm(scored: ScoredEvent) -> bool:
    """A two-player Swiss event with standings: its rounds' tables are pairs."""
    swiss = _swiss_standings(scored)
    return swiss is not None and all(
        view.pairings is not None and all(len(t.seats) == 2 for t in view.pairings.tables)
        for view in scored.rounds if not view.in_progress)


def _swiss(view) -> bool:
    return view.standings is not None and view.pairings is not None \
        and view.pairings.stage == "swiss" and not view.in_progress


def _swiss_standings(scored: ScoredEvent) -> Standings | None:
    """The standings after the last Swiss round played."""
    found = None
    for view in scored.rounds:
        if _swiss(view):
            found = view.standings
    return found


def _value(values: dict, key: str) -> Any:
    value = values.get(key, values.get("tiebreaks", {}).get(key))
    return None if value is None else as_json_number(value)


def _points(text: str) -> Fraction | None:
    """A PlayerGame's points as the pages show them ("3", "2½", "1.25")."""
    if not text:
        return None
    whole, half = (text[:-1], Fraction(1, 2)) if text.endswith("½") else (text, Fraction(0))
    try:
        return Fraction(whole or "0") + half
    except ValueError:
        return None


def nrtm_json(scored: ScoredEvent) -> str:
    swiss = _swiss_standings(scored)
    rows = swiss.rows if swiss else ()
    ids = {row.player.name: i for i, row in enumerate(rows, start=1)}
    identity = {r.name: r.identities for r in scored.registrations}
    players = [{"id": ids[row.player.name], "name": row.player.name, "rank": row.rank,
                "corpIdentity": identity.get(row.player.name, ("", ""))[0] or None,
                "runnerIdentity": identity.get(row.player.name, ("", ""))[1] or None,
                "matchPoints": as_json_number(row.values.get("points")),
                "strengthOfSchedule": _value(row.values, "sos"),
                "extendedStrengthOfSchedule": _value(row.values, "esos")} for row in rows]
    final = scored.standings
    cut = swiss.cut_label.removeprefix("Top ").removesuffix(" cut") if swiss and swiss.cut_label \
        else "0"
    elimination = []
    if final is not None and final.phase == "elimination":
        elimination = [{"id": ids.get(row.player.name), "name": row.player.name,
                        "rank": position, "seed": row.values.get("swiss_rank")}
                       for position, row in enumerate(final.rows, start=1)
                       if row.values.get("finish")]
    return dump_json({
        "name": scored.display_name,
        "date": scored.info.date.isoformat(),
        "cutToTop": int(cut) if cut.isdigit() else 0,
        "preliminaryRounds": sum(1 for v in scored.rounds if _swiss(v)),
        "players": players,
        "eliminationPlayers": elimination,
        "rounds": _rounds(scored, ids),
        "uploadedFrom": "site-builder",
        "links": [{"rel": "schemaderivedfrom", "href": SCHEMA}],
    })


def _seat(pid: int | None, points: Fraction | None) -> dict[str, Any]:
    """A Swiss seat: its id and the points earned. Cobra also writes each side's score, which
    only a Netrunner round has (and its schema's required keys cannot be met with nothing to
    put in them): they are left out, as the intentional-draw and two-for-one flags are, which
    no round here sets. AlwaysBeRunning reads none of them."""
    return {"id": pid, "combinedScore": None if points is None else as_json_number(
        points.numerator if points.denominator == 1 else points)}


def _rounds(scored: ScoredEvent, ids: dict[str, int]) -> list[list[dict]]:
    games: dict[tuple[int, str], Any] = {}
    for result in scored.players.values():
        for game in result.games:
            games[(game.round_number, result.player.name)] = game
    found = []
    for view in scored.rounds:
        if view.in_progress or view.pairings is None:
            continue
        elimination = view.pairings.stage == "elimination"
        tables = []
        for table in view.pairings.tables:
            seats = []
            for seat in table.seats:
                game = games.get((view.number, seat.player.name))
                if elimination:
                    seats.append({"id": ids.get(seat.player.name), "role": None,
                                  "winner": game.outcome == "win" if game else None})
                else:
                    seats.append(_seat(ids.get(seat.player.name),
                                       _points(game.points) if game else None))
            tables.append({"table": table.number, "player1": seats[0], "player2": seats[1],
                           "eliminationGame": elimination})
        # A lone player (a bye, a requested bye, an unpaired row) is a table whose other seat
        # has no id, numbered after the round's tables, as Cobra writes a bye.
        alone = [*view.pairings.byes, *(seat.player for seat in view.pairings.others)]
        first = max((t.number for t in view.pairings.tables), default=0) + 1
        for number, player in enumerate(alone, start=first):
            game = games.get((view.number, player.name))
            if elimination:
                bye = {"id": ids.get(player.name), "role": None, "winner": True}
                empty = {"id": None, "role": None, "winner": False}
            else:
                bye = _seat(ids.get(player.name), _points(game.points) if game else None)
                empty = _seat(None, Fraction(0))
            tables.append({"table": number, "player1": bye, "player2": empty,
                           "eliminationGame": elimination})
        found.append(tables)
    return found
