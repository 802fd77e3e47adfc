"""Each game of a player's history as a match between decks (`PlayerGame.outcome`): "win",
"loss" or "draw"; empty for what was no match (a bye, an unpaired loss, a missed round, a game
still being played). Every expected value is worked out by hand from the rows in the comments."""

from __future__ import annotations

from conftest import conquest_event, score_files


def outcomes(scored) -> dict[str, list[tuple[int, str]]]:
    """(round, outcome) of every game of every player, by name."""
    return {name: [(g.round_number, g.outcome) for g in result.games]
            for name, result in scored.players.items()}


def scored_event(tmp_path, event_toml: str, header: str, rounds: dict[int, str]):
    scored, problems = score_files(tmp_path / "s", event_toml, header, rounds)
    errors = [p for p in problems if p.is_error]
    assert not errors, errors
    return scored


def event_toml(game: str, **keys: object) -> str:
    lines = ['name = "Outcome test"', "date = 2024-05-18", f'game = "{game}"']
    lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- Conquest

CONQUEST = "table,player,result"


def conquest(tmp_path, rounds: dict[int, str], **keys):
    return scored_event(tmp_path, conquest_event(structure="custom", **keys), CONQUEST, rounds)


def test_conquest_swiss_byes_unpaired_and_missed_rounds_are_no_match(tmp_path):
    """R1: A beats B, C beats D on a modified win (still a win), E has a bye, G is alone at
    table 4 with a loss (an unpaired loss) and drops. R2: A beats C, E beats B, D beats F, who
    missed round 1 (an unpaired loss for it, no opponent)."""
    scored = conquest(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,mw\n2,D,loss\n,E,bye\n4,G,loss\n",
        2: "1,A,win\n1,C,loss\n2,E,win\n2,B,loss\n3,D,win\n3,F,loss\n",
    }, swiss_rounds=2, cut=0)
    assert outcomes(scored) == {
        "A": [(1, "win"), (2, "win")],
        "B": [(1, "loss"), (2, "loss")],
        "C": [(1, "win"), (2, "loss")],
        "D": [(1, "loss"), (2, "win")],
        "E": [(1, ""), (2, "win")],
        "F": [(1, ""), (2, "loss")],
        "G": [(1, "")],
    }


def test_conquest_swiss_then_a_cut_of_four(tmp_path):
    """One Swiss round: A 5 (beat B), C 4 (modified win over D), B 0 (SoS 5), D 0 (SoS 4), so
    the seeds are A, C, B, D. Semi-finals: Game 1 A beats D; Game 2 B beats C on a modified
    win. Final: B beats A."""
    scored = conquest(tmp_path, {
        1: "1,A,win\n1,B,loss\n2,C,mw\n2,D,loss\n",
        2: "1,A,win\n1,D,loss\n2,C,loss\n2,B,mw\n",
        3: "1,A,loss\n1,B,win\n",
    }, swiss_rounds=1, cut=4)
    assert scored.winner.name == "B"
    assert outcomes(scored) == {
        "A": [(1, "win"), (2, "win"), (3, "loss")],
        "B": [(1, "loss"), (2, "win"), (3, "win")],
        "C": [(1, "win"), (2, "loss")],
        "D": [(1, "loss"), (2, "loss")],
    }


def test_conquest_single_elimination_from_round_one(tmp_path):
    """Three players in a bracket of four: A beats B, C has a bye; the final C loses to A's
    modified win."""
    scored = conquest(tmp_path, {
        1: "1,A,win\n1,B,loss\n,C,bye\n",
        2: "1,A,mw\n1,C,loss\n",
    }, swiss_rounds=0)
    assert scored.winner.name == "A"
    assert outcomes(scored) == {
        "A": [(1, "win"), (2, "win")],
        "B": [(1, "loss")],
        "C": [(1, ""), (2, "loss")],
    }


def test_conquest_round_in_progress_has_no_outcomes_yet(tmp_path):
    """Round 2 is being played: tables 1 and 3 wait for results; table 2 (Eve beat Gus) is in,
    but the round is not scored until every table is, so none of its games has an outcome.
    Round 1 keeps its own: Ada, Cleo (modified win), Eve win; Bram, Dan, Finn lose; Gus's bye
    was no match."""
    scored = conquest(tmp_path, {
        1: "1,Ada,win\n1,Bram,loss\n2,Cleo,mw\n2,Dan,loss\n3,Eve,win\n3,Finn,loss\n,Gus,bye\n",
        2: "1,Ada,\n1,Cleo,\n2,Eve,win\n2,Gus,loss\n3,Bram,\n3,Dan,loss\n,Finn,bye\n",
    }, swiss_rounds=3, cut=0)
    assert scored.rounds[-1].in_progress
    assert outcomes(scored) == {
        "Ada": [(1, "win"), (2, "")], "Bram": [(1, "loss"), (2, "")],
        "Cleo": [(1, "win"), (2, "")], "Dan": [(1, "loss"), (2, "")],
        "Eve": [(1, "win"), (2, "")], "Finn": [(1, "loss"), (2, "")],
        "Gus": [(1, ""), (2, "")],
    }


def test_conquest_first_round_in_progress(tmp_path):
    """Round 1 just paired: everyone's only game is being played."""
    scored = conquest(tmp_path, {1: "1,A,\n1,B,\n2,C,\n2,D,\n"}, swiss_rounds=2, cut=0)
    assert outcomes(scored) == {name: [(1, "")] for name in "ABCD"}


# ---------------------------------------------------------------- Kingdom


def test_kingdom_wins_draws_byes_and_an_unpaired_loss(tmp_path):
    """A 12–8 B; C 9–9 D (equal hero houses: a cosmic struggle, a draw); E has a bye; F is
    alone at table 3 (an unpaired loss)."""
    scored = scored_event(tmp_path, event_toml("kingdom"), "table,player,houses,result", {
        1: "1,A,12\n1,B,8\n2,C,9\n2,D,9\n,E,,bye\n3,F,5\n"})
    assert outcomes(scored) == {
        "A": [(1, "win")], "B": [(1, "loss")], "C": [(1, "draw")], "D": [(1, "draw")],
        "E": [(1, "")], "F": [(1, "")]}


# ---------------------------------------------------------------- Heresy

HERESY_TABLES = "table,player,result,tau"
ARMAGEDDON = "table,game,player,result,tau"


def test_heresy_reascension_tables_and_a_table_out_of_time(tmp_path):
    """R1: Ann wins table 1 (Bob, Cat, Dan lose); table 2 runs out of time (Eve, Fay, Gus all
    draw). R2: Fay wins table 1 (Ann, Gus, Cat lose), Eve table 2 (Bob, Dan lose)."""
    scored = scored_event(tmp_path, event_toml("heresy", format="reascension"), HERESY_TABLES, {
        1: "1,Ann,win,\n1,Bob,,5\n1,Cat,,11\n1,Dan,,0\n2,Eve,time,4\n2,Fay,time,12\n2,Gus,time,7\n",
        2: "1,Ann,,3\n1,Fay,win,9\n1,Gus,,8\n1,Cat,,2\n2,Bob,,6\n2,Eve,win,9\n2,Dan,,1\n",
    })
    assert outcomes(scored) == {
        "Ann": [(1, "win"), (2, "loss")], "Bob": [(1, "loss"), (2, "loss")],
        "Cat": [(1, "loss"), (2, "loss")], "Dan": [(1, "loss"), (2, "loss")],
        "Eve": [(1, "draw"), (2, "win")], "Fay": [(1, "draw"), (2, "win")],
        "Gus": [(1, "draw"), (2, "loss")],
    }


def match(table: int, winner: str, loser: str, games: str) -> str:
    """Rows of a best-of-three match `winner` takes 2-0 or 2-1 (the loser takes game 2)."""
    order = [(winner, loser)] * 2 if games == "2-0" else [(winner, loser), (loser, winner),
                                                          (winner, loser)]
    return "".join(f"{table},{n},{w},win,7\n{table},{n},{lo},loss,3\n"
                   for n, (w, lo) in enumerate(order, start=1))


def test_heresy_armageddon_matches_and_byes(tmp_path):
    """R1: A beats B 2-0, C beats D 2-1 (a match won is a win, whatever the games), E has a
    bye. R2: C beats E 2-0, A has a bye."""
    scored = scored_event(tmp_path, event_toml("heresy", format="armageddon",
                                               elimination="single"), ARMAGEDDON, {
        1: match(1, "A", "B", "2-0") + match(2, "C", "D", "2-1") + ",,E,bye,\n",
        2: match(1, "C", "E", "2-0") + ",,A,bye,\n",
    })
    assert outcomes(scored) == {
        "A": [(1, "win"), (2, "")], "B": [(1, "loss")],
        "C": [(1, "win"), (2, "win")], "D": [(1, "loss")],
        "E": [(1, ""), (2, "loss")],
    }


# ---------------------------------------------------------------- SPELLFIRE


def bracket(table: int, players: list[str], game_winners: list[str]) -> str:
    """Rows of a bracket: each game's winner has 6 realms, the others 3 minus their seat."""
    return "".join(f"{table},{game},{p},{6 if p == w else max(3 - seat, 0)},"
                   f"{'win' if p == w else ''}\n"
                   for game, w in enumerate(game_winners, start=1)
                   for seat, p in enumerate(players))


def test_spellfire_bracket_winner_wins_everyone_else_loses(tmp_path):
    """R1: A wins bracket 1 (A, B, A), E bracket 2 (E, E), H bracket 3 (H, G, H); B, C, D, F,
    G (who won a game) and I lose theirs. The final: A wins over E and H."""
    scored = scored_event(tmp_path, event_toml("spellfire"), "table,game,player,realms,result", {
        1: bracket(1, ["A", "B", "C"], ["A", "B", "A"]) + bracket(2, ["D", "E", "F"], ["E", "E"])
           + bracket(3, ["G", "H", "I"], ["H", "G", "H"]),
        2: bracket(1, ["A", "E", "H"], ["A", "E", "H", "A"]),
    })
    assert outcomes(scored) == {
        "A": [(1, "win"), (2, "win")], "E": [(1, "win"), (2, "loss")],
        "H": [(1, "win"), (2, "loss")],
        **{name: [(1, "loss")] for name in "BCDFGI"},
    }


# ---------------------------------------------------------------- INWO

INWO_MULTI = "table,player,result,groups,special_pct,advanced"
INWO_H2H = "table,player,result,groups,special_pct"


def test_inwo_multiplayer_win_shared_victory_and_time(tmp_path):
    """Table 1: Ann wins (Cal, Gus lose). Table 2: Bo and Eve share the victory (both win; Hal
    loses). Table 3 runs out of time: no winner, a draw for Dee, Fin and Ida, whoever goes on
    by Percentage of Goal."""
    scored = scored_event(tmp_path, event_toml("inwo", format="multiplayer"), INWO_MULTI, {1: """
        1,Ann,win,11,,
        1,Cal,,9,,
        1,Gus,,3,,
        2,Bo,shared,10,,
        2,Eve,shared,9,,
        2,Hal,,2,,
        3,Dee,time,8,,
        3,Fin,time,5,,
        3,Ida,time,7,,
        """})
    assert outcomes(scored) == {
        "Ann": [(1, "win")], "Cal": [(1, "loss")], "Gus": [(1, "loss")],
        "Bo": [(1, "win")], "Eve": [(1, "win")], "Hal": [(1, "loss")],
        "Dee": [(1, "draw")], "Fin": [(1, "draw")], "Ida": [(1, "draw")],
    }


def test_inwo_head_to_head_wins_losses_and_a_bye(tmp_path):
    """R1: Ann beats Bo, Cy has a bye. R2 (the final): Cy beats Ann."""
    scored = scored_event(tmp_path, event_toml("inwo", format="head-to-head"), INWO_H2H, {
        1: "1,Ann,win,12,\n1,Bo,loss,9,\n,Cy,bye,,\n",
        2: "1,Ann,loss,8,\n1,Cy,win,12,\n",
    })
    assert outcomes(scored) == {
        "Ann": [(1, "win"), (2, "loss")], "Bo": [(1, "loss")], "Cy": [(1, ""), (2, "win")]}
