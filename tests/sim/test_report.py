"""`cardtable report`: every figure of the balance report on a table small enough to count by
hand, the summary at the top, the HTML page and its tables, and the commands end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]
import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from cardtable.commands import simulate
from cardtable.sim import SCHEMA, SimError, analyze, report_html, summary
from cardtable.sim.job import current_version
from cardtable.sim.stats import binomial_test, wilson


def row(seed: int, agents: list[str], first: int, winners: list[int], scores: list[float], length: int,
        cards: list[tuple[int, str, str, int]], players: int = 2) -> dict[str, Any]:
    return {"seed": seed, "game": "juno", "variant": "classic", "options": "{}", "players": players, "agents": agents,
            "first_player": first, "winners": winners, "scores": scores,
            "returns": [1.0 if s in winners else -1.0 for s in range(players)], "length": length,
            "cards": [{"seat": s, "counter": c, "card": k, "count": n} for s, c, k, n in cards]}


def frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    out = pl.from_arrow(pa.Table.from_pylist(rows, schema=SCHEMA))
    assert isinstance(out, pl.DataFrame)
    return out


# seed, agents, first player, winner, scores, length, cards
ROWS = [
    row(0, ["A", "B"], 0, [0], [10, 0], 5, [(0, "played", "X", 1), (1, "dealt", "Y", 2)]),
    row(1, ["B", "A"], 1, [1], [0, 20], 7, [(1, "played", "X", 2)]),
    row(2, ["A", "B"], 0, [1], [0, 5], 9, [(0, "played", "X", 1)]),
    row(3, ["B", "A"], 1, [1], [0, 30], 11, []),
    row(4, ["A", "B"], 1, [0], [40, 0], 13, [(1, "dealt", "Y", 1)]),
]
# A: wins in games 0, 1, 3, 4 (4 of 5); B: game 2 (1 of 5).
# seats: seat 0 won games 0 and 4 (2 of 5), seat 1 games 1, 2, 3 (3 of 5).
# first player won games 0, 1, 3 (3 of 5); in game 2 seat 0 went first and lost, in game 4 seat 1.
ROTATED = {"game": "juno", "agents": ["A", "B"], "rotate": True, "version": current_version("juno")}


@pytest.fixture
def table() -> pl.DataFrame:
    return frame(ROWS)


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
    assert r.lengths["length"].to_list() == [5, 7, 9, 11, 13]
    assert r.lengths["winners"].to_list() == ["0", "1", "1", "1", "0"]
    assert sorted(r.winner_scores) == [5, 10, 20, 30, 40]
    assert r.scores.height == 10


def test_the_summary_says_who_wins_how_sure_the_seats_and_the_longest_and_shortest_games(table: pl.DataFrame) -> None:
    top = analyze(table, ROTATED).headline
    assert top[0].startswith("A wins most: 80.0% [37.6, 96.4] of its seat-games (equal agents would win 50.0%), "
                             "against 20.0% for B; +60.0 points")
    assert top[0].endswith("not a clear lead: the interval includes no difference.")
    assert "The first player wins 60.0% [23.1, 88.2] of games where equal seats would give 50.0% (p = 1: no clear" \
        in top[1]
    assert top[2] == "Seats rotated: every agent sat in every seat equally often."
    assert top[3] == "Games last 9 decisions (median); the shortest 5 (seed 0), the longest 13 (seed 4)."
    assert top[4].startswith("Too few games to estimate any card")
    assert not any("turn limit" in h for h in top)  # JUNO rows do not say: no line
    limited = analyze(frame([{**r, "by_limit": r["seed"] < 2} for r in ROWS]), ROTATED).headline
    assert limited[4] == "2 of 5 games (40.0% [11.8, 76.9]) ended at the game's turn limit."
    fixed = analyze(table, {**ROTATED, "rotate": False})
    assert "Seats NOT rotated: seat and agent strength are mixed up." in fixed.headline
    assert any("were not rotated" in n for n in fixed.notes)
    one = analyze(frame([row(i, ["A", "A"], 0, [i % 2], [0, 0], 3, []) for i in range(4)]), ROTATED)
    assert one.headline[0] == "One agent (A) plays every seat: the figures describe the game, not the agents."
    assert not any("rotated" in h for h in one.headline)  # one agent: rotation cannot matter


def test_the_report_says_when_the_run_is_still_being_written_or_was_made_by_another_version(
    table: pl.DataFrame,
) -> None:
    writing = analyze(table, ROTATED, {"alive": True, "first_seed": 0, "end_seed": 1000})
    assert writing.notes == ["This run is still being written: 5 games have finished of the 1,000 asked for. "
                             "Every figure will change."]
    stopped = analyze(table, ROTATED, {"alive": False, "first_seed": 0, "end_seed": 1000})
    assert "stopped before it finished (5 games of 1,000)" in stopped.notes[0]
    old = analyze(table, {**ROTATED, "version": {"cardtable": "0.0.9", "rules": "abcdef123456"}})
    assert old.notes[0].startswith("These games were played by cardtable 0.0.9 with rules version abcdef123456; "
                                   "this installation is cardtable")
    unknown = analyze(table, {key: v for key, v in ROTATED.items() if key != "version"})
    assert "an earlier cardtable that recorded no version" in unknown.notes[0]
    with pytest.raises(SimError, match="still being written"):
        analyze(table.clear(), ROTATED, {"alive": True})
    with pytest.raises(SimError, match="no finished games"):
        analyze(table.clear())


def test_results_of_two_jobs_are_never_mixed_in_one_report(table: pl.DataFrame) -> None:
    mixed = pl.concat([table, table.with_columns(pl.lit('{"hand_size": 3}').alias("options"), pl.col("seed") + 10)])
    with pytest.raises(SimError, match="mix 2 different jobs.*cardtable report A B"):
        analyze(mixed)


def test_the_html_page_is_self_contained_with_the_summary_first_and_every_table_as_files(
    table: pl.DataFrame, tmp_path: Path
) -> None:
    r = analyze(table, {**ROTATED, "rotate": False})
    page = report_html(r, tmp_path / "r.html").read_text()
    # win rate per agent and per seat, length, winner's score, scores per agent; no card plot, as
    # no card has MIN_SEAT_GAMES seat-games on each side in five games (the tables list them all)
    assert page.count("src='data:image/png;base64,") == 5
    assert "src='http" not in page and "<script" not in page and "<link" not in page
    warn, top, agents_plot = page.index("class='warn'"), page.index("class='summary'"), page.index("win rate per agent")
    assert warn < top < agents_plot < page.index("<h2>Win rates")
    assert "Seats NOT rotated" in page and "Exact two-sided binomial test" in page and "p = 1" in page
    assert "<td>A</td><td>5</td><td>4</td><td> 80.0%</td>" in page
    assert "all 1 cards, dealt, seats played by B" in page and "too few" in page
    files = sorted(p.name for p in (tmp_path / "r-tables").iterdir())
    assert files == sorted(f"{n}.{ext}" for n in ("agents", "seats", "first_player", "games", "card_impact")
                           for ext in ("csv", "parquet"))
    assert pl.read_parquet(tmp_path / "r-tables" / "agents.parquet").equals(r.agents)
    assert pl.read_csv(tmp_path / "r-tables" / "games.csv")["length"].to_list() == [5, 7, 9, 11, 13]
    assert "href='r-tables/card_impact.csv'" in page


def test_a_run_where_one_agent_never_wins_gets_its_plots(tmp_path: Path) -> None:
    # the README's own example (random never beats the heuristic) used to crash the plots:
    # wilson(0, n) gave a low bound just above 0, so an error bar below the bar was negative
    rows = [row(i, ["heuristic", "random"][::1 - 2 * (i % 2)], i % 2, [i % 2], [1, 0], 10 + i, []) for i in range(30)]
    r = analyze(frame(rows), ROTATED)
    rates = {x["agent"]: (x["win_rate"], x["low"], x["high"]) for x in r.agents.iter_rows(named=True)}
    assert rates["random"][:2] == (0.0, 0.0) and rates["heuristic"][0::2] == (1.0, 1.0)
    assert report_html(r, tmp_path / "r.html").read_text().count("data:image/png;base64,") == 5


def test_the_terminal_summary_shows_the_same_figures(table: pl.DataFrame) -> None:
    console = Console(record=True, width=160)
    console.print(summary(analyze(table, ROTATED)))
    text = console.export_text()
    assert "• A wins most: 80.0%" in text
    assert "80.0% │ [37.6, 96.4]" in text and "60.0% │ [23.1, 88.2]" in text
    assert "First player wins 60.0%" in text and "p = 1 (not significant at 5%)" in text
    assert "Game length (decisions): mean 9.0, median 9" in text


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
    assert json.loads((out / "job.json").read_text())["rotate"] is True
    shown = runner.invoke(app, ["report", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "win rate per agent" in shown.output and "First player wins" in shown.output
    assert (out / "report.html").exists() and (out / "report-tables" / "card_impact.parquet").exists()
    bad = runner.invoke(app, ["simulate", "juno", "--agents", "nobody", "--games", "1", "--out", str(out)])
    assert bad.exit_code == 2 and "no agent named 'nobody'" in bad.output
    other = runner.invoke(app, ["simulate", "juno", "--agents", "random", "--games", "1", "--out", str(out)])
    said = " ".join(other.output.split())
    assert other.exit_code == 2 and "holds results of another job: options.hand_size is 3 there, null here" in said
    missing = runner.invoke(app, ["report", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "holds no simulation results" in missing.output
    # a second run, seats kept, compared with the first
    second = tmp_path / "fixed"
    fixed = runner.invoke(app, [*args[:-1], str(second), "--no-rotate", "--agents", "heuristic,random"])
    assert fixed.exit_code == 0, fixed.output
    both = runner.invoke(app, ["report", str(out), str(second)])
    assert both.exit_code == 0, both.output
    text = " ".join(both.output.split())
    assert "The runs differ in: agents is" in text and "rotate is true in run, false in fixed" in text
    assert "heuristic: 100.0% in run" not in text  # only agents of both runs are paired: random is
    assert "random: " in text and "agents: run minus fixed" in text
    assert (out / "compare-fixed.html").exists() and (out / "compare-fixed-tables" / "compare_agents.csv").exists()


def test_a_deck_per_seat_gives_the_heroes_win_rates_with_intervals() -> None:
    # Ivion's `decks` option gives each seat a hero: the report names them and counts who won
    rows = [row(i, ["A", "A"], i % 2, [0] if i < 3 else [1], [0, 0], 5, []) for i in range(4)]
    job = {"options": {"decks": ["Sir Edda Vane", "heroes/my_hero.toml"]}}
    r = analyze(frame(rows), job)
    assert r.decks is not None
    assert r.decks["deck"].to_list() == ["Sir Edda Vane", "my_hero"]
    assert r.decks["wins"].to_list() == [3, 1] and r.decks["seat_games"].to_list() == [4, 4]
    low, high = wilson(3, 4)
    assert r.decks["low"][0] == pytest.approx(low) and r.decks["high"][0] == pytest.approx(high)
    assert any("Sir Edda Vane (seat 0) wins 75.0%" in h and "outside 40-60%" in h for h in r.headline)
    assert "decks" in r.tables()
    assert analyze(frame(rows), {"options": {}}).decks is None  # no deck per seat: no such table
