"""RL environment throughput: cardtable's PettingZoo JUNO env beside RLCard's UNO env.

    .venv/bin/python bench/rl_throughput.py [--rounds 5] [--seconds 4]

Both sides play uniformly random legal moves for whole games, with their environment's
observation encoding at every decision:

- cardtable: `cardtable.rl.pettingzoo_env("juno", players=2, match=False)`, the standard AEC
  loop (`agent_iter`, `last()` — which encodes `observation(seat)` and the action mask —,
  `step`), PettingZoo's own bookkeeping (rewards, cumulative rewards, terminations) included.
- RLCard: `rlcard.make('uno')` (2 players) with `env.run(is_training=False)` and RLCard's
  RandomAgent.

The two sides alternate for several rounds of about `--seconds` each (so machine load hits
both alike); the report gives medians of games/s and decisions/s (wall clock, and per
CPU-second of this process, which a busy machine disturbs less), and their ratios. JUNO
games are much longer under random play than RLCard's UNO: drawing is legal on every turn
(JUNO rulebook, "Let's play": you may draw instead of playing a playable card) and a drawn
card may be kept, while RLCard allows a draw only without a playable card. So decisions/s is
the like-for-like measure of environment speed; games/s is reported as well.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np


def cardtable_round(seconds: float, seed: int) -> tuple[int, int, float, float]:
    from cardtable.rl import pettingzoo_env

    env = pettingzoo_env("juno", players=2, match=False)
    rng = np.random.default_rng(seed)
    games = steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed * 100_003 + games)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - start, time.process_time() - cpu


def rlcard_round(seconds: float, seed: int) -> tuple[int, int, float, float]:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": seed})
    counter = [0]

    class Counting(RandomAgent):  # type: ignore[misc]
        def eval_step(self, state):  # type: ignore[no-untyped-def]
            counter[0] += 1
            return super().eval_step(state)

    env.set_agents([Counting(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator
    games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    return games, counter[0], time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each side's turn in a round")
    args = parser.parse_args()

    sides: dict[str, Callable[[float, int], tuple[int, int, float, float]]] = {
        "cardtable juno (PettingZoo AEC)": cardtable_round,
        "rlcard uno (env.run)": rlcard_round,
    }
    # per round: games/s, decisions/s (wall clock), decisions/s (CPU time), decisions/game
    results: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in sides}
    for r in range(args.rounds):
        for name, run in sides.items():
            games, steps, wall, cpu = run(args.seconds, r + 1)
            results[name].append((games / wall, steps / wall, steps / cpu, steps / games))
            print(f"round {r + 1} {name:32s} {games / wall:8.1f} games/s {steps / wall:9.0f} decisions/s "
                  f"({steps / cpu:.0f} per CPU-second; {steps / games:.0f} decisions/game)", flush=True)
    med = {name: tuple(statistics.median(x[i] for x in rows) for i in range(4)) for name, rows in results.items()}
    ours, theirs = med["cardtable juno (PettingZoo AEC)"], med["rlcard uno (env.run)"]
    print()
    print(f"{'median':34s} {'games/s':>9s} {'decisions/s':>12s} {'decisions/CPU-s':>16s} {'decisions/game':>15s}")
    for name, (gps, sps, cps, length) in med.items():
        print(f"{name:34s} {gps:9.1f} {sps:12.0f} {cps:16.0f} {length:15.0f}")
    print(f"{'ratio cardtable / rlcard':34s} {ours[0] / theirs[0]:9.2f} {ours[1] / theirs[1]:12.2f} {ours[2] / theirs[2]:16.2f}")


if __name__ == "__main__":
    main()
