"""Probes of the hard bot's search on positions, cheaper than whole games (issue 29: is the early
stop, a setting or the evaluation what keeps `hard` from beating `medium` more often?).

Usage (CARDTABLE_PURE=1 on a shared machine: every budget is CPU time, `clock=cpu`):

    python bench/search_probe.py early-stop GAME POSITIONS
    python bench/search_probe.py reference GAME POSITIONS ITERATIONS VARIANTS_JSON [--part K/N]
    python bench/search_probe.py calibration GAME GAMES [--kind DECISION]
    python bench/search_probe.py race GAME POSITIONS ROUNDS BUDGET

Positions are taken from two-player medium-vs-medium games (seeded), at decisions of the seat to
move that have more than one legal action, as that seat sees them (`determinize`).

- `early-stop`: at each position, `hard` with its early stop and without it, on the same seed.
  The early-stopped search is a prefix of the full one (same determinizations, same rollouts),
  so a different move means that more iterations overturned a lead the stop judged safe: the
  iterations left were estimated from the rate so far, and the rate moved.
- `reference`: a deep search (`hard` with ITERATIONS, no time limit, no early stop) gives each
  root move its visits and mean return; each variant (`{"name": {hard's params}}`, 0.5 s of CPU
  unless it says) then plays the position on its own seed. Printed: how often it picks the
  reference's most visited move, and the mean return it gives up by the reference's values (its
  "regret"). The reference is `hard` itself with more time, so a variant that changes what is
  measured (cutoff, bias) is judged by the baseline's own values: read it as a check, not a verdict.
- `calibration`: positions of heuristic self-play (decisions of kind DECISION only, if given),
  labelled with who won; the log-loss of seat 0's chance from the game's `evaluate`
  ((returns + 1) / 2), of the base rate, and of `evaluate` rescaled by the best single factor on
  the log-odds (fitted on three quarters of the games, scored on the rest). A factor well below 1
  means the evaluation is too sure of itself.
- `race`: the paired rounds' race settings (`root="paired"`), judged on recorded returns. At each
  position, ROUNDS paired rounds of every root move (as `_act_paired` runs them, no move leaving);
  the race and the move played (`ismcts._race`, `ismcts._played`, with each setting's constants)
  are replayed on the first half of the rounds in 20 random orders, with a budget of BUDGET
  iterations, and the move is judged by the second half (held out): its "regret" is the mean
  return of the held-out best move minus its own. Printed per setting: the mean regret, how often
  it is the held-out best move, the mean iterations it spent.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter
from typing import Any

import cardtable
from cardtable import agents
from cardtable.agents import ismcts
from cardtable.agents.heuristics import evaluator_for
from cardtable.core.rng import Rng
from cardtable.core.state import State


def positions(game_name: str, count: int, seed: int, first_game: int, every: int) -> list[State]:
    """`count` views of the seat to move, one decision in `every` (at random), from medium games."""
    game = cardtable.make(game_name, players=2)
    rng = Rng(seed)
    out: list[State] = []
    g = 0
    while len(out) < count:
        state = game.new_state(first_game + g, record_events=False)
        g += 1
        medium = agents.make("medium", seed=g)
        while not state.is_over and len(out) < count:
            seat = state.current_player
            assert seat is not None
            view = state.determinize(seat, rng.spawn())
            if len(view.legal_actions()) > 1 and rng.below(every) == 0:
                out.append(view)
            state.apply(medium.act(state.determinize(seat, rng.spawn())))
    return out


def early_stop(game_name: str, count: int) -> None:
    differ = stopped = 0
    its_early: list[int] = []
    its_full: list[int] = []
    for i, view in enumerate(positions(game_name, count, 4242, 1000, 6)):
        early = agents.make("hard", seed=i, time_limit=0.5, clock="cpu")
        full = agents.make("hard", seed=i, time_limit=0.5, clock="cpu", early_stop=False)
        a, b = early.act(view), full.act(view)
        assert isinstance(early, ismcts.IsmctsAgent) and isinstance(full, ismcts.IsmctsAgent)
        its_early.append(early.last_iterations)
        its_full.append(full.last_iterations)
        stopped += early.last_stopped_early
        differ += a.index != b.index
    print(f"{game_name}: {count} positions; stopped early {stopped}; a different move with the whole budget {differ}; "
          f"median iterations {statistics.median(its_early)} (early stop) / {statistics.median(its_full)} (whole budget)")


class _Capturing(ismcts.IsmctsAgent):
    """hard's search, keeping the root of its last tree (the tree is local to `act`). A subclass, not
    a patch: the agent is compiled with the engine (cardtable/_native.py)."""

    root: Any = None

    def _iterate(self, state: State, root: Any, *rest: Any, **named: Any) -> Any:
        self.root = root
        return super()._iterate(state, root, *rest, **named)


def reference(game_name: str, count: int, iterations: int, variants: dict[str, dict[str, Any]], part: int, parts: int) -> None:
    agree: Counter[str] = Counter()
    regret: Counter[str] = Counter()
    its: dict[str, list[int]] = {name: [] for name in variants}
    kinds: Counter[str] = Counter()
    done = 0
    for i, view in enumerate(positions(game_name, count, 99, 9000, 8)):
        if i % parts != part:
            continue
        # (UCB at the root: every move gets a value from one tree, paired rounds or not in the variants)
        deep = _Capturing(**{**agents.DIFFICULTY["hard"][1], "seed": 100 + i, "iterations": iterations,
                             "time_limit": 1e9, "early_stop": False, "root": "ucb"})
        deep.act(view)
        ref = {k: (ch.visits, ch.total / ch.visits) for k, ch in deep.root.children.items()}
        best = max(ref, key=lambda k: ref[k][0])
        decision = getattr(view, "decision", None)
        kinds[getattr(decision, "kind", "?")] += 1
        for name, params in variants.items():
            bot = agents.make("hard", seed=7 + i, clock="cpu", **params)
            move = bot.act(view).index
            its[name].append(getattr(bot, "last_iterations", 0))
            agree[name] += move == best
            regret[name] += ref[best][1] - (ref[move][1] if move in ref else -1.0)
        done += 1
        print(json.dumps({"i": i, "ref": ref, "done": done}), file=sys.stderr, flush=True)
    print(f"{game_name}: {done} positions ({dict(kinds)}); reference: hard with {iterations:,} iterations")
    for name in variants:
        print(f"  {name:<10} same move {agree[name]}/{done}  mean regret {regret[name] / max(1, done):.4f}  "
              f"median iterations {statistics.median(its[name]) if its[name] else 0}")


#: the race settings `race` compares: (PAIRED_MIN_ROUNDS, PAIRED_Z, PAIRED_PRIOR); a z of inf: no
#: move leaves the race; a prior of -inf: the best mean is played whatever the heuristic's move
RACES: dict[str, tuple[int, float, float]] = {
    "z2 (until 2026-11-27)": (8, 2.0, -math.inf),
    "z2 + prior 1 (now)": (8, 2.0, 1.0),
    "z2.5 + prior 1": (8, 2.5, 1.0),
    "z2.5": (8, 2.5, -math.inf),
    "z3 from round 12": (12, 3.0, -math.inf),
    "no race + prior 1": (8, math.inf, 1.0),
}


def race(game_name: str, count: int, rounds: int, budget: int) -> None:
    from cardtable.agents.heuristics import policy_for

    policy, evaluate = policy_for(game_name), evaluator_for(game_name)
    half = rounds // 2
    order = Rng(5)
    totals = {name: [0.0, 0, 0, 0] for name in RACES}  # regret, held-out best, iterations, replays
    saved = (ismcts.PAIRED_MIN_ROUNDS, ismcts.PAIRED_Z, ismcts.PAIRED_PRIOR)
    for i, view in enumerate(positions(game_name, count, 777, 3000, 5)):
        bot = agents.make("hard", seed=i)
        assert isinstance(bot, ismcts.IsmctsAgent)
        legal = view.legal_actions()
        seat = view.current_player
        assert seat is not None
        rng = Rng(1000 + i)
        root = ismcts._Node(-1)
        returns: dict[int, list[float]] = {a.index: [] for a in legal}
        for _ in range(rounds):
            seed = rng.next64()
            for a in legal:
                world = Rng(seed)
                state = view.determinize(seat, world.spawn())
                returns[a.index].append(bot._iterate(state, root, world, policy, evaluate, None, first=a)[seat])
        own = policy(view.clone(), Rng(5)).index
        truth = {k: sum(v[half:]) / (rounds - half) for k, v in returns.items()}
        top = max(truth.values())
        for _ in range(20):
            perm = list(range(half))
            for j in range(half - 1, 0, -1):  # Fisher-Yates with the probe's own stream
                k = order.below(j + 1)
                perm[j], perm[k] = perm[k], perm[j]
            results = {k: [v[j] for j in perm] for k, v in returns.items()}
            for name, setting in RACES.items():
                ismcts.PAIRED_MIN_ROUNDS, ismcts.PAIRED_Z, ismcts.PAIRED_PRIOR = setting
                alive, done, n = list(legal), 0, 0
                while len(alive) > 1 and n < half and done + len(alive) <= budget:
                    done += len(alive)
                    n += 1
                    if n >= ismcts.PAIRED_MIN_ROUNDS:
                        alive = ismcts._race(alive, {k: v[:n] for k, v in results.items()}, ismcts.PAIRED_Z)
                move = ismcts._played(alive, legal, results, n, own).index
                t = totals[name]
                t[0] += top - truth[move]
                t[1] += truth[move] == top
                t[2] += done
                t[3] += 1
        ismcts.PAIRED_MIN_ROUNDS, ismcts.PAIRED_Z, ismcts.PAIRED_PRIOR = saved
        print(json.dumps({"i": i, "moves": len(legal)}), file=sys.stderr, flush=True)
    print(f"{game_name}: {count} positions, {rounds} paired rounds each ({half} raced on, the rest held out), "
          f"a budget of {budget} iterations")
    for name, (reg, hit, its, n) in totals.items():
        print(f"  {name:<24} regret {reg / n:.4f}  held-out best {hit / n:.3f}  iterations {its / n:.0f}")


def _log_loss(ps: list[float], ys: list[int]) -> float:
    eps = 1e-6
    return -sum(math.log(min(1 - eps, max(eps, p)) if y else min(1 - eps, max(eps, 1 - p))) for p, y in zip(ps, ys, strict=True)) / len(ys)


def calibration(game_name: str, games: int, kind: str | None) -> None:
    game = cardtable.make(game_name, players=2)
    evaluate = evaluator_for(game_name)
    rng = Rng(31)
    rows: list[tuple[int, float, int]] = []  # game, evaluate's return for seat 0, seat 0 won
    for g in range(games):
        state = game.new_state(50000 + g, record_events=False)
        bots = [agents.make("medium", seed=2 * g), agents.make("medium", seed=2 * g + 1)]
        seen: list[float] = []
        while not state.is_over:
            decision = getattr(state, "decision", None)
            if (kind is None or getattr(decision, "kind", None) == kind) and rng.below(3) == 0:
                seen.append(evaluate(state)[0])
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state.determinize(seat, rng.spawn())))
        winners = state.winners()
        if len(winners) == 1:
            rows += [(g, e, int(winners[0] == 0)) for e in seen]
    train = [r for r in rows if r[0] % 4]
    test = [r for r in rows if not r[0] % 4]
    ys = [r[2] for r in test]

    def logit(e: float) -> float:
        p = min(1 - 1e-6, max(1e-6, (e + 1) / 2))
        return math.log(p / (1 - p))

    base = sum(r[2] for r in train) / len(train)
    best_k, best = 1.0, math.inf
    for k in [x / 100 for x in range(1, 201)]:
        loss = _log_loss([1 / (1 + math.exp(-k * logit(r[1]))) for r in train], [r[2] for r in train])
        if loss < best:
            best_k, best = k, loss
    print(f"{game_name}: {len(rows):,} positions from {games} games (scored on {len(test):,}); log-loss: "
          f"evaluate {_log_loss([(r[1] + 1) / 2 for r in test], ys):.4f}, base rate {_log_loss([base] * len(test), ys):.4f}, "
          f"evaluate x{best_k:.2f} on the log-odds {_log_loss([1 / (1 + math.exp(-best_k * logit(r[1]))) for r in test], ys):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="probe", required=True)
    p = sub.add_parser("early-stop")
    p.add_argument("game")
    p.add_argument("positions", type=int)
    p = sub.add_parser("reference")
    p.add_argument("game")
    p.add_argument("positions", type=int)
    p.add_argument("iterations", type=int)
    p.add_argument("variants", help='e.g. {"base": {}, "bias1": {"bias": 1.0}}')
    p.add_argument("--part", default="0/1", help="K/N: only every N-th position, from the K-th (to split a run)")
    p = sub.add_parser("race")
    p.add_argument("game")
    p.add_argument("positions", type=int)
    p.add_argument("rounds", type=int)
    p.add_argument("budget", type=int)
    p = sub.add_parser("calibration")
    p.add_argument("game")
    p.add_argument("games", type=int)
    p.add_argument("--kind", default=None, help="only positions at decisions of this kind")
    args = parser.parse_args()
    if args.probe == "early-stop":
        early_stop(args.game, args.positions)
    elif args.probe == "reference":
        k, n = (int(x) for x in args.part.split("/"))
        reference(args.game, args.positions, args.iterations, json.loads(args.variants), k, n)
    elif args.probe == "race":
        race(args.game, args.positions, args.rounds, args.budget)
    else:
        calibration(args.game, args.games, args.kind)


if __name__ == "__main__":
    main()
