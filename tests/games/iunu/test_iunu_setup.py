"""SETUP, GAMEPLAY and END OF THE ROUND (../shared/rules/iunu.txt)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.games.iunu.cards import CITIZENS

from .scenario import iunu


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players: int) -> None:
    """Setup 1-5: Citizen deck, 5 of the 9 Afterlife cards, 3 Debens, 4-card hands, a Forum of 5,
    the Starting Player rolls three d4."""
    state = iunu(players=players).new_state(11)
    assert len(state.afterlife_deck) == 5 and len(state.afterlife_box) == 4
    assert sorted(state.afterlife_deck + state.afterlife_box) == list(range(9))
    assert state.debens == [3] * players
    assert all(len(h) == 4 for h in state.hands)
    assert len(state.forum) == 5
    assert len(state.deck) == 45 - 4 * players - 5
    every = state.deck + state.forum + [c for h in state.hands for c in h]
    # "This number also represents the total number of cards of that type in the deck."
    assert Counter(every) == {t: t + 1 for t in range(len(CITIZENS))}
    assert len(state.dice) == 3 and all(1 <= v <= 4 for v in state.dice)
    assert state.starter == 0 and state.current_player == 0 and state.round == 1
    assert state.bread == 20


def test_dice_come_from_the_state_rng() -> None:
    """Dice rolls use the state's seeded generator: same seed, same dice; the rolls vary with the seed."""
    game = iunu(players=3)
    assert game.new_state(5).dice == game.new_state(5).dice
    faces = {v for seed in range(40) for v in game.new_state(seed).dice}
    assert faces == {1, 2, 3, 4}


def test_rounds_rotate_the_starting_player() -> None:
    """END OF THE ROUND: the next player clockwise from the Starting Player rolls and starts."""
    game = iunu(players=3)
    state = game.new_state(3)
    seen = [(state.round, state.starter)]
    while not state.is_over and state.round < 4:
        state.apply(state.legal_actions()[0])
        if (state.round, state.starter) != seen[-1]:
            seen.append((state.round, state.starter))
    assert seen[:4] == [(1, 0), (2, 1), (3, 2), (4, 0)]


def test_each_player_takes_one_turn_per_round_in_order() -> None:
    """GAMEPLAY: each player in turn order takes a turn; dice are rolled only at the start of a round."""
    state = iunu(players=4).new_state(8)
    turns = []
    while state.round == 1:
        if state.turn not in turns:
            turns.append(state.turn)
        state.apply(state.legal_actions()[-1])
    assert turns == [0, 1, 2, 3]
    assert state.starter == 1
