"""The PettingZoo AEC environment: PettingZoo's own api_test, seed_test and render_test, and the contract."""

from __future__ import annotations

import importlib
import json
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import cardtable
from cardtable.rl import parallel_env, pettingzoo_env
from cardtable.rl.defaults import research_options
from cardtable.rl.encoders import encoder_for

from .helpers import config_ids, label

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]


# What PettingZoo's api_test warns about a dict observation with an action mask, the form its docs
# prescribe; its own classic environments (chess_v6, leduc_holdem_v4, ...) are exempted from these
# warnings by name in api_test (`env_obs_dicts`, `env_obs_space`), which an outside environment cannot be.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(game: str, options: dict[str, Any]) -> None:
    env = pettingzoo_env(game, **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=2000)
    others = {str(w.message) for w in caught} - set(DICT_OBSERVATION_WARNINGS)
    assert not others, f"api_test warned: {others}"


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_render_test(game: str, options: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: pettingzoo_env(game, render_mode=render_mode, **options))
    assert "hand_counts" in capsys.readouterr().out or game != "juno"  # "human" printed the spectator's view


@pytest.mark.parametrize("game", sorted({g for g, _ in CONFIGS}))
def test_versioned_modules_are_pettingzoos_form(game: str) -> None:
    module = importlib.import_module(f"cardtable.rl.pettingzoo.{game}_v0")
    env = module.env(players=2)
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == f"cardtable_{game}_v0"
    assert module.metadata["name"] == f"cardtable_{game}_v0" and "human" in module.metadata["render_modes"]
    assert type(module.raw_env(players=2)) is type(env.unwrapped)
    with pytest.raises(AssertionError, match="reset"):  # OrderEnforcingWrapper: step before reset
        env.step(0)
    env.reset(seed=3)
    made = cardtable.make(game, **research_options(game))  # 2 players, one round
    assert env.game_state.to_json() == made.new_state(3, record_events=False).to_json()


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(game: str, options: dict[str, Any]) -> None:
    seed_test(lambda: pettingzoo_env(game, **options), num_cycles=300)


def test_agent_selection_follows_the_engines_current_player_including_out_of_turn_catches() -> None:
    env = pettingzoo_env("juno", players=3, match=False)
    game = cardtable.make("juno", players=3, match=False)
    rng = np.random.default_rng(0)
    seen_catch = False
    for seed in range(6):
        env.reset(seed=seed)
        state = game.new_state(seed, record_events=False)  # the same game, replayed beside the env
        for agent in env.agent_iter():
            obs, _, term, _, _ = env.last()
            if term:
                env.step(None)
                continue
            assert agent == f"player_{state.current_player}"
            kind = state.observation(state.current_player)["decision"]["kind"]
            if kind == "catch":
                seen_catch = seen_catch or state.current_player != state.turn
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            state.apply(action)
        assert state.is_over
    assert seen_catch, "no out-of-turn catch happened in these games; pick other seeds"


def test_observations_are_the_encoded_observation_of_each_seat() -> None:
    env = pettingzoo_env("juno", players=2, match=False)
    env.reset(seed=4)
    enc = encoder_for(env.game)
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert np.array_equal(obs["observation"], enc.encode(env.game_state.observation(seat)))
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].any() == (env.agent_selection == agent)


def test_seeded_reset_is_the_cardtable_game_with_that_seed() -> None:
    env = pettingzoo_env("juno", players=2, match=False)
    env.reset(seed=1234)
    fresh = cardtable.make("juno", players=2, match=False).new_state(1234, record_events=False)
    assert env.game_state.to_json() == fresh.to_json()


def test_an_illegal_action_raises_with_the_reason_and_changes_nothing() -> None:
    env = pettingzoo_env("juno", players=2, match=False)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = json.dumps(env.game_state.to_json())
    agent = env.agent_selection
    with pytest.raises(cardtable.IllegalAction, match=rf"{agent} \(seat \d\) cannot take action {illegal}: .+"):
        env.step(illegal)
    assert json.dumps(env.game_state.to_json()) == before and env.agent_selection == agent
    with pytest.raises(cardtable.IllegalAction, match="has actions 0..125"):
        env.step(10_000)
    with pytest.raises(cardtable.IllegalAction, match="must act now"):
        env.step(None)
    assert json.dumps(env.game_state.to_json()) == before


def test_rewards_are_the_returns_and_every_agent_terminates() -> None:
    env = pettingzoo_env("juno", players=3, match=False)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            assert term and not trunc
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = env.game_state.returns()
    assert [totals[a] for a in env.possible_agents] == returns
    assert sorted(returns) == [-0.5, -0.5, 1.0] and env.agents == []


def test_max_decisions_truncates_every_agent() -> None:
    env = pettingzoo_env("juno", players=2, match=False, max_decisions=5)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and reward == 0.0
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 5


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = pettingzoo_env("juno", players=2, match=False), pettingzoo_env("juno", players=2, match=False)
    a.reset(seed=77)
    b.reset(seed=77)
    a.reset()
    b.reset()
    assert a.game_state.to_json() == b.game_state.to_json()
    assert a.game_state.seed != 77


def test_options_reach_the_game_and_bad_ones_are_refused() -> None:
    env = pettingzoo_env("juno", players=5, variant="seven-o", match=False)
    assert env.game.players == 5 and env.game.options.variant == "seven-o"
    assert env.possible_agents == [f"player_{s}" for s in range(5)]
    with pytest.raises(cardtable.OptionError, match="players"):
        pettingzoo_env("juno", players=11)


def test_render_ansi_shows_only_public_information() -> None:
    env = pettingzoo_env("juno", players=2, match=False, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "hand_counts" in text and "hand:" not in text


@pytest.mark.parametrize("players", [2, 3])
def test_an_illegal_move_loses_when_asked_to(players: int) -> None:
    env = pettingzoo_env("juno", players=players, match=False, illegal_action="lose")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = json.dumps(env.game_state.to_json())
    offender = env.agent_selection
    env.step(illegal)
    assert json.dumps(env.game_state.to_json()) == before  # nothing applied in its place
    assert all(env.terminations.values())
    assert env.rewards[offender] == -(players - 1) and sum(env.rewards.values()) == 0
    assert env.infos[offender]["illegal_action"].startswith(f"{offender} (seat {offender[-1]}) cannot take action {illegal}: ")
    finished = []
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        finished.append((agent, reward))
        env.step(None)
    assert dict(finished)[offender] == -(players - 1) and env.agents == []


def test_max_cycles_is_a_total_of_cycles_times_players_decisions() -> None:
    env = pettingzoo_env("juno", players=3, match=False, max_cycles=2)
    assert env.unwrapped.max_decisions == 6
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 6
    with pytest.raises(TypeError, match="not both"):
        pettingzoo_env("juno", players=2, max_cycles=2, max_decisions=3)


def test_a_game_named_alone_has_the_research_defaults_in_every_interface() -> None:
    """2 players and one round, as gymnasium.make("cardtable/Juno-v0") and pyspiel's cardtable_juno
    (JUNO's own defaults are 4 players and a match to 500)."""
    from cardtable.rl.pettingzoo import juno_v0

    for env in (juno_v0.env(), pettingzoo_env("juno")):
        assert env.unwrapped.game.players == 2 and env.unwrapped.game.options.match is False
    env = pettingzoo_env("juno", players=4, match=True)
    assert env.unwrapped.game.players == 4 and env.unwrapped.game.options.match is True


def test_normalize_puts_every_observation_in_zero_one() -> None:
    env = pettingzoo_env("iunu", normalize=True)
    raw = pettingzoo_env("iunu")
    env.reset(seed=3)
    raw.reset(seed=3)
    assert env.observation_space("player_0")["observation"].high.max() == 1.0
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        plain = raw.observe(agent)["observation"]
        assert np.allclose(obs["observation"] * np.maximum(env.unwrapped.encoder.high, 1.0), plain)
        assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        raw.step(action)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pettingzoo_env("iunu", normalize=True), num_cycles=300)  # observations in the [0, 1] space
    assert not {str(w.message) for w in caught} - set(DICT_OBSERVATION_WARNINGS)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_parallel_api_test(game: str, options: dict[str, Any]) -> None:
    env = parallel_env(game, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all
        parallel_api_test(env, num_cycles=300)


def test_a_parallel_step_is_the_deciding_agents_decision() -> None:
    from cardtable.rl.pettingzoo import juno_v0

    env = juno_v0.parallel_env()
    aec = pettingzoo_env("juno")
    obs, _ = env.reset(seed=4)
    aec.reset(seed=4)
    assert env.game.players == 2 and env.agents == ["player_0", "player_1"]
    rng = np.random.default_rng(4)
    while env.agents:
        deciding = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert deciding == [aec.agent_selection]
        for a in env.agents:
            assert np.array_equal(obs[a]["observation"], aec.observe(a)["observation"])
        action = int(rng.choice(np.flatnonzero(obs[deciding[0]]["action_mask"])))
        with pytest.raises(KeyError, match=f"{deciding[0]} must act now"):
            env.step({a: 0 for a in env.agents if a != deciding[0]})
        others = {a: 0 for a in env.agents}  # ignored: only the deciding agent's action is applied
        obs, rewards, terminations, _, _ = env.step({**others, deciding[0]: action})
        aec.step(action)
    assert all(terminations.values()) and sorted(rewards.values()) == [-1.0, 1.0]
    assert list(rewards.values()) == env.game_state.returns()
