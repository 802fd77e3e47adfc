"""Nothing accepted is lost, nothing is applied twice, and a hand edit is never overwritten: the
desk's journal (`.desk-journal.jsonl`) replayed after a kill, reports sent while the desk is
SIGKILLed, the round file edited by hand while the desk runs, and a journal tampered with."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from deskrun import (
    NAMES,
    csrf_of,
    fingerprint_of,
    league,
    pair_by_hand,
    seats_of,
    start_desk,
    wait_for,
)
from markupsafe import escape

from site_builder.cli import main
from site_builder.desk import roundfile
from site_builder.desk.codes import Secrets

pytestmark = pytest.mark.slow

SLUG = "2026-11-26-desk-night"
CONQUEST = 'name = "Desk Night"\ndate = 2026-11-26\ngame = "conquest"\n'
JOURNAL = ".desk-journal.jsonl"


def records(folder: Path) -> list:
    """The journal's lines that are JSON (a line cut short by a kill is not)."""
    path = folder / JOURNAL
    if not path.exists():
        return []
    found = []
    for line in path.read_bytes().split(b"\n"):
        try:
            found.append(json.loads(line))
        except ValueError:
            pass
    return found


def results_in(folder: Path) -> list[dict]:
    return [r for r in records(folder) if isinstance(r, dict) and r.get("kind") == "result"]


def append_journal(folder: Path, *lines: bytes) -> None:
    with open(folder / JOURNAL, "ab") as journal:
        journal.writelines(line + b"\n" for line in lines)


def rows_of(round_file: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(round_file.read_text(encoding="utf-8"))))


def snapshot(root: Path, skip: tuple[Path, ...]) -> dict[str, bytes]:
    """Every file under `root` (not under `skip`), its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not any(p == s or s in p.parents for s in skip)}


def check_ok(source: Path) -> bool:
    return main(["check", "--source", str(source)]) == 0


# ------------------------------------------------------------------ replay after a kill


def test_a_result_journalled_but_not_written_is_written_at_the_next_start(tmp_path, capsys):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:4])
    round_file = pair_by_hand(folder)
    desk = start_desk(tmp_path)  # a desk ran (its secret, its site) and stopped
    desk.stop()
    before_text = round_file.read_text(encoding="utf-8")
    text = roundfile.parse(before_text)
    seats = seats_of(round_file)
    table = "1"
    winner, loser = seats[table]
    lines = [f"1,{winner},win", f"1,{loser},loss"]
    after_text = text.with_table(table, lines)
    # what write_lines journals before it replaces the round file, with no `done` after it:
    # the desk was killed between the two
    record = {"kind": "result", "file": round_file.name, "table": table,
              "before": text.fingerprint(table),
              "after": roundfile.parse(after_text).fingerprint(table), "lines": lines,
              "by": "desk"}
    append_journal(folder, json.dumps(record, ensure_ascii=False, sort_keys=True).encode())
    assert round_file.read_text(encoding="utf-8") == before_text

    desk = start_desk(tmp_path)
    desk.stop()
    assert round_file.read_text(encoding="utf-8") == after_text
    said = [line for line in desk.lines if "accepted before the desk stopped, is written" in line]
    assert said == [(f"data/events/{SLUG}/{round_file.name}: table 1's result, accepted before "
                     "the desk stopped, is written")]
    done = [r for r in records(folder) if r.get("kind") == "done"]
    assert done and done[-1]["table"] == "1" and done[-1]["after"] == record["after"]

    # a third start has nothing left to replay: the result is not written twice, nothing said
    desk = start_desk(tmp_path)
    desk.stop()
    assert round_file.read_text(encoding="utf-8") == after_text
    assert not [line for line in desk.lines if "journal" in line or "accepted before" in line]
    capsys.readouterr()
    assert check_ok(tmp_path)


def test_a_journalled_result_over_a_hand_edit_is_not_replayed(tmp_path):
    """The same record, but the table was edited by hand meanwhile: the hand edit stands."""
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:4])
    round_file = pair_by_hand(folder)
    text = roundfile.parse(round_file.read_text(encoding="utf-8"))
    winner, loser = seats_of(round_file)["1"]
    lines = [f"1,{winner},win", f"1,{loser},loss"]
    record = {"kind": "result", "file": round_file.name, "table": "1",
              "before": text.fingerprint("1"),
              "after": roundfile.parse(text.with_table("1", lines)).fingerprint("1"),
              "lines": lines, "by": "phones"}
    append_journal(folder, json.dumps(record, sort_keys=True).encode())
    by_hand = text.with_table("1", [f"1,{winner},loss", f"1,{loser},modified-win"])
    round_file.write_text(by_hand, encoding="utf-8")
    desk = start_desk(tmp_path)
    desk.stop()
    assert round_file.read_text(encoding="utf-8") == by_hand
    assert any("was edited by hand after its result was accepted; the hand edit stands" in line
               for line in desk.lines)


# ------------------------------------------------------------------ SIGKILL mid-reports


def queue_of(page: str) -> dict[str, str]:
    """The organizer's queue: table → its block of the page."""
    at = page.find("Waiting for you")
    if at < 0:
        return {}
    section = page[at:page.index("</section>", at)]
    return {m[1]: m[2] for m in re.finditer(
        r"<li><strong>Table (\w+)</strong>(.*?)</ul></li>", section, re.DOTALL)}


def test_reports_sent_while_the_desk_is_killed_are_kept_and_applied_once(tmp_path):
    players = [f"Player {n:02d}" for n in range(1, 41)]
    folder = league(tmp_path, SLUG, CONQUEST, players)
    desk = start_desk(tmp_path)
    organizer = None
    phones: list[httpx.Client] = []
    try:
        organizer = desk.client()
        page = organizer.get(f"/_desk/e/{SLUG}").text
        page = organizer.post(f"/_desk/e/{SLUG}/next",
                              data={"csrf": csrf_of(page), "round": "0"}).text
        assert "Round 1 is formed: 20 tables" in page
        page = organizer.post(f"/_desk/e/{SLUG}/phones",
                              data={"csrf": csrf_of(page), "on": "1"}).text
        assert "Reports from phones are on" in page
    finally:
        if organizer is not None:
            organizer.close()
    round_file = folder / "round-1.csv"
    tables = seats_of(round_file)
    assert len(tables) == 20
    secrets = Secrets.of_site(tmp_path)[0]
    # both seats of a table one after the other, the tables in a shuffled order: when the desk
    # is killed some tables are saved, some have one report of two, some are being written
    order = list(tables)
    random.Random(7).shuffle(order)
    seats = [(t, i, p) for t in order for i, p in enumerate(tables[t])]
    accepted: list[tuple[str, int, str, str]] = []
    killed = threading.Event()
    phones = [httpx.Client(base_url=desk.origin, timeout=30) for _ in range(8)]
    free = list(phones)
    local = threading.local()

    def report(seat: tuple[str, int, str]) -> None:
        table, index, player = seat
        if not hasattr(local, "phone"):
            local.phone = free.pop()  # a client of its own per thread
        url = f"/_desk/p/{SLUG}/1/{table}/{index}/{secrets.seat(SLUG, 1, table, player)}"
        try:
            if killed.is_set():
                return
            opened = local.phone.get(url)
            if opened.status_code != 200:
                return
            answer = local.phone.post(url, data={
                "csrf": csrf_of(opened.text), "round": "1", "table": table,
                "fp": fingerprint_of(opened.text, table), "quick": "0:0"})
        except httpx.TransportError:
            return  # the desk was killed under this request: no answer, nothing promised
        assert answer.status_code == 303, answer.text
        # the desk's answer: the page the phone is sent to says what became of the report
        query = urllib.parse.urlsplit(answer.headers["location"]).query
        note = urllib.parse.parse_qs(query)["sent"][0]
        assert "is in" in note or "saved" in note, note
        accepted.append((table, index, player, note))
        try:
            shown = local.phone.get(answer.headers["location"])
            assert shown.status_code == 200 and str(escape(note)) in shown.text
        except httpx.TransportError:
            pass

    try:
        with ThreadPoolExecutor(len(phones)) as pool:
            futures = [pool.submit(report, seat) for seat in seats]
            wait_for(lambda: len(accepted) >= 12, timeout=40, every=0.005)
            desk.kill()
            killed.set()
            for future in futures:
                future.result()
    finally:
        for phone in phones:
            phone.close()
        desk.kill()
    assert 12 <= len(accepted) < len(seats)

    desk = start_desk(tmp_path)
    organizer = None
    try:
        organizer = desk.client()
        page = organizer.get(f"/_desk/e/{SLUG}").text
    finally:
        if organizer is not None:
            organizer.close()
        desk.stop()

    rows = rows_of(round_file)
    # the file parses, each player once, each table's rows together and once
    assert sorted(row["player"] for row in rows) == sorted(players)
    assert seats_of(round_file) == tables
    results = {row["player"]: row["result"] for row in rows}
    queue = queue_of(page)
    for table, index, player, note in accepted:
        first, second = tables[table]
        applied = results[first] == "win" and results[second] == "loss"
        unplayed = results[first] == results[second] == ""
        assert applied or unplayed, (table, results[first], results[second])
        if "it is saved" in note:
            assert applied, f"table {table} was saved, the file does not have it"
        if not applied:
            assert table in queue, f"table {table}'s report by {player} is lost"
            assert f"{escape(player)} says:" in queue[table]
    applied_tables = {t for t, (a, b) in tables.items() if results[a]}
    print(f"\n[desk kill] {len(accepted)} reports answered before the kill; after the restart "
          f"{len(applied_tables)} tables saved, {len(queue)} in the queue; "
          f"replayed: {sum('accepted before the desk stopped' in n for n in desk.lines)}")
    table_results = [r for r in results_in(folder) if r.get("file") == "round-1.csv"]
    written = [r["table"] for r in table_results]
    assert len(written) == len(set(written)), "a table's result was journalled twice"
    for table, (first, second) in tables.items():
        if results[first]:
            assert table in written  # every result in the file came through the journal
    assert main(["check", "--source", str(tmp_path)]) == 0


# ------------------------------------------------------------------ a hand edit


def test_a_hand_edit_while_the_desk_runs_is_never_overwritten(tmp_path, capsys):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:6])
    round_file = pair_by_hand(folder)
    tables = seats_of(round_file)
    desk = start_desk(tmp_path)
    client = None
    try:
        client = desk.client()
        page = client.get(f"/_desk/e/{SLUG}").text
        old_form = {"csrf": csrf_of(page), "round": "1", "table": "1",
                    "fp": fingerprint_of(page, "1"), "quick": "0:0"}
        # the organizer types table 1's result into the file while the form is open
        a, b = tables["1"]
        text = roundfile.parse(round_file.read_text(encoding="utf-8"))
        by_hand = text.with_table("1", [f"1,{a},loss", f"1,{b},modified-win"]).encode()
        round_file.write_bytes(by_hand)
        answer = client.post(f"/_desk/e/{SLUG}/table", data=old_form)
        assert answer.status_code == 409
        assert "table 1 was changed in round-1.csv since this form was opened" in answer.text
        assert round_file.read_bytes() == by_hand
        assert not results_in(folder)
        # the page shows what the file says now: a new form over it saves
        assert fingerprint_of(answer.text, "1") != old_form["fp"]

        # a hand edit of another table between the GET and the POST is kept byte for byte
        page = client.get(f"/_desk/e/{SLUG}").text
        form = {"csrf": csrf_of(page), "round": "1", "table": "3",
                "fp": fingerprint_of(page, "3"), "quick": "1:0"}
        c, d = tables["2"]
        lines = round_file.read_bytes().decode().split("\n")
        at = [i for i, line in enumerate(lines) if line.startswith("2,")]
        lines[at[0]] = f'2,"{c}", win '
        lines[at[1]] = f'2 ,{d},loss'
        edited = "\n".join(lines)
        round_file.write_bytes(edited.encode())
        answer = client.post(f"/_desk/e/{SLUG}/table", data=form)
        assert answer.status_code == 200, answer.text
        e, f = tables["3"]
        expected = roundfile.parse(edited).with_table("3", [f"3,{e},loss", f"3,{f},win"])
        assert round_file.read_bytes() == expected.encode()
        assert f'\n2,"{c}", win \n2 ,{d},loss\n' in round_file.read_text(encoding="utf-8")
    finally:
        if client is not None:
            client.close()
        desk.stop()


# ------------------------------------------------------------------ a tampered journal


def test_a_tampered_journal_is_passed_over_and_nothing_is_written_outside_the_event(tmp_path):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:4])
    round_file = pair_by_hand(folder)
    desk = start_desk(tmp_path)
    desk.stop()
    victim = tmp_path / "victim.csv"
    victim.write_text("table,player,result\n1,Keep Me,win\n", encoding="utf-8")
    passwd = Path("/etc/passwd").read_bytes() if Path("/etc/passwd").exists() else None
    text = roundfile.parse(round_file.read_text(encoding="utf-8"))
    winner, loser = seats_of(round_file)["1"]
    good = [f"1,{winner},win", f"1,{loser},loss"]
    after = roundfile.parse(text.with_table("1", good)).fingerprint("1")
    shape = {"kind": "result", "table": "1", "before": text.fingerprint("1"), "after": after,
             "lines": good, "by": "desk"}

    def line(**changed) -> bytes:
        return json.dumps({**shape, **changed}).encode()

    append_journal(
        folder,
        b"\x00\xff\xfe garbage \x80",
        b'{"kind": "result", "file": "round-1.csv", "table": "1", "bef',  # cut short
        b"[1, 2, 3]", b"42", b"null", b'"a string"', b"{}", b'{"kind": 7}',
        line(file="../../evil.csv"),
        line(file="/etc/passwd"),
        line(file=str(victim)),
        line(file="..\\..\\round-1.csv"),
        line(file="round-1.csv/../../../evil.csv"),
        line(file=["round-1.csv"]), line(file="round-1.csv", table={"1": 1}),
        line(file="round-1.csv", after=[after]),
        line(file="round-1.csv", lines="1,Evil,win"),
        line(file="round-1.csv", lines=[f"1,{winner},win\n9,Evil,win", f"1,{loser},loss"]),
        line(file="round-1.csv", lines=[1, 2]),
        line(file="round-1.csv", table=1),
        line(file="round-1.csv", before=None),
        json.dumps({"kind": "phones", "on": "yes"}).encode(),
        json.dumps({"kind": "report", "round": "1", "table": 1, "seat": -1,
                    "games": "<script>"}).encode(),
        json.dumps({"kind": "timer", "round": 1, "length": 1e300}).encode(),
    )
    # what the desk may write: the site it builds (and the build's state beside it), and the
    # event's own journal
    built = (tmp_path / "_site", tmp_path / "_site.state", folder / JOURNAL)
    outside = snapshot(tmp_path, skip=built)
    desk = start_desk(tmp_path)
    client = None
    try:
        client = desk.client()
        page = client.get(f"/_desk/e/{SLUG}")
        assert page.status_code == 200 and "2 tables to go" in page.text
        assert "Reports from phones" in page.text and "Off: only this desk" in page.text
    finally:
        if client is not None:
            client.close()
        desk.stop()
    assert snapshot(tmp_path, skip=built) == outside
    assert not (tmp_path / "data" / "evil.csv").exists() and not (tmp_path / "evil.csv").exists()
    assert victim.read_text(encoding="utf-8") == "table,player,result\n1,Keep Me,win\n"
    if passwd is not None:
        assert Path("/etc/passwd").read_bytes() == passwd
    assert not [n for n in desk.lines if "Traceback" in n or "Evil" in n]
    assert [p.name for p in folder.iterdir()] and not list(folder.glob(".*.tmp"))


@pytest.mark.parametrize("record", [
    {"kind": "result", "file": ["round-1.csv"], "table": "1", "before": "x", "after": "y",
     "lines": []},
    {"kind": "done", "file": "round-1.csv", "table": {"1": 1}, "after": "y"},
    {"kind": "result", "file": "round-1.csv", "table": "1", "before": "x", "after": [1],
     "lines": []},
], ids=["result-file-list", "done-table-object", "result-after-list"])
def test_a_journal_record_of_lists_or_objects_is_passed_over_too(tmp_path, record):
    folder = league(tmp_path, SLUG, CONQUEST, NAMES[:4])
    round_file = pair_by_hand(folder)
    before = round_file.read_bytes()
    append_journal(folder, json.dumps(record).encode())
    desk = start_desk(tmp_path)  # it starts (a TypeError stopped it once: unhashable type)
    desk.stop()
    assert round_file.read_bytes() == before
