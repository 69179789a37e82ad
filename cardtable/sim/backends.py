"""Where the games run: in this process, a local process pool, or a Ray cluster.

Each backend takes chunks of seeds and yields the finished rows chunk by chunk as they come
back (in any order), each chunk as an Arrow table built in the worker (cheap to send back and
to write). Closing the generator (or Ctrl-C inside it) stops the workers.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any, TypeAlias

from .job import Job, SimError, play_chunk
from .store import to_table

Rows: TypeAlias = Any  # a pyarrow.Table of result rows (pyarrow ships no type information)


def chunk_table(job: Job, seeds: list[int]) -> Rows:
    return to_table(play_chunk(job, seeds))


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the workers ignore it and the
    # parent stops them, so the parent alone decides what is kept.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> Any:
    """Fork when this process runs one thread (fastest: the workers start with everything imported).
    Forking a process that runs other threads (a server: the designers' lab) can leave a worker
    waiting forever on a lock some other thread held at the fork, so then the workers are forked
    from a fork server: a clean process started once, with the simulator imported."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


@contextmanager
def _ctrl_c_held(context: Any = None) -> Iterator[None]:
    """Hold Ctrl-C while the worker processes start, and raise it (KeyboardInterrupt) once they are
    started. Arriving during the start, it broke multiprocessing halfway (the fork server dies in its
    imports; tracebacks from its internals and its finalizers) instead of stopping the run the way
    `runner.run` says. Held twice over: blocked in this thread, a mask the fork server inherits through
    its exec, so the terminal's Ctrl-C waits until it ignores SIGINT; and caught by a handler that only
    notes it, since another thread (the progress bar's) may take the signal. Only when Ctrl-C raises
    KeyboardInterrupt here (the main thread, Python's handler): otherwise there is nothing to hold."""
    if (threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask")
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    pressed: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    if context is not None and context.get_start_method() != "fork":
        # Started later, multiprocessing's resource tracker would unblock SIGINT (it blocks and then
        # unblocks it around its own start) before the fork server is started: start it first.
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    failed: Exception | None = None
    try:
        yield
    except Exception as exc:
        failed = exc
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a Ctrl-C held by the mask reaches the noting handler
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:  # the start may have failed because of it (a fork server interrupted): Ctrl-C wins
        raise KeyboardInterrupt
    if failed is not None:
        raise failed


def local(job: Job, chunks: list[list[int]], workers: int) -> Generator[Rows, None, None]:
    if workers <= 1:
        for seeds in chunks:
            yield chunk_table(job, seeds)
        return
    with start_pool(_context(), workers) as pool:  # leaving the block terminates the pool
        yield from pool.imap_unordered(functools.partial(chunk_table, job), chunks)


def start_pool(context: Any, workers: int) -> Any:
    """A pool of `workers` processes of `context` that ignore Ctrl-C (the parent decides what is kept),
    started with Ctrl-C held (`_ctrl_c_held`): one pressed meanwhile is a KeyboardInterrupt once it exists,
    and then the pool is stopped."""
    pool = None
    try:
        with _ctrl_c_held(context):
            pool = context.Pool(workers, initializer=_ignore_sigint)
    except KeyboardInterrupt:
        if pool is not None:
            pool.terminate()
        raise
    return pool


def ray(job: Job, chunks: list[list[int]], workers: int | None, address: str | None) -> Generator[Rows, None, None]:
    """The same chunks as Ray tasks. With `address`, join that cluster (every node needs the
    same cardtable and dependencies installed, see docs/simulation.md); without it, start a
    local Ray instance with `workers` CPUs and shut it down afterwards."""
    try:
        import ray as ray_mod
    except ImportError:
        raise SimError("the Ray backend needs the `ray` package: pip install 'ray[default]'") from None
    started = False
    if not ray_mod.is_initialized():
        if address:
            try:
                ray_mod.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise SimError(
                    f"cannot join the Ray cluster at {address}: {exc}. Check the address `ray start --head` printed "
                    "and, when the cluster uses token authentication, run with RAY_AUTH_MODE=token and the head's "
                    "token (see docs/simulation.md)"
                ) from None
        else:
            # address="local": a new instance of our own, even when `ray start` runs on this machine
            ray_mod.init(address="local", num_cpus=workers or default_workers(), include_dashboard=False,
                         log_to_driver=False)
        started = True
    pending: list[Any] = []
    try:
        task = ray_mod.remote(num_cpus=1, max_retries=2)(chunk_table)
        job_ref = ray_mod.put(job)
        resources: dict[str, float] = ray_mod.cluster_resources()  # type: ignore[no-untyped-call]
        capacity = int(resources.get("CPU", 1))
        in_flight = 2 * (workers if workers and not address else capacity)
        todo = iter(chunks)
        for seeds in todo:
            pending.append(task.remote(job_ref, seeds))
            if len(pending) >= in_flight:
                break
        while pending:
            done, pending = ray_mod.wait(pending, num_returns=1)
            for ref in done:
                yield ray_mod.get(ref)
            for seeds in todo:
                pending.append(task.remote(job_ref, seeds))
                break
    finally:
        for ref in pending:
            ray_mod.cancel(ref, force=True)
        if started:
            ray_mod.shutdown()
