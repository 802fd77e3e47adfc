"""What tells the walls and desks that something changed, and the rebuild after a change.

* `Bulletin`: a generation number, raised from any thread (a saved result, a rebuild, the
  timer); each open wall's server-sent-events stream waits on it in the server's event loop,
  with no thread held per open page.
* `Builder`: one thread that rebuilds the site after each change (the desk's own writes and the
  watcher's news of hand edits alike); changes arriving while it builds make one more build.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable


class Bulletin:
    def __init__(self):
        self.generation = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._waiting: set[asyncio.Future] = set()
        self.closed = False

    def raise_generation(self) -> None:
        """Safe from any thread."""
        self.generation += 1
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:
                pass  # the loop stopped meanwhile: nobody is waiting any more

    def close(self) -> None:
        self.closed = True
        self.raise_generation()

    def _wake(self) -> None:
        for future in self._waiting:
            if not future.done():
                future.set_result(None)
        self._waiting.clear()

    async def wait(self, generation: int, timeout: float) -> int:
        """The generation once it differs from `generation`, or after `timeout` seconds."""
        if self.generation != generation or self.closed:
            return self.generation
        self.loop = asyncio.get_running_loop()
        future = self.loop.create_future()
        self._waiting.add(future)
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            pass
        finally:
            self._waiting.discard(future)
        return self.generation


class Builder:
    """Runs `rebuild(changed)` on its own thread, one at a time, after each `request`."""

    def __init__(self, rebuild: Callable[[list[str]], None]):
        self._rebuild = rebuild
        self._changed: list[str] = []
        self._condition = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="desk-builder", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def request(self, changed: list[str]) -> None:
        with self._condition:
            self._changed.extend(changed)
            self._condition.notify()

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._changed or self._stopped)
                if self._stopped:
                    return
                changed, self._changed = sorted(set(self._changed)), []
            self._rebuild(changed)
