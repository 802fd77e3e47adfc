"""Templates compiled once per machine (build/templatecache.py): a new process reads what the
last one compiled, an edited template is compiled again, and an entry someone else could have
written is never run."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from site_builder.build.templatecache import PrivateBytecodeCache, cache_folder, template_cache


def environment(templates: Path, cache: Path) -> tuple[jinja2.Environment, list[str]]:
    """A new environment (as a new process makes), and the names it compiles."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates),
                             bytecode_cache=PrivateBytecodeCache(str(cache)), autoescape=True)
    compiled: list[str] = []
    compile = env.compile

    def counting(source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return compile(source, name, filename, raw, defer_init)
    env.compile = counting
    return env, compiled


@pytest.fixture
def theme(tmp_path):
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    cache.mkdir(mode=0o700)
    (templates / "page.html").write_text("<p>{{ name }}</p>\n")
    first, compiled = environment(templates, cache)
    assert first.get_template("page.html").render(name="<b>") == "<p>&lt;b&gt;</p>"
    assert compiled == ["page.html"]
    return templates, cache


def test_a_new_process_reads_the_compiled_template(theme):
    env, compiled = environment(*theme)
    assert env.get_template("page.html").render(name="Zoë") == "<p>Zoë</p>"
    assert compiled == []


def test_an_edited_template_is_compiled_again(theme):
    templates, cache = theme
    (templates / "page.html").write_text("<div>{{ name }}</div>\n")
    env, compiled = environment(templates, cache)
    assert env.get_template("page.html").render(name="A") == "<div>A</div>"
    assert compiled == ["page.html"]


def entry(cache: Path) -> Path:
    (found,) = cache.iterdir()
    return found


def test_an_entry_others_can_write_is_never_run(theme):
    templates, cache = theme
    os.chmod(entry(cache), 0o666)
    env, compiled = environment(templates, cache)
    assert env.get_template("page.html").render(name="A") == "<p>A</p>"
    assert compiled == ["page.html"]


def test_a_link_in_place_of_an_entry_is_not_followed(theme, tmp_path):
    templates, cache = theme
    target = entry(cache)
    elsewhere = tmp_path / "elsewhere"
    target.rename(elsewhere)
    target.symlink_to(elsewhere)
    env, compiled = environment(templates, cache)
    assert env.get_template("page.html").render(name="A") == "<p>A</p>"
    assert compiled == ["page.html"]


def test_a_cut_short_entry_is_compiled_again(theme):
    templates, cache = theme
    path = entry(cache)
    path.write_bytes(path.read_bytes()[:40])
    env, compiled = environment(templates, cache)
    assert env.get_template("page.html").render(name="A") == "<p>A</p>"
    assert compiled == ["page.html"]


def test_the_cache_is_the_users_own_folder_and_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert template_cache() is not None
    folder = cache_folder()
    assert folder.is_relative_to(tmp_path / "xdg") and (folder.stat().st_mode & 0o077) == 0
    os.chmod(folder, 0o777)  # a folder others can write: not used
    assert template_cache() is None
    monkeypatch.setenv("SITE_BUILDER_TEMPLATE_CACHE", "off")
    os.chmod(folder, 0o700)
    assert template_cache() is None
