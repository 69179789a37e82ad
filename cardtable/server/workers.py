"""Worker processes the server thinks in: the bots' moves (`bots.py`) and the coach's reviews and hints
(`coaching.py`). A search holds the interpreter (the GIL) while it runs; in a process of its own it never
holds the one that serves people's websockets and moves."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor


class Workers:
    """A pool of spawned worker processes, started at its first use. A worker that dies (killed, out of
    memory) breaks the pool: every job in it fails with BrokenProcessPool; `broken(pool)` drops that pool
    and the next use starts new workers."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def pool(self, size: int) -> ProcessPoolExecutor:
        """The running pool, or a new one of `size` workers."""
        if self._pool is None:
            # spawn: a fork of a process running an event loop and threads is not safe
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(size, mp_context=context, initializer=_worker_init,
                                             initargs=(os.getpid(),))
        return self._pool

    @property
    def running(self) -> ProcessPoolExecutor | None:
        """The pool if one was started (None before the first use and after `close`)."""
        return self._pool

    def broken(self, pool: ProcessPoolExecutor) -> None:
        """`pool` lost a worker: drop it, unless another job found it broken first and it was replaced
        already (the new pool's workers are alive, and its jobs must not be cancelled)."""
        if pool is self._pool:
            self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _worker_init(parent: int) -> None:
    """A worker process starts: it exits once the server process is gone, so a server that was killed
    leaves no worker waiting for work behind it."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="cardtable-worker-parent").start()
