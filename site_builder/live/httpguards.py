"""What keeps the preview server answering, whatever its clients do. The standard library's
threading server answers any Host, queues 5 connections, starts a thread for every connection
with no end, and waits for ever on a request sent halfway. Here:

* Only requests naming the host the server was started for are answered (421 otherwise). A page
  of another site can point its own name at 127.0.0.1 (DNS rebinding): the browser then lets it
  read what that name serves, and it could read the preview and its live-reload stream. Its
  requests still name its own host.
* The listen backlog takes a burst of connections (200 live-reload streams opened at once took
  over 30 s with 5, and some were reset).
* At most MAX_CONNECTIONS connections are served at once, a thread each; past that a new
  connection gets 503 at once, from the accepting thread, which never waits for it.
* A request's line and headers must arrive whole within HEAD_SECONDS, and within size limits:
  a client sending half a request (or a byte now and then) loses its connection, and its thread
  is free again. Pages go on being answered meanwhile.

A refusal is a line of plain text, and the connection closes.
"""

from __future__ import annotations

import http.server
import io
import ipaddress
import re
import socket
import threading
import time
import urllib.parse

MAX_CONNECTIONS = 256
"""Connections served at once. An open page holds one for its live-reload stream, and loads
its files over a few more."""
LISTEN_BACKLOG = 1024
"""Connections the system queues until they are accepted (it may allow fewer: somaxconn)."""
HEAD_SECONDS = 5.0
"""Time from the connection to the end of its request's headers. A browser sends them at once."""
SEND_SECONDS = 30.0
"""How long a send may wait for a client that reads nothing, once the request is in."""
MAX_REQUEST_LINE = 8 * 1024
"""Bytes of the request line (414 past it): a browser's longest addresses are shorter."""
MAX_HEADERS = 32 * 1024
"""Bytes of the headers in all (431 past it): a browser's, cookies included, are a few kB."""

_BUSY_TEXT = b"The preview server has too many connections open: retry in a moment.\n"
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: %d\r\nRetry-After: 1\r\nCache-Control: no-store\r\n"
        b"Connection: close\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))
_HOST = re.compile(r"(\[[0-9a-f:.%]+\]|[^:\[\]@/]+)(?::([0-9]{1,5}))?")


class Hosts:
    """The hosts a request may name in its Host header: the address the server listens on, the
    host it was given (`--host`), and localhost on loopback. Listening on every address
    (0.0.0.0, ::), any address of the machine is its own: a request naming an address rather
    than a name comes from a page of that address, never from a rebinding page (which has a
    name), so any address is taken.

    The port a request names is not compared: a rebinding page is told apart by its name alone,
    and a tunnel or an editor's port forwarding (`ssh -L 9000:localhost:8000`) names a port of
    its own."""

    def __init__(self, given: str, bound: str, port: int):
        self.port = port
        self.names = {_canonical(given.strip("[]")), _canonical(bound)}
        address = _address(bound)
        self.any_address = address is not None and address.is_unspecified
        if address is not None and (address.is_loopback or address.is_unspecified):
            self.names.add("localhost")

    def allows(self, header: str) -> bool:
        match = _HOST.fullmatch(header.strip().lower())
        if match is None or int(match[2] or 80) > 65535:
            return False
        name = _canonical(match[1].strip("[]"))
        return name in self.names or (self.any_address and _address(name) is not None)

    def __str__(self) -> str:
        names = sorted(f"[{name}]" if ":" in name else name for name in self.names)
        if self.any_address:
            names = ["any address of this computer"] + [n for n in names if n == "localhost"]
        return " or ".join(names)


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def _canonical(name: str) -> str:
    """An address in its one spelling ([0:0::1] is ::1); a name in lower case."""
    address = _address(name)
    return str(address) if address is not None else name.lower()


class GuardedHandler(http.server.BaseHTTPRequestHandler):
    """The request's head read under the deadline and the size limits, and its host checked,
    before any page is looked at. The server is a GuardedServer."""

    timeout = HEAD_SECONDS  # the standard library sets it on the socket; each read lowers it
    rbufsize = 0  # the socket's own reader, under the deadline's (setup)

    def setup(self) -> None:
        super().setup()
        deadline = time.monotonic() + HEAD_SECONDS
        self.rfile = _Head(io.BufferedReader(_Deadline(self.rfile, self.connection, deadline)),
                           MAX_REQUEST_LINE)

    def parse_request(self) -> bool:
        """The standard library's, within the limits and for this server's host only. Once the
        request is in, the socket waits SEND_SECONDS at most for each send: a live-reload
        stream, quiet between messages, is never read from again, so no deadline ends it."""
        if self.rfile.over:
            self.requestline = self.request_version = self.command = ""
            return self.refuse(414, "The request line is too long.")
        self.rfile.allow(MAX_HEADERS)
        if not super().parse_request():
            return False  # the standard library has answered (400, 431...)
        if self.rfile.over:
            return self.refuse(431, "The request's headers are too large.")
        if not self._host_allowed():
            return False
        self.connection.settimeout(SEND_SECONDS)
        return True

    def _host_allowed(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1 or (not hosts and self.request_version not in ("HTTP/0.9", "HTTP/1.0")):
            # HTTP/1.1 requires exactly one; HTTP/1.0 may leave it out (no browser does).
            return self.refuse(400, "A request names one host (its Host header).")
        try:
            target = urllib.parse.urlsplit(self.path)
        except ValueError:  # http://[x/: brackets that hold no address
            return self.refuse(400, "The request's target is not a URL.")
        if target.scheme and target.netloc:  # http://host/path: this host is meant, not Host's
            hosts = [target.netloc]
        if hosts and not self.server.hosts.allows(hosts[0]):
            return self.refuse(421, f"This preview server answers only requests for {self.server.hosts}.")
        return True

    def refuse(self, code: int, text: str) -> bool:
        """A line of plain text, and the connection closed. False, as parse_request returns."""
        body = f"{text}\n".encode()
        self.close_connection = True
        self.send_response(code)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return False


class _Deadline(io.RawIOBase):
    """A socket's reads, each waiting only for the time left until `deadline`: a request sent a
    byte at a time cannot last longer than one sent halfway. TimeoutError then, which the
    standard library's handler takes as "drop the connection"."""

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, deadline: float):
        self.raw, self.sock, self.deadline = raw, sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not sent in time")
        self.sock.settimeout(left)
        return self.raw.readinto(buffer)

    def close(self) -> None:
        self.raw.close()
        super().close()


class _Head:
    """The request's reader, as the standard library reads it: line by line, no more than
    `left` bytes in all. Past them it reads nothing more (the headers seem to end) and `over`
    is set, for parse_request to refuse the request."""

    def __init__(self, reader: io.BufferedReader, left: int):
        self.reader, self.left, self.over = reader, left, False

    def allow(self, left: int) -> None:
        self.left = left

    def readline(self, size: int = -1) -> bytes:
        limit = self.left + 1 if size < 0 else min(size, self.left + 1)
        line = self.reader.readline(max(limit, 0))
        self.left -= len(line)
        self.over = self.over or self.left < 0
        return line

    def close(self) -> None:
        self.reader.close()


class GuardedServer(http.server.ThreadingHTTPServer):
    """A thread per connection, MAX_CONNECTIONS at most; an IPv6 address listens on IPv6."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: tuple[str, int], handler, host: str):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)
        self.hosts = Hosts(host, self.server_address[0], self.server_address[1])
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request, client_address) -> None:
        if not self._slots.acquire(blocking=False):
            self._turn_away(request)
            return
        try:
            super().process_request(request, client_address)  # starts the thread
        except BaseException:
            self._slots.release()  # no thread started: it will not release the slot
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def _turn_away(self, request: socket.socket) -> None:
        """503 from the accepting thread, which must never wait: the socket does not block.
        What the client already sent is read first, so that closing does not reset the
        connection before the client reads the answer."""
        try:
            request.setblocking(False)
            try:
                request.recv(65536)
            except BlockingIOError:
                pass
            request.send(BUSY)
        except OSError:
            pass  # the client has gone already
        self.shutdown_request(request)
