"""The demo site's output, compared with the golden copy in tests/golden/demo/.

Any change to any page of the demo shows up here, and in review as a diff of the golden copy.
When a change to the pages is meant, refresh the copy with `make golden` and commit it with the
change, so the reviewer sees what the pages' readers will see.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from conftest import DEMO_SITE, REPO
from site_builder.build import build

GOLDEN = REPO / "tests" / "golden" / "demo"
SHOWN_FILES = 3
SHOWN_LINES = 60


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def differences(expected: dict[str, bytes], actual: dict[str, bytes]) -> str:
    """What differs, as a reviewer reads it: files missing and extra, then unified diffs of the
    first few changed files."""
    lines = [f"missing: {name}" for name in sorted(expected.keys() - actual.keys())]
    lines += [f"extra: {name}" for name in sorted(actual.keys() - expected.keys())]
    changed = [name for name in sorted(expected.keys() & actual.keys())
               if expected[name] != actual[name]]
    lines += [f"changed: {len(changed)} file(s)"] if changed else []
    for name in changed[:SHOWN_FILES]:
        diff = list(difflib.unified_diff(
            expected[name].decode("utf-8", "replace").splitlines(),
            actual[name].decode("utf-8", "replace").splitlines(),
            f"golden/{name}", f"built/{name}", lineterm=""))
        lines += diff[:SHOWN_LINES] + ([f"... {len(diff) - SHOWN_LINES} more lines"]
                                       if len(diff) > SHOWN_LINES else [])
    return "\n".join(lines)


def test_the_demo_site_is_its_golden_copy(tmp_path):
    out = tmp_path / "out"
    build(DEMO_SITE, out, clean=True)
    expected, actual = tree(GOLDEN), tree(out)
    assert len(expected) > 200, "no golden copy: run `make golden`"
    problems = differences(expected, actual)
    assert not problems, ("the demo's pages differ from tests/golden/demo/ (if the change is "
                          "meant, run `make golden` and commit the copy):\n" + problems)


def test_a_changed_page_is_shown_as_a_diff(tmp_path):
    """The failure message names the file and shows the changed line."""
    expected = {"a/index.html": b"<p>Ada 5</p>\n<p>Bram 3</p>\n", "gone.html": b"x"}
    actual = {"a/index.html": b"<p>Ada 5</p>\n<p>Bram 4</p>\n", "new.html": b"y"}
    shown = differences(expected, actual)
    assert "missing: gone.html" in shown and "extra: new.html" in shown
    assert "-<p>Bram 3</p>" in shown and "+<p>Bram 4</p>" in shown
    assert "changed: 1 file(s)" in shown
