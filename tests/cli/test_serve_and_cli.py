"""The preview server and the command line, as a user meets them."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from conftest import conquest_event
from site_builder import cli
from site_builder.core.problems import ConfigError
from site_builder.live.serve import SiteServer, make_server, serve_in_thread


@pytest.fixture
def built(site):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n"})
    assert site.build("--base-url", "/league/") == 0
    return site.out


def fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.url, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode()


def test_serves_under_the_base_path_like_github_pages(built):
    server, _ = serve_in_thread(built, "/league/")
    root = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        status, _, body = fetch(root + "/league/events/2024-05-18-x/")
        assert status == 200 and "Test event" in body
        status, final_url, _ = fetch(root + "/league")  # redirected to /league/
        assert status == 200 and final_url.endswith("/league/")
        status, _, body = fetch(root + "/events/2024-05-18-x/")  # outside the base path
        assert status == 404 and "Page not found" in body
        status, _, body = fetch(root + "/league/events/nope/")
        assert status == 404 and "Page not found" in body
    finally:
        server.shutdown()
        server.server_close()


def test_a_browser_leaving_mid_download_prints_no_traceback(built, capsys, monkeypatch):
    """A live page reloads while the browser still downloads it: the server's write fails, and
    the organizer's terminal must not fill with tracebacks for it. Other errors still print."""
    (built / "big.bin").write_bytes(b"x" * 20_000_000)
    errors: list[BaseException] = []
    original = SiteServer.handle_error

    def noting(self, request, client_address):
        errors.append(sys.exc_info()[1])
        original(self, request, client_address)

    monkeypatch.setattr(SiteServer, "handle_error", noting)
    server, _ = serve_in_thread(built, "/league/")
    try:
        with socket.create_connection(("127.0.0.1", server.server_address[1])) as browser:
            browser.sendall(b"GET /league/big.bin HTTP/1.0\r\n\r\n")
            assert browser.recv(100).startswith(b"HTTP/1.0 200")
            # Closed with unread data: the system resets the connection.
            browser.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        deadline = time.monotonic() + 10
        while not errors and time.monotonic() < deadline:
            time.sleep(0.05)
        assert errors and isinstance(errors[0], ConnectionError)
        assert "Traceback" not in capsys.readouterr().err
        try:
            raise ValueError("a bug of ours")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a bug of ours" in capsys.readouterr().err
    finally:
        server.shutdown()
        server.server_close()


def test_port_in_use_is_a_clear_message(built):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=rf"port {port} on 127.0.0.1 is in use .*--port"):
            make_server(built, "/", "127.0.0.1", port)


def test_progress_line_appears_only_on_slow_builds(capsys, monkeypatch):
    clock = iter([0.0, 0.1, 0.2, 0.9, 1.0])
    monkeypatch.setattr(cli.time, "perf_counter", lambda: next(clock))
    from site_builder.core.notice import ProgressLine
    progress = ProgressLine()
    progress("Rendering pages", 1, 50)     # 0.1 s in: too early to bother anyone
    progress("Rendering pages", 25, 50)    # 0.2 s in: still quiet
    progress("Rendering pages", 25, 50)    # 0.9 s in: shown
    progress("Rendering pages", 50, 50)
    progress.clear()
    err = capsys.readouterr().err
    assert err.count("Rendering pages") == 2
    assert "\rRendering pages 25/50" in err and "\rRendering pages 50/50" in err
    assert err.endswith("\r\033[K")


def test_module_entry_point_and_exit_codes(site):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,win\n"})
    run = subprocess.run([sys.executable, "-m", "site_builder", "check", "--source", str(site.root)],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert "round-1.csv:3: table 1 has two winners (Ada and Bram)" in run.stderr
    assert "Traceback" not in run.stderr


def test_check_on_a_clean_site_says_so(site, run_cli):
    site.event("2024-05-18-x", conquest_event(structure="custom", swiss_rounds=1, cut=0),
               {1: "table,player,result\n1,Ada,win\n1,Bram,loss\n"})
    result = run_cli("check", "--source", site.root)
    # the summary is the command's result, on stdout (issue 34, point 4); problems on stderr
    assert (result.code, result.out, result.lines) == (0, "Checked 1 event: no problems.\n", [])


def test_build_summary_names_the_output_and_the_preview(site, run_cli):
    (site.root / "data/events").mkdir(parents=True, exist_ok=True)  # a new site: no event yet
    result = run_cli("build", "--source", site.root, "--out", site.out)
    assert result.code == 0
    assert result.lines[0].startswith("Built 0 events, 7 pages (") and f"into {site.out}/" in result.lines[0]
    assert result.lines[1] == ("No events yet: add a folder data/events/<slug>/ with an event.toml "
                               "and its round files, then build again.")
    assert result.lines[2].startswith("Preview: ") and "serve --out" in result.lines[2]
