"""Train sb3-contrib's MaskablePPO on any cardtable game by name, then play it against random and the heuristic.

    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py juno --minutes 4
    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py zun --minutes 4 --eval-games 200

The environment is Gymnasium's registered id for the game (`gymnasium.make("cardtable/Juno-v0")`,
2 players, one round, docs/rl.md) with `seat="random"` (one policy learns both seats) and
`normalize=True` (every observation value in [0, 1]); the learner plays against the random bot
(`--opponent heuristic` trains against the game's heuristic bot instead). MaskablePPO reads the
legal actions from `env.action_masks()`, so it never picks an illegal one; its policy sees only the
encoded `observation(seat)` (the `"observation"` entry; the mask goes to the action distribution,
not the network). Needs torch and sb3-contrib (`pip install cardtable[research]`).

Evaluation plays the trained policy (deterministic) against the random bot and against the
heuristic bot on seeds never used in training, at both seats, and prints win rates with 95%
intervals, beside what a random player wins against the same opponents on the same seeds.
Not run in CI; `tests/rl/test_ppo_example.py` trains for a few hundred steps.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from cardtable.rl.registration import env_id  # importing cardtable.rl registers the Gymnasium ids

EVAL_SEED = 10_000_000  # evaluation seeds start here; training episodes draw theirs from --seed


class ObservationOnly(gymnasium.ObservationWrapper):  # type: ignore[misc]
    """The policy's input is the encoded observation; the mask is used only to mask actions."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[no-any-return]


def make_env(game: str, opponent: str, **options: Any) -> ObservationOnly:
    env = gymnasium.make(env_id(game), seat="random", normalize=True, opponents=[opponent], **options)
    return ObservationOnly(env)


class TimeLimit(BaseCallback):  # type: ignore[misc]
    """Stop training after `seconds` of CPU time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.start = time.process_time()

    def _on_step(self) -> bool:
        return time.process_time() - self.start < self.seconds


def train(
    game: str, seconds: float, seed: int, opponent: str = "random", max_steps: int = 10**9, n_steps: int = 1024
) -> MaskablePPO:
    env = make_env(game, opponent)
    batch = min(128, n_steps)
    model = MaskablePPO("MlpPolicy", env, seed=seed, verbose=0, n_steps=n_steps, batch_size=batch, gamma=0.995)
    model.learn(total_timesteps=max_steps, callback=TimeLimit(seconds))
    return model


def play(game: str, opponent: str, games: int, policy: MaskablePPO | None) -> tuple[float, float]:
    """Win rate of `policy` (None: uniformly random legal actions) against `opponent`, with a 95%
    interval, over `games` evaluation seeds; the learner's seat is drawn from each seed."""
    env = make_env(game, opponent)
    rng = np.random.default_rng(0)
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + g)
        done, reward = False, 0.0
        while not done:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    rate = wins / games
    return rate, 1.96 * math.sqrt(max(rate * (1 - rate), 1e-12) / games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game with an encoder: juno, iunu, zun, ...")
    parser.add_argument("--minutes", type=float, default=4.0, help="CPU minutes of training")
    parser.add_argument("--opponent", default="random", help="the bot trained against")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.process_time()
    model = train(args.game, args.minutes * 60, args.seed, args.opponent)
    print(f"{args.game}: trained {model.num_timesteps} learner decisions against {args.opponent} "
          f"in {time.process_time() - start:.0f} CPU-s")
    for opponent in ("random", "heuristic"):
        rate, ci = play(args.game, opponent, args.eval_games, model)
        base, base_ci = play(args.game, opponent, args.eval_games, None)
        print(f"  vs {opponent}: MaskablePPO wins {rate:.1%} ± {ci:.1%} of {args.eval_games} games; "
              f"a random player wins {base:.1%} ± {base_ci:.1%} on the same seeds")


if __name__ == "__main__":
    main()
