"""Imports point one way (issue 31): from the shared vocabulary up to the command line. Each
package of site_builder/ may import from its own package and from those below it, never from
one above or beside it; a new import that points the wrong way fails here, with the line."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "site_builder"
LAYERS = [{"core"}, {"files"}, {"rules"}, {"league"}, {"pages"}, {"build"},
          {"live", "organizer"}, {"desk"}, {"cli"}, {"__main__", "__init__"}]
"""Lowest first. Packages in one layer (live and organizer) do not import each other; the desk
stands on both (it watches as `watch` does, and forms rounds as `pair` does)."""
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def top_of(path: Path) -> str:
    """The first part of a module's path below site_builder/ (`build`, `cli`…)."""
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def imported(path: Path, node: ast.ImportFrom) -> list[str]:
    """The top-level parts of site_builder that an import names."""
    if node.level == 0:
        name = node.module or ""
        if not name.startswith("site_builder"):
            return []
        parts = name.split(".")[1:]
        return [parts[0]] if parts else [a.name for a in node.names]
    here = list(path.relative_to(PACKAGE).parent.parts)
    base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
    parts = base + (node.module.split(".") if node.module else [])
    if parts:
        return [parts[0]]
    return [alias.name for alias in node.names]  # from . import x, at the top of the package


def wrong_way() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = top_of(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            for there in imported(path, node):
                if there == "__version__" or there == here or there not in RANK:
                    continue
                if RANK[there] >= RANK[here]:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {here} "
                                 f"imports {there}")
    return found


def test_every_package_is_in_a_layer():
    tops = {top_of(path) for path in PACKAGE.rglob("*.py")}
    assert tops <= set(RANK), tops - set(RANK)


def test_imports_point_from_the_vocabulary_up_to_the_command_line():
    assert wrong_way() == []


def test_the_check_sees_an_import_the_wrong_way(tmp_path, monkeypatch):
    """The walk itself: a module of core/ importing the build is caught."""
    fake = tmp_path / "site_builder"
    (fake / "core").mkdir(parents=True)
    (fake / "build").mkdir()
    (fake / "core" / "model.py").write_text("from ..build import engine\n")
    (fake / "build" / "engine.py").write_text("from ..core.model import Event\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    assert wrong_way() == ["site_builder/core/model.py:1: core imports build"]
