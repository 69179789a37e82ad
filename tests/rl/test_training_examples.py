"""Smoke tests of examples/train_maskable_ppo.py and examples/nfsp_juno.py: a few steps, not the training runs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cardtable
from cardtable.rl.encoders import encoder_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_trains_on_a_game_by_name_and_only_picks_legal_actions() -> None:
    ex = load("train_maskable_ppo")
    model = ex.train("iunu", seconds=600, seed=1, max_steps=64, n_steps=64)
    assert model.num_timesteps >= 64  # at least one rollout was collected and learned from
    env = ex.make_env("iunu", "heuristic")
    obs, _ = env.reset(seed=5)
    assert obs.shape == (encoder_for(cardtable.make("iunu", players=2)).size,) and obs.max() <= 1
    done = False
    while not done:
        mask = env.action_masks()
        action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
        assert mask[action]
        obs, _, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        done = terminated or truncated
    rate, (low, high), no_winner = ex.play("iunu", "random", 2, None)
    assert rate in (0.0, 0.25, 0.5, 0.75, 1.0) and 0 <= low <= rate <= high <= 1 and 0 <= no_winner <= 2


def test_the_imitation_warm_start_learns_the_heuristics_moves() -> None:
    """`--imitate`: on the same 3,000 decisions of JUNO's heuristic, 300 batches of behaviour cloning
    make the policy choose the heuristic's move far more often than the untrained network does."""
    ex = load("train_maskable_ppo")
    untrained = ex.train("juno", seconds=600, seed=3, max_steps=1, n_steps=64, width=32)
    before = ex.imitate(untrained, "juno", "heuristic", 600, seed=3, max_samples=3000, max_batches=0)
    trained = ex.train("juno", seconds=600, seed=3, max_steps=1, n_steps=64, width=32)
    after = ex.imitate(trained, "juno", "heuristic", 600, seed=3, max_samples=3000, max_batches=300)
    assert before["decisions"] == after["decisions"] >= 3000 and after["batches"] == 300
    # measured: 0.67 untrained, 0.91 after
    assert after["agreement"] > 0.85 and after["agreement"] > before["agreement"] + 0.15, (before, after)


def test_distillation_learns_a_teachers_moves_and_keeps_the_pass_that_generalized_best() -> None:
    """`--distill`: the network is trained on a teacher's moves a pass at a time and kept as it was
    after the pass that agreed most with the teacher on held-out games. The heuristic as a cheap
    teacher, an untrained network: the kept network agrees with it on held-out choices far more
    than before, and is the network the function leaves (not the last pass's)."""
    ex = load("train_maskable_ppo")
    model = ex.train("juno", seconds=600, seed=4, max_steps=1, n_steps=64, width=32)
    result = ex.distill(model, "juno", "heuristic", 600, seed=4, teacher="heuristic", max_samples=4000,
                        max_batches=150)
    assert result["decisions"] >= 4000 and result["batches"] == 150 and result["held_out"] >= 400
    passes = -(-int(result["decisions"] * 0.9) // 256)  # batches of 256 in one pass over the training part
    assert len(result["held_out_curve"]) == -(-150 // passes)
    assert result["held_out_agreement_kept"] == pytest.approx(max(result["held_out_curve"]), abs=1e-4)  # rounded
    assert result["held_out_agreement_kept"] > result["held_out_agreement_before"] + 0.15, result
    data = ex.collect("juno", "heuristic", "heuristic", 600, 5, model.gamma, max_samples=4000)  # the same games
    cut = int(len(data.moves) * 0.9)
    held = ex.Samples(data.observations[cut:], data.masks[cut:], data.moves[cut:], data.targets[cut:], 0)
    assert ex.agreement(model, held) == result["held_out_agreement_kept"]


def test_nfsp_runs_on_juno_through_the_information_state_tensor() -> None:
    ex = load("nfsp_juno")
    env = ex.make_env(max_decisions=20, seed=0)
    enc = encoder_for(cardtable.make("juno", players=2, match=False))
    size = enc.size + 20 * (2 + env.action_spec()["num_actions"].bit_length() + enc.recalled_index.size)
    assert env.observation_spec()["info_state"] == (size,)
    agents = ex.make_agents(env, buffer=64)
    stats = ex.train(env, agents, seconds=600, max_episodes=2)
    assert stats["episodes"] == 2 and 0 < stats["decisions"] <= 40
    result = ex.evaluate(env, agents, games=2, seed=0)
    assert sum(result.values()) == 2
