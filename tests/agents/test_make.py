"""`cardtable.agents.make(name, **params)`: names, difficulty levels, parameter errors."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import agents
from cardtable.agents import heuristics


def test_every_agent_and_difficulty_has_a_name() -> None:
    assert {"random", "heuristic", "ismcts", "easy", "medium", "hard"} <= set(agents.names())


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_difficulty_levels_make_an_agent_that_plays_a_legal_move(level: str) -> None:
    state = cardtable.make("juno", players=2, match=False).new_state(seed=4)
    bot = agents.make(level, seed=1, **({"time_limit": 0.01} if level == "hard" else {}))
    seat = state.current_player
    assert seat is not None
    assert bot.act(state.determinize(seat, 0)) in state.legal_actions()


def test_difficulty_levels_map_to_the_same_agents_in_every_game() -> None:
    assert agents.DIFFICULTY["medium"] == ("heuristic", {})
    assert agents.DIFFICULTY["easy"][0] == "heuristic" and 0 < agents.DIFFICULTY["easy"][1]["epsilon"] < 1
    assert agents.DIFFICULTY["hard"][0] == "ismcts" and "time_limit" in agents.DIFFICULTY["hard"][1]


def test_unknown_agent_names_the_known_ones() -> None:
    with pytest.raises(agents.AgentError, match="no agent named 'clever'.*heuristic.*ismcts.*random"):
        agents.make("clever")


@pytest.mark.parametrize(
    "name,params,message",
    [
        ("random", {"depth": 3}, "has no parameter 'depth'"),
        ("heuristic", {"seed": "7"}, "'seed' must be"),
        ("heuristic", {"epsilon": 1.5}, "epsilon is a probability"),
        ("ismcts", {"iterations": 0}, "iterations must be at least 1"),
        ("ismcts", {"time_limit": -1.0}, "time_limit must be a positive"),
        ("ismcts", {"rollout": "greedy"}, "rollout must be 'random' or 'heuristic'"),
        ("ismcts", {"c": -0.1}, "exploration constant"),
        ("ismcts", {"iterations": True}, "'iterations' must be"),
        ("ismcts", {"clock": "sundial"}, "clock must be 'wall'"),
        ("ismcts", {"bias": -1.0}, "bias must be >= 0"),
        ("ismcts", {"early_stop": "yes"}, "'early_stop' must be"),
    ],
)
def test_bad_parameters_raise_a_clear_error(name: str, params: dict, message: str) -> None:
    with pytest.raises(agents.AgentError, match=message):
        agents.make(name, **params)


def test_every_agent_takes_a_seed() -> None:
    for name in ("random", "heuristic", "ismcts"):
        agents.make(name, seed=123)


def test_a_game_without_a_heuristic_gets_a_clear_error() -> None:
    with pytest.raises(agents.AgentError, match="no heuristic bot for 'nogame'.*juno"):
        heuristics.module_for("nogame")
