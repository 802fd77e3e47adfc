"""One event's way through the build (site_builder/build/pipeline.py): `event_outcome` calls
each stage once, in order; an event with errors stops after its name checks, and `check` after
its facts. And the two publishers have what the pipeline and the engine call them for
(publish.Publisher)."""

from __future__ import annotations

import inspect

import pytest

from conftest import conquest_event
from site_builder.build import pipeline
from site_builder.build.engine import Engine
from site_builder.build.publish import FreshFolder, InPlace, Publisher
from site_builder.core.problems import DataError

EV = "2024-05-18-night"
STAGES = {"load_event": "load", "assign_event_ids": "ids", "score": "score",
          "check_event_names": "name checks", "add_decks": "decks", "event_facts": "facts",
          "event_pages": "plan", "draw_stale": "draw"}
"""The pipeline's stage functions (the ruleset's `score` aside) → the stage they are."""
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"


class Recorded:
    """A ruleset whose `score` says it was called."""

    def __init__(self, ruleset, calls: list[str]):
        self._ruleset, self._calls = ruleset, calls

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def score(self, event):
        self._calls.append("score")
        return self._ruleset.score(event)


@pytest.fixture
def stages(monkeypatch) -> list[str]:
    """The stages the pipeline calls, in order, as it calls them."""
    calls: list[str] = []

    def recorded(function, stage):
        def call(*args, **kwargs):
            calls.append(stage)
            return function(*args, **kwargs)
        return call

    def loaded(function):  # the event's ruleset (event.ruleset) says when it scores
        def load(*args, **kwargs):
            event = function(*args, **kwargs)
            if event is not None:
                event.ruleset = Recorded(event.ruleset, calls)
            return event
        return load

    for name, stage in STAGES.items():
        if name != "score":
            monkeypatch.setattr(pipeline, name, recorded(getattr(pipeline, name), stage))
    monkeypatch.setattr(pipeline, "load_event", loaded(pipeline.load_event))
    return calls


def in_progress_with_decks(site):
    """An event whose every stage has work: round 1 of 3 played, decks registered."""
    return site.event(EV, conquest_event(structure="custom", swiss_rounds=3, cut=0),
                      {1: ROUND_1},
                      **{"players.csv": "player,faction\nAda,Orks\nBram,Tau\nCleo,Orks\n"
                                        "Dan,Eldar\n"})


def test_an_event_goes_through_every_stage_once_in_order(site, stages):
    in_progress_with_decks(site)
    Engine(site.root, site.out, parallel=False).build(save=False)
    assert stages == ["load", "ids", "score", "name checks", "decks", "facts", "plan", "draw"]


def test_check_stops_after_the_facts(site, stages):
    in_progress_with_decks(site)
    Engine(site.root, None, parallel=False).check()
    assert stages == ["load", "ids", "score", "name checks", "decks", "facts"]


def test_an_event_with_errors_is_not_scored_but_its_names_are_checked(site, stages):
    """Its name checks still run, so one run lists the event's every mistake."""
    site.event(EV, conquest_event(structure="custom", swiss_rounds=3, cut=0),
               {1: ROUND_1 + "3,Eve,maybe\n3,Finn,loss\n"})
    with pytest.raises(DataError):
        Engine(site.root, None, parallel=False).check()
    assert stages == ["load", "ids", "name checks"]


def test_both_publishers_have_the_protocols_methods_as_it_declares_them():
    """What the engine and the pipeline call a publisher for, with the same parameters."""
    methods = {name: inspect.signature(member) for name, member in vars(Publisher).items()
               if inspect.isfunction(member) and not name.startswith("_")}
    assert set(methods) == {"write", "delete", "commit", "abandon"}
    for publisher in (FreshFolder, InPlace):
        for name, signature in methods.items():
            assert inspect.signature(getattr(publisher, name)) == signature, (publisher, name)
