"""What the desk refuses, and how: every bad input gets a clear message to whoever sent it (the
organizer at the desk, a player on a phone), and nothing is written: the round files keep their
bytes and the journal gets no `result` line. A value the game's rules reject gets the very
message `site-builder check` prints for the same row typed by hand."""

from __future__ import annotations

import json
import re
import shutil
import socket
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from deskrun import NAMES, RunningDesk, csrf_of, fingerprint_of, league, seats_of, start_desk
from markupsafe import escape

from site_builder.cli import main
from site_builder.desk import roundfile
from site_builder.desk.codes import Secrets

pytestmark = pytest.mark.slow

DATE = "2026-11-26"
GAMES = {
    "conquest": ('name = "Desk Night"\ndate = 2026-11-26\ngame = "conquest"\n', 4),
    "heresy": (('name = "Heresy Night"\ndate = 2026-11-26\ngame = "heresy"\n'
               'format = "reascension"\n'), 7),
    "kingdom": ('name = "Kingdom Night"\ndate = 2026-11-26\ngame = "kingdom"\n', 4),
}
SCRIPT = "<script>alert(1)</script>"
TOO_LARGE = b"A form may send at most 64 kB.\n"


@dataclass
class Event:
    source: Path
    folder: Path
    slug: str
    desk: RunningDesk
    organizer: httpx.Client
    page: str
    """The organizer's event page, round 1 formed."""

    @property
    def round_file(self) -> Path:
        return max(self.folder.glob("round-*.csv"), key=lambda p: int(p.stem[6:]))

    def code(self, round_number: int, table: str, player: str) -> str:
        return Secrets.of_site(self.source)[0].seat(self.slug, round_number, table, player)

    def phone(self) -> httpx.Client:
        return httpx.Client(base_url=self.desk.origin, follow_redirects=True, timeout=30)

    def phones_on(self) -> None:
        answer = self.organizer.post(f"/_desk/e/{self.slug}/phones",
                                     data={"csrf": csrf_of(self.page), "on": "1"})
        assert answer.status_code == 200 and "Reports from phones are on" in answer.text
        self.page = answer.text


def open_event(tmp_path: Path, game: str) -> Event:
    """A league with one event of `game`, its desk running, round 1 formed at the desk."""
    toml, players = GAMES[game]
    slug = f"{DATE}-{game}"
    folder = league(tmp_path, slug, toml, NAMES[:players])
    desk = start_desk(tmp_path)
    organizer = None
    try:
        organizer = desk.client()
        page = organizer.get(f"/_desk/e/{slug}").text
        answer = organizer.post(f"/_desk/e/{slug}/next", data={"csrf": csrf_of(page),
                                                               "round": "0"})
        assert answer.status_code == 200 and "Round 1 is formed" in answer.text
    except BaseException:
        if organizer is not None:
            organizer.close()
        desk.stop()
        raise
    return Event(tmp_path, folder, slug, desk, organizer, answer.text)


def close(event: Event, *clients: httpx.Client) -> None:
    for client in clients:
        client.close()
    event.organizer.close()
    event.desk.stop()


class NothingWritten:
    """The event folder's round files byte for byte, and its journal: no new `result` line,
    and for a refusal no new line at all (no report, no note)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.rounds = self._rounds()
        self.journal = self._journal()

    def _rounds(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(self.folder.glob("round-*.csv"))}

    def _journal(self) -> bytes:
        path = self.folder / ".desk-journal.jsonl"
        return path.read_bytes() if path.exists() else b""

    def results(self, journal: bytes) -> int:
        return sum(json.loads(line).get("kind") == "result" for line in journal.splitlines()
                   if line.strip())

    def check(self) -> None:
        assert self._rounds() == self.rounds
        journal = self._journal()
        assert self.results(journal) == self.results(self.journal)
        assert journal == self.journal


def message_of_check(source: Path, tmp_path: Path, round_name: str, table: str,
                     lines: list[str], capsys) -> str:
    """What `check` prints for `table`'s rows typed by hand as `lines`, in a copy of the site:
    its line, with the path as the desk shows it (from the site's folder)."""
    copy = tmp_path / "by-hand"
    shutil.copytree(source / "data", copy / "data", ignore=shutil.ignore_patterns(".desk-*"))
    shutil.copyfile(source / "site.toml", copy / "site.toml")
    (folder,) = (copy / "data" / "events").iterdir()
    round_file = folder / round_name
    text = roundfile.parse(round_file.read_text(encoding="utf-8"))
    round_file.write_text(text.with_table(table, lines), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--source", str(copy)]) == 1
    printed = capsys.readouterr().err.splitlines()
    errors = [line for line in printed if line.startswith(f"{copy}/")]
    assert len(errors) == 1, printed
    return errors[0].removeprefix(f"{copy}/")


# ------------------------------------------------------------------ the rules' messages


BAD_VALUES = {
    # game → the form's values for each seat of a table, in seat order (column → value)
    "heresy": lambda seats: [{"result": "win"}, {"tau": "-1"}] + [{"tau": "3"}] * (len(seats) - 2),
    "kingdom": lambda seats: [{"houses": "-3"}, {"houses": "5"}],
}


def typed(game: str, table: str, seats: list[str], cells: list[dict[str, str]]) -> list[str]:
    """The same values as an organizer types them into the round file."""
    if game == "heresy":
        return [f"{table},{p},{c.get('result', '')},{c.get('tau', '')}"
                for p, c in zip(seats, cells)]
    return [f"{table},{p},{c.get('houses', '')}," for p, c in zip(seats, cells)]


@pytest.mark.parametrize("sender", ["desk", "phone"])
@pytest.mark.parametrize("game", ["heresy", "kingdom"])
def test_a_value_the_rules_refuse_gets_checks_own_message(tmp_path, capsys, game, sender):
    """Heresy: a negative tau (check: "tau '-1' is not a whole number, 0 or more"). Kingdom: a
    negative house count. 422, the message on the sender's page, nothing written."""
    event = open_event(tmp_path / "site", game)
    phone = event.phone()
    try:
        tables = seats_of(event.round_file)
        table = max(tables, key=lambda t: len(tables[t]))
        seats = tables[table]
        cells = BAD_VALUES[game](seats)
        form = {f"g1.s{s}.{column}": value for s, values in enumerate(cells)
                for column, value in values.items()}
        printed = message_of_check(tmp_path / "site", tmp_path, event.round_file.name, table,
                                   typed(game, table, seats, cells), capsys)
        where, _, message = printed.partition(": ")
        assert re.fullmatch(rf"data/events/{event.slug}/round-1\.csv:[0-9]+", where)
        assert {"heresy": "tau '-1' is not a whole number, 0 or more",
                "kingdom": "houses '-3' is not a whole number, 0 or more"}[game] in message
        unwritten = NothingWritten(event.folder)
        if sender == "desk":
            answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data={
                "csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), **form})
            expected = printed  # the organizer sees where, as check says it
        else:
            event.phones_on()
            unwritten = NothingWritten(event.folder)
            url = f"/_desk/p/{event.slug}/1/{table}/1/{event.code(1, table, seats[1])}"
            opened = phone.get(url)
            assert opened.status_code == 200
            answer = phone.post(url, data={"csrf": csrf_of(opened.text), "round": "1",
                                           "table": table, "fp": fingerprint_of(opened.text, table),
                                           **form})
            expected = message  # a player is told what, not the file's line
        assert answer.status_code == 422
        assert str(escape(expected)) in answer.text
        # the form comes back with the values sent, to correct
        assert 'value="-' in answer.text
        unwritten.check()
    finally:
        close(event, phone)


def test_tau_over_the_goal_is_accepted_as_check_accepts_it(tmp_path, capsys):
    """Reascension's tau goal is 9, but a tau over it is not an error: the rules cap it at the
    goal (rules/heresy/multiplayer.py; docs/games/heresy.md has `1,Cat,,11`). The desk takes
    what check takes."""
    event = open_event(tmp_path, "heresy")
    try:
        tables = seats_of(event.round_file)
        table = min(tables, key=lambda t: len(tables[t]))
        cells = [{"result": "win"}, {"tau": "12"}] + [{"tau": "4"}] * (len(tables[table]) - 2)
        form = {f"g1.s{s}.{c}": v for s, values in enumerate(cells) for c, v in values.items()}
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data={
            "csrf": csrf_of(event.page), "round": "1", "table": table,
            "fp": fingerprint_of(event.page, table), **form})
        assert answer.status_code == 200 and f"Table {table} saved" in answer.text
        assert f"{table},{tables[table][1]},,12" in event.round_file.read_text(encoding="utf-8")
    finally:
        close(event)
    capsys.readouterr()
    assert main(["check", "--source", str(tmp_path)]) == 0


# ------------------------------------------------------------------ rounds and codes


def two_rounds(tmp_path: Path) -> Event:
    """A Conquest event at the desk with round 1 played and round 2 being played."""
    event = open_event(tmp_path, "conquest")
    try:
        for table in seats_of(event.folder / "round-1.csv"):
            answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data={
                "csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"})
            assert answer.status_code == 200
            event.page = answer.text
        event.phones_on()
        answer = event.organizer.post(f"/_desk/e/{event.slug}/next", data={
            "csrf": csrf_of(event.page), "round": "1"})
        assert answer.status_code == 200 and "Round 2 is formed" in answer.text
        event.page = answer.text
    except BaseException:
        close(event)
        raise
    return event


def test_a_result_for_a_table_of_another_round_is_refused(tmp_path):
    event = two_rounds(tmp_path)
    try:
        unwritten = NothingWritten(event.folder)
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data={
            "csrf": csrf_of(event.page), "round": "1", "table": "1",
            "fp": fingerprint_of(event.page, "1"), "quick": "1:0"})
        assert answer.status_code == 422
        assert ("this result is for round 1, but round 2 is being played: nothing was written"
                in answer.text)
        unwritten.check()
    finally:
        close(event)


def test_an_expired_or_forged_code_opens_the_same_closed_page(tmp_path):
    event = two_rounds(tmp_path)
    phone = event.phone()
    try:
        unwritten = NothingWritten(event.folder)
        old = seats_of(event.folder / "round-1.csv")
        table, (player, _) = next(iter(old.items()))
        replayed = f"/_desk/p/{event.slug}/1/{table}/0/{event.code(1, table, player)}"
        now = seats_of(event.folder / "round-2.csv")
        table2, (player2, _) = next(iter(now.items()))
        good = event.code(2, table2, player2)
        assert phone.get(f"/_desk/p/{event.slug}/2/{table2}/0/{good}").status_code == 200
        forged = ("b" if good[0] == "a" else "a") + good[1:]
        closed = None
        for url in [replayed,
                    f"/_desk/p/{event.slug}/2/{table2}/0/{forged}",       # a letter wrong
                    f"/_desk/p/{event.slug}/2/{table2}/1/{good}",         # another seat
                    f"/_desk/p/{event.slug}/1/{table2}/0/{good}",         # another round
                    f"/_desk/p/{event.slug}/2/99/0/{good}",               # no such table
                    f"/_desk/p/{DATE}-nowhere/2/{table2}/0/{good}"]:      # no such event
            for answer in (phone.get(url), phone.post(url, data={
                    "csrf": "0" * 32, "round": "2", "table": table2, "quick": "0:0"})):
                assert answer.status_code == 404, url
                assert "<h1>This code is not open</h1>" in answer.text
                closed = closed or answer.text
                assert answer.text == closed  # the same page: no hint of which part was wrong
        # the replayed code with the form its own page had in round 1 (csrf of that code)
        csrf = Secrets.of_site(event.source)[0].csrf(event.code(1, table, player))
        answer = phone.post(replayed, data={"csrf": csrf, "round": "1", "table": table,
                                            "quick": "1:0"})
        assert answer.status_code == 404 and answer.text == closed
        unwritten.check()
    finally:
        close(event, phone)


# ------------------------------------------------------------------ HTML in the fields


@pytest.mark.parametrize("sender", ["desk", "phone"])
@pytest.mark.parametrize("game, column, seat", [
    ("heresy", "tau", 1), ("heresy", "result", 0), ("kingdom", "houses", 0),
    ("conquest", "result", 0)])
def test_html_in_a_field_is_refused_and_shown_escaped(tmp_path, game, column, seat, sender):
    event = open_event(tmp_path, game)
    phone = event.phone()
    try:
        tables = seats_of(event.round_file)
        table = next(iter(tables))
        form = {"round": "1", "table": table, f"g1.s{seat}.{column}": SCRIPT}
        if sender == "phone":
            event.phones_on()
            url = f"/_desk/p/{event.slug}/1/{table}/0/{event.code(1, table, tables[table][0])}"
            opened = phone.get(url)
            form.update(csrf=csrf_of(opened.text), fp=fingerprint_of(opened.text, table))
            unwritten = NothingWritten(event.folder)
            answer = phone.post(url, data=form)
        else:
            form.update(csrf=csrf_of(event.page), fp=fingerprint_of(event.page, table))
            unwritten = NothingWritten(event.folder)
            answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data=form)
        assert answer.status_code == 422
        assert "<script>alert" not in answer.text
        # the value is named, escaped, with what was expected
        assert "&#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; is not " in answer.text
        unwritten.check()
    finally:
        close(event, phone)


@pytest.mark.parametrize("table", [SCRIPT, '1"><img src=x onerror=alert(1)>', "99"])
def test_a_table_that_is_not_in_the_round_is_refused(tmp_path, table):
    event = open_event(tmp_path, "conquest")
    phone = event.phone()
    try:
        event.phones_on()
        unwritten = NothingWritten(event.folder)
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data={
            "csrf": csrf_of(event.page), "round": "1", "table": table,
            "fp": fingerprint_of(event.page, "1"), "quick": "0:0"})
        assert answer.status_code == 422
        assert "<script>alert" not in answer.text and "<img" not in answer.text
        # said on the page: the round has no such table
        assert f"round 1 has no table {escape(table)}" in answer.text
        # the same in a phone's link (a "/" in it leaves the desk's routes: the site's 404)
        answer = phone.get(f"/_desk/p/{event.slug}/1/{urllib.parse.quote(table)}/0/{'a' * 16}")
        assert answer.status_code == 404
        assert "<script>alert" not in answer.text and "<img" not in answer.text
        unwritten.check()
    finally:
        close(event, phone)


# ------------------------------------------------------------------ the guards


def test_a_form_without_the_desks_token_is_refused(tmp_path):
    event = open_event(tmp_path, "conquest")
    phone = event.phone()
    try:
        event.phones_on()
        table, seats = next(iter(seats_of(event.round_file).items()))
        form = {"csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"}
        url = f"/_desk/p/{event.slug}/1/{table}/0/{event.code(1, table, seats[0])}"
        phone_csrf = csrf_of(phone.get(url).text)
        assert phone_csrf != form["csrf"]
        unwritten = NothingWritten(event.folder)
        for csrf in (None, "", "0" * 32, phone_csrf):  # missing, empty, wrong, another's
            sent = {k: v for k, v in form.items() if k != "csrf"}
            if csrf is not None:
                sent["csrf"] = csrf
            for path in ("table", "next", "phones", "accept"):
                answer = event.organizer.post(f"/_desk/e/{event.slug}/{path}",
                                              data={**sent, "on": "0"})
                assert answer.status_code == 403, (path, csrf)
                assert "this form is not the desk" in answer.text.replace("&#39;", "'")
                assert "Nothing was written" in answer.text
        for csrf in (None, "", "0" * 32, form["csrf"]):  # the organizer's is not a phone's
            sent = {k: v for k, v in form.items() if k != "csrf"}
            if csrf is not None:
                sent["csrf"] = csrf
            answer = phone.post(url, data=sent)
            assert answer.status_code == 403 and "open your slip" in answer.text
        unwritten.check()
        # with its token the same form saves
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data=form)
        assert answer.status_code == 200 and f"Table {table} saved" in answer.text
    finally:
        close(event, phone)


def test_a_form_from_another_site_is_refused(tmp_path):
    event = open_event(tmp_path, "conquest")
    try:
        table = next(iter(seats_of(event.round_file)))
        form = {"csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"}
        unwritten = NothingWritten(event.folder)
        for header in ({"Origin": "http://evil.example"},
                       {"Origin": "https://127.0.0.1.evil.example"},
                       {"Origin": event.desk.origin.replace("127.0.0.1", "localhost")},
                       {"Referer": "http://evil.example/desk.html"}):
            answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data=form,
                                          headers=header)
            assert answer.status_code == 403, header
            assert answer.text == "A form from another site cannot write to the desk.\n"
        unwritten.check()
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data=form,
                                      headers={"Origin": event.desk.origin})
        assert answer.status_code == 200 and f"Table {table} saved" in answer.text
    finally:
        close(event)


def test_a_request_naming_another_host_is_refused(tmp_path):
    event = open_event(tmp_path, "conquest")
    try:
        table = next(iter(seats_of(event.round_file)))
        form = {"csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"}
        unwritten = NothingWritten(event.folder)
        for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example", ""):
            for answer in (event.organizer.get(f"/_desk/e/{event.slug}", headers={"Host": host}),
                           event.organizer.post(f"/_desk/e/{event.slug}/table", data=form,
                                                headers={"Host": host})):
                assert answer.status_code == 421, host
                assert answer.text.startswith("This server answers to 127.0.0.1 or localhost")
        unwritten.check()
    finally:
        close(event)


def raw_post(event: Event, path: str, body: bytes, cookie: str = "") -> tuple[int, bytes]:
    """A POST on a new connection, its head and body in one write, the whole answer read: the
    status and the body."""
    host = event.desk.origin.removeprefix("http://")
    name, port = host.rsplit(":", 1)
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\n"
            "Connection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n"
            + (f"Cookie: site_builder_desk={cookie}\r\n" if cookie else "") + "\r\n")
    with socket.create_connection((name, int(port)), timeout=30) as connection:
        connection.sendall(head.encode() + body)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


def test_a_body_over_64_kB_is_refused(tmp_path):
    event = open_event(tmp_path, "conquest")
    try:
        event.phones_on()
        table, seats = next(iter(seats_of(event.round_file).items()))
        form = {"csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"}
        body = str(httpx.QueryParams(form)).encode()
        url = f"/_desk/p/{event.slug}/1/{table}/0/{event.code(1, table, seats[0])}"
        unwritten = NothingWritten(event.folder)
        # on a new connection, head and body in one write, up to the megabyte the desk reads
        # and drops so that its refusal is read (past it the connection is reset)
        for path, cookie in ((f"/_desk/e/{event.slug}/table", event.desk.token), (url, "")):
            for size in (64 * 1024, 200 * 1024, 900 * 1024):
                status, text = raw_post(event, path, body + b"&note=" + b"x" * size, cookie)
                assert (status, text) == (413, TOO_LARGE), (path, size)
        # a browser's way: the page, then its form, on the same keep-alive connection
        with httpx.Client(base_url=event.desk.origin, timeout=30,
                          cookies={"site_builder_desk": event.desk.token}) as client:
            for size in (64 * 1024, 200 * 1024, 900 * 1024):
                assert client.get(f"/_desk/e/{event.slug}").status_code == 200
                answer = client.post(f"/_desk/e/{event.slug}/table",
                                     data={**form, "note": "x" * size})
                assert (answer.status_code, answer.content) == (413, TOO_LARGE), size

            def chunks():  # no Content-Length: sent chunked
                yield body + b"&note="
                for _ in range(80):
                    yield b"x" * 1024
            answer = client.post(f"/_desk/e/{event.slug}/table", content=chunks(), headers={
                "Content-Type": "application/x-www-form-urlencoded"})
            assert (answer.status_code, answer.content) == (413, TOO_LARGE)
        unwritten.check()
        # just under: read, and saved
        note = b"&note=" + b"x" * (64 * 1024 - len(body) - len(b"&note="))
        status, _ = raw_post(event, f"/_desk/e/{event.slug}/table", body + note,
                             event.desk.token)
        assert status == 303
        assert NothingWritten(event.folder).results(
            (event.folder / ".desk-journal.jsonl").read_bytes()) == 1
    finally:
        close(event)


def test_a_burst_of_writes_is_slowed_with_retry_after(tmp_path):
    event = open_event(tmp_path, "conquest")
    clients = [event.phone() for _ in range(10)]
    try:
        table = next(iter(seats_of(event.round_file)))
        form = {"csrf": csrf_of(event.page), "round": "1", "table": table,
                "fp": fingerprint_of(event.page, table), "quick": "0:0"}
        unwritten = NothingWritten(event.folder)

        def post(n: int) -> httpx.Response:
            # a phone resending a stale form as fast as it can (keep-alive, as phones do):
            # refused (403) or slowed (429), and every answer read (no connection reset)
            return clients[n % len(clients)].post(f"/_desk/e/{event.slug}/table",
                                                  data={**form, "csrf": "stale"})
        with ThreadPoolExecutor(len(clients)) as pool:
            answers = list(pool.map(post, range(100)))
        slowed = [a for a in answers if a.status_code == 429]
        assert len(slowed) >= 20 and {a.status_code for a in answers} <= {403, 429}
        assert len(answers) - len(slowed) <= 75  # a burst of 60, and 20 a second after it
        for answer in slowed:
            assert answer.headers["retry-after"] == "1"
            assert answer.text == "Too many results sent at once: wait a moment and send again.\n"
        unwritten.check()
        # the organizer's write after waiting as told goes through
        time.sleep(float(slowed[-1].headers["retry-after"]) + 0.1)
        answer = event.organizer.post(f"/_desk/e/{event.slug}/table", data=form)
        assert answer.status_code == 200 and f"Table {table} saved" in answer.text
    finally:
        close(event, *clients)


# ------------------------------------------------------------------ the organizer's pages


def test_the_organizers_pages_are_locked_without_the_cookie(tmp_path):
    event = open_event(tmp_path, "conquest")
    stranger = event.phone()
    try:
        slug = event.slug
        csrf = csrf_of(event.page)
        unwritten = NothingWritten(event.folder)
        for method, path in [("GET", "/_desk/"), ("GET", f"/_desk/e/{slug}"),
                             ("GET", f"/_desk/e/{slug}/slips"),
                             ("GET", f"/_desk/e/{slug}/round/1"),
                             ("POST", f"/_desk/e/{slug}/table"), ("POST", f"/_desk/e/{slug}/next"),
                             ("POST", f"/_desk/e/{slug}/phones"),
                             ("POST", f"/_desk/e/{slug}/accept"),
                             ("POST", f"/_desk/e/{slug}/round/1"),
                             ("POST", f"/_desk/wall/{slug}/timer")]:
            data = {"csrf": csrf, "round": "1", "table": "1", "on": "1", "quick": "0:0",
                    "action": "start"} if method == "POST" else None
            for cookies in ({}, {"site_builder_desk": "0" * 32},
                            {"site_builder_desk": event.desk.token[:-1]}):
                stranger.cookies.clear()
                for name, value in cookies.items():
                    stranger.cookies.set(name, value, path="/_desk")
                answer = stranger.request(method, path, data=data)
                assert answer.status_code == 403, (method, path, cookies)
                assert "<h1>The organizer's desk</h1>" in answer.text.replace("&#39;", "'")
                assert "Open the link <code>site-builder desk</code> printed" in answer.text
        unwritten.check()
        stranger.cookies.clear()
        for token in ("0" * 32, event.desk.token.upper(), event.desk.token + "0", "x"):
            answer = stranger.get(f"/_desk/login?token={token}", follow_redirects=False)
            assert answer.status_code == 403
            assert "That link's token is not this desk's" in answer.text
            assert "set-cookie" not in answer.headers
            assert stranger.get(f"/_desk/e/{slug}").status_code == 403
        # the wall and the site are the room's
        assert stranger.get(f"/_desk/wall/{slug}").status_code == 200
        # the printed link opens the desk
        answer = stranger.get(event.desk.login)
        assert answer.status_code == 200 and "Events in progress" in answer.text
    finally:
        close(event, stranger)
