"""Why not, from the server, in every game (issue 30, STYLE.md principle 13): at every decision of
whole random games, each card the deciding seat holds has its entry in `State.card_status` (the move
that plays it, and the rule's reason when the move is refused), so a view never works out a card's
move or its reason; a move is legal exactly when its reason is None, and a refused one is refused by
`check` with that same reason. Every other seat is told nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction

#: where each game's observation lists the cards its seat holds (a hand; Iuno Avatar's Heaven)
HELD: dict[str, str] = {"juno": "hand", "iunu": "hand", "zun": "hand", "iuno_avatar": "heaven", "ivion": "hand"}
#: decisions at most, per game (the checks run at each)
STEPS = 600


def _names(cards: list[Any]) -> set[str]:
    return {c["name"] if isinstance(c, dict) else str(c) for c in cards}


@pytest.mark.parametrize("name", sorted(HELD))
def test_every_card_held_has_its_move_and_reason_at_every_decision(name: str) -> None:
    assert set(HELD) == set(cardtable.games()), "a game was added: say where its observation lists the cards held"
    game = cardtable.make(name) if name == "ivion" else cardtable.make(name, players=3)
    decisions: set[str] = set()
    for seed in range(2):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        for _ in range(STEPS):
            if state.is_over:
                break
            seat = state.current_player
            assert seat is not None
            status = state.card_status(seat)
            held = _names(state.observation(seat)[HELD[name]])
            missing = held - set(status)
            assert not missing, f"{name}: at {state.decision.kind!r}, no move nor reason for {sorted(missing)}"
            legal = {a.text for a in state.legal_actions()}
            for card, st in status.items():
                assert st["moves"] and {"move": st["move"], "why": st["why"]} in st["moves"], (card, st)
                for m in st["moves"]:
                    assert (m["why"] is None) == (m["move"] in legal), (name, card, m)
                    if m["why"] is not None:
                        with pytest.raises(IllegalAction) as refused:
                            state.check(m["move"])
                        assert str(refused.value) == m["why"]
            assert all(state.card_status(s) == {} for s in range(game.players) if s != seat)
            decisions.add(state.decision.kind)
            state.apply(rnd.choice(state.legal_actions()))
    assert len(decisions) > 2, decisions  # more than one kind of decision was seen
