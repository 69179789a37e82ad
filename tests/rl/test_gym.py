"""The Gymnasium single-agent environment: Gymnasium's check_env, registered ids and make_vec,
opponents, illegal actions, seats, normalization."""

from __future__ import annotations

import json
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardtable
from cardtable.agents import RandomAgent
from cardtable.core.registry import games
from cardtable.rl import gym_env
from cardtable.rl.encoders import encoder_for, has_encoder
from cardtable.rl.registration import env_id, register_envs

from .helpers import config_ids, label

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_gymnasium_check_env(game: str, options: dict[str, Any]) -> None:
    players = options["players"]
    made = gymnasium.make(env_id(game), seat=players - 1, opponents=["random"] * (players - 1), render_mode="ansi", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either: render checks included, every render mode tried
        check_env(made.unwrapped)


@pytest.mark.parametrize("game", [g for g in games() if has_encoder(g)])
def test_gymnasium_make_by_id_and_make_vec(game: str) -> None:
    assert env_id(game) in register_envs()
    env = gymnasium.make(env_id(game))
    assert env.spec.id == f"cardtable/{''.join(part.capitalize() for part in game.split('_'))}-v0"
    assert env.unwrapped.game.players == 2  # the research defaults: 2 players, one round
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    vec = gymnasium.make_vec(env_id(game), num_envs=4, seat="random", normalize=True)
    obs, _ = vec.reset(seed=0)
    assert obs["observation"].shape == (4, encoder_for(env.unwrapped.game).size)
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        assert rewards.shape == (4,) and ((obs["observation"] >= 0) & (obs["observation"] <= 1)).all()
    vec.close()


def test_gymnasium_make_passes_keywords_on_top_of_the_defaults() -> None:
    env = gymnasium.make("cardtable/Juno-v0", players=3, variant="seven-o", opponents=["heuristic", "random"])
    assert env.unwrapped.game.players == 3 and env.unwrapped.game.options.variant == "seven-o"
    assert env.unwrapped.game.options.match is False


def test_seat_random_draws_the_learners_seat_from_the_episode_seed() -> None:
    env = gym_env("juno", seat="random", players=3, match=False)
    seats = set()
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        seats.add(env.seat)
        assert env.state.current_player == env.seat and obs["action_mask"].any()
        assert sorted(env.opponents) == [s for s in range(3) if s != env.seat]
    assert seats == {0, 1, 2}
    env.reset(seed=7)
    first = env.seat
    env.reset(seed=7)
    assert env.seat == first


def test_normalize_divides_by_the_largest_value_of_each_piece() -> None:
    raw = gym_env("zun", players=2)
    scaled = gym_env("zun", players=2, normalize=True)
    a, _ = raw.reset(seed=2)
    b, _ = scaled.reset(seed=2)
    assert np.allclose(b["observation"], a["observation"] / np.maximum(raw.encoder.high, 1))
    assert a["observation"].max() > 1 and b["observation"].max() <= 1
    assert scaled.observation_space["observation"].high.max() == 1.0


def test_render_human_prints_the_learners_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym_env("juno", seat=1, players=2, match=False, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    out = capsys.readouterr().out
    assert "hand: [" in out and "seat: 1" in out


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


# Two-player JUNO where seat 1 (the heuristic) goes out in 9 decisions (Skips, a Wild Draw Four, a
# Draw Two: the turn comes back to it each time) before seat 0, the learner here, decides once.
NO_DECISION_SEED = 2737655910081298258


def test_a_game_that_ends_before_the_learner_decides_is_passed_over_for_the_next() -> None:
    env = gym_env("juno", seat="random", opponents=["heuristic"])
    game = env.game
    passed_over = game.new_state(NO_DECISION_SEED)
    obs, info = env.reset(seed=NO_DECISION_SEED)
    assert info == {"games_passed_over": 1}
    assert not env.state.is_over and env.state.current_player == env.seat and obs["action_mask"].any()
    assert env.state.seed != passed_over.seed
    again, info_again = env.reset(seed=NO_DECISION_SEED)  # a seeded reset still repeats exactly
    assert info_again == info and np.array_equal(again["observation"], obs["observation"])
    assert env.reset(seed=5)[1] == {}


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
    with pytest.raises(ValueError, match="seat must be 0..1 or 'random'"):
        gym_env("juno", seat=2, players=2)
    with pytest.raises(ValueError, match="give 2 opponents"):
        gym_env("juno", seat=0, opponents=["random"], players=3)
    with pytest.raises(cardtable.agents.AgentError, match="no agent named 'nobody'"):
        gym_env("juno", seat=0, opponents=["nobody"], players=2)
    with pytest.raises(ValueError, match="illegal_action must be"):
        gym_env("juno", players=2, illegal_action="ignore")  # type: ignore[arg-type]


def test_a_game_named_alone_has_the_research_defaults() -> None:
    env = gym_env("juno")  # JUNO's own defaults: 4 players, a match to 500
    assert env.game.players == 2 and env.game.options.match is False
    assert gym_env("juno", players=4, match=True, opponents=["random"] * 3).game.options.match is True


def test_max_decisions_counts_every_seats_decisions() -> None:
    env = gym_env("iunu", max_decisions=9)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    truncated = False
    while not truncated:
        assert env.steps < 9
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not terminated
    assert env.steps >= 9  # the learner's and its opponent's decisions
    with pytest.raises(ValueError, match="max_decisions must be a positive number"):
        gym_env("juno", max_decisions=0)


def test_make_vec_autoreset_never_gives_an_all_zero_mask() -> None:
    """The last step of an episode (before the next step resets it) allows every action, as in
    pgx: a masked policy can still draw the action the autoreset then ignores."""
    vec = gymnasium.make_vec("cardtable/Iunu-v0", num_envs=2)
    obs, _ = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        assert obs["action_mask"].any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _, terminated, _, _ = vec.step(actions)
        ended += int(terminated.sum())
        assert obs["action_mask"][terminated].all()  # the game is over: every action, ignored
    assert ended >= 2
    vec.close()
