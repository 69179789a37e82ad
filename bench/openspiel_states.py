"""OpenSpiel states of every game: what a clone costs, and whether the information-state tensor
has perfect recall (issue 33).

    python bench/openspiel_states.py clone [--seconds 1]
    python bench/openspiel_states.py recall [--games 40] [--decisions 150] [--only ivion,iuno_avatar]

`clone`: for each game (research defaults: 2 players, one round), the states every 10th decision of
3 random games, cloned round-robin for `--seconds` of CPU; prints the mean CPU time of one
`state.clone()`. To compare two trees, run it with each tree on PYTHONPATH, one after the other.

`recall`: for each game, `--games` random games (2 deals, so that histories share a past) cut at
`--decisions` decisions; at every decision, every seat's information-state string (a digest of
everything it saw) and tensor. Prints the distinct tensors and the collisions: tensors that two
different strings share (two histories the seat told apart, one tensor). The test
`test_the_information_state_tensor_is_one_to_one_with_what_the_seat_saw` is the small version.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import numpy as np
import pyspiel

from cardtable.rl import openspiel

GAMES = ("juno", "iunu", "zun", "iuno_avatar", "ivion")


def clone(names: list[str], seconds: float) -> None:
    for name in names:
        game = pyspiel.load_game(f"cardtable_{name}")
        rng = random.Random(1)
        states = []
        for _ in range(3):
            state = game.new_initial_state()
            for n in range(1, 301):
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_action(rng.randrange(openspiel.NUM_SHUFFLES))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                if n % 10 == 0:
                    states.append(state.clone())
        start, k = time.process_time(), 0
        while time.process_time() - start < seconds:
            for s in states:
                s.clone()
                k += 1
        used = time.process_time() - start
        print(f"{name}: {used / k * 1e6:.1f} us per clone ({len(states)} states, {k:,} clones)", flush=True)


def recall(names: list[str], games: int, decisions: int) -> None:
    for name in names:
        game = pyspiel.load_game(f"cardtable_{name}(max_decisions={decisions})")
        strings: dict[tuple[int, bytes], set[str]] = defaultdict(set)
        rng = random.Random(7)
        for g in range(games):
            state = game.new_initial_state()
            state.apply_action(g % 2)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.randrange(openspiel.NUM_SHUFFLES))
                    continue
                for p in range(game.num_players()):
                    tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                    strings[(p, tensor)].add(state.information_state_string(p))
                state.apply_action(rng.choice(state.legal_actions()))
        collisions = sum(len(v) - 1 for v in strings.values())
        print(f"{name}: {len(strings):,} tensors, {collisions} collisions", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("clone", "recall"))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=150)
    parser.add_argument("--only", default=",".join(GAMES))
    args = parser.parse_args()
    openspiel.register_all()
    names = args.only.split(",")
    if args.what == "clone":
        clone(names, args.seconds)
    else:
        recall(names, args.games, args.decisions)


if __name__ == "__main__":
    main()
