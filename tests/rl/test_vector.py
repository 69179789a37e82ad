"""cardtable.rl.vector: N games stepped together, numpy batches, Gymnasium's same-step autoreset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.rl.encoders import encoder_for
from cardtable.rl.vector import VectorGame

from .helpers import RL_CONFIGS


def uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


@pytest.mark.parametrize("game", sorted(RL_CONFIGS))
def test_every_batch_is_the_deciding_seats_view_and_every_mask_has_a_legal_action(game: str) -> None:
    games = VectorGame(game, 3, max_decisions=150)
    obs, info = games.reset(seed=1)
    rng = np.random.default_rng(1)
    enc = encoder_for(games.game)
    ended = 0
    for _ in range(160):
        assert obs["observation"].shape == (3, enc.size) and obs["action_mask"].shape == (3, games.num_actions)
        for i, state in enumerate(games.states):
            seat = state.current_player
            assert obs["current_player"][i] == seat
            assert np.array_equal(obs["observation"][i], enc.encode(state.observation(seat)))
            assert sorted(np.flatnonzero(obs["action_mask"][i])) == sorted(a.index for a in state.legal_actions())
        obs, rewards, terminated, truncated, info = games.step(uniform(obs["action_mask"], rng))
        assert rewards.shape == (3, games.players) and not (terminated & truncated).any()
        assert not rewards[~terminated].any()
        if terminated.any() or truncated.any():
            done = terminated | truncated
            assert np.array_equal(info["_final_obs"], done)
            assert info["final_obs"]["action_mask"][terminated].all()  # a finished game: every action
            ended += int(done.sum())
    assert ended >= 1


def test_a_seeded_run_repeats_and_each_game_replays_with_cardtable() -> None:
    runs = []
    for _ in range(2):
        games = VectorGame("juno", 4)
        obs, info = games.reset(seed=7)
        rng = np.random.default_rng(7)
        played: list[list[int]] = [[] for _ in range(4)]
        seeds = [int(s) for s in info["seed"]]
        out: list[Any] = []
        for _ in range(200):
            actions = uniform(obs["action_mask"], rng)
            for i, a in enumerate(actions):
                played[i].append(int(a))
            obs, rewards, terminated, truncated, info = games.step(actions)
            out.append((obs["observation"].copy(), rewards.copy(), terminated.copy()))
            for i in np.flatnonzero(terminated):
                # the ended game is the cardtable game of its seed, given the same actions
                state = games.game.new_state(seeds[i], record_events=False)
                for a in played[i]:
                    state.apply(a)
                assert state.is_over and list(rewards[i]) == state.returns()
                played[i], seeds[i] = [], int(info["seed"][i])
        for i, state in enumerate(games.states):
            replay = games.game.new_state(seeds[i], record_events=False)
            for a in played[i]:
                replay.apply(a)
            assert replay.to_json() == state.to_json()
        runs.append(out)
    assert all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) for a, b in zip(*runs, strict=True))


def test_research_defaults_options_and_normalize() -> None:
    games = VectorGame("juno", 2)
    assert games.game.players == 2 and games.game.options.match is False
    assert VectorGame("zun", 2, players=4, teams=2).game.players == 4
    scaled = VectorGame("zun", 2, normalize=True)
    obs, _ = scaled.reset(seed=0)
    assert obs["observation"].max() <= 1.0 and obs["observation"].min() >= 0.0
    plain, _ = VectorGame("zun", 2).reset(seed=0)
    assert np.allclose(obs["observation"] * np.maximum(scaled.encoder.high, 1.0), plain["observation"])


def test_max_decisions_truncates_and_starts_a_new_game() -> None:
    games = VectorGame("iunu", 2, max_decisions=5)
    obs, info = games.reset(seed=2)
    first = info["seed"].copy()
    rng = np.random.default_rng(2)
    for _ in range(4):
        obs, _, terminated, truncated, info = games.step(uniform(obs["action_mask"], rng))
        assert not truncated.any()
    obs, rewards, terminated, truncated, info = games.step(uniform(obs["action_mask"], rng))
    assert truncated.all() and not terminated.any() and not rewards.any()
    assert (info["seed"] != first).all() and (games.decisions == 0).all()
    assert info["final_obs"]["action_mask"].any(axis=1).all()  # cut at a decision: its legal actions


def test_bad_calls_say_what_is_expected() -> None:
    games = VectorGame("juno", 2)
    with pytest.raises(RuntimeError, match="reset"):
        games.step(np.zeros(2, np.int64))
    obs, _ = games.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        games.step(np.zeros(3, np.int64))
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][0])[0])
    with pytest.raises(cardtable.IllegalAction, match=f"game 1, seat .*: action {illegal} is not legal"):
        games.step(np.array([legal, illegal]))
    with pytest.raises(ValueError, match="num_envs"):
        VectorGame("juno", 0)
    with pytest.raises(ValueError, match="max_decisions"):
        VectorGame("juno", 2, max_decisions=0)


def test_a_researchers_subclass_steps_and_counts_decisions() -> None:
    """`VectorGame` stays open to a subclass written in Python (it allows one when compiled:
    cardtable/_native.py); `decisions` counts each game's decisions."""

    class Counted(VectorGame):
        steps = 0

        def step(self, actions: Any) -> Any:
            type(self).steps += 1
            return super().step(actions)

    games = Counted("juno", 3)
    obs, _ = games.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(4):
        obs, *_ = games.step(uniform(obs["action_mask"], rng))
    assert Counted.steps == 4
    assert games.decisions.tolist() == [4, 4, 4]  # no game of JUNO ends in four decisions
    assert obs["action_mask"].any(axis=1).all()
