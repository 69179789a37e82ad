"""A digest of one game's observable behaviour over seeded random games, to compare the compiled
(mypyc) engine with its pure-Python fallback (cardtable/_native.py; `CARDTABLE_PURE=1` forces the
pure modules). Every game's compiled modules are held to it by tests/core/test_native.py; JUNO
also has its own, finer digest (tests/games/juno/equivalence.py).

At every step it hashes the seat to decide and the legal actions' texts; every `CHECK_EVERY`
steps `to_json()`, `observation(seat)` for every seat and a spectator, a clone's and a
determinized copy's `to_json()`, and the message of an action refused now (the state unchanged).

`--bots` digests the bots instead, whose policies are compiled too (a game's heuristic module is
the medium bot and the hard bot's rollout policy): seeded medium-against-medium games (every
action and the returns), then the hard bot's (ISMCTS) move on mid-game states of seeded random
games, with a fixed number of iterations and no early stop, so that every rollout counts.

    python -m tests.core.native_digest iuno_avatar --games 6
    python -m tests.core.native_digest ivion --bots --games 2 --searches 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import cardtable
from cardtable import agents
from cardtable.core.errors import IllegalAction
from cardtable.core.rng import Rng

CHECK_EVERY = 7
MAX_STEPS = 3000  # a random game that runs longer is cut (both engines cut it at the same step)


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=repr).encode()


def digest(game_name: str, games: int, players: int = 2) -> str:
    h = hashlib.sha256()
    game = cardtable.make(game_name, players=players)
    for seed in range(games):
        pick = random.Random(seed)
        state = game.new_state(seed)
        for step in range(MAX_STEPS):
            if state.is_over:
                break
            legal = state.legal_actions()
            h.update(_dump([state.current_player, [a.text for a in legal]]))
            if step % CHECK_EVERY == 0:
                h.update(_dump(state.to_json()))
                for seat in [*range(players), None]:
                    h.update(_dump(state.observation(seat)))
                h.update(_dump(state.clone().to_json()))
                seat = state.current_player
                assert seat is not None
                h.update(_dump(state.determinize(seat, seed * 7919 + step).to_json()))
                refused = [a for a in game.actions if a not in legal]
                if refused:
                    before = state.to_json()
                    try:
                        state.apply(pick.choice(refused))
                    except IllegalAction as refusal:
                        h.update(str(refusal).encode())
                    assert state.to_json() == before, "a refused action changed the state"
            state.apply(pick.choice(legal))
        h.update(_dump([state.is_over, state.returns() if state.is_over else None, state.to_json()]))
    return h.hexdigest()


#: iterations of each hard search in the bots' digest (a fixed budget: the clock plays no part)
SEARCH_ITERATIONS = 24


def bots_digest(game_name: str, games: int, searches: int, players: int = 2) -> str:
    h = hashlib.sha256()
    game = cardtable.make(game_name, players=players)
    for seed in range(games):
        final = cardtable.play(game, [agents.make("medium", seed=seed * 10 + seat) for seat in range(players)],
                               seed=seed, record_events=False)
        h.update(_dump([[game.actions.actions[i].text for i in final.history], final.returns()]))
    hard = {k: v for k, v in agents.DIFFICULTY["hard"][1].items() if k != "time_limit"}
    for i in range(searches):
        state = game.new_state(500 + i, record_events=False)
        pick = Rng(i)
        trail = []
        while not state.is_over:
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[pick.below(len(legal))])
        mid = next(s for s in trail[len(trail) // 3:] if len(s.legal_actions()) > 1)
        seat = mid.current_player
        assert seat is not None
        bot = agents.make("ismcts", **hard, iterations=SEARCH_ITERATIONS, early_stop=False, seed=i)
        move = bot.act(mid.determinize(seat, i))
        h.update(_dump([move.text, bot.last_iterations]))  # type: ignore[attr-defined]
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", action="store_true", help="digest the medium and hard bots' play instead")
    parser.add_argument("--searches", type=int, default=3, help="hard searches in the bots' digest")
    args = parser.parse_args()
    if args.bots:
        print(bots_digest(args.game, args.games, args.searches, args.players))
    else:
        print(digest(args.game, args.games, args.players))


if __name__ == "__main__":
    main()
