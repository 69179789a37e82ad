"""The report never crashes on results the simulator can produce: generated runs of every
shape (one game or many, one to five seats, one agent or several, nobody or everybody
winning, ties, constant or extreme lengths and scores, no cards or few, still being written,
another version) give a summary, a page and tables, or a clear SimError, never a traceback."""

from __future__ import annotations

import base64
import io
import math
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from cardtable.sim import SimError, analyze, impact, report_html, summary
from cardtable.sim.compare import compare, compare_html
from cardtable.sim.compare import summary as compare_summary
from cardtable.sim.job import current_version

from .test_report import frame, row

AGENTS = ["heuristic", "random", "ismcts:iterations=5"]
CARDS = ["red 1", "wild", "Dagger", "Merchant"]
COUNTERS = ["played", "dealt", "drawn", "took"]


@st.composite
def runs(draw: st.DrawFn) -> list[dict[str, Any]]:
    players = draw(st.integers(1, 5))
    agents = draw(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=players, unique=True))
    rotate = draw(st.booleans())
    games = draw(st.integers(0, 14))
    winner_rule = draw(st.sampled_from(["any", "nobody", "everybody", "seat 0", "one agent"]))
    length = st.integers(0, 5000) if draw(st.booleans()) else st.just(draw(st.integers(1, 40)))
    score = st.floats(-1e6, 1e6, allow_nan=False) if draw(st.booleans()) else st.just(0.0)
    out = []
    for g in range(games):
        shift = g % players if rotate else 0
        seats = [agents[((s - shift) % players) % len(agents)] for s in range(players)]
        if winner_rule == "any":
            winners = sorted(draw(st.sets(st.integers(0, players - 1), max_size=players)))
        elif winner_rule == "nobody":
            winners = []
        elif winner_rule == "everybody":
            winners = list(range(players))
        elif winner_rule == "seat 0":
            winners = [0]
        else:
            winners = [s for s in range(players) if seats[s] == agents[0]]
        cards = draw(st.lists(st.tuples(st.integers(0, players - 1), st.sampled_from(COUNTERS),
                                        st.sampled_from(CARDS), st.integers(1, 3)), max_size=6,
                              unique_by=lambda c: c[:3]))
        out.append(row(g, seats, draw(st.integers(0, players - 1)), winners,
                       [draw(score) for _ in range(players)], draw(length), cards, players=players))
    return out


def _job(rows: list[dict[str, Any]], version: bool) -> dict[str, Any]:
    agents = sorted({a for r in rows for a in r["agents"]})
    rotated = len({tuple(r["agents"]) for r in rows}) > 1
    return {"game": "juno", "agents": agents, "rotate": rotated,
            "version": current_version("juno") if version else {"cardtable": "0.0.1", "rules": "0" * 12}}


STATUS = st.sampled_from([None, {"alive": True, "first_seed": 0, "end_seed": 100}, {"alive": False}])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=runs(), version=st.booleans(), status=STATUS, few=st.booleans())
def test_every_run_gets_figures_and_a_summary_or_a_clear_refusal(
    rows: list[dict[str, Any]], version: bool, status: dict[str, Any] | None, few: bool
) -> None:
    # `few`: cards are estimated from a single seat-game, so ranking and plots meet tiny samples
    with mock.patch.object(impact, "MIN_SEAT_GAMES", 1 if few else 30):
        try:
            report = analyze(frame(rows), _job(rows, version), status)
        except SimError as exc:
            assert not rows and "finished" in str(exc)
            return
    assert report.games == len(rows) and report.headline and report.title
    assert (report.agents["win_rate"] >= report.agents["low"]).all()
    assert (report.agents["win_rate"] <= report.agents["high"]).all()
    assert (report.agents["low"] >= 0).all() and (report.agents["high"] <= 1).all()
    estimated = report.cards.filter(pl.col("estimated"))
    assert all(math.isfinite(x) for x in estimated["estimate"])
    assert ((estimated["low"] <= estimated["estimate"] + 1e-12) & (estimated["estimate"] <= estimated["high"] + 1e-12)).all()
    assert (version is False) == any("were played by" in n for n in report.notes)
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(summary(report))
    assert report.headline[0][:30] in " ".join(console.export_text().split())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=runs(), b=runs(), few=st.booleans())
def test_every_run_gets_a_page_and_tables_and_any_two_compare(
    a: list[dict[str, Any]], b: list[dict[str, Any]], few: bool
) -> None:
    with mock.patch.object(impact, "MIN_SEAT_GAMES", 1 if few else 30), tempfile.TemporaryDirectory() as tmp:
        if not a or not b:
            return
        ra, rb = analyze(frame(a), _job(a, True)), analyze(frame(b), _job(b, True))
        page = report_html(ra, Path(tmp) / "a.html").read_text()
        images = page.split("src='data:image/png;base64,")[1:]
        assert len(images) >= 4
        assert all(base64.b64decode(img.split("'")[0])[:4] == b"\x89PNG" for img in images)
        assert {p.name for p in (Path(tmp) / "a-tables").iterdir()} >= {"agents.csv", "card_impact.parquet"}
        both = compare(ra, rb)
        Console(file=io.StringIO()).print(compare_summary(both))
        assert "Comparison" in compare_html(both, Path(tmp) / "c.html").read_text()
