"""`cardtable report`: every figure of the balance report on a table small enough to count by
hand, the HTML page, and the two commands end to end."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from cardtable.commands import simulate
from cardtable.sim import SCHEMA, analyze, report_html, summary
from cardtable.sim.stats import binomial_test, newcombe, wilson


def _row(seed: int, agents: list[str], first: int, winners: list[int], scores: list[float], length: int,
         cards: list[tuple[int, str, str, int]]) -> dict[str, Any]:
    return {"seed": seed, "game": "juno", "variant": "classic", "options": "{}", "players": 2, "agents": agents,
            "first_player": first, "winners": winners, "scores": scores,
            "returns": [1.0 if s in winners else -1.0 for s in range(2)], "length": length,
            "cards": [{"seat": s, "counter": c, "card": k, "count": n} for s, c, k, n in cards]}


# seed, agents, first player, winner, scores, length, cards
ROWS = [
    _row(0, ["A", "B"], 0, [0], [10, 0], 5, [(0, "played", "X", 1), (1, "held", "Y", 2)]),
    _row(1, ["B", "A"], 1, [1], [0, 20], 7, [(1, "played", "X", 2)]),
    _row(2, ["A", "B"], 0, [1], [0, 5], 9, [(0, "played", "X", 1)]),
    _row(3, ["B", "A"], 1, [1], [0, 30], 11, []),
    _row(4, ["A", "B"], 1, [0], [40, 0], 13, [(1, "held", "Y", 1)]),
]
# A: wins in games 0, 1, 3, 4 (4 of 5); B: game 2 (1 of 5).
# seats: seat 0 won games 0 and 4 (2 of 5), seat 1 games 1, 2, 3 (3 of 5).
# first player won games 0, 1, 3 (3 of 5); in game 2 seat 0 went first and lost, in game 4 seat 1.
# "played X", all by A: seat-games (0,0) won, (1,1) won, (2,0) lost -> 2 of 3; A's other two won 2 of 2.
# "held Y", both by B: (0,1) lost, (4,1) lost -> 0 of 2; B's other three won 1 of 3.


@pytest.fixture
def table() -> pl.DataFrame:
    frame = pl.from_arrow(__import__("pyarrow").Table.from_pylist(ROWS, schema=SCHEMA))
    assert isinstance(frame, pl.DataFrame)
    return frame


def test_win_rates_per_agent_and_per_seat_with_wilson_intervals(table: pl.DataFrame) -> None:
    r = analyze(table)
    a = {row["agent"]: row for row in r.agents.iter_rows(named=True)}
    assert (a["A"]["wins"], a["A"]["seat_games"]) == (4, 5) and (a["B"]["wins"], a["B"]["seat_games"]) == (1, 5)
    assert (a["A"]["low"], a["A"]["high"]) == pytest.approx(wilson(4, 5))
    assert a["A"]["mean_score"] == pytest.approx((10 + 20 + 30 + 40 + 0) / 5)
    s = {row["seat"]: row for row in r.seats.iter_rows(named=True)}
    assert (s[0]["wins"], s[1]["wins"]) == (2, 3)
    assert s[1]["win_rate"] == pytest.approx(0.6) and (s[1]["low"], s[1]["high"]) == pytest.approx(wilson(3, 5))


def test_first_player_advantage_with_an_exact_binomial_test(table: pl.DataFrame) -> None:
    r = analyze(table)
    fp = r.first_player
    assert (fp["wins"], fp["games"]) == (3, 5)
    assert r.expected_rate == pytest.approx(0.5)  # one winner of two seats
    assert fp["p_value"] == pytest.approx(binomial_test(3, 5, 0.5)) and fp["p_value"] == pytest.approx(1.0)


def test_length_and_score_distributions(table: pl.DataFrame) -> None:
    r = analyze(table)
    assert list(r.lengths) == [5, 7, 9, 11, 13]
    assert sorted(r.winner_scores) == [5, 10, 20, 30, 40]
    assert r.scores.height == 10


def test_per_card_impact_compares_an_agents_seat_games_with_and_without_the_card(table: pl.DataFrame) -> None:
    cards = {(row["agent"], row["counter"], row["card"]): row for row in analyze(table).cards.iter_rows(named=True)}
    assert set(cards) == {("A", "played", "X"), ("B", "held", "Y")}
    x = cards["A", "played", "X"]
    assert (x["with_n"], x["without_n"]) == (3, 2)
    assert x["with_rate"] == pytest.approx(2 / 3) and x["without_rate"] == pytest.approx(1.0)
    assert x["mean_count"] == pytest.approx(4 / 3)
    d, lo, hi = newcombe(2, 3, 2, 2)
    assert (x["diff"], x["diff_low"], x["diff_high"]) == pytest.approx((d, lo, hi))
    y = cards["B", "held", "Y"]
    assert (y["with_n"], y["with_rate"], y["without_rate"]) == (2, 0.0, pytest.approx(1 / 3))
    assert math.isclose(y["with_high"], wilson(0, 2)[1])


def test_the_html_page_embeds_the_plots_and_the_figures(table: pl.DataFrame, tmp_path: Path) -> None:
    page = report_html(analyze(table), tmp_path / "r.html", {"game": "juno"}).read_text()
    # win rate per agent and per seat, length, winner's score, scores per agent; no card plot, as
    # no card has MIN_SEAT_GAMES seat-games on each side in five games (the tables list them all)
    assert page.count("src='data:image/png;base64,") == 5
    assert "<summary>all 1 cards</summary>" in page and "<td>X</td>" in page
    assert "Exact two-sided binomial test" in page and "p = 1" in page
    assert "<td>A</td><td>5</td><td>4</td><td> 80.0%</td>" in page
    assert "mixed up" not in page
    unrotated = {"game": "juno", "agents": ["A", "B"], "rotate": False}
    assert "mixed up" in report_html(analyze(table), tmp_path / "u.html", unrotated).read_text()


def test_histogram_bins_are_whole_numbers_wide_on_whole_number_data() -> None:
    import numpy as np

    from cardtable.sim.analysis import _integer_bins

    bins = _integer_bins(np.array([3.0, 4.0, 10.0]))
    assert list(bins) == [2.5 + i for i in range(9)]  # one bin per value 3..10
    wide = _integer_bins(np.arange(0.0, 600.0))
    assert np.all(np.diff(wide) == 10) and wide[0] == -0.5
    assert _integer_bins(np.array([0.5, 1.25])) == 60


def test_an_empty_table_has_no_report() -> None:
    with pytest.raises(ValueError, match="no finished games"):
        analyze(pl.from_arrow(SCHEMA.empty_table()))  # type: ignore[arg-type]


def test_simulate_and_report_commands_end_to_end(tmp_path: Path) -> None:
    app = typer.Typer()
    simulate.register(app)
    runner = CliRunner()
    out = tmp_path / "run"
    args = ["simulate", "juno", "-p", "2", "-o", "match=false", "-o", "hand_size=3", "--agents", "random",
            "--games", "6", "--seed", "7", "--workers", "1", "--out", str(out)]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert "6 of 6 games (seeds 7..12)" in done.output
    shown = runner.invoke(app, ["report", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "win rate per agent" in shown.output and "First player wins" in shown.output
    assert (out / "report.html").exists()
    bad = runner.invoke(app, ["simulate", "juno", "--agents", "nobody", "--games", "1", "--out", str(out)])
    assert bad.exit_code == 2 and "no agent named 'nobody'" in bad.output
    other = runner.invoke(app, ["simulate", "juno", "--agents", "random", "--games", "1", "--out", str(out)])
    said = " ".join(other.output.split())
    assert other.exit_code == 2 and "holds results of another job: options.hand_size is 3 there, null here" in said
    missing = runner.invoke(app, ["report", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "holds no simulation results" in missing.output


def test_the_terminal_summary_shows_the_same_figures(table: pl.DataFrame) -> None:
    from rich.console import Console

    console = Console(record=True, width=160)
    console.print(summary(analyze(table)))
    text = console.export_text()
    assert "80.0% │ [37.6, 96.4]" in text and "60.0% │ [23.1, 88.2]" in text
    assert "First player wins 60.0%" in text and "p = 1 (not significant at 5%)" in text
    assert "Game length (decisions): mean 9.0, median 9" in text
