"""`game.action_index(action)`: the stable index of an action object; anything else is refused."""

from __future__ import annotations

import pytest

import cardtable

from .helpers import RL_CONFIGS


@pytest.mark.parametrize("game", sorted(RL_CONFIGS))
def test_action_index_refuses_a_text_an_int_and_another_games_action(game: str) -> None:
    g = cardtable.make(game, **RL_CONFIGS[game][0])
    first = g.actions.actions[0]
    assert g.action_index(first) == 0
    other = cardtable.make("juno" if game != "juno" else "iunu", players=2).actions.actions[0]
    for wrong in (first.text, "draw", 0, None, other):
        with pytest.raises(cardtable.IllegalAction, match="action_index takes an action of this"):
            g.action_index(wrong)
