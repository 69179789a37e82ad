"""`cardtable.sim.run(...)`: thousands of games in one call, one row per game."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, Literal

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from . import backends, store
from .job import Job, SimError

#: write finished rows to disk at least this often (seconds), so Ctrl-C or a crash loses little
FLUSH_SECONDS = 5.0


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("  -- games/s" if speed is None else f"{speed:7.1f} games/s", style="cyan")


def chunked(seeds: list[int], workers: int) -> list[list[int]]:
    """Chunks small enough to balance the workers and show progress, big enough to keep the
    overhead low. Chunking never changes a result: each game depends on its seed only."""
    size = max(1, min(50, len(seeds) // (workers * 50) if workers > 1 else 1))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def run(
    game: str,
    agents: list[str] | tuple[str, ...] | str = ("random",),
    games: int = 100,
    seed: int = 0,
    *,
    variant: str | None = None,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    rotate: bool = True,
    counters: bool = True,
    workers: int | None = None,
    backend: Literal["local", "ray"] = "local",
    address: str | None = None,
    out: str | Path | None = None,
    progress: bool | Console = False,
    on_rows: Callable[[int], bool] | None = None,
) -> pl.DataFrame:
    """Play `games` games with seeds `seed, seed+1, ...` and return one row per game, sorted
    by seed (columns: docs/simulation.md). With `out`, rows are also written to Parquet in that
    folder and seeds already there are not played again. Ctrl-C stops the run: the games that
    finished are kept (and returned). `agents`: one spec per seat, cycled over the seats
    (`"heuristic,random"` or a list); `rotate` (the default) turns the seats by one per seed, so seat and agent
    strength are not mixed up. `on_rows(n)` is told each time n more games finished; when it
    answers False the run stops as Ctrl-C does (the designers' lab: its progress bar and stop button)."""
    opts = dict(options or {})
    if variant is not None:
        opts["variant"] = variant
    if players is not None:
        opts["players"] = players
    specs = agents.split(",") if isinstance(agents, str) else list(agents)
    job = Job.build(game, opts, specs, rotate=rotate, counters=counters)
    if games < 0:
        raise SimError(f"the number of games must be 0 or more, got {games}")
    if backend not in ("local", "ray"):
        raise SimError(f"backend is 'local' or 'ray', got {backend!r}")
    if workers is not None and workers < 1:
        raise SimError(f"workers must be 1 or more, got {workers}")
    wanted = list(range(seed, seed + games))
    folder = Path(out) if out is not None else None
    todo = wanted
    if folder is not None:
        store.open_folder(folder, job)
        done = store.finished_seeds(folder)
        todo = [s for s in wanted if s not in done]
        store.mark_running(folder, (seed, seed + games))
    n_workers = workers or backends.default_workers()
    chunks = chunked(todo, n_workers)
    stream: Generator[backends.Rows, None, None] = (
        backends.ray(job, chunks, workers, address) if backend == "ray" else backends.local(job, chunks, n_workers)
    )
    console = progress if isinstance(progress, Console) else Console(stderr=True)
    bar = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console, disable=progress is False,
        refresh_per_second=4,
    )
    kept: list[backends.Rows] = []  # in memory only without a folder
    finished = 0
    unsaved: list[backends.Rows] = []
    flushed = time.monotonic()
    with bar:
        task = bar.add_task(f"{job.game} {backend}", total=len(wanted), completed=len(wanted) - len(todo))
        try:
            for batch in stream:
                finished += batch.num_rows
                bar.advance(task, batch.num_rows)
                if folder is None:
                    kept.append(batch)
                else:
                    unsaved.append(batch)
                    if time.monotonic() - flushed > FLUSH_SECONDS:
                        store.write_part(folder, unsaved)
                        unsaved, flushed = [], time.monotonic()
                if on_rows is not None and not on_rows(batch.num_rows):
                    break
        except KeyboardInterrupt:
            bar.stop()
            console.print(f"[yellow]Stopped: {finished} new games finished and kept.[/]")
        finally:
            stream.close()  # stops the pool or cancels the Ray tasks
            if folder is not None:
                store.write_part(folder, unsaved)
                store.compact(folder)
                store.mark_done(folder)
    if folder is None:
        table = store.concat(kept)
    else:
        table = store.read_table(folder)
        lo, hi = seed, seed + games
        seeds = table.column("seed")
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        table = table.filter(pc.and_(pc.greater_equal(seeds, lo), pc.less(seeds, hi)))
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame
