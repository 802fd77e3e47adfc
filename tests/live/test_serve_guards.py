"""The preview server against clients that are not a browser showing the preview: a page of
another site that had its name pointed at 127.0.0.1 (DNS rebinding), many live-reload streams
at once, requests sent halfway and left open, requests too large. Each test runs a real server
on 127.0.0.1 (or ::1) on a free port and talks to it over real sockets, from many threads at
once where it matters."""

from __future__ import annotations

import re
import socket
import threading
import time
import urllib.request
from contextlib import ExitStack, contextmanager

import pytest

from conftest import Running, conquest_event, write_files
from site_builder.live import serve
from site_builder.live.httpguards import HEAD_SECONDS, MAX_CONNECTIONS
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
    ".site-builder": "",
}


@pytest.fixture
def out(tmp_path):
    return write_files(tmp_path / "out", SITE)


@pytest.fixture(params=["plain", "live"])
def live(request) -> LiveState | None:
    return LiveState("/league/") if request.param == "live" else None


@contextmanager
def serving(out, live: LiveState | None = None, host: str = "127.0.0.1"):
    """A server in this process: its port."""
    server, _ = serve_in_thread(out, "/league/", host=host, live=live)
    try:
        yield server.server_address[1]
    finally:
        if live is not None:
            live.close()  # ends the streams still open
        server.shutdown()
        server.server_close()


def exchange(port: int, head: bytes, address: str = "127.0.0.1", timeout: float = 10
             ) -> tuple[int, dict[str, str], bytes]:
    """`head` sent as it is; the answer read until the server closes. Status 0: closed without
    an answer."""
    with socket.create_connection((address, port), timeout=timeout) as sock:
        sock.sendall(head)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return parse(data)


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    if not data:
        return 0, {}, b""
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in
               (line.split(":", 1) for line in lines)}
    return int(status_line.split()[1]), headers, body


def get(port: int, path: str, host: str | None, version: str = "HTTP/1.0", **kwargs):
    lines = [f"GET {path} {version}"] + ([f"Host: {host}"] if host is not None else [])
    return exchange(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), **kwargs)


# ---------------------------------------------------------------- the Host header

PATHS = ["/league/", "/league/events/cup/", "/league/static/style.css", "/league/nope/",
         "/elsewhere", "/league/__live/reload.js", "/league/__live/events"]


def assert_misdirected(answer: tuple[int, dict[str, str], bytes], path: str) -> None:
    """421 and a line of text: nothing of the site, no stream."""
    status, headers, body = answer
    assert status == 421, path
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert int(headers["content-length"]) == len(body) and 0 < len(body) < 200
    assert b"League" not in body and b"Cup" not in body and b"data:" not in body


def test_a_page_of_another_site_gets_nothing(out, live):
    """A DNS-rebinding page (evil.example, its name now pointing at 127.0.0.1) could otherwise
    read every page and the live-reload stream."""
    with serving(out, live=live) as port:
        for path in PATHS:
            assert_misdirected(get(port, path, f"evil.example:{port}"), path)


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.2:{port}", "127.0.0.1:99999",
                                  "localhost.evil.example:{port}", "127.0.0.1:{port}@evil",
                                  "127.0.0.1:{port}.evil.example", "[::1]:{port}", ""])
def test_any_other_host_is_misdirected(out, host):
    with serving(out, live=LiveState("/league/")) as port:
        for path in ("/league/events/cup/", "/league/__live/events"):
            assert_misdirected(get(port, path, host.format(port=port)), path)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost:{port}",
                                  "127.0.0.1", "localhost:9000"])
def test_the_host_it_was_started_for_is_answered(out, live, host):
    """On any port: a tunnel (`ssh -L 9000:localhost:8000`) or an editor's port forwarding names
    its own."""
    with serving(out, live=live) as port:
        status, _, body = get(port, "/league/events/cup/", host.format(port=port))
    assert status == 200 and b"<h1>Cup</h1>" in body


def test_a_request_without_host_is_answered_in_http_1_0_only(out):
    """HTTP/1.0 has no Host header (and no browser leaves it out, so no rebinding page can);
    HTTP/1.1 requires exactly one."""
    with serving(out) as port:
        assert get(port, "/league/", None)[0] == 200
        assert get(port, "/league/", None, version="HTTP/1.1")[0] == 400
        twice = f"GET /league/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\n\r\n"
        assert exchange(port, twice.encode())[0] == 400


def test_a_target_with_a_host_names_the_host(out, capfd):
    """`GET http://host/path`, as sent to a proxy: its host is the one meant, not Host's. One
    that is no URL at all is a bad request (it was a traceback)."""
    with serving(out) as port:
        for target, status in ((f"http://evil.example:{port}/league/", 421),
                               (f"http://127.0.0.1:{port}/league/", 200), ("http://[x/", 400)):
            head = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
            assert exchange(port, head.encode())[0] == status, target
    assert "Traceback" not in capfd.readouterr().err


def test_on_ipv6_loopback_the_host_is_its_address_or_localhost(out):
    with serving(out, host="::1") as port:
        for host, status in ((f"[::1]:{port}", 200), (f"localhost:{port}", 200),
                             (f"127.0.0.1:{port}", 421), (f"evil.example:{port}", 421)):
            assert get(port, "/league/", host, address="::1")[0] == status, host


def test_the_host_the_user_named_is_answered(out):
    """`serve --host localhost` listens on 127.0.0.1: both names are its own."""
    with serving(out, host="localhost") as port:
        assert get(port, "/league/", f"localhost:{port}")[0] == 200
        assert get(port, "/league/", f"127.0.0.1:{port}")[0] == 200
        assert get(port, "/league/", f"evil.example:{port}")[0] == 421


def test_listening_on_every_address_answers_addresses_not_names(out):
    """`serve --host 0.0.0.0` (a phone on the same network): the server has many addresses, and
    a browser names it by one of them. A rebinding page always has a name."""
    with serving(out, host="0.0.0.0") as port:
        assert get(port, "/league/", f"192.168.1.20:{port}")[0] == 200
        assert get(port, "/league/", f"localhost:{port}")[0] == 200
        assert get(port, "/league/", f"evil.example:{port}")[0] == 421
        assert get(port, "/league/", "evil.example")[0] == 421


def test_the_serve_command_answers_only_its_own_host(tmp_path):
    """The command as an organizer runs it, on a free port."""
    source = write_files(tmp_path / "site", {
        "data/events/2024-05-18-cup/event.toml": conquest_event(name="Cup", structure="custom",
                                                                swiss_rounds=1, cut=0),
        "data/events/2024-05-18-cup/round-1.csv": "table,player,result\n1,Ada,win\n1,Bram,loss\n"})
    server = Running("serve", "--source", source, "--out", tmp_path / "out", "--port", "0",
                     "--host", "localhost", "--base-url", "/league/")
    try:
        url = re.search(r"http://\S+", server.wait_for(r"^Serving .* at http://")).group(0)
        port = int(re.search(r":(\d+)/", url).group(1))
        assert get(port, "/league/events/2024-05-18-cup/", f"localhost:{port}")[0] == 200
        assert_misdirected(get(port, "/league/events/2024-05-18-cup/", f"evil.example:{port}"),
                           "the event page")
        assert_misdirected(get(port, "/league/__live/events", f"evil.example:{port}"), "stream")
    finally:
        assert server.stop() == 130


# ---------------------------------------------------------------- request size

@pytest.mark.parametrize("path, status", [("/league/" + "a" * 9_000, 414),
                                          ("/league/" + "a" * 70_000, 414)])
def test_a_request_line_too_long_is_refused(out, path, status):
    with serving(out) as port:
        answer, headers, _ = get(port, path, f"127.0.0.1:{port}")
    assert answer == status and headers["content-type"] == "text/plain; charset=utf-8"


@pytest.mark.parametrize("headers", [
    [f"X-Filler-{n}: {'b' * 2_000}" for n in range(20)],  # 40 kB in all
    [f"X-Long: {'c' * 70_000}"],                          # one line past the standard library's
    [f"X-Many-{n}: d" for n in range(101)],               # more than the standard library takes
], ids=["40 kB", "one 70 kB line", "101 headers"])
def test_headers_too_large_are_refused(out, headers):
    with serving(out) as port:
        head = "\r\n".join(["GET /league/ HTTP/1.0", f"Host: 127.0.0.1:{port}", *headers])
        status, _, _ = exchange(port, (head + "\r\n\r\n").encode())
    assert status == 431


def test_a_browser_sized_request_is_answered(out):
    """Cookies and a long address of a real browser stay well below the limits."""
    with serving(out) as port:
        head = "\r\n".join([f"GET /league/events/cup/?{'q' * 2_000} HTTP/1.0",
                            f"Host: 127.0.0.1:{port}", f"Cookie: {'e' * 6_000}",
                            "User-Agent: " + "f" * 300] + [f"X-{n}: g" for n in range(30)])
        status, _, body = exchange(port, (head + "\r\n\r\n").encode())
    assert status == 200 and b"<h1>Cup</h1>" in body


# ---------------------------------------------------------------- many clients at once

def test_200_live_reload_streams_open_at_once(out):
    """200 pages open, each listening (a listen backlog of 5 made them take over 30 s, and some
    were reset)."""
    live, count, opened, failed = LiveState("/league/"), 200, [], []
    start = threading.Barrier(count + 1)

    def listen(stack: ExitStack) -> None:
        start.wait()
        try:
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=30))
            sock.sendall(f"GET /league/__live/events HTTP/1.1\r\nHost: 127.0.0.1:{port}"
                         "\r\n\r\n".encode())
            data = b""
            while b"\ndata: " not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    raise EOFError(data[:40])
                data += chunk
            assert data.startswith(b"HTTP/1.0 200 ")
            opened.append(time.monotonic())
        except Exception as exc:  # noqa: BLE001 - counted, and the test fails with them listed
            failed.append(repr(exc))

    with serving(out, live=live) as port, ExitStack() as stack:
        clients = [threading.Thread(target=listen, args=(stack,)) for _ in range(count)]
        for client in clients:
            client.start()
        start.wait()
        began = time.monotonic()
        for client in clients:
            client.join()
        assert not failed, f"{len(failed)} streams failed: {sorted(set(failed))[:3]}"
        assert len(opened) == count and max(opened) - began < 10


def server_threads() -> int:
    return threading.active_count()


def wait_until(condition, timeout: float, step: float = 0.05) -> float:
    """Seconds until `condition()` held; fails after `timeout`."""
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout, "timed out"
        time.sleep(step)
    return time.monotonic() - began


def half_sent(port: int, count: int, stack: ExitStack) -> list[socket.socket]:
    """`count` connections that send part of a request line and then nothing."""
    socks = []
    for _ in range(count):
        sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=30))
        sock.sendall(b"GET /league/events/c")
        socks.append(sock)
    return socks


def closed_by_server(sock: socket.socket, timeout: float) -> float:
    """Seconds until the server closed `sock` (with no answer, or any answer)."""
    began = time.monotonic()
    sock.settimeout(timeout)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - began


def test_half_sent_requests_neither_stop_pages_nor_stay(out):
    """150 connections that send half a request line and wait: pages are still answered at
    once, and the server drops those connections after HEAD_SECONDS, threads and all (it held
    them for as long as the clients liked)."""
    with serving(out, live=LiveState("/league/")) as port, ExitStack() as stack:
        before = server_threads()  # this one and the server's
        socks = half_sent(port, 150, stack)
        wait_until(lambda: server_threads() >= before + 150, timeout=10)
        began = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/league/events/cup/",
                                    timeout=10) as page:
            assert page.status == 200 and b"<h1>Cup</h1>" in page.read()
        assert time.monotonic() - began < 2
        for sock in socks:
            closed_by_server(sock, HEAD_SECONDS + 5)
        assert time.monotonic() - began < HEAD_SECONDS + 3
        wait_until(lambda: server_threads() == before, timeout=3)


def test_a_request_sent_a_byte_at_a_time_is_dropped_at_the_deadline(out):
    """The limit is on the whole request head, not on each wait: a client sending a byte a
    second would otherwise hold its thread for as long as it likes."""
    with serving(out) as port, socket.create_connection(("127.0.0.1", port)) as sock:
        began = time.monotonic()
        for byte in b"GET /league/ HTTP/1.0\r\nX-Slow: " + b"h" * 60:
            try:
                sock.sendall(bytes([byte]))
                time.sleep(0.5)
            except (BrokenPipeError, ConnectionResetError):
                break
            if time.monotonic() - began > HEAD_SECONDS + 5:
                pytest.fail("still accepted bytes long after the deadline")
        assert closed_by_server(sock, 5) < 5
        assert time.monotonic() - began < HEAD_SECONDS + 3


def test_past_the_cap_connections_get_503_at_once(out):
    """MAX_CONNECTIONS held (by clients that send half a request): the next connection is told
    503 at once, not left waiting, and no thread is started for it. Once the held ones are
    dropped, pages are answered again."""
    with serving(out) as port, ExitStack() as stack:
        before = server_threads()  # this one and the server's
        half_sent(port, MAX_CONNECTIONS, stack)
        wait_until(lambda: server_threads() >= before + MAX_CONNECTIONS, timeout=20)
        began = time.monotonic()
        status, headers, body = get(port, "/league/", f"127.0.0.1:{port}", timeout=5)
        assert time.monotonic() - began < 1
        assert status == 503 and headers["content-type"] == "text/plain; charset=utf-8"
        assert headers["retry-after"] and body.strip()
        assert server_threads() <= before + MAX_CONNECTIONS
        wait_until(lambda: server_threads() == before, timeout=HEAD_SECONDS + 5)
        assert get(port, "/league/", f"127.0.0.1:{port}")[0] == 200


def test_a_live_stream_outlasts_the_request_deadline(out, monkeypatch):
    """The deadline is for sending the request: a stream, once open, stays open, and its
    keep-alive comments and messages still arrive after more than HEAD_SECONDS of quiet."""
    monkeypatch.setattr(serve, "KEEPALIVE", HEAD_SECONDS + 1.5)
    live = LiveState("/league/")
    with serving(out, live=live) as port, ExitStack() as stack:
        sock = stack.enter_context(socket.create_connection(("127.0.0.1", port),
                                                            timeout=HEAD_SECONDS + 10))
        began = time.monotonic()
        sock.sendall(f"GET /league/__live/events HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                     .encode())
        data = b""

        def until(arrived) -> None:
            nonlocal data
            while not arrived(data):
                chunk = sock.recv(4096)
                assert chunk, "the server closed the stream"
                data += chunk

        until(lambda data: b": keep-alive\n\n" in data)
        assert time.monotonic() - began > HEAD_SECONDS
        assert data.count(b"data: ") == 1  # the first message, then a keep-alive
        live.publish({"index.html"}, [])
        until(lambda data: data.count(b"data: ") == 2)
