"""JUNO speed against its peers (issue 3), in one run.

    .venv/bin/python bench/juno_bench.py              # the full table (about 2-4 minutes)
    .venv/bin/python bench/juno_bench.py --quick      # a smoke run (a few seconds)

Every workload plays whole games with random choices drawn from Python's `random.Random`
(the same driver cost for every engine). cardtable is driven only through the public contract
(`legal_actions()` / `apply()`), with event recording off and every rule on (UNO calls and
catches, the Wild Draw Four rule, reshuffles). The workloads run alternately (A B C ... A B C ...)
for several rounds and the table shows medians, so a drift in machine load hits all of them alike.

Times are CPU seconds of this process (`time.process_time`) by default: on a shared machine the
wall clock mostly measures the other tenants. `--clock wall` uses the wall clock instead.

Peers, when importable: RLCard's `UnoGame` (its game API) and its `env.run` (the RL env API with
RandomAgents), and OpenSpiel's C++ `crazy_eights` through pyspiel, with 2 players and with its
default 5.

Policies for cardtable:
- uniform: a uniformly random legal action. Drawing is always legal in JUNO (the rulebook lets
  you draw instead of playing), so this player draws often and games run ~1000 decisions.
- play-first: a random play when the decision offers one, else a uniformly random legal action
  (draw, pass, a color, catch ...). This is the policy RLCard's action set forces (its players
  may draw only when they cannot play, and a playable drawn card is played), so its games are
  of comparable length to RLCard's.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardtable  # noqa: E402
from cardtable.games.juno.actions import Kind  # noqa: E402

Clock = Callable[[], float]


@dataclass
class Result:
    name: str
    games: list[float] = field(default_factory=list)      # games/s per round
    decisions: list[float] = field(default_factory=list)  # decisions/s per round
    per_game: list[float] = field(default_factory=list)   # decisions per game per round

    def add(self, games: int, decisions: int, seconds: float) -> None:
        self.games.append(games / seconds)
        self.decisions.append(decisions / seconds)
        self.per_game.append(decisions / games)


# -- workloads: each plays `n` games and returns (games, decisions, seconds) ------------------


def cardtable_games(options: dict[str, Any], policy: str) -> Callable[[int, int, Clock], tuple[int, int, float]]:
    game = cardtable.make("juno", match=False, **options)

    def run(n: int, seed: int, clock: Clock) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        play = Kind.PLAY  # a local: on Python 3.11 each `Kind.PLAY` goes through the enum class's __getattr__
        decisions = 0
        start = clock()
        for g in range(n):
            state = game.new_state(seed=seed * 100_003 + g, record_events=False)
            apply = state.apply
            legal_actions = state.legal_actions
            if policy == "uniform":
                while not state.is_over:
                    apply(choice(legal_actions()))
                    decisions += 1
            else:
                while not state.is_over:
                    legal = legal_actions()
                    plays = [a for a in legal if a.kind is play]
                    apply(choice(plays or legal))
                    decisions += 1
        return n, decisions, clock() - start

    return run


def pure_python_games(policy: str, clock_name: str) -> Callable[[int, int, Clock], tuple[int, int, float]]:
    """The same 2-player classic workload on the pure-Python modules (CARDTABLE_PURE=1), for a
    compiled build to be measured beside its fallback in one run. The engine is chosen once per
    process, so this runs in a child process, which times only its own games."""

    def run(n: int, seed: int, clock: Clock) -> tuple[int, int, float]:
        env = {**os.environ, "CARDTABLE_PURE": "1"}
        out = subprocess.run(
            [sys.executable, __file__, "--child", policy, str(n), str(seed), clock_name],
            env=env, capture_output=True, text=True, check=True,
        ).stdout.split()
        return int(out[0]), int(out[1]), float(out[2])

    return run


def child(policy: str, n: int, seed: int, clock_name: str) -> None:
    clock: Clock = time.process_time if clock_name == "cpu" else time.perf_counter
    assert not cardtable._native.COMPILED, cardtable._native.REASON
    run = cardtable_games({"players": 2}, policy)
    run(max(2, n // 20), seed + 7, clock)  # warm-up, as the parent's workloads are warm after round 1
    games, decisions, seconds = run(n, seed, clock)
    print(games, decisions, seconds)


def rlcard_game() -> Callable[[int, int, Clock], tuple[int, int, float]]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame  # type: ignore[import-untyped]

    def run(n: int, seed: int, clock: Clock) -> tuple[int, int, float]:
        rng = random.Random(seed)
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        decisions = 0
        start = clock()
        for _ in range(n):
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(game.get_legal_actions()))
                decisions += 1
        return n, decisions, clock() - start

    return run


def rlcard_env() -> Callable[[int, int, Clock], tuple[int, int, float]]:
    import rlcard  # type: ignore[import-untyped]
    from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

    def run(n: int, seed: int, clock: Clock) -> tuple[int, int, float]:
        env = rlcard.make("uno", config={"seed": seed})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
        decisions = 0
        start = clock()
        for _ in range(n):
            trajectories, _ = env.run(is_training=False)
            decisions += sum(len(t) // 2 for t in trajectories)  # [state, action, state, ..., state]
        return n, decisions, clock() - start

    return run


def openspiel_crazy_eights(players: int) -> Callable[[int, int, Clock], tuple[int, int, float]]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(f"crazy_eights(players={players})")

    def run(n: int, seed: int, clock: Clock) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        decisions = 0
        start = clock()
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])  # uniform over the cards left
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
        return n, decisions, clock() - start

    return run


def copy_costs(rounds: int, clock: Clock) -> tuple[float, float]:
    """Median microseconds per clone() and per determinize() of mid-game 2-player classic states."""
    game = cardtable.make("juno", players=2, match=False)
    rng = random.Random(1)
    states = []
    for seed in range(40):
        state = game.new_state(seed=seed, record_events=False)
        for _ in range(rng.randrange(5, 60)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)
    det_rng = cardtable.Rng(7)
    clones, dets = [], []
    reps = 50
    for _ in range(rounds):
        start = clock()
        for _ in range(reps):
            for s in states:
                s.clone()
        clones.append((clock() - start) / (reps * len(states)) * 1e6)
        start = clock()
        for _ in range(reps):
            for s in states:
                s.determinize(s.current_player or 0, det_rng)
        dets.append((clock() - start) / (reps * len(states)) * 1e6)
    return statistics.median(clones), statistics.median(dets)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians over them)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 rounds, few games")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--child", nargs=4, metavar=("POLICY", "GAMES", "SEED", "CLOCK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        policy, n, seed, clock_name = args.child
        child(policy, int(n), int(seed), clock_name)
        return
    clock: Clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rounds = 2 if args.quick else args.rounds
    scale = 0.05 if args.quick else 1.0

    # (name, workload, games per round)
    workloads: list[tuple[str, Callable[[int, int, Clock], tuple[int, int, float]], int]] = [
        ("cardtable JUNO classic 2p, uniform", cardtable_games({"players": 2}, "uniform"), 150),
        ("cardtable JUNO classic 2p, play-first", cardtable_games({"players": 2}, "play-first"), 1500),
    ]
    if cardtable._native.COMPILED:  # its pure-Python fallback beside it
        workloads += [
            ("cardtable JUNO classic 2p, uniform, pure Python", pure_python_games("uniform", args.clock), 150),
            ("cardtable JUNO classic 2p, play-first, pure Python", pure_python_games("play-first", args.clock), 1500),
        ]
    try:
        workloads += [("RLCard UnoGame 2p (game API)", rlcard_game(), 1500),
                      ("RLCard uno env.run 2p (env API)", rlcard_env(), 400)]
    except ImportError:
        print("rlcard is not importable: skipped")
    try:
        workloads += [("OpenSpiel crazy_eights 2p (C++)", openspiel_crazy_eights(2), 3000),
                      ("OpenSpiel crazy_eights 5p (C++)", openspiel_crazy_eights(5), 3000)]
    except ImportError:
        print("open_spiel is not importable: skipped")
    for players in (4, 7):
        for variant in ("classic", "seven-o", "serious"):
            workloads.append((f"cardtable JUNO {variant} {players}p, uniform",
                              cardtable_games({"players": players, "variant": variant}, "uniform"), 60))

    results = {name: Result(name) for name, _, _ in workloads}
    for r in range(rounds):
        for name, run, n in workloads:
            games, decisions, seconds = run(max(2, int(n * scale)), 1000 + r, clock)
            results[name].add(games, decisions, seconds)
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    clone_us, det_us = copy_costs(rounds, clock)

    def med(xs: list[float]) -> float:
        return statistics.median(xs)

    print(f"\nJUNO speed, medians of {rounds} alternating rounds, {args.clock} time, Python {sys.version.split()[0]}, "
          f"cardtable engine: {cardtable._native.REASON}\n")
    print("| workload | games/s | decisions/s | decisions/game |")
    print("|---|---:|---:|---:|")
    for name, res in results.items():
        print(f"| {name} | {med(res.games):,.0f} | {med(res.decisions):,.0f} | {med(res.per_game):,.0f} |")

    peers = [n for n in results if not n.startswith("cardtable")]
    engines = [("", cardtable._native.REASON)]
    if "cardtable JUNO classic 2p, uniform, pure Python" in results:
        engines.append((", pure Python", "its pure-Python fallback, CARDTABLE_PURE=1"))
    for suffix, engine in engines if peers else []:
        ours = results[f"cardtable JUNO classic 2p, uniform{suffix}"]
        ours_pf = results[f"cardtable JUNO classic 2p, play-first{suffix}"]
        print(f"\nRatios (cardtable JUNO classic 2p, {engine} / peer):\n")
        print("| peer | decisions/s, uniform | games/s, uniform | decisions/s, play-first | games/s, play-first |")
        print("|---|---:|---:|---:|---:|")
        for name in peers:
            p = results[name]
            print(f"| {name} | {med(ours.decisions) / med(p.decisions):.2f}x | {med(ours.games) / med(p.games):.2f}x "
                  f"| {med(ours_pf.decisions) / med(p.decisions):.2f}x | {med(ours_pf.games) / med(p.games):.2f}x |")
    print(f"\nclone(): {clone_us:.1f} us per call; determinize(): {det_us:.1f} us per call "
          "(2-player classic, mid-game states)")


if __name__ == "__main__":
    main()
