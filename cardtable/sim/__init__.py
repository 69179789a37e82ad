"""The simulation lab: thousands of bot games in one call, a results store and a balance report.

    import cardtable.sim
    table = cardtable.sim.run("juno", agents=["heuristic", "random"], games=1000, seed=0,
                              players=2, options={"match": False}, out="runs/j1")   # seats rotate
    report = cardtable.sim.analyze(table)        # figures; summary(report) for the terminal
    cardtable.sim.report_html(report, "runs/j1/report.html")

See docs/simulation.md.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import impact
from .analysis import Report, analyze
from .job import Job, SimError, play_game
from .render import report_html, summary, write_tables
from .runner import run
from .store import SCHEMA, read_table

__all__ = ["SCHEMA", "Job", "Report", "SimError", "analyze", "impact", "load", "play_game", "read_table", "report_html",
           "run", "summary", "write_tables"]


def load(folder: str | Path) -> pl.DataFrame:
    """The results in `folder` as a polars DataFrame, sorted by seed."""
    frame = pl.from_arrow(read_table(Path(folder)))
    assert isinstance(frame, pl.DataFrame)
    return frame
