"""Files the build may not read or write, and a full disk (issue 18, point 4): one message naming
the file or folder and what to do, never a traceback, and the published site stays.

Permissions do not bite root, so as root each build runs in a forked child that has become the
ordinary user `nobody`; run as an ordinary user, the tests build in-process."""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import conquest_event, write_files
from site_builder.cli import main

EV = "data/events/2024-05-18-cup"
ROUND_1 = "table,player,result\n1,Ada,win\n1,Bram,loss\n2,Cleo,win\n2,Dan,loss\n"
NOBODY = 65534


def run(args: list[str], as_user: bool = True, file_size_limit: int | None = None):
    """site-builder ARGS as an ordinary user (and with a file-size limit, if given):
    (exit code, stderr). A limit is set in a child process, where it stays."""
    becomes_nobody = as_user and os.geteuid() == 0
    if not becomes_nobody and file_size_limit is None:
        return _run_here(args, None)
    return forked(lambda: _run_here(args, file_size_limit), becomes_nobody)


def forked(work, as_nobody: bool):
    """`work()` → (exit code, text) in a forked child, as `nobody` if asked."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: reports through the pipe, and never returns into pytest
        code = 99
        try:
            os.close(read)
            if as_nobody:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            code, text = work()
            os.write(write, text.encode())
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), text


def _run_here(args: list[str], file_size_limit: int | None):
    err = io.StringIO()
    if file_size_limit is not None:  # the system refuses writes past it, as a full disk does
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    with contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            import traceback
            traceback.print_exc(file=err)
            code = 98
    return code, err.getvalue()


@pytest.fixture
def shared():
    """A folder everyone may use (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="sb-perm-"))
    folder.chmod(0o777)
    yield folder
    for path in folder.rglob("*"):  # give back what a test took away, so it can be removed
        if not path.is_symlink():
            path.chmod(0o777)
    shutil.rmtree(folder)


@pytest.fixture
def published(shared):
    """A site and its published build, all of it the ordinary user's to read and replace."""
    source = write_files(shared / "site", {
        f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": ROUND_1,
        "content/about.md": "# About\n",
        "themes/default/templates/404.html": '{% extends "base.html" %}',
        "themes/default/static/extra.css": "p{}",
    })
    out = shared / "out"
    for path in [shared, *shared.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o666)
    code, err = run(["build", "--source", str(source), "--out", str(out)])
    assert code == 0, err
    return source, out


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("path,message", [
    (f"{EV}/round-1.csv", "cannot be read: Permission denied"),
    (EV, "cannot be read: Permission denied: give the build access to it (chmod), or move it out "
         "of the site"),
    ("content", "cannot be read: Permission denied: give the build access to it (chmod)"),
    ("data/events", "cannot be read: Permission denied: give the build access to it (chmod)"),
    ("themes/default/templates", "cannot be read: Permission denied: give the build access"),
    ("themes/default/static/extra.css", "cannot be read: Permission denied: give the build access"),
])
def test_an_unreadable_input_is_one_error_and_the_site_stays(published, path, message):
    source, out = published
    before = snapshot(out)
    (source / path).chmod(0)
    for command in (["check", "--source", str(source)],
                    ["build", "--source", str(source), "--out", str(out)]):
        code, err = run(command)
        assert code == 1, err
        assert f"{source / path}: {message}" in err, err
        assert "Traceback" not in err
    assert snapshot(out) == before


def test_an_output_folder_the_user_may_not_write_is_one_message(published):
    source, out = published
    before = snapshot(out)
    out.parent.chmod(0o755)  # root's: the ordinary user can no longer make or swap folders in it
    code, err = run(["build", "--source", str(source), "--out", str(out)])
    assert code == 1
    assert err.startswith("site-builder: could not write the site: Permission denied")
    assert err.rstrip().endswith(f"the previous site in {out}/ is unchanged.") and \
        len(err.splitlines()) == 1, err
    assert snapshot(out) == before


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB file system, or None where this machine does not let tests mount one."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount") or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
            capture_output=True).returncode != 0:
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_one_message_and_the_site_stays(small_disk, tmp_path):
    source = write_files(tmp_path / "site", {
        f"{EV}/event.toml": conquest_event(structure="custom", swiss_rounds=2, cut=0),
        f"{EV}/round-1.csv": ROUND_1})
    out = (small_disk or tmp_path) / "out"
    code, err = run(["build", "--source", str(source), "--out", str(out)], as_user=False)
    assert code == 0, err
    before = snapshot(out)
    # A report of 1.25 MB: the event's page no longer fits on the 1 MB disk.
    write_files(source, {"content/events/2024-05-18-cup.md": "# Report\n\n" + "word " * 250_000})
    if small_disk is not None:
        code, err = run(["build", "--source", str(source), "--out", str(out)], as_user=False)
        expected = "could not write the site: No space left on device"
    else:  # the same failure through a file-size limit, in a child so the limit stays there
        expected = "could not write the site: File too large"
        code, err = run(["build", "--source", str(source), "--out", str(out)], as_user=False,
                        file_size_limit=200_000)
    assert code == 1, err
    assert err.startswith(f"site-builder: {expected}") and "Traceback" not in err, err
    assert snapshot(out) == before
    # No staging folder left; the state of the last good build stays beside it.
    assert sorted(p.name for p in out.parent.iterdir()) == ["out", "out.state"]


def test_the_child_runs_as_an_ordinary_user(shared):
    """The premise of this file: the forked child cannot read what only root may."""
    if os.geteuid() != 0:
        pytest.skip("already an ordinary user")
    secret = shared / "root-only"
    secret.write_text("x")
    secret.chmod(0o600)
    assert forked(lambda: (0, str(os.access(secret, os.R_OK))), as_nobody=True) == (0, "False")
    assert forked(lambda: (0, str(os.access(secret, os.R_OK))), as_nobody=False) == (0, "True")


def test_a_source_folder_the_user_may_not_read_is_named(published):
    source, out = published
    source.chmod(0o700)  # root's own: the ordinary user may not list it
    for command in (["check", "--source", str(source)],
                    ["build", "--source", str(source), "--out", str(out)]):
        code, err = run(command)
        assert code == 1 and err == (f"site-builder: --source {source} cannot be read: Permission "
                                     "denied: give the build access to it (chmod)\n"), err
