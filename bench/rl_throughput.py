"""RL environment throughput: cardtable's PettingZoo JUNO env beside RLCard's UNO env.

    .venv/bin/python bench/rl_throughput.py [--rounds 7] [--seconds 3]
    .venv/bin/python bench/rl_throughput.py --profile [--seconds 5]   # where one decision's time goes
    .venv/bin/python bench/rl_throughput.py --all-games               # JUNO, IUNU, Zun AEC envs, 2 players,
                                                                      # and JUNO's Gymnasium env

Every side plays whole 2-player games with its environment's observation encoding at every
decision:

- cardtable: `cardtable.rl.pettingzoo_env("juno", players=2, match=False)` (one round), the
  standard AEC loop — `agent_iter`, `last()` (which encodes the seat's observation and the
  action mask), `step` — with PettingZoo's own bookkeeping (rewards, cumulative rewards,
  terminations, removing finished agents). The policy reads only the action mask; its random
  numbers come from Python's `random.Random` (about 0.1 us a draw; numpy's Generator costs ~1.5 us
  per call, more than some of what is measured). Two policies:
  - *uniform*: a uniformly random legal action. JUNO lets a player draw on every turn instead of
    playing (rulebook, "Let's play") and a player with two cards who plays without calling UNO
    can be caught, so a uniform player draws very often and a game runs ~1,300 decisions.
  - *play-first*: a random play action when the mask offers one, otherwise a random legal
    action. RLCard's UNO allows a draw only without a playable card, so its random agent is
    effectively play-first; these games are of comparable length (~85 decisions against ~46).
- RLCard: `rlcard.make("uno")` (2 players) with `env.run(is_training=False)`:
  - with RLCard's `RandomAgent` (its standard example, the one the issue names), and
  - with a minimal random agent (`random.choice` over the legal action ids, no probabilities),
    which shows RLCard's environment without the cost of its agent.

The sides alternate for several rounds of about `--seconds` of wall clock each (so machine load
hits them alike). The report gives medians over rounds of games and decisions per CPU-second of
this process (`time.process_time`: the machine is shared, and CPU time is what the load disturbs
least), decisions per game, and the ratios of cardtable to RLCard with its RandomAgent.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import numpy as np

from cardtable import _native

Result = tuple[int, int, float]  # games, decisions, CPU seconds


def _cardtable_loop(env: Any, rng: random.Random, play_first: bool, seed: int) -> int:
    """One game through the standard AEC loop; returns the number of decisions."""
    plays = 2 * 54  # JUNO's play actions are indices 0..107 ("play <card>", "play <card> uno")
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0].tolist()  # ascending: play actions first
        k = len(legal)
        if play_first and legal[0] < plays:
            k = bisect_left(legal, plays)
        env.step(legal[int(rng.random() * k)])
        steps += 1
    return steps


def cardtable_round(seconds: float, seed: int, play_first: bool, game: str = "juno") -> Result:
    from cardtable.rl import pettingzoo_env

    env = pettingzoo_env(game, players=2, **({"match": False} if game == "juno" else {}))
    rng = random.Random(seed)
    games = steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += _cardtable_loop(env, rng, play_first, seed * 100_003 + games)
        games += 1
    return games, steps, time.process_time() - cpu


def rlcard_round(seconds: float, seed: int, minimal_agent: bool) -> Result:
    import rlcard  # type: ignore[import-untyped]
    from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

    env = rlcard.make("uno", config={"seed": seed})
    counter = [0]
    rng = random.Random(seed)

    class Counting(RandomAgent):  # type: ignore[misc]
        def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            counter[0] += 1
            if minimal_agent:
                return rng.choice(list(state["legal_actions"])), {}
            return super().eval_step(state)  # type: ignore[no-any-return]

    env.set_agents([Counting(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator
    games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    return games, counter[0], time.process_time() - cpu


SIDES: dict[str, Callable[[float, int], Result]] = {
    "cardtable JUNO AEC, uniform": lambda s, r: cardtable_round(s, r, play_first=False),
    "cardtable JUNO AEC, play-first": lambda s, r: cardtable_round(s, r, play_first=True),
    "RLCard UNO env.run, RandomAgent": lambda s, r: rlcard_round(s, r, minimal_agent=False),
    "RLCard UNO env.run, minimal agent": lambda s, r: rlcard_round(s, r, minimal_agent=True),
}
REFERENCE = "RLCard UNO env.run, RandomAgent"


def gym_round(seconds: float, seed: int) -> Result:
    """The Gymnasium env, 2-player JUNO, seat 0 uniform against the random bot; counts every
    decision (the learner's steps and the bot's moves, which it makes on a determinized view)."""
    from cardtable.rl import gym_env

    env = gym_env("juno", seat=0, opponents=["random"], players=2, match=False)
    rng = random.Random(seed)
    games = steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _ = env.reset(seed=seed * 100_003 + games)
        done = False
        while not done:
            legal = obs["action_mask"].nonzero()[0].tolist()
            obs, _reward, terminated, truncated, _info = env.step(legal[int(rng.random() * len(legal))])
            done = terminated or truncated
        assert env.state is not None
        steps += len(env.state.history)
        games += 1
    return games, steps, time.process_time() - cpu


GAMES: dict[str, Callable[[float, int], Result]] = {
    **{
        f"cardtable {game} AEC, uniform": (lambda g: lambda s, r: cardtable_round(s, r, False, g))(game)
        for game in ("juno", "iunu", "zun")
    },
    "cardtable juno Gymnasium vs random bot": gym_round,
}


def compare(rounds: int, seconds: float, sides: dict[str, Callable[[float, int], Result]] = SIDES) -> None:
    # per round: games per CPU-second, decisions per CPU-second, decisions per game
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name in sides}
    for r in range(rounds):
        for name, run in sides.items():
            games, steps, cpu = run(seconds, r + 1)
            results[name].append((games / cpu, steps / cpu, steps / games))
            print(f"round {r + 1} {name:36s} {games / cpu:8.1f} games/CPU-s {steps / cpu:9.0f} decisions/CPU-s "
                  f"({steps / games:.0f} decisions/game)", flush=True)
    med = {name: tuple(statistics.median(x[i] for x in rows) for i in range(3)) for name, rows in results.items()}
    ref = med.get(REFERENCE, next(iter(med.values())))
    print(f"\nmedians of {rounds} rounds, per CPU-second; ratios to {REFERENCE if REFERENCE in med else 'the first row'}; "
          f"cardtable engine: {_native.REASON}\n")
    print("| | games/CPU-s | decisions/CPU-s | decisions/game | ratio, decisions | ratio, games |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (gps, dps, length) in med.items():
        print(f"| {name} | {gps:,.1f} | {dps:,.0f} | {length:,.0f} | {dps / ref[1]:.2f} | {gps / ref[0]:.2f} |")


def profile(seconds: float) -> None:
    """Where one decision's CPU time goes: the whole uniform AEC loop, then each part of a step
    timed on its own over the states of real games."""
    import cardtable
    from cardtable.games.juno.observation import seat_view
    from cardtable.rl import pettingzoo_env
    from cardtable.rl.encoders import action_mask, encoder_for

    env = pettingzoo_env("juno", players=2, match=False)
    rng = random.Random(1)
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds:
        steps += _cardtable_loop(env, rng, False, games)
        games += 1
    loop = (time.process_time() - start) / steps

    game = cardtable.make("juno", players=2, match=False)
    samples: list[tuple[Any, int, Any]] = []  # (state, deciding seat, a random legal action)
    state = game.new_state(0, record_events=False)
    while len(samples) < 5000:
        if state.is_over:
            state = game.new_state(len(samples), record_events=False)
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        samples.append((state.clone(), state.current_player, action))
        state.apply(action)

    def each(f: Callable[[Any, int, Any], object]) -> float:
        t = time.process_time()
        for _ in range(5):
            for s, seat, action in samples:
                f(s, seat, action)
        return (time.process_time() - t) / (5 * len(samples))

    enc = encoder_for(game)

    def uncached_legal(s: Any, seat: int, action: Any) -> object:
        s._legal = None
        return s.legal_actions()

    clone = each(lambda s, p, a: s.clone())
    parts = {
        "encode_state (seat_view + encoding)": each(lambda s, p, a: enc.encode_state(s, p)),
        "  of which seat_view": each(lambda s, p, a: seat_view(s, p)),
        "action_mask": each(lambda s, p, a: action_mask(s, p)),
        "legal_actions() (uncached)": each(uncached_legal),
        "apply (timed as clone + apply, minus clone)": each(lambda s, p, a: s.clone().apply(a)) - clone,
        "observation(seat) dict (off the env's path)": each(lambda s, p, a: s.observation(p)),
        "encode(observation dict) (off the env's path)": each(lambda s, p, a: enc.encode(s.observation(p))),
    }
    print(f"whole uniform AEC loop: {loop * 1e6:.2f} us of CPU per decision ({steps} decisions, {games} games)")
    for name, t in parts.items():
        print(f"  {name:52s} {t * 1e6:6.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each side's turn in a round")
    parser.add_argument("--profile", action="store_true", help="time the parts of one decision instead")
    parser.add_argument("--all-games", action="store_true", help="every game with an encoder, 2 players, uniform, instead")
    args = parser.parse_args()
    if args.profile:
        profile(args.seconds)
    elif args.all_games:
        compare(args.rounds, args.seconds, GAMES)
    else:
        compare(args.rounds, args.seconds)


if __name__ == "__main__":
    main()
