"""Train a small masked policy for 2-player JUNO on CPU, then play it against random.

    .venv/bin/python examples/train_juno.py --minutes 3 --eval-games 500

numpy only (torch stays optional): a linear softmax policy over JUNO's action index, with
illegal actions masked out, trained by REINFORCE with a running-mean baseline against the
random bot (or `--opponent heuristic`) through `cardtable.rl.gym_env`. The learner only ever sees its encoded
`observation(seat)` and the action mask. Evaluation plays fresh seeds (never seen in
training) and reports the win rate with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import numpy as np

from cardtable.rl import gym_env


@dataclass
class LinearPolicy:
    """logits = W x + b over every action; illegal actions get probability zero."""

    weights: np.ndarray
    scale: np.ndarray  # divides the observation so every feature lies in [0, 1]
    adam_m: np.ndarray = field(init=False)
    adam_v: np.ndarray = field(init=False)
    updates: int = 0

    def __post_init__(self) -> None:
        self.adam_m = np.zeros_like(self.weights)
        self.adam_v = np.zeros_like(self.weights)

    @classmethod
    def new(cls, obs_size: int, num_actions: int, high: np.ndarray) -> LinearPolicy:
        scale = np.append(np.maximum(high, 1.0), 1.0).astype(np.float32)  # last feature: the bias
        return cls(np.zeros((num_actions, obs_size + 1), np.float32), scale)

    def features(self, obs: np.ndarray) -> np.ndarray:
        return np.append(obs, 1.0).astype(np.float32) / self.scale

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.weights @ x
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def adam_step(self, grad: np.ndarray, lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        """Gradient ascent with Adam (Kingma and Ba, 2015)."""
        self.updates += 1
        self.adam_m = b1 * self.adam_m + (1 - b1) * grad
        self.adam_v = b2 * self.adam_v + (1 - b2) * grad * grad
        m_hat = self.adam_m / (1 - b1**self.updates)
        v_hat = self.adam_v / (1 - b2**self.updates)
        self.weights += lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play_episode(env, policy: LinearPolicy, rng: np.random.Generator, seed: int, greedy: bool = False):
    """One game; returns the final reward and the (features, mask, action) of each decision."""
    obs, _ = env.reset(seed=seed)
    trace = []
    while True:
        x = policy.features(obs["observation"])
        p = policy.probs(x, obs["action_mask"])
        a = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
        trace.append((x, obs["action_mask"], a))
        obs, reward, terminated, truncated, _ = env.step(a)
        if terminated or truncated:
            return float(reward), trace


def train(
    seconds: float,
    seed: int = 0,
    batch: int = 8,
    lr: float = 0.01,
    max_episodes: int | None = None,
    opponent: str = "random",
) -> tuple[LinearPolicy, int]:
    """REINFORCE with a running-mean baseline, `batch` games per update; stops after `seconds`."""
    env = gym_env("juno", seat=0, opponents=[opponent], players=2, match=False)
    policy = LinearPolicy.new(env.encoder.size, env.game.num_actions, env.encoder.high)
    rng = np.random.default_rng(seed)
    baseline, episodes = 0.0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds and (max_episodes is None or episodes < max_episodes):
        grad = np.zeros_like(policy.weights)
        steps = 0
        for _ in range(batch):
            # training seeds are even, evaluation seeds odd: evaluation games are never seen in training
            reward, trace = play_episode(env, policy, rng, seed=2 * int(rng.integers(1 << 40)))
            advantage = reward - baseline
            baseline += 0.05 * (reward - baseline)
            episodes += 1
            for x, mask, a in trace:
                p = policy.probs(x, mask)
                p[a] -= 1.0  # d log pi(a|x) / d logits = onehot(a) - p
                grad -= advantage * np.outer(p, x)
                steps += 1
        policy.adam_step(grad / max(steps, 1), lr)
    return policy, episodes


def evaluate(policy: LinearPolicy | None, games: int, seed: int = 1, opponent: str = "random") -> tuple[float, float]:
    """Win rate of seat 0 (the policy; None: a random player) against `opponent`, ± 95% interval."""
    env = gym_env("juno", seat=0, opponents=[opponent], players=2, match=False)
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        game_seed = 2 * (seed * 1_000_003 + g) + 1
        if policy is None:
            obs, _ = env.reset(seed=game_seed)
            while True:
                legal = np.flatnonzero(obs["action_mask"])
                obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
                if terminated or truncated:
                    break
        else:
            reward, _ = play_episode(env, policy, rng, seed=game_seed)
        wins += reward > 0
    rate = wins / games
    return rate, 1.96 * math.sqrt(rate * (1 - rate) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=3.0, help="training time on one CPU core")
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random", help="the cardtable bot to train against (random, heuristic, ...)")
    parser.add_argument("--also-eval", nargs="*", default=[], metavar="BOT", help="other bots to evaluate against")
    parser.add_argument("--save", help="write the trained weights to this .npz file")
    args = parser.parse_args()

    t0 = time.perf_counter()
    policy, episodes = train(args.minutes * 60, seed=args.seed, opponent=args.opponent)
    print(f"trained on {episodes} games against {args.opponent} in {time.perf_counter() - t0:.0f} s ({policy.updates} updates)")
    for bot in [args.opponent, *args.also_eval]:
        rate, ci = evaluate(policy, args.eval_games, opponent=bot)
        print(f"trained policy vs {bot}: wins {rate:.1%} ± {ci:.1%} of {args.eval_games} games")
        base, base_ci = evaluate(None, args.eval_games, opponent=bot)
        print(f"random player vs {bot} (same seeds): wins {base:.1%} ± {base_ci:.1%}")
    if args.save:
        np.savez(args.save, weights=policy.weights, scale=policy.scale)
        print(f"weights saved to {args.save}")


if __name__ == "__main__":
    main()
