"""A smoke test of examples/train_juno.py: a couple of updates, not the training run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_juno.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_juno", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_juno"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_policy_never_gives_an_illegal_action_probability() -> None:
    ex = load()
    policy = ex.LinearPolicy.new(4, 5, np.ones(4, np.float32))
    policy.weights[:] = np.random.default_rng(0).normal(size=policy.weights.shape)
    p = policy.probs(policy.features(np.ones(4, np.float32)), np.array([0, 1, 0, 1, 1], np.int8))
    assert p[0] == p[2] == 0 and abs(p.sum() - 1) < 1e-6 and (p[[1, 3, 4]] > 0).all()


def test_two_training_games_make_one_update_and_evaluation_runs() -> None:
    ex = load()
    policy, episodes = ex.train(seconds=600, seed=3, batch=2, max_episodes=2)
    assert episodes == 2 and policy.updates == 1
    assert np.abs(policy.weights).sum() > 0  # the first game's reward moved the weights
    rate, interval = ex.evaluate(policy, games=2)
    assert 0.0 <= rate <= 1.0 and interval >= 0.0
