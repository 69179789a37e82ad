"""The Gymnasium single-agent environment: Gymnasium's check_env, opponents, illegal actions."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardtable
from cardtable.agents import RandomAgent
from cardtable.rl import gym_env

from .helpers import config_ids, label

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_gymnasium_check_env(game: str, options: dict[str, Any]) -> None:
    players = options["players"]
    env = gym_env(game, seat=players - 1, opponents=["random"] * (players - 1), **options)
    check_env(env, skip_render_check=True)


def test_a_seeded_episode_plays_to_the_end_and_pays_the_learners_return() -> None:
    env = gym_env("juno", seat=1, opponents=["random"], players=2, match=False)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=5)
    assert env.state.current_player == 1
    total, done, steps = 0.0, False, 0
    while not done:
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        done = terminated or truncated
        if not done:
            assert env.state.current_player == 1 and obs["action_mask"].any()
        steps += 1
    assert terminated and total == env.state.returns()[1] and total in (-1.0, 1.0)


class Spy:
    """An opponent that records what it is handed."""

    def __init__(self) -> None:
        self.inner = RandomAgent(seed=1)
        self.views: list[Any] = []

    def act(self, view: Any) -> Any:
        self.views.append(view)
        return self.inner.act(view)


def test_opponents_are_handed_determinized_views_never_the_true_state() -> None:
    spy = Spy()
    env = gym_env("juno", seat=0, opponents=[spy], players=2, match=False)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        obs, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term:
            break
    assert spy.views and all(v is not env.state and v.seed is None for v in spy.views)


def test_an_illegal_action_loses_by_default_with_the_reason() -> None:
    env = gym_env("juno", seat=0, players=3, match=False)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = json.dumps(env.state.to_json())
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["illegal_action"].startswith(f"seat 0 cannot take action {illegal}: ")
    assert json.dumps(env.state.to_json()) == before  # nothing was applied in its place


def test_an_illegal_action_raises_when_asked_to() -> None:
    env = gym_env("juno", seat=0, players=2, match=False, illegal_action="raise")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = json.dumps(env.state.to_json())
    with pytest.raises(cardtable.IllegalAction, match=f"seat 0 cannot take action {illegal}: "):
        env.step(illegal)
    assert json.dumps(env.state.to_json()) == before


def test_bad_arguments_say_what_is_expected() -> None:
    with pytest.raises(ValueError, match="seat must be 0..1"):
        gym_env("juno", seat=2, players=2)
    with pytest.raises(ValueError, match="give 2 opponents"):
        gym_env("juno", seat=0, opponents=["random"], players=3)
    with pytest.raises(cardtable.agents.AgentError, match="no agent named 'nobody'"):
        gym_env("juno", seat=0, opponents=["nobody"], players=2)
    with pytest.raises(ValueError, match="illegal_action must be"):
        gym_env("juno", players=2, illegal_action="ignore")  # type: ignore[arg-type]
