"""The batched API (`cardtable.rl.vector.VectorGame`) beside `gymnasium.make_vec` and RLCard.

    .venv/bin/python bench/rl_vector.py [--num-envs 16] [--rounds 3] [--seconds 2] [--games juno,iunu]
    .venv/bin/python bench/rl_vector.py --encodings [--games juno]   # counts against planes

For each game (2 players, one round: the research defaults), in alternating rounds of about
`--seconds` of wall clock each, medians of decisions per CPU-second of this process:

- `gymnasium.make_vec("cardtable/<Game>-v0", num_envs=N)` (Gymnasium's `SyncVectorEnv`, its default
  autoreset): the learner at seat 0 takes a uniformly random legal action in every environment
  (one numpy call over the batch of masks), the other seat is cardtable's random bot inside
  each environment (handed `state.determinize(seat)`, as the Gymnasium environment always does).
  Decisions counted: the learner's (not the ignored action of an autoreset step) and the bot's.
  Only the learner's decisions are encoded (the bot decides on its view, not on an encoding), so
  the table also gives make_vec's *observations* per CPU-second (the learner's decisions).
- `VectorGame(game, N)`: N games, every seat's decision taken by the same uniformly random
  policy over the batch of masks (self-play, as in pgx). Decisions: N per step, each encoded, so
  its observations per second are its decisions per second.
- The engine alone: the same research game played by bench/playouts.py's loop (`legal_actions()`,
  a uniformly random choice, `apply`, seeded games one after another); no observation, no mask,
  no batch. No batched API over this engine can take a decision in less, so its rate over
  `make_vec`'s is the ceiling of `VectorGame`'s ratio (the table's "ceiling" column): a 5x
  target above it needs a faster engine, not a faster batch.
- RLCard (JUNO only, when rlcard is importable): `rlcard.make("uno")`, 2 players,
  `env.run(is_training=False)` with its `RandomAgent` (bench/rl_throughput.py's `rlcard_round`).

Every side encodes an observation and a mask at each of its decisions.

`--encodings` runs `VectorGame` only, `encoding="counts"` and `encoding="planes"` in alternating
rounds (`cardtable.rl.encoders.planes`): what the planes cost per decision.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import cardtable.rl  # noqa: F401  (registers the Gymnasium ids)
from cardtable.agents import RandomAgent
from cardtable.rl.defaults import research_options
from cardtable.rl.registration import env_id
from cardtable.rl.vector import VectorGame

Result = tuple[int, float]  # decisions (or observations), CPU seconds
_BOT_MOVES = [0]


class CountingRandom:
    """cardtable's random bot, counting its moves (a module-level count: Gymnasium copies the
    keyword arguments of each environment it makes)."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomAgent(seed=seed)

    def act(self, view: Any) -> Any:
        _BOT_MOVES[0] += 1
        return self.inner.act(view)


def uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of a batch of masks, in one numpy call."""
    chosen: np.ndarray = np.argmax(rng.random(mask.shape) * mask, axis=1)
    return chosen


def make_vec_round(game: str, n: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """(all decisions, the learner's decisions, CPU seconds)."""
    vec = gymnasium.make_vec(env_id(game), num_envs=n, opponents=[CountingRandom(seed)])
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset(seed=seed)
    learner = 0
    resetting = np.zeros(n, bool)  # the next step of these environments only resets them
    _BOT_MOVES[0] = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _rewards, terminated, truncated, _ = vec.step(uniform(obs["action_mask"], rng))
        learner += int(n - resetting.sum())
        resetting = terminated | truncated
    used = time.process_time() - cpu
    vec.close()
    return learner + _BOT_MOVES[0], learner, used


def vector_round(game: str, n: int, seconds: float, seed: int, encoding: str = "counts") -> Result:
    games = VectorGame(game, n, encoding=encoding)
    rng = np.random.default_rng(seed)
    obs, _ = games.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _rewards, _terminated, _truncated, _ = games.step(uniform(obs["action_mask"], rng))
        steps += 1
    return steps * n, time.process_time() - cpu


def engine_round(game: str, seconds: float) -> Result:
    """The engine alone (module docstring): bench/playouts.py's uniformly random games on the
    research defaults, on this process's CPU clock, in batches doubling until `seconds` are spent."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from playouts import playouts  # type: ignore[import-not-found]

    options = research_options(game)
    decisions, used, games = 0, 0.0, 4
    while used < seconds:
        d, spent = playouts(game, games, time.process_time, **options)
        decisions, used, games = decisions + d, used + spent, games * 2
    return decisions, used


def rlcard_round(seconds: float, seed: int) -> Result:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from rl_throughput import rlcard_round as run  # type: ignore[import-not-found]

    _games, decisions, used = run(seconds, seed, minimal_agent=False)
    return decisions, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", default="juno,iunu,zun,iuno_avatar,ivion")
    parser.add_argument("--encodings", action="store_true", help="VectorGame with counts against planes, instead")
    args = parser.parse_args()
    n = args.num_envs
    if args.encodings:
        compare_encodings(args.games.split(","), n, args.rounds, args.seconds)
        return
    with_rlcard = importlib.util.find_spec("rlcard") is not None
    print(f"N = {n}, {args.rounds} rounds of {args.seconds:g} s per side; decisions per CPU-second, medians")
    print(
        "| game | make_vec decisions | cardtable.rl.vector decisions | ratio | make_vec observations | ratio "
        "| the engine alone | ceiling | RLCard UNO env.run decisions |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games.split(","):
        rates: dict[str, list[float]] = {"make_vec": [], "vector": [], "engine": [], "rlcard": [], "observations": []}
        for r in range(args.rounds):
            for side in ("make_vec", "vector", "engine", "rlcard"):
                if side == "make_vec":
                    decisions, learner, used = make_vec_round(game, n, args.seconds, r)
                    rates["observations"].append(learner / used)
                elif side == "vector":
                    decisions, used = vector_round(game, n, args.seconds, r)
                elif side == "engine":
                    decisions, used = engine_round(game, args.seconds)
                elif with_rlcard and game == "juno":
                    decisions, used = rlcard_round(args.seconds, r)
                else:
                    continue
                rates[side].append(decisions / used)
        med = {k: statistics.median(v) for k, v in rates.items() if v}
        rl = f"{med['rlcard']:,.0f}" if "rlcard" in med else "—"
        print(
            f"| {game} | {med['make_vec']:,.0f} | {med['vector']:,.0f} | {med['vector'] / med['make_vec']:.1f}x "
            f"| {med['observations']:,.0f} | {med['vector'] / med['observations']:.1f}x "
            f"| {med['engine']:,.0f} | {med['engine'] / med['make_vec']:.1f}x | {rl} |",
            flush=True,
        )


def compare_encodings(games: list[str], n: int, rounds: int, seconds: float) -> None:
    print(f"N = {n}, {rounds} rounds of {seconds:g} s per encoding; VectorGame decisions per CPU-second, medians")
    print("| game | counts | planes | planes / counts |")
    print("|---|---:|---:|---:|")
    for game in games:
        rates: dict[str, list[float]] = {"counts": [], "planes": []}
        for r in range(rounds):
            for encoding in rates:
                decisions, used = vector_round(game, n, seconds, r, encoding)
                rates[encoding].append(decisions / used)
        counts, planes = (statistics.median(rates[e]) for e in ("counts", "planes"))
        print(f"| {game} | {counts:,.0f} | {planes:,.0f} | {planes / counts:.2f} |", flush=True)


if __name__ == "__main__":
    main()
