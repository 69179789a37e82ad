"""What Ivion's medium bot does with its moves (docs/rl.md, "Baselines"): medium against medium over
`GAMES` deals of each pairing of the starter heroes, counting its moves (an action's and the
initiative's), those that do not improve the score of the tile it stands on (the heuristic's own
`_tile_score`, read on the view it decided on), and those that come back to a tile it left earlier
in the same turn.

    .venv/bin/python scripts/ivion_moves.py [GAMES]    # 20 by default: 300 games, a few seconds
"""

from __future__ import annotations

import itertools
import sys

from cardtable import agents
from cardtable.core import make
from cardtable.games.ivion import heuristic
from cardtable.games.ivion.actions import Kind
from cardtable.games.ivion.decks import builder_info


def main(games: int) -> None:
    starters = list(builder_info()["starters"])
    moves = idle = back = 0
    for (first, second), seed in itertools.product(itertools.combinations(starters, 2), range(games)):
        state = make("ivion", players=2, decks=[first, second]).new_state(seed, record_events=False)
        bots = [agents.make("medium", seed=seed * 7 + s) for s in range(2)]
        turn, left = None, [set(), set()]  # the tiles each seat stood on this turn
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if (state.turn_number, state.turn) != turn:
                turn, left = (state.turn_number, state.turn), [{state.pos[0]}, {state.pos[1]}]
            view = state.determinize(seat)
            action = bots[seat].act(view)
            if action.kind in (Kind.MOVE, Kind.INIT_MOVE):
                foot = heuristic._Footing(view, seat)
                tile = view.neighbour(view.pos[seat], action.name)
                moves += 1
                idle += heuristic._tile_score(view, seat, tile, foot) <= heuristic._tile_score(view, seat, view.pos[seat], foot)
            state.apply(action)
            if action.kind in (Kind.MOVE, Kind.INIT_MOVE):
                back += state.pos[seat] in left[seat]
                left[seat].add(state.pos[seat])
    pairings = len(starters) * (len(starters) - 1) // 2
    print(f"{pairings * games} games: {moves} moves; {idle} did not improve the mover's tile; "
          f"{back} came back to a tile left earlier in the same turn")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
