"""The files of the output folder as a watch session knows them: their lengths, how a rebuild
writes a page beside its published file and swaps it in, and what is deleted, by whom and when.

Readers (the preview server, a browser) always find the old page or the new one, never neither
and never half of one: see write.replace_file. Only this and write.py touch the output folder.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from .write import delete_files, has_bytes, replace_file, write_new_file

Staged = tuple[str, int, str]
"""(path relative to the output folder, length, temporary file beside the published one)."""


class PublishedFiles:
    def __init__(self, out: Path):
        self._out = os.fspath(out)
        self._pid = os.getpid()
        self.sizes: dict[str, int] = {}
        """Output path → the length of the published file (see published)."""
        self._folders: set[str] = set()
        """Output folders known to exist, as `file` names them."""
        self._background: ThreadPoolExecutor | None = None
        """Writes large files while pages render (see LARGE_FILE), and deletes the replaced
        pages once the new ones are in place; made when first needed."""
        self._deleting: Future | None = None
        """The deletion of the last rebuild's replaced pages (see put_in_place)."""

    LARGE_FILE = 1 << 20
    """Files of this many bytes or more are compared and written by a thread while the next
    pages render. The rankings of the 1,000-event archive (a 4.7 MB page and 7.4 MB of JSON)
    change with every corrected result; reading back and writing their 12 MB took ~10 ms.
    A thread pays off for a few large files only: it needs the interpreter between its system
    calls (see Project._render)."""

    def put_in_place(self, staged: list[Staged]) -> None:
        """Swap each staged file with its published page; the thread then deletes the old pages
        (left under the temporary names). Deleting a page written to disk long ago cost up to
        0.5 ms (ext4 frees its blocks): 40 ms of a round's republishing, spent after its pages
        were already out. The thread's unlinks leave the interpreter to the main thread."""
        replaced = [temporary for path, _, temporary in staged
                    if replace_file(temporary, self.file(path))]
        if replaced:
            self._deleting = self.writer().submit(delete_files, replaced)

    def finish_deleting(self) -> None:
        """Wait until the last rebuild's replaced pages are deleted."""
        if self._deleting is not None:
            self._deleting.result()
            self._deleting = None

    def writer(self) -> ThreadPoolExecutor:
        if self._background is None:
            self._background = ThreadPoolExecutor(1, thread_name_prefix="site-builder-write")
        return self._background

    def stage(self, relative: str, data: bytes, staged: list[Staged]) -> None:
        """Unless the published file already has these bytes, write them to a temporary file
        beside it and add (path, length, temporary file) to `staged`."""
        done = self.staged(relative, data)
        if done is not None:
            staged.append(done)

    def file(self, relative: str) -> str:
        """The output file of a path relative to the output folder. Names are strings, not
        Paths, on the way of every page a rebuild writes: making the Paths cost a tenth of
        writing the files (0.02 ms a page of the 0.1 ms)."""
        return f"{self._out}/{relative}"

    def staged(self, relative: str, data: bytes) -> Staged | None:
        """(path, length, temporary file) of the bytes written beside the published file, or
        None when it already has them."""
        if self.published(relative, data):
            return None
        folder, _, name = self.file(relative).rpartition("/")
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        temporary = f"{folder}/.{name}.tmp-{self._pid}"
        write_new_file(temporary, data)
        return relative, len(data), temporary

    def published(self, relative: str, data: bytes) -> bool:
        """Whether the published file already has these bytes. Its remembered length answers
        most of the time (a new round makes its pages longer); a file of the same length is read
        back, from the system's cache, and compared. That costs less than hashing every page
        did (SHA-256 of a round's 6 MB of pages: 8 ms), and a file changed or removed behind
        our back is noticed. (Keeping the bytes written lately, to compare in memory, was tried:
        5 ms less a correction, whose swapped numbers keep most lengths, but 28 ms more a Swiss
        round: a process holding 64 MB of page bytes rendered and wrote slower.)"""
        return self.sizes.get(relative) == len(data) and has_bytes(self.file(relative), data)

    def delete(self, relative: str) -> bool:
        """Delete a published file (and the folders it leaves empty); whether it was there."""
        target = self.file(relative)
        self.sizes.pop(relative, None)
        if not os.path.exists(target):
            return False
        os.unlink(target)
        folder = os.path.dirname(target)
        while folder != self._out and not os.listdir(folder):  # emptied: it goes too
            os.rmdir(folder)
            self._folders.discard(folder)
            folder = os.path.dirname(folder)
        return True
