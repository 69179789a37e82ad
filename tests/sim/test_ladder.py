"""The ladder: the Bradley-Terry fit against answers known in closed form, the store extended, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from cardtable import agents
from cardtable.core import CardtableError
from cardtable.sim import ladder
from cardtable.sim.stats import Z95


def test_two_entrants_fit_the_log_odds_with_the_binomial_interval() -> None:
    # 140 wins of 200: r = ln(140/60), sd = 1/sqrt(n p (1 - p))
    wins = np.array([[0.0, 60.0], [140.0, 0.0]])
    games = np.array([[0.0, 200.0], [200.0, 0.0]])
    a, b = ladder.fit(["a", "b"], wins, games, prior=0)
    r = math.log(140 / 60)
    sd = 1 / math.sqrt(200 * 0.7 * 0.3)
    assert a.elo == 0 and a.low == a.high == 0  # the anchor
    assert b.elo == pytest.approx(r * 400 / math.log(10), abs=1e-9)
    assert (b.low, b.high) == pytest.approx(((r - Z95 * sd) * ladder.ELO, (r + Z95 * sd) * ladder.ELO), abs=1e-9)
    assert b.games == 200 and b.score == 140


def test_expected_counts_give_back_the_true_ratings() -> None:
    # At counts equal to their expectations the likelihood equations hold at the true ratings exactly.
    elo = np.array([0.0, 100.0, 300.0, 250.0])
    r = elo / ladder.ELO
    p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))
    games = np.full((4, 4), 1000.0) - np.diag([1000.0] * 4)
    wins = games * p
    fitted = ladder.fit(["e", "m", "h", "x"], wins, games, prior=0)
    assert [x.elo for x in fitted] == pytest.approx(list(elo), abs=1e-6)
    # 100 Elo points ahead is a 64% win chance
    assert p[1, 0] == pytest.approx(0.64, abs=0.001)


def test_a_game_without_a_winner_counts_half_and_the_prior_keeps_a_clean_sweep_finite() -> None:
    rows = [{"a": "x", "b": "y", "index": i, "seed": i, "seats": ["x", "y"], "winners": w, "decisions": 10}
            for i, w in enumerate([["x"], ["x"], [], ["y"], ["x", "y"]])]
    names, wins, games = ladder.tally(pa.Table.from_pylist(rows, schema=ladder.SCHEMA))
    assert names == ["x", "y"] and wins[0, 1] == 3 and wins[1, 0] == 2 and games[0, 1] == 5
    sweep = np.array([[0.0, 10.0], [0.0, 0.0]])
    both = np.array([[0.0, 10.0], [10.0, 0.0]])
    with pytest.raises(CardtableError, match="every game"):
        ladder.fit(["x", "y"], sweep, both, prior=0)
    x, y = ladder.fit(["x", "y"], sweep, both, prior=1)
    assert y.elo == pytest.approx(-math.log(10.5 / 0.5) * ladder.ELO)


def test_entrants_with_no_games_between_them_are_refused() -> None:
    games = np.zeros((3, 3))
    games[0, 1] = games[1, 0] = 10
    wins = games / 2
    with pytest.raises(CardtableError, match="no games link c to a"):
        ladder.fit(["a", "b", "c"], wins, games)


def test_a_ladder_is_extended_not_replayed(tmp_path: Path) -> None:
    folder = tmp_path / "ladder"
    played: list[str] = []
    t = ladder.run("juno", ["random", "medium"], 4, folder, {"match": False}, on_game=lambda r: played.append(r["a"]))
    assert t.num_rows == 4 and len(played) == 4
    assert sorted(t["index"].to_pylist()) == [0, 1, 2, 3]
    assert [s for s in t.to_pylist() if s["index"] == 1][0]["seats"] == ["medium", "random"]  # seats alternate
    t2 = ladder.run("juno", ["random", "medium", "easy"], 4, folder, {"match": False},
                    on_game=lambda r: played.append(r["a"] + r["b"]))
    assert t2.num_rows == 12 and len(played) == 12  # only the new pairs were played
    again = ladder.run("juno", ["random", "medium"], 4, folder, {"match": False})
    assert again.num_rows == 12
    with pytest.raises(CardtableError, match="holds the ladder of juno"):
        ladder.run("iunu", ["random", "medium"], 1, folder)


def test_the_cpu_clock_reaches_the_searching_entrants_only_and_is_part_of_the_ladder(tmp_path: Path) -> None:
    assert ladder._timed("hard", {}, "cpu") == ("hard", {"clock": "cpu"})
    assert ladder._timed("ismcts", {"iterations": 5}, "cpu") == ("ismcts", {"iterations": 5, "clock": "cpu"})
    assert ladder._timed("ismcts", {"clock": "wall"}, "cpu") == ("ismcts", {"clock": "wall"})  # its own name wins
    assert ladder._timed("medium", {}, "cpu") == ("medium", {})  # the heuristic has no clock
    folder = tmp_path / "ladder"
    t = ladder.run("juno", ["random", "ismcts:iterations=5"], 2, folder, {"match": False}, clock="cpu")
    assert t.num_rows == 2
    with pytest.raises(CardtableError, match="on the cpu clock, not of juno .* on the wall clock"):
        ladder.run("juno", ["random", "ismcts:iterations=5"], 2, folder, {"match": False})
    with pytest.raises(CardtableError, match="the clock is 'wall'"):
        ladder.run("juno", ["random", "easy"], 2, tmp_path / "other", {"match": False}, clock="sundial")


def test_adjacent_plays_each_level_against_the_next_only_and_fits_them_all(tmp_path: Path) -> None:
    t = ladder.run("juno", ["random", "easy", "medium"], 3, tmp_path / "l", {"match": False}, adjacent=True)
    assert sorted({(r["a"], r["b"]) for r in t.to_pylist()}) == [("easy", "medium"), ("random", "easy")]
    assert t.num_rows == 6
    names, wins, games = ladder.tally(t, ["random", "easy", "medium"])
    assert [r.name for r in ladder.fit(names, wins, games)] == ["random", "easy", "medium"]


def test_ctrl_c_keeps_every_finished_game_and_a_rerun_plays_the_rest(tmp_path: Path) -> None:
    """Ctrl-C (KeyboardInterrupt) in the middle of a ladder keeps every game finished, not only those up to
    the last save every 20 games; running it again plays only the games not there."""
    folder = tmp_path / "ladder"
    played: list[int] = []

    def stop_at_seven(row: dict[str, object]) -> None:
        played.append(1)
        if len(played) == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ladder.run("juno", ["random", "easy"], 30, folder, {"match": False}, on_game=stop_at_seven)
    assert ladder.read_games(folder).num_rows == 7
    rest: list[int] = []
    t = ladder.run("juno", ["random", "easy"], 30, folder, {"match": False}, on_game=lambda r: rest.append(1))
    assert len(rest) == 23 and t.num_rows == 30 and sorted(t["index"].to_pylist()) == list(range(30))


def test_expert_is_a_level_that_thinks_at_most_two_seconds() -> None:
    name, params = agents.DIFFICULTY["expert"]
    assert name == "ismcts" and 0 < params["time_limit"] <= 2
    assert ladder.LEVELS == ["easy", "medium", "hard", "expert"]  # weakest first: the ladder's anchor is easy


def test_cardtable_ladder_writes_a_table_a_plot_and_refits_what_is_there(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardtable.cli import _load, app

    _load()
    out = tmp_path / "l"
    runner = CliRunner()
    r = runner.invoke(app, ["ladder", "juno", "--levels", "easy,medium", "--agents", "random", "--games", "2",
                            "-o", "match=false", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Elo" in r.output and (out / "ladder.png").stat().st_size > 0
    # not a terminal (a run left going in a log): a line as games finish, with the time left and each pair's score
    assert "6/6 games" in r.output and "left; in these games easy " in r.output and " random" in r.output.split("6/6 games")[1]
    ratings = json.loads((out / "ratings.json").read_text())
    assert list(ratings["ratings"]) == ["easy", "medium", "random"] and ratings["ratings"]["easy"]["elo"] == 0
    refit = runner.invoke(app, ["ladder", "juno", "--levels", "easy,medium", "--agents", "random", "--games", "2",
                                "-o", "match=false", "--out", str(out)])
    assert refit.exit_code == 0 and "0 new games played" in refit.output


def test_published_ratings_reach_the_lobby(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from cardtable.server import create_app

    path = tmp_path / "ladders.json"
    monkeypatch.setattr(ladder, "PUBLISHED", path)
    with TestClient(create_app(str(tmp_path / "t.db"))) as client:
        assert all(g["ratings"] == {} for g in client.get("/api/games").json()["games"])  # no ladder: no ratings
        wins = np.array([[0.0, 60.0], [140.0, 0.0]])
        games = np.array([[0.0, 200.0], [200.0, 0.0]])
        ladder.publish("juno", {"players": 2, "match": False}, ladder.fit(["easy", "medium"], wins, games), 200)
        ladder.publish("iunu", {"players": 2}, ladder.fit(["easy", "medium"], games - wins, games), 200)
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        by_game = {name: g["ratings"] for name, g in listed.items()}
    assert by_game["juno"]["easy"] == {"elo": 0, "low": 0, "high": 0} and by_game["juno"]["medium"]["elo"] == 146
    assert by_game["iunu"]["medium"]["elo"] < 0 and by_game["zun"] == {}
    # what the ratings were measured on: a JUNO level rated in single rounds says so to one about to play a match
    assert listed["juno"]["rated_on"].startswith("Levels rated in 200 games between them, 2 players, one round each;")
    assert "one round" not in listed["iunu"]["rated_on"] and listed["zun"]["rated_on"] == ""
