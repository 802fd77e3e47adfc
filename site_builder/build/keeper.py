"""The state an engine builds from, and how far it is trusted.

It is read from disk once (never with --clean), its pages are checked against their files
before each build until one from it succeeds (ondisk.py), and it is dropped — the next build a
full one — when anything in it turns out not to hold together: a state turned down as it is
read (state.py), a link in the output folder, or, later, a result read only when a page shows it
that is no result, or facts that contradict each other. A watch session keeps it in memory
between rebuilds, and what came from disk stays suspect until a full build replaces it.
"""

from __future__ import annotations

import gc
from pathlib import Path

from ..files.inputs import FileDigests
from .ondisk import OnDisk, check_output
from ..core.problems import SiteError
from .state import (BuildState, Refused, StateNotSaved, check_state_path, load_state,
                    save_state, state_file)
from ..core.statecodec import Damaged


def settle() -> None:
    """Put what is in memory now out of the garbage collector's sight: called when a state
    that lives as long as the process is in memory (read from disk, or made by a watch
    session's first build). The collector's full passes would otherwise go through its
    hundreds of thousands of objects again and again (a quarter of a small rebuild's time).
    This is the one collector setting of the tool besides the pause while a state is read."""
    gc.freeze()


class Keeper:
    def __init__(self, out: Path | None, code: str, clean: bool):
        self.out, self.code, self.clean = out, code, clean
        self.state: BuildState | None = None
        self.digests = FileDigests()
        self.on_disk: OnDisk | None = None
        """The output folder as the first build from a state read from disk found it."""
        self._loaded = False
        self._from_disk = False
        """What the state holds came from a file, and no full build has replaced it yet."""
        self._unchecked = False
        """Read from disk, and no build from it has succeeded yet: its pages are checked."""
        self._refused: Refused | None = None

    # ---------------------------------------------------------------- before a build

    def prepare(self) -> None:
        """Before a build that writes: refuse a state path in the way, read the state the
        first time, check its pages while no build from it has succeeded."""
        check_state_path(self.out)
        if not self._loaded:
            self._loaded = True
            if not self.clean:
                self._read()
        if self._unchecked:
            checked = check_output(self.out, self.state)
            if isinstance(checked, Refused):
                self.forget(checked)
            else:
                self.on_disk = checked

    def _read(self) -> None:
        loaded = load_state(self.out, self.code)
        if isinstance(loaded, Refused):
            self._refused = loaded
        elif loaded is not None:
            self.state, self.digests = loaded, loaded.digests
            self._from_disk = self._unchecked = True
            settle()

    @property
    def changed_on_disk(self) -> frozenset[str]:
        return self.on_disk.changed if self.on_disk is not None else frozenset()

    def note(self) -> str:
        """Why the state was not used, said once, by the build that did not use it: only when it
        was damaged or tampered with (one of another version is expected after an upgrade)."""
        refused, self._refused = self._refused, None
        if refused is None or not refused.damaged:
            return ""
        return f"{state_file(self.out)} was not used: {refused.reason}"

    # ---------------------------------------------------------------- after a build

    def drop_if_damaged(self, error: Exception) -> bool:
        """After a build failed with `error`: when what it read of a state from disk may be the
        cause (anything but a data, theme or system error), drop the state and say so; the
        caller builds again from nothing. False when the error is the build's own."""
        if not self._from_disk or isinstance(error, (SiteError, OSError)):
            return False
        reason = (f"it is not what a build writes ({error})" if isinstance(error, Damaged) else
                  f"what it holds does not fit together ({type(error).__name__}: {error})")
        self.forget(Refused(reason, True))
        return True

    def forget(self, refused: Refused | None = None) -> None:
        """Build the next site from nothing: the state was turned down, or the output folder may
        no longer be what it describes (a build stopped while swapping files in, a full disk)."""
        self.state, self.on_disk, self.digests = None, None, FileDigests()
        self._loaded, self._from_disk, self._unchecked = True, False, False
        if refused is not None:
            self._refused = refused

    def adopt(self, state: BuildState) -> None:
        """The state of a build that succeeded. What it kept of the state before (the facts of
        unchanged events) is still from disk if that was."""
        state.digests = self.digests
        if self.state is not None:  # the records packed before, for the events kept
            state.packed = self.state.packed
        self.digests.done()
        self.state, self.on_disk, self._unchecked = state, None, False

    def save(self) -> None:
        """Write the state beside the output (StateNotSaved if it cannot be). A state older than
        the output is safe too: every page it records is checked against its file when a new
        process reads it, and a page that changed since is drawn again."""
        if self.state is not None:
            save_state(self.out, self.state)


__all__ = ["Keeper", "StateNotSaved", "settle"]
