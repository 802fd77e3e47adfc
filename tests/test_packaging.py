"""The tool as a release (issue 34, point 1): an sdist and a wheel built as a release would be,
with the metadata an index shows (what `twine check` looks at), the theme and the new-league
scaffold inside the wheel, and the wheel installed into a clean virtual environment where
`site-builder new`, `build` and `pair` work from it, not from this checkout.

Offline: the wheel is built with the project's own backend (`--no-isolation`), installed without
its dependencies, and the clean environment reads those from the test environment's
site-packages (a plain path in a .pth file: the editable install of this checkout there is not
activated, so `import site_builder` can only find the installed wheel)."""

from __future__ import annotations

import email.parser
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from site_builder import __version__

pytestmark = pytest.mark.slow  # builds a release and a virtual environment (about 30 s)

REPO = Path(__file__).resolve().parents[1]
WHEEL = f"site_builder-{__version__}-py3-none-any.whl"
SDIST = f"site_builder-{__version__}.tar.gz"


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                           str(REPO)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([WHEEL, SDIST])
    return out


def test_the_wheel_carries_the_theme_and_the_scaffold_and_index_metadata(release):
    with zipfile.ZipFile(release / WHEEL) as wheel:
        names = set(wheel.namelist())
        meta = email.parser.Parser().parsestr(
            wheel.read(f"site_builder-{__version__}.dist-info/METADATA").decode("utf-8"))
        entry_points = wheel.read(f"site_builder-{__version__}.dist-info/entry_points.txt")
    for name in ("templates/base.html", "templates/event.html", "static/style.css",
                 "static/nav.js", "static/filter.js", "static/search.js"):
        assert f"site_builder/_theme/{name}" in names, name
    scaffold = {"README.md", "event.toml", "pages.yml", "players.csv", "round-1.csv",
                "round-2.csv", "site.toml", "gitignore"}
    assert {f"site_builder/organizer/scaffold/{n}" for n in scaffold} <= names
    assert not any(n.startswith(("tests/", "bench/", "docs/")) for n in names)
    # what an index shows and twine checks: name, version, summary, licence, Python, README
    assert (meta["Name"], meta["Version"], meta["Requires-Python"]) == (
        "site-builder", __version__, ">=3.11")
    assert meta["License-Expression"] == "MIT" and meta["Summary"].startswith("Publish")
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# site-builder")
    assert "Programming Language :: Python :: 3.11" in meta.get_all("Classifier")
    assert any(r.startswith("jinja2") for r in meta.get_all("Requires-Dist"))
    assert b"site-builder = site_builder.cli:main" in entry_points


def test_the_sdist_is_the_source_without_what_the_machine_made(release):
    with tarfile.open(release / SDIST) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"pyproject.toml", "README.md", "themes/default/templates/base.html",
            "site_builder/cli.py"} <= names
    assert not any(n.startswith((".hypothesis", "bench/archive", ".venv", "_site")) for n in names)


def test_a_clean_environment_runs_new_build_and_pair_from_the_wheel(release, tmp_path):
    env_dir = tmp_path / "clean"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", str(release / WHEEL)], check=True, timeout=300)
    site_packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies, from the test environment, without activating its editable install
    (Path(site_packages) / "dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    environ = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    tool = str(env_dir / "bin" / "site-builder")

    def run(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess:
        return subprocess.run([tool, *args], cwd=cwd, env=environ, capture_output=True,
                              text=True, timeout=300)

    where = subprocess.run([str(python), "-c", "import site_builder; print(site_builder.__file__)"],
                           capture_output=True, text=True, env=environ, cwd=tmp_path).stdout
    assert where.startswith(str(env_dir)), where  # the wheel, not this checkout
    made = run("new", "league", "--title", "Wheel League")
    assert made.returncode == 0, made.stderr
    # installed from a file here, which no CI runner can reach: `new` says so
    assert "Check it: this copy of site-builder came from" in made.stdout
    league = tmp_path / "league"
    built = run("build", "--source", str(league), "--out", str(league / "_site"))
    assert built.returncode == 0, built.stderr
    assert "<h1>Wheel League</h1>" in (league / "_site/index.html").read_text(encoding="utf-8")
    assert (league / "_site/static/nav.js").is_file()  # the theme from inside the wheel
    event = league / "data/events/2026-12-05-club-night"
    event.mkdir()
    (event / "event.toml").write_text('name = "Club Night"\ndate = 2026-12-05\n'
                                      'game = "conquest"\nstructure = "basic"\n', encoding="utf-8")
    (event / "players.csv").write_text("player\nAnn\nBo\nCy\nDee\n", encoding="utf-8")
    paired = run("pair", "data/events/2026-12-05-club-night", cwd=league)
    assert paired.returncode == 0, paired.stderr
    assert "Structure: Basic — 4 registered players: 3 Swiss rounds, no cut" in paired.stdout
    assert (event / "round-1.csv").read_text(encoding="utf-8").startswith("table,player,result")
