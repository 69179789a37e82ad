"""Why a rune of the hand cannot be played now (issue 30): `ZunState.card_moves` says which move
plays each rune at the decision (an Action in the Action Phase, a modifier while the rune just
played is modified, a Reaction in the reaction window, any rune when discarding), and the core's
`card_status` gives each the reason `check` refuses it with. Only the seat that decides is told."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable import IllegalAction
from cardtable.games.zun.actions import Kind

HAND_KINDS = {Kind.PLAY, Kind.MODIFY, Kind.REACT, Kind.DISCARD}


@pytest.mark.parametrize("players", [2, 3])
def test_each_rune_s_reason_agrees_with_the_legal_moves_in_whole_games(players: int) -> None:
    game = cardtable.make("zun", players=players)
    refused: list[str] = []
    checked = 0
    for seed in range(8):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            moves = [m for st in state.card_status(seat).values() for m in st["moves"]]
            # every legal move that plays a rune of the hand is a rune's move, legal exactly when its reason is None
            assert {m["move"] for m in moves if m["why"] is None} == {
                a.text for a in legal if a.kind in HAND_KINDS}  # type: ignore[attr-defined]
            for m in moves:
                if m["why"] is not None:
                    with pytest.raises(IllegalAction) as err:
                        state.apply(m["move"])
                    assert str(err.value) == m["why"]
                    refused.append(m["why"])
            checked += bool(moves)
            assert all(state.card_status(s) == {} for s in range(players) if s != seat)
            state.apply(rnd.choice(legal))
    assert checked > 100
    # a modifier that is not a charm of the rune being played says so (Action Phase 3)
    assert any(" is not a charm of " in why for why in refused), refused[:5]
