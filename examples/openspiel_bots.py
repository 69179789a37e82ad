"""OpenSpiel's Python MCTS and ISMCTS bots against uniform random on every game, through `evaluate_bots`.

    .venv/bin/python examples/openspiel_bots.py --games 10 --simulations 20 --max-decisions 150

Each game is `pyspiel.load_game("cardtable_<name>(max_decisions=N)")` (2 players, one round;
a game reaching N decisions is a draw). The bots are OpenSpiel's own (`mcts.MCTSBot`,
`ismcts.ISMCTSBot` with `restart_at` added, `cardtable.rl.openspiel.RestartableISMCTSBot`), each with
random-rollout evaluation, playing both seats in turn against `uniform_random.UniformRandomBot`.
MCTS searches exact clones of the true state, so it sees the hidden cards and the order of the
piles (docs/rl.md, "Clones"): a perfect-information baseline. ISMCTS searches determinized
copies and sees nothing its seat cannot.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random

from cardtable.core.registry import games
from cardtable.rl import openspiel
from cardtable.rl.encoders import has_encoder


def play(name: str, kind: str, games_: int, simulations: int, max_decisions: int, seed: int) -> dict[str, float]:
    openspiel.register_all()
    game = pyspiel.load_game(f"cardtable_{name}(max_decisions={max_decisions})")
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    if kind == "mcts":
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rs, solve=False)
    else:
        bot = openspiel.RestartableISMCTSBot(game, evaluator, 2.0, max_simulations=simulations, random_state=rs)
    out = {"wins": 0, "draws": 0, "losses": 0}
    start = time.process_time()
    for g in range(games_):
        seat = g % 2
        bots = [uniform_random.UniformRandomBot(1 - seat, rs)]
        bots.insert(seat, bot)
        r = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs)[seat]
        out["wins" if r > 0 else "losses" if r < 0 else "draws"] += 1
    return {**out, "cpu_seconds": round(time.process_time() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--max-decisions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in games():
        if not has_encoder(name):
            continue
        for kind in ("mcts", "ismcts"):
            result = play(name, kind, args.games, args.simulations, args.max_decisions, args.seed)
            print(f"{name}: {kind} vs uniform random: {result}", flush=True)


if __name__ == "__main__":
    main()
