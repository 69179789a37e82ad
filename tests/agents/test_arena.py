"""`cardtable arena`: seats rotated, results independent of the number of workers, Wilson
intervals, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import cardtable
from cardtable import agents
from cardtable.commands import arena


def test_wilson_interval_matches_the_textbook_values() -> None:
    lo, hi = arena.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = arena.wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_every_agent_plays_every_seat_equally_often() -> None:
    for players, k in [(2, 2), (3, 3), (4, 2), (3, 2)]:
        games = players * k
        counts = [[0] * players for _ in range(k)]
        for g in range(games):
            for seat, agent in enumerate(arena.seat_agents(g, players, k)):
                counts[agent][seat] += 1
        assert all(len(set(row)) == 1 for row in counts), (players, k, counts)


def test_agent_specs_parse_and_refuse_a_seed() -> None:
    assert arena.parse_agent("ismcts:time_limit=0.25:rollout=heuristic") == (
        "ismcts", {"time_limit": 0.25, "rollout": "heuristic"})
    assert arena.parse_agent("random") == ("random", {})
    with pytest.raises(agents.AgentError, match="key=value"):
        arena.parse_agent("ismcts:fast")
    with pytest.raises(agents.AgentError, match="--seed"):
        arena.parse_agent("random:seed=3")


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    opts = {"players": 2, "match": False}
    one = arena.run_arena("juno", opts, ["heuristic", "random"], games=6, seed=7, workers=1)
    two = arena.run_arena("juno", opts, ["heuristic", "random"], games=6, seed=7, workers=2)
    assert [s.wins for s in one.summaries] == [s.wins for s in two.summaries]
    assert [s.choices for s in one.summaries] == [s.choices for s in two.summaries]
    assert sum(s.games for s in one.summaries) == 12


def test_bad_input_fails_before_any_game_is_played() -> None:
    with pytest.raises(agents.AgentError, match="no agent named 'genius'"):
        arena.run_arena("juno", {"players": 2}, ["genius", "random"], games=2)
    with pytest.raises(agents.AgentError, match="no parameter 'depth'"):
        arena.run_arena("juno", {"players": 2}, ["heuristic:depth=2", "random"], games=2)
    with pytest.raises(Exception, match="seats 1 to 2 agents"):
        arena.run_arena("juno", {"players": 2}, ["random", "random", "random"], games=2)


def test_command_prints_win_rates_intervals_and_time_per_decision() -> None:
    app = typer.Typer()
    arena.register(app)
    app.command("noop")(lambda: None)  # a second command keeps typer's subcommand form
    result = CliRunner().invoke(app, ["arena", "juno", "--agents", "heuristic,random", "--games", "4",
                                      "-o", "match=false", "--workers", "1"])
    assert result.exit_code == 0, result.output
    for text in ("heuristic", "random", "95% CI", "median ms", "p95 ms", "seats rotated"):
        assert text in result.output
    bad = CliRunner().invoke(app, ["arena", "juno", "--agents", "nobody,random", "--games", "2"])
    assert bad.exit_code == 2 and "no agent named 'nobody'" in bad.output


def test_search_agents_report_iterations() -> None:
    result = arena.run_arena("juno", {"players": 2, "match": False, "hand_size": 3},
                             ["ismcts:iterations=7:cutoff=4:early_stop=false", "random"], games=2, seed=1, workers=1)
    search, rand = result.summaries
    assert search.median_iterations == 7 and search.iterations_per_second
    assert search.early_stops == 0 and search.median_search_ms is not None and search.p95_search_ms is not None
    assert rand.median_iterations is None and rand.iterations_per_second is None and rand.median_search_ms is None


def test_early_stops_are_counted() -> None:
    # 200 iterations on a 3-card hand: many choices are settled well before the budget ends.
    result = arena.run_arena("juno", {"players": 2, "match": False, "hand_size": 3},
                             ["ismcts:iterations=200:cutoff=4", "random"], games=2, seed=1, workers=1)
    search = result.summaries[0]
    assert 0 < search.early_stops <= search.choices
    assert search.median_iterations is not None and search.median_iterations < 200


def test_out_file_is_rewritten_after_every_game(tmp_path: Path) -> None:
    # A long run that is stopped keeps the games it finished: --out holds them after each game.
    out = tmp_path / "run.json"
    seen: list[int] = []

    def check(partial: arena.ArenaResult) -> None:
        arena._write(out, 3, partial)
        data = json.loads(out.read_text())
        seen.append(data["games"])
        assert data["planned"] == 3 and len(data["indices"]) == data["games"]
        assert sum(1 for s in data["results"] if s["games"] == data["games"]) == 2

    result = arena.run_arena("juno", {"players": 2, "match": False, "hand_size": 3},
                             ["heuristic", "random"], games=3, seed=1, workers=1, on_game=check)
    assert seen == [1, 2, 3] and result.indices == [0, 1, 2]
    app = typer.Typer()
    arena.register(app)
    app.command("noop")(lambda: None)
    ran = CliRunner().invoke(app, ["arena", "juno", "--agents", "ismcts:iterations=5:cutoff=3,random", "--games", "2",
                                   "-o", "match=false", "-o", "hand_size=3", "--workers", "1", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    data = json.loads(out.read_text())
    assert data["games"] == 2 and data["indices"] == [0, 1]
    assert len(data["choice_search_ms"][0]) == data["results"][0]["choices"]


class _Clock:
    """A stand-in for the arena's perf_counter: every reading is `step` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_the_budget_gives_unbounded_searches_the_iterations_that_fit_it() -> None:
    game = cardtable.make("juno", players=2, match=False, hand_size=3)
    # every timed stretch lasts 0.25 s: 5 probes of 20 iterations -> 400 iterations per second
    specs: list[arena.Spec] = [("ismcts", {}), ("heuristic", {})]
    plan = arena.plan_budget(game, specs, games=50, workers=2, seconds=60.0, clock=_Clock(0.25))
    assert plan is not None and set(plan.params) == {0}
    assert plan.params[0]["rollout"] == "heuristic" and plan.params[0]["cutoff"] == 20  # as `hard`
    assert plan.per_second[0] == pytest.approx(400.0)
    n = plan.params[0]["iterations"]
    assert 1 <= n < 1000
    # the plan fits the budget: one iteration more per choice would not
    assert plan.estimate <= 60.0 < plan.estimate * (n + 1) / n
    # a search that names its own budget or rollout keeps it; other agents are left alone
    assert arena.plan_budget(game, [("ismcts", {"iterations": 7}), ("random", {})], 50, 2, 60.0) is None
    assert arena.plan_budget(game, [("hard", {}), ("random", {})], 50, 2, 60.0) is None
    own = arena.plan_budget(game, [("ismcts", {"rollout": "random"}), ("random", {})], 50, 2, 60.0)
    assert own is not None and own.params[0].keys() == {"iterations"}


def test_the_command_prints_its_plan_and_names_what_played() -> None:
    app = typer.Typer()
    arena.register(app)
    app.command("noop")(lambda: None)
    result = CliRunner().invoke(app, ["arena", "juno", "--agents", "ismcts,heuristic", "--games", "2", "-o",
                                      "match=false", "-o", "hand_size=3", "--workers", "1", "--budget", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "2 games of juno" in text and "Budget 1 s: ismcts gets" in text
    assert "1/2 games, " in text and "2/2 games, " in text  # the running score, as a log gets it
    played = arena.run_arena("juno", {"players": 2, "match": False, "hand_size": 3}, ["ismcts", "heuristic"], games=1,
                             workers=1, budget=1.0)
    assert played.agents[0].startswith("ismcts:rollout=heuristic:cutoff=20:iterations=")
    assert played.summaries[0].label == played.agents[0] and played.agents[1] == "heuristic"
    bad = CliRunner().invoke(app, ["arena", "juno", "--agents", "ismcts,heuristic", "--games", "2", "--budget", "0"])
    assert bad.exit_code == 2 and "--budget is a number of seconds above 0" in bad.output


def test_the_running_score_counts_wins_per_agent_and_games_without_a_winner() -> None:
    results = [arena.GameResult(i, [0, 1], w, 10, [[], []], [0, 0], [0, 0], [0.0, 0.0])
               for i, w in enumerate([[0], [1], [1], []])]
    assert arena.score_line(["ismcts", "heuristic"], results) == "ismcts 1  heuristic 2  no winner 1"
    assert arena.score_line(["a", "b"], []) == "a 0  b 0"
