"""How much of a game's margin luck decides: a searcher that sees every card plays the medium bot.

    .venv/bin/python scripts/oracle_bound.py juno --games 200 --workers 2 -o match=false

The oracle is hard's search (`ismcts`, the parameters given with --agent) handed the true state instead of a
determinized copy: every hand and the draw pile's order, so its rollouts play the real future
(a perfect-information player, which no fair player can be). It plays the medium bot (the
heuristic) with seats rotated, as the ladder plays a pair. What it wins is an upper bound on what a
fair searcher of the same kind can win against medium: where even the oracle stays near a fair
level's share, the deal and the draws decide the rest (issue 32, "where a game's luck caps the
margin, show it"; docs/agents.md).

Runs the pure-Python engine (`CARDTABLE_PURE=1`, set here): the compiled search accepts only a
compiled state, and the oracle's view is a state whose determinization is the truth. The search's
budget is CPU time, so give it more than hard's 0.5 s (the pure engine is slower) to keep the bound
an upper one; the default is 2 s.
"""

from __future__ import annotations

import os

os.environ["CARDTABLE_PURE"] = "1"  # before cardtable is imported (see the docstring)

import argparse  # noqa: E402
import json  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from typing import Any  # noqa: E402

from cardtable import agents, make  # noqa: E402
from cardtable.core.rng import Rng  # noqa: E402
from cardtable.core.state import State  # noqa: E402
from cardtable.core.views import need_of, view_for  # noqa: E402
from cardtable.sim.job import parse_agent  # noqa: E402
from cardtable.sim.stats import wilson  # noqa: E402


class Open:
    """The true state, shown as a view whose every determinization is the truth itself (`sees="all"`),
    the truth with the cards no seat can see shuffled anew (`sees="hands"`: every hand, not the
    draw pile's order), or the game's own determinization (`sees="fair"`: the same search as the
    ladder's, on the pure engine)."""

    def __init__(self, state: State, sees: str) -> None:
        self._state = state
        self._sees = sees

    def determinize(self, seat: int, rng: Any = None) -> State:
        if self._sees == "fair":
            return self._state.determinize(seat, rng)
        world = self._state.clone()
        if self._sees == "hands":
            world.shuffle_unseen(rng)
        return world

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def one(task: tuple[str, dict[str, Any], str, str, int, int]) -> dict[str, Any]:
    game_name, options, agent, sees, seed, index = task
    game = make(game_name, **options)
    gseed = (seed * 1_000_003 + index) & ((1 << 63) - 1)
    oracle_seat = index % 2  # seats alternate from game to game
    name, params = parse_agent(agent)
    oracle = agents.make(name, **{"clock": "cpu", **params}, seed=gseed * 31 + 1)
    medium = agents.make("medium", seed=gseed * 31 + 2)
    state = game.new_state(gseed, record_events=False)
    copies = Rng(gseed ^ 0x0AC1E)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if seat == oracle_seat:
            action = oracle.act(Open(state, sees))  # type: ignore[arg-type]
        else:
            action = medium.act(view_for(need_of(medium), state, seat, copies.spawn))  # type: ignore[arg-type]
        state.apply(action)
    winners = state.winners()
    return {"index": index, "oracle_seat": oracle_seat, "winners": sorted(winners), "decisions": len(state.history)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--agent", default="ismcts:time_limit=2:rollout=heuristic:cutoff=20",
                        help="the oracle's search, as the arena writes agents")
    parser.add_argument("--sees", choices=("all", "hands", "fair"), default="all",
                        help="all: every card and the draw pile's order; hands: every hand, the unseen cards shuffled; "
                        "fair: the game's own determinization (what a player may know)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, key=value")
    parser.add_argument("--out", default=None, help="also write every game here (JSON lines)")
    args = parser.parse_args()
    options: dict[str, Any] = {"players": 2}
    for text in args.option:
        key, _, value = text.partition("=")
        options[key] = json.loads(value) if value not in ("true", "false") else value == "true"
    tasks = [(args.game, options, args.agent, args.sees, args.seed, i) for i in range(args.games)]
    wins = half = 0.0
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        for row in pool.map(one, tasks):
            rows.append(row)
            if row["winners"] == [row["oracle_seat"]]:
                wins += 1
            elif row["oracle_seat"] in row["winners"] or not row["winners"]:
                half += 0.5
    n = len(rows)
    p = (wins + half) / n
    low, high = wilson(wins + half, n)
    print(f"{args.game}: the oracle ({args.agent}, sees {args.sees}) against medium: {wins + half:g} of {n} = {p:.1%} "
          f"[{low:.1%}, {high:.1%}] (Wilson 95%), seats rotated")
    if args.out:
        with open(args.out, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
