"""Putting new files in place: a reader of the published site never finds a page missing or
half-written, and nothing is left behind."""

from __future__ import annotations

import errno
import sys
import threading
from pathlib import Path

import pytest

from site_builder.build.publish import FreshFolder
from site_builder.build.write import delete_files, exchange, replace_file

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="renameat2 (exchanging two names) is Linux's")


@linux_only
def test_exchange_swaps_two_files_and_reports_what_it_cannot(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.write_text("one")
    second.write_text("two")
    assert exchange(first, second)
    assert (first.read_text(), second.read_text()) == ("two", "one")
    # A missing target cannot be exchanged: nothing changes and the caller renames instead.
    assert not exchange(first, tmp_path / "missing")
    assert first.read_text() == "two" and not (tmp_path / "missing").exists()


def test_replace_file_puts_the_new_bytes_in_place_and_leaves_nothing(tmp_path):
    target, staged = tmp_path / "index.html", tmp_path / ".index.html.tmp"
    target.write_text("old")
    staged.write_text("new")
    replace_file(staged, target)
    assert target.read_text() == "new"
    staged.write_text("first")
    replace_file(staged, tmp_path / "fresh.html")  # no page there yet
    assert (tmp_path / "fresh.html").read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.html", "index.html"]


def test_a_reader_never_finds_the_page_missing_or_torn_while_it_is_replaced(tmp_path):
    """Deleting the old page and renaming the new one in (a cheap way round ext4's flush on
    rename) would leave a moment with no page: a player reloading then would get a 404."""
    target = tmp_path / "index.html"
    versions = [(f"<p>version {i}</p>" * 2000).encode() for i in range(2)]
    target.write_bytes(versions[0])
    seen, stop = [], threading.Event()

    def read_repeatedly():
        while not stop.is_set():
            try:
                seen.append(target.read_bytes() in versions)
            except FileNotFoundError:
                seen.append(False)

    reader = threading.Thread(target=read_repeatedly)
    reader.start()
    try:
        i = 0
        # Swaps until the reader has read often enough: on a busy machine it may get few turns.
        while i < 400 or (len(seen) <= 100 and i < 40_000):
            i += 1
            staged = tmp_path / ".index.html.tmp"
            staged.write_bytes(versions[i % 2])
            if replace_file(staged, target):  # the old page is left under the staged name
                delete_files([staged])  # deleted, never written over: a reader may have it open
    finally:
        stop.set()
        reader.join()
    assert len(seen) > 100 and all(seen)


def write_site(out: Path, files: dict[str, bytes]) -> None:
    """A whole site, as a full build publishes it."""
    staging = FreshFolder(out)
    staging.commit([staging.write(name, files[name]) for name in sorted(files)])


def test_a_new_build_replaces_the_old_one_whole(tmp_path):
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old", "gone/index.html": b"x"})
    write_site(out, {"index.html": b"new"})
    assert (out / "index.html").read_bytes() == b"new" and not (out / "gone").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging or old build left


def test_has_bytes_is_true_only_for_exactly_those_bytes(tmp_path):
    from site_builder.build.write import has_bytes
    page = tmp_path / "index.html"
    page.write_bytes(b"<p>12 points</p>")
    assert has_bytes(str(page), b"<p>12 points</p>")
    assert not has_bytes(str(page), b"<p>13 points</p>")  # same length, other bytes
    assert not has_bytes(str(page), b"<p>12 points")  # the file is longer
    assert not has_bytes(str(page), b"<p>12 points</p>\n")  # the file is shorter
    assert not has_bytes(str(tmp_path / "missing.html"), b"")
    assert not has_bytes(str(tmp_path), b"")  # a folder cannot be read as a page


def test_write_new_file_replaces_the_content_and_leaves_no_piece_when_the_disk_refuses(tmp_path):
    """A write the system refuses halfway (here a file-size limit, as a full disk would) raises
    and leaves no half-written file behind."""
    import subprocess
    from site_builder.build.write import write_new_file
    target = tmp_path / ".index.html.tmp"
    target.write_bytes(b"an older, longer temporary file")
    write_new_file(str(target), b"new")
    assert target.read_bytes() == b"new"
    target.unlink()
    script = (
        "import resource, signal, sys\n"
        "from site_builder.build.write import write_new_file\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "try:\n"
        "    write_new_file(sys.argv[1], b'x' * 100_000)\n"
        "except OSError as exc:\n"
        "    print(exc.errno)\n")
    if not sys.platform.startswith("linux"):
        pytest.skip("file-size limits are set the POSIX way")
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True,
                          text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.strip() == str(errno.EFBIG)
    assert not target.exists()
