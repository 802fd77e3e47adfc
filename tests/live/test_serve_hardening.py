"""The preview server against odd requests and odd moments: names the file system refuses, HEAD,
folders, a session whose first build had errors, a base path that changes while serving. Each
test talks to a real server on loopback over a real socket."""

from __future__ import annotations

import json
import socket
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, expect

from conftest import write_files
from site_builder.core.problems import Problem
from site_builder.live.serve import LiveState, serve_in_thread

pytestmark = pytest.mark.slow  # real servers on 127.0.0.1, with deadlines waited out

SITE = {
    "index.html": "<!doctype html><html><head><title>League</title></head>"
                  "<body><h1>League</h1></body></html>\n",
    "404.html": "<!doctype html><html><head><title>Page not found</title></head>"
                "<body><h1>Page not found</h1></body></html>\n",
    "events/cup/index.html": "<!doctype html><html><head><title>Cup</title></head>"
                             "<body><h1>Cup</h1></body></html>\n",
    "static/style.css": "body { color: black; }\n",
}
ERROR = Problem("data/events/cup/round-1.csv", 4, "result 'wn' is not a Conquest result")


@pytest.fixture
def out(tmp_path):
    return write_files(tmp_path / "out", SITE)


@pytest.fixture(params=["plain", "live"])
def live(request) -> LiveState | None:
    """Each test runs against `serve` without live reload and with it."""
    return LiveState("/league/") if request.param == "live" else None


@contextmanager
def serving(out, base: str = "/league/", live: LiveState | None = None):
    server, _ = serve_in_thread(out, base, live=live)
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def request(port: int, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.0 exchange on a raw socket, so the path goes out byte for byte (a NUL too) and
    whatever the server sends after the headers is seen, even for HEAD. Status 0: the server
    closed the connection without answering."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"{method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                     .encode("latin-1"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    if not data:
        return 0, {}, b""
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict((name.lower(), value.strip()) for name, value in
                   (line.split(":", 1) for line in lines))
    return int(status_line.split()[1]), headers, body


# ---------------------------------------------------------------- names the file system refuses

@pytest.mark.parametrize("path", ["/%00", "/league/%00", "/league/events/c%00p/",
                                  "/league/index.html\0"])
def test_a_nul_in_the_path_is_a_bad_request(out, live, path, capfd):
    with serving(out, live=live) as port:
        status, _, _ = request(port, "GET", path)
    assert status == 400
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("path", ["/league/" + "a" * 300, "/league/events/" + "a" * 300 + "/",
                                  "/league/%ff", "/league/events/%ff/", "/league/%ed%a0%80"])
def test_a_name_the_file_system_refuses_is_a_missing_page(out, live, path, capfd):
    """Too long for the file system (ENAMETOOLONG), bytes that are not UTF-8, or a lone
    surrogate that no file name can encode (UnicodeEncodeError, a ValueError)."""
    with serving(out, live=live) as port:
        status, _, body = request(port, "GET", path)
    assert status == 404 and b"<h1>Page not found</h1>" in body
    assert "Traceback" not in capfd.readouterr().err


# ---------------------------------------------------------------- HEAD

@pytest.mark.parametrize("path, status", [
    ("/league/", 200), ("/league/events/cup/", 200), ("/league/index.html", 200),
    ("/league/static/style.css", 200), ("/league/nope/", 404), ("/nope", 404),
    ("/league/static/", 404)])
def test_head_announces_the_length_get_sends(out, live, path, status):
    """With live reload a page's body carries the reload script: HEAD must count it too."""
    with serving(out, live=live) as port:
        get_status, get_headers, get_body = request(port, "GET", path)
        head_status, head_headers, head_body = request(port, "HEAD", path)
    assert get_status == head_status == status
    assert int(get_headers["content-length"]) == len(get_body) > 0
    assert head_headers["content-length"] == get_headers["content-length"]
    assert head_headers["content-type"] == get_headers["content-type"]
    assert head_body == b""


# ---------------------------------------------------------------- folders

@pytest.mark.parametrize("path", ["/league/static/", "/league/events/"])
def test_a_folder_without_index_html_is_not_listed(out, live, path):
    (out / "events" / "cup.json").write_text("{}")  # a listing would show this name
    with serving(out, live=live) as port:
        status, _, body = request(port, "GET", path)
    assert status == 404 and b"<h1>Page not found</h1>" in body
    assert b"Directory listing" not in body and b"style.css" not in body
    assert b"cup.json" not in body


# ---------------------------------------------------------------- no site yet

@pytest.mark.parametrize("made", ["missing", "empty", "static only"])
@pytest.mark.parametrize("path", ["/league/", "/league/events/cup/", "/league/about.html",
                                  "/league/nope.css", "/elsewhere"])
def test_before_the_first_good_build_pages_say_there_is_no_site_yet(tmp_path, made, path):
    """The first build of the session had errors, so nothing was written: every page (and every
    missing file) is a placeholder that carries the reload script and is never cached."""
    out = tmp_path / "out"
    if made != "missing":
        out.mkdir()
    if made == "static only":
        write_files(out, {"static/style.css": SITE["static/style.css"]})
    live = LiveState("/league/")
    live.publish(set(), [ERROR], built=False)
    with serving(out, live=live) as port:
        status, headers, body = request(port, "GET", path)
        head_status, head_headers, head_body = request(port, "HEAD", path)
    page = body.decode()
    assert status == 503 and head_status == 503
    assert headers["cache-control"] == "no-store"
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "<title>No site yet</title>" in page and "<h1>No site yet</h1>" in page
    assert "The first build has errors, so nothing has been published yet." in page
    assert '<script src="/league/__live/reload.js" data-base="/league/"' in page
    assert "data-placeholder=" in page
    assert head_headers["content-length"] == headers["content-length"] and head_body == b""


def test_before_the_first_good_build_other_files_and_the_script_are_still_served(tmp_path):
    out = write_files(tmp_path / "out", {"static/style.css": SITE["static/style.css"]})
    live = LiveState("/league/")
    live.publish(set(), [ERROR], built=False)
    with serving(out, live=live) as port:
        assert request(port, "GET", "/league/static/style.css")[0] == 200
        status, headers, _ = request(port, "GET", "/league/__live/reload.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")


def test_without_live_reload_a_missing_site_is_a_plain_404(tmp_path):
    with serving(tmp_path / "out") as port:
        assert request(port, "GET", "/league/")[0] == 404


# ---------------------------------------------------------------- what browsers are told

def message(live: LiveState) -> dict:
    return json.loads(live.message(initial=False).decode().removeprefix("data: "))


def test_messages_say_whether_a_good_site_exists():
    live = LiveState("/league/")
    live.publish({"index.html"}, [ERROR])  # the positional form callers already use
    sent = message(live)
    assert sent["built"] is True and sent["errors"] == [ERROR.format()]
    assert sent["changed"] == ["/league/"] and sent["generation"] == 1
    live.publish(set(), [ERROR], built=False)
    assert message(live)["built"] is False and message(live)["generation"] == 2


# ---------------------------------------------------------------- a base path that changes

def test_the_base_path_can_change_while_serving(out):
    live = LiveState("/a/")
    with serving(out, "/a/", live=live) as port:
        assert request(port, "GET", "/a/events/cup/")[0] == 200
        live.set_base_path("/b/")
        status, _, body = request(port, "GET", "/b/events/cup/")
        assert status == 200
        assert b'<script src="/b/__live/reload.js" data-base="/b/"></script>' in body
        assert request(port, "GET", "/b/")[0] == 200
        assert request(port, "GET", "/b/__live/reload.js")[0] == 200
        assert request(port, "GET", "/b")[0] == 301  # the folder's slash, as before
        for gone in ("/a/", "/a/events/cup/", "/a/__live/reload.js"):
            assert request(port, "GET", gone)[0] == 404, gone
    live.publish({"events/cup/index.html"}, [])
    assert message(live)["changed"] == ["/b/events/cup/"] and message(live)["base"] == "/b/"


# ---------------------------------------------------------------- in a browser

@pytest.mark.browser
def test_the_placeholder_lists_the_errors_then_becomes_the_site(tmp_path, page: Page):
    out = tmp_path / "out"  # the first build had errors: nothing written
    live = LiveState("/league/")
    live.publish(set(), [ERROR], built=False)
    with serving(out, live=live) as port:
        page.goto(f"http://127.0.0.1:{port}/league/events/cup/")
        expect(page.locator("h1")).to_have_text("No site yet")
        overlay = page.locator("#site-builder-problems")
        expect(overlay).to_contain_text(ERROR.format())
        expect(overlay).to_contain_text("no site yet")
        expect(overlay).not_to_contain_text("last good version")
        # The fix: the build writes the site, and the placeholder reloads into the real page.
        write_files(out, SITE)
        with page.expect_navigation(timeout=10_000):
            live.publish(set(SITE), [], built=True)
        expect(page.locator("h1")).to_have_text("Cup")
        expect(overlay).to_have_count(0)
        # A later error leaves the good site up, and the overlay says so.
        live.publish(set(), [ERROR])
        expect(overlay).to_contain_text("the site shows its last good version")
        expect(page.locator("h1")).to_have_text("Cup")


@pytest.mark.browser
def test_an_open_page_follows_a_new_base_path(out, page: Page):
    live = LiveState("/a/")
    with serving(out, "/a/", live=live) as port:
        page.goto(f"http://127.0.0.1:{port}/a/events/cup/")
        overlay = page.locator("#site-builder-problems")
        live.publish(set(), [ERROR])
        expect(overlay).to_be_visible(timeout=10_000)  # the page is listening
        live.set_base_path("/b/")
        live.publish({"index.html"}, [])
        expect(page).to_have_url(f"http://127.0.0.1:{port}/b/events/cup/", timeout=10_000)
        expect(page.locator("h1")).to_have_text("Cup")
        expect(overlay).to_have_count(0)
