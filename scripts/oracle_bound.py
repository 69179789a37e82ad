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
import math  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from typing import Any  # noqa: E402

from cardtable import agents, make  # noqa: E402
from cardtable.core.rng import Rng  # noqa: E402
from cardtable.core.state import State  # noqa: E402
from cardtable.core.views import need_of, view_for  # noqa: E402
from cardtable.sim.job import parse_agent  # noqa: E402


class Open:
    """The true state, shown as a view whose every determinization is the truth itself (`sees="all"`),
    or the truth with the cards no seat can see shuffled anew (`sees="hands"`: every hand, not the
    draw pile's order)."""

    def __init__(self, state: State, sees: str) -> None:
        self._state = state
        self._sees = sees

    def determinize(self, seat: int, rng: Any = None) -> State:
        if self._sees in ("none", "voids"):
            world = self._state.determinize(seat, rng)
            if self._sees == "voids":
                self.voids.deal(world, seat, rng)
            return world
        world = self._state.clone()
        if self._sees == "hands":
            world.shuffle_unseen(rng)
        return world

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class Voids:
    """JUNO: what each seat's unknown cards cannot be, inferred from public play. A seat that draws
    at its turn is taken to have held nothing playable (the medium bot never draws when it can
    play): every card it held then is a slot that cannot match the color and rank in play. A slot
    per card in hand; a card played leaves the most constrained slot it fits (none fits: the seat
    played against the model, its constraints are dropped)."""

    def __init__(self, state: Any) -> None:
        self.slots: list[list[list[tuple[int, int]]]] = [[[] for _ in hand] for hand in state.hands]

    def before(self, state: Any, action: Any) -> tuple[list[int], tuple[int, int] | None]:
        from cardtable.games.juno.cards import CARD_RANK
        from cardtable.games.juno.decisions import Turn
        d = state.pending[-1]
        drew = type(d) is Turn and not state.penalty and action.kind.name == "DRAW"
        return [len(h) for h in state.hands], ((state.color, CARD_RANK[state.discard[-1]]) if drew else None)

    def after(self, state: Any, seat: int, before: tuple[list[int], tuple[int, int] | None]) -> None:
        from cardtable.games.juno.decisions import MATCH
        sizes, drew = before
        if drew is not None:
            for slot in self.slots[seat]:
                slot.append(drew)
        for s, (old, hand) in enumerate(zip(sizes, state.hands, strict=True)):
            new = len(hand)
            if new > old:
                self.slots[s] += [[] for _ in range(new - old)]
            elif new < old:
                card = state.discard[-1]
                for _ in range(old - new):
                    fits = [k for k, slot in enumerate(self.slots[s])
                            if not any(MATCH[c][r][card] for c, r in slot)]
                    if fits:
                        del self.slots[s][max(fits, key=lambda k: len(self.slots[s][k]))]
                    else:
                        self.slots[s] = [[] for _ in range(len(self.slots[s]) - 1)]
            assert len(self.slots[s]) == new, (s, len(self.slots[s]), new)

    def deal(self, world: Any, seat: int, rng: Any) -> None:
        """Re-deal the other seats' hands from the cards `seat` cannot see, each slot a card it may be."""
        from cardtable.games.juno.decisions import MATCH
        for o, slots in enumerate(self.slots):
            if o == seat or not any(slots):
                continue
            pool = world.hands[o] + world.draw
            order = sorted(range(len(slots)), key=lambda k: -len(slots[k]))
            hand: list[int] = []
            for k in order:
                allowed = [i for i, card in enumerate(pool) if not any(MATCH[c][r][card] for c, r in slots[k])]
                if not allowed:
                    allowed = list(range(len(pool)))
                i = allowed[rng.below(len(allowed))]
                hand.append(pool.pop(i))
            rng.shuffle(pool)
            world.hands[o] = hand
            world.draw = pool
            world._legal = None


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
    voids = Voids(state) if sees == "voids" else None
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if seat == oracle_seat:
            view = Open(state, sees)
            view.voids = voids
            action = oracle.act(view)  # type: ignore[arg-type]
        else:
            action = medium.act(view_for(need_of(medium), state, seat, copies.spawn))  # type: ignore[arg-type]
        before = voids.before(state, action) if voids else None
        state.apply(action)
        if voids:
            voids.after(state, seat, before)
    winners = state.winners()
    return {"index": index, "oracle_seat": oracle_seat, "winners": sorted(winners), "decisions": len(state.history)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--agent", default="ismcts:time_limit=2:rollout=heuristic:cutoff=20",
                        help="the oracle's search, as the arena writes agents")
    parser.add_argument("--sees", choices=("all", "hands", "voids", "none"), default="all",
                        help="all: every card and the draw pile's order; hands: every hand, the unseen cards shuffled; "
                        "voids: a fair view, the hands dealt as public play suggests (JUNO); none: a fair view")
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
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(f"{args.game}: the oracle ({args.agent}, sees {args.sees}) against medium: {wins + half:g} of {n} = {p:.1%} "
          f"[{centre - spread:.1%}, {centre + spread:.1%}] (Wilson 95%), seats rotated")
    if args.out:
        with open(args.out, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
