"""What a build may read (issue 18, points 6 and 9, and names from point 4 and 8): a link leading
out of the site is skipped with a warning, as in Jekyll's safe mode, so a committed link cannot
publish the files of whoever builds; pipes and devices are skipped unread; names that are not
UTF-8 or not URL-safe are reported; no single input may be large enough to exhaust memory."""

from __future__ import annotations

import os
import shutil
import threading
import unicodedata

import pytest

from conftest import conquest_event, read_page

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"
SECRET = "runner-secret-7f3a9"


@pytest.fixture
def site_with_secret(site, tmp_path):
    """A site, and a file outside it that must never be published."""
    site.write({f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
                f"{EV}/round-1.csv": ROUND_1})
    secret = tmp_path / "secret.txt"
    secret.write_text(f"table,player,result\n1,{SECRET},win\n")
    site.secret = secret
    return site


def published(site) -> str:
    return "\n".join(p.read_text(errors="replace") for p in site.out.rglob("*") if p.is_file())


@pytest.mark.parametrize("link", ["themes/default/static/leak.txt", "content/leak.md",
                                  f"{EV}/round-2.csv", f"{EV}/players.csv",
                                  "themes/default/templates/404.html"])
def test_a_link_out_of_the_site_is_skipped_with_a_warning(site_with_secret, run_cli, link):
    site = site_with_secret
    (site.root / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(site.secret, site.root / link)
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0, result.err
    assert (f"{link}: warning: is a link to {site.secret}, outside the site's folder: skipped"
            in result.err)
    assert SECRET not in result.err  # not even echoed in a message
    assert SECRET not in published(site)
    assert "<h1>Page not found</h1>" in (site.out / "404.html").read_text()  # the built-in one


@pytest.mark.parametrize("link,hidden", [
    *((link, hidden) for link in ("themes/default/static/leak.txt", "content/leak.md",
                                  f"{EV}/round-2.csv", "themes/default/templates/404.html")
      for hidden in (".env", ".git/config")),
    ("content/git", ".git/config"),  # a link to the hidden folder itself
])
def test_a_link_to_a_hidden_file_of_the_site_is_skipped(site_with_secret, run_cli, link, hidden):
    """A committed link to .env or .git/config (a token in a remote's URL) is inside the site,
    but the build lists no hidden file, so it must not read one through a link either (issue 30's
    red team)."""
    site = site_with_secret
    target = site.root / hidden
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(f"table,player,result\n1,{SECRET},win\n")
    (site.root / link).parent.mkdir(parents=True, exist_ok=True)
    pointed = target.parent if link == "content/git" else target
    os.symlink(os.path.relpath(pointed, (site.root / link).parent), site.root / link)
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0, result.err
    assert (f"{link}: warning: is a link to {pointed}, a hidden file or folder of the site (such "
            "as .git or .env): skipped" in result.err), result.err
    assert SECRET not in result.err and SECRET not in published(site)


def test_a_linked_event_folder_out_of_the_site_is_skipped(site_with_secret, run_cli, tmp_path):
    site = site_with_secret
    elsewhere = tmp_path / "other-event"
    elsewhere.mkdir()
    (elsewhere / "event.toml").write_text(conquest_event(name=SECRET))
    os.symlink(elsewhere, site.root / "data/events/2024-06-01-linked")
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0
    assert "data/events/2024-06-01-linked: warning: is a link to" in result.err
    assert SECRET not in published(site)


def test_links_inside_the_site_and_linked_top_level_folders_are_followed(site, run_cli, tmp_path):
    """An alias inside the site is fine; so is data/ kept in another checkout and linked in."""
    data = tmp_path / "checkout/data"
    (data / "events/2024-05-18-cup").mkdir(parents=True)
    (data / "events/2024-05-18-cup/event.toml").write_text(
        conquest_event(name="Linked Cup", structure="custom", swiss_rounds=2, cut=0))
    (data / "events/2024-05-18-cup/round-1.csv").write_text(ROUND_1)
    shutil.rmtree(site.root / "data")
    os.symlink(data, site.root / "data")
    site.write({"content/about.md": "# About\n\nThe club.\n"})
    os.symlink("about.md", site.root / "content/club.md")
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0 and "warning" not in result.err, result.err
    assert "Linked Cup" in (site.out / "events/2024-05-18-cup/index.html").read_text()
    assert "The club." in (site.out / "club/index.html").read_text()


def _writer_that_never_comes(fifo, found_waiting: threading.Event) -> None:
    """Opens the pipe's other end only if a reader is there (else the open fails at once): a
    build that tried to read it is blocked, and this releases it and says so."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    found_waiting.set()
    os.close(fd)


@pytest.mark.parametrize("path", ["content/pipe.md", f"{EV}/round-2.csv",
                                  "themes/default/static/pipe.css", "site.toml",
                                  "data/players.csv"])
def test_a_named_pipe_is_skipped_unread(site_with_secret, run_cli, path):
    site = site_with_secret
    (site.root / path).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(site.root / path)
    found_waiting = threading.Event()
    timer = threading.Timer(10, _writer_that_never_comes, [site.root / path, found_waiting])
    timer.start()  # unblocks a build stuck reading the pipe, so the test fails instead of hanging
    try:
        result = run_cli("build", "--source", site.root, "--out", site.out)
    finally:
        timer.cancel()
    assert not found_waiting.is_set(), f"the build waited to read {path}, a named pipe"
    assert result.code == 0, result.err
    assert f"{path}: warning: is a named pipe, not a file: skipped unread" in result.err


@pytest.mark.parametrize("folder", ["content", "data/events"])
def test_a_name_that_is_not_utf8_is_an_error_not_a_traceback(site_with_secret, run_cli, folder):
    site = site_with_secret
    (site.root / folder).mkdir(exist_ok=True)
    (site.root / folder / os.fsdecode(b"caf\xe9.md")).write_text("# Café\n")
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1 and "Traceback" not in result.err
    assert result.lines == [f"{folder}/caf\\xe9.md: the name is not UTF-8 text, so it cannot be "
                            "published or shown: rename it", "1 error: nothing was written; the "
                            f"previous site in {site.out}/ is unchanged."]


@pytest.mark.parametrize("name,message", [
    ("index.html.md", "a page named index.html.md would be published at a folder index.html/"),
    ("guides/index.html.md", "a page named index.html.md would be published at a folder"),
    ("my page.md", "the name 'my page' has a space, which a web address cannot carry as it is: "
                   "rename it with letters, digits, -, _, . and ~ only, e.g. 'my-page'"),
    ("Index.HTML.md", "a page named index.html.md would be published at a folder"),
    ("what?.md", "the name 'what?' has '?'"),
    ("50%.md", "the name '50%' has '%'"),
    ("a#b.md", "the name 'a#b' has '#'"),
])
def test_content_names_that_make_no_clean_address_are_errors(site_with_secret, run_cli, name,
                                                              message):
    site = site_with_secret
    site.write({f"content/{name}": "# Page\n", "content/guides/index.md": "# Guides\n"})
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1
    assert any(line.startswith(f"content/{name}: {message}") for line in result.lines), result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_accented_content_names_are_published_composed(site_with_secret, run_cli, form):
    """macOS writes 'ü' as u and a combining diaeresis (NFD): the page is at the one address."""
    site = site_with_secret
    site.write({unicodedata.normalize(form, "content/über-uns.md"): "# Über uns\n"})
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    assert "Über uns" in read_page(site.out / unicodedata.normalize("NFC", "über-uns/index.html"))


@pytest.mark.parametrize("link", ["themes/default/static", "themes/default"])
def test_a_theme_folder_linked_out_of_the_site_is_skipped(site_with_secret, run_cli, tmp_path, link):
    site = site_with_secret
    outside = tmp_path / "outside-theme"
    (outside / "static").mkdir(parents=True)
    (outside / "static/creds.txt").write_text(SECRET)
    (outside / "creds.txt").write_text(SECRET)
    (site.root / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside / "static" if link.endswith("static") else outside, site.root / link)
    for command in (["check", "--source", site.root],
                    ["build", "--source", site.root, "--out", site.out]):
        result = run_cli(*command)
        assert result.code == 0, result.err
        assert f"{link}: warning: is a link to {outside}" in result.err
    assert SECRET not in published(site) and not (site.out / "static/creds.txt").exists()


def test_a_link_is_judged_against_the_top_folder_it_sits_under(site_with_secret, run_cli, tmp_path):
    """content/ linked to a folder elsewhere does not open that folder to links in themes/."""
    site = site_with_secret
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "pages").mkdir(parents=True)
    (elsewhere / "pages/about.md").write_text("# About\n")
    (elsewhere / "secret.css").write_text(SECRET)
    os.symlink(elsewhere / "pages", site.root / "content")
    (site.root / "themes/default/static").mkdir(parents=True)
    os.symlink(elsewhere / "secret.css", site.root / "themes/default/static/leak.css")
    os.symlink(elsewhere / "secret.css", site.root / "content/leak.md")
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0
    assert "themes/default/static/leak.css: warning: is a link to" in result.err
    assert "content/leak.md: warning: is a link to" in result.err
    assert SECRET not in published(site) and (site.out / "about/index.html").exists()


def test_a_broken_link_in_the_data_is_an_error_and_the_site_stays(site_with_secret, run_cli):
    site = site_with_secret
    assert run_cli("build", "--source", site.root, "--out", site.out).code == 0
    os.symlink("/nonexistent/round-2.csv", site.root / EV / "round-2.csv")
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1
    assert (f"{EV}/round-2.csv: is a link to /nonexistent/round-2.csv, which does not exist: put "
            "the file back, or remove the link") in result.lines


@pytest.mark.parametrize("content,message", [
    (b"\xff\xfe{% block main %}{% endblock %}", "is not UTF-8 text (byte 0xff): save it as UTF-8"),
])
def test_a_template_that_is_not_utf8_is_named(site_with_secret, run_cli, content, message):
    site = site_with_secret
    template = site.root / "themes/default/templates/404.html"
    template.parent.mkdir(parents=True)
    template.write_bytes(content)
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 1 and not site.out.exists()
    assert result.lines == [f"site-builder: themes/default/templates/404.html: {message}"]
