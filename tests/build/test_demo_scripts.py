"""The demo-data generators still produce exactly the committed data (they import the project's
own scorer, so a change to it must not silently break or alter them)."""

from __future__ import annotations

import filecmp
import importlib.util
import sys

import pytest

from conftest import DEMO_SITE, REPO

SCRIPTS = REPO / "scripts"


def load_script(name: str, monkeypatch):
    """Import a script by path; registered in sys.modules (dataclasses need it) for the test only."""
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def files_under(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("script", ["make_demo_data", "make_heresy_demo", "make_spellfire_demo"])
def test_generator_reproduces_the_committed_demo_data(script, tmp_path, monkeypatch, capsys):
    module = load_script(script, monkeypatch)
    monkeypatch.setattr(module, "EVENTS", tmp_path / "data" / "events")
    if hasattr(module, "DATA"):
        monkeypatch.setattr(module, "DATA", tmp_path / "data")
    module.main()
    capsys.readouterr()
    written = files_under(tmp_path / "data")
    assert written, "the generator wrote nothing"
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "data", DEMO_SITE / "data", written, shallow=False)
    assert mismatch == [] and errors == []
