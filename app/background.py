"""A process's long-running background loops (the clock timer, the SQLite change watcher)."""
from __future__ import annotations

import asyncio


class Background:
    """One asyncio task running the subclass's ``_run()`` loop from :meth:`start` until
    :meth:`stop` (which cancels it and waits for it to end)."""

    _task: asyncio.Task | None = None

    async def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        """Start the loop (in the running event loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the loop."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
