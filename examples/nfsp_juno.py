"""OpenSpiel's own NFSP (Heinrich and Silver, 2016) on 2-player JUNO, through the information-state tensor.

    OMP_NUM_THREADS=1 .venv/bin/python examples/nfsp_juno.py --minutes 5

Nothing here is cardtable-specific beyond the game's name: the game is loaded with
`pyspiel.load_game`, played through OpenSpiel's `rl_environment.Environment` with
`observation_type=INFORMATION_STATE` (so every agent sees `information_state_tensor`: its
encoded view plus the action history, docs/rl.md), and trained by
`open_spiel.python.pytorch.nfsp.NFSP`, exactly as OpenSpiel's own `nfsp_leduc_pytorch.py`
example trains Leduc poker. Needs torch and dm-tree (`pip install cardtable[research]`).

`--max-decisions` (default 200) ends a game after that many decisions as a draw; it sets the
tensor's history rows (200 rows of 2 + 7 + 54 values after JUNO's 269: 12,869 floats). At the
end the average policy plays the uniform random policy on fresh deals, both seats, and the
script prints wins, draws (games cut at the bound) and losses.

Not run in CI (it trains for minutes); `tests/rl/test_nfsp_example.py` runs a few episodes.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

from cardtable.rl import openspiel


def make_env(max_decisions: int, seed: int) -> rl_environment.Environment:
    openspiel.register_all()
    game = pyspiel.load_game(f"cardtable_juno(players=2,match=false,max_decisions={max_decisions})")
    return rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.INFORMATION_STATE, seed=seed
    )


def make_agents(env: rl_environment.Environment, buffer: int) -> list[nfsp.NFSP]:
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    return [
        nfsp.NFSP(
            player,
            size,
            actions,
            hidden_layers_sizes=[128],
            reservoir_buffer_capacity=buffer,
            replay_buffer_capacity=buffer,
            anticipatory_param=0.1,
            min_buffer_size_to_learn=500,
            learn_every=64,
            batch_size=64,
            rl_learning_rate=0.01,
            sl_learning_rate=0.01,
            epsilon_start=0.06,
            epsilon_end=0.001,
            epsilon_decay_duration=200_000,
            update_target_network_every=4_800,
            seed=player + 1,
        )
        for player in range(2)
    ]


def train(env: rl_environment.Environment, agents: list[nfsp.NFSP], seconds: float, max_episodes: int) -> dict[str, float]:
    start = time.process_time()
    episodes = steps = 0
    while episodes < max_episodes and time.process_time() - start < seconds:
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            out = agents[player].step(time_step)
            time_step = env.step([out.action])
            steps += 1
        for agent in agents:
            agent.step(time_step)  # the final step: every agent sees its return
        episodes += 1
    return {"episodes": episodes, "decisions": steps, "cpu_seconds": time.process_time() - start}


def evaluate(env: rl_environment.Environment, agents: list[nfsp.NFSP], games: int, seed: int) -> dict[str, int]:
    """The average policy (NFSP's output) against uniform random, alternating seats."""
    rng = np.random.default_rng(seed)
    result = {"wins": 0, "draws": 0, "losses": 0}
    for g in range(games):
        learner = g % 2
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            if player == learner:
                with agents[player].temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
                    action = agents[player].step(time_step, is_evaluation=True).action
            else:
                action = int(rng.choice(time_step.observations["legal_actions"][player]))
            time_step = env.step([action])
        r = time_step.rewards[learner]
        result["wins" if r > 0 else "losses" if r < 0 else "draws"] += 1
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="CPU minutes of training")
    parser.add_argument("--max-episodes", type=int, default=10**9)
    parser.add_argument("--max-decisions", type=int, default=200)
    parser.add_argument("--buffer", type=int, default=4000, help="replay and reservoir buffer capacity")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    nfsp.set_seed(args.seed)
    env = make_env(args.max_decisions, args.seed)
    agents = make_agents(env, args.buffer)
    print(f"information-state tensor: {env.observation_spec()['info_state'][0]} floats; "
          f"{env.action_spec()['num_actions']} actions")
    before = evaluate(env, agents, args.eval_games, args.seed + 1)
    print(f"before training, average policy vs random over {args.eval_games} games: {before}")
    stats = train(env, agents, args.minutes * 60, args.max_episodes)
    print(f"trained: {stats['episodes']} episodes, {stats['decisions']} decisions in {stats['cpu_seconds']:.0f} CPU-s; "
          f"losses (supervised, rl): {[a.loss for a in agents]}")
    after = evaluate(env, agents, args.eval_games, args.seed + 2)
    print(f"after training, average policy vs random over {args.eval_games} games: {after}")


if __name__ == "__main__":
    main()
