"""The Wild Draw Four challenge option (NOTES.md) and the "Seven-o Rules"."""

from __future__ import annotations

import pytest

from cardtable import OptionError
from cardtable.games.juno.decisions import Catch, Challenge, SwapHands, Turn

from .scenario import hand, juno, legal, position

DRAW = "green 1, green 2, green 3, green 4, green 6, green 8, green 9, yellow 9, yellow 8, yellow 7"


def challenge_position(offender_hand: str):
    game = juno(players=3, wild_draw_four="challenge")
    state = position(game, [offender_hand, "blue 1, blue 2", "yellow 1, yellow 2"], discard="red 7", draw=DRAW)
    assert "play wild draw four" in legal(state)  # with the challenge rule the engine lets it be played
    state.apply("play wild draw four")
    state.apply("choose green")
    assert isinstance(state.pending[-1], Challenge) and state.current_player == 1
    assert legal(state) == ["challenge", "pass"]
    return state


def test_challenge_guilty_offender_draws_four_and_the_challenger_plays() -> None:
    """Guilty (they held a card of the color in play): the player of the Wild Draw Four draws 4 instead,
    and the challenger plays normally."""
    state = challenge_position("wild draw four, red 3, blue 9")
    state.apply("challenge")
    assert len(state.hands[0]) == 6 and hand(state, 1) == ["blue 1", "blue 2"]
    assert isinstance(state.pending[-1], Turn) and state.current_player == 1


def test_challenge_innocent_challenger_draws_six_and_loses_the_turn() -> None:
    state = challenge_position("wild draw four, blue 9, green 1")  # no red card: innocent
    state.apply("challenge")
    assert len(state.hands[0]) == 2 and len(state.hands[1]) == 8
    assert state.current_player == 2


def test_not_challenging_the_next_player_draws_four_and_loses_the_turn() -> None:
    state = challenge_position("wild draw four, red 3, blue 9")
    state.apply("pass")
    assert len(state.hands[1]) == 6 and state.current_player == 2


def test_the_challenger_alone_sees_the_hand() -> None:
    state = challenge_position("wild draw four, red 3, blue 9")
    state.apply("challenge")
    assert state.events is not None
    shown = [e for e in state.events if e.kind == "hand_shown"]
    assert len(shown) == 1 and shown[0].to == (1,) and shown[0].data["cards"] == ["red 3", "blue 9"]
    assert "hand_shown" in [e.kind for e in state.events_for(1)]
    for seat in (0, 2, None):
        assert "hand_shown" not in [e.kind for e in state.events_for(seat)]
    assert "red 3" not in str(state.observation(2)) and "red 3" not in str(state.observation(None))


def test_enforced_is_the_default_and_challenge_is_an_option() -> None:
    assert juno().options.wild_draw_four == "enforced"
    with pytest.raises(OptionError, match="wild_draw_four"):
        juno(wild_draw_four="sometimes")


def seven_o(players: int = 4):
    return juno(players=players, variant="seven-o")


def test_seven_o_a_zero_passes_every_hand_to_the_next_player_in_direction_of_play() -> None:
    """"Every time a 0 is played, all players pass their hands to the next player in direction of play.\""""
    hands = ["red 0, blue 1, blue 2", "yellow 1, yellow 2", "green 1, green 2", "blue 3, blue 4"]
    state = position(seven_o(), hands, discard="red 7", draw=DRAW)
    state.apply("play red 0")
    assert [hand(state, s) for s in range(4)] == [
        ["blue 3", "blue 4"], ["blue 1", "blue 2"], ["yellow 1", "yellow 2"], ["green 1", "green 2"]]
    assert state.current_player == 1
    state = position(seven_o(), hands, discard="red 7", draw=DRAW, direction=-1)
    state.apply("play red 0")
    assert [hand(state, s) for s in range(4)] == [
        ["yellow 1", "yellow 2"], ["green 1", "green 2"], ["blue 3", "blue 4"], ["blue 1", "blue 2"]]
    assert state.current_player == 3


def test_seven_o_a_seven_trades_hands_with_a_player_of_your_choice() -> None:
    """"the player who played the 7 card must trade their hand with another player of their choice.\""""
    hands = ["red 7, blue 1, blue 2", "yellow 1, yellow 2", "green 1, green 2, green 3", "blue 3, blue 4"]
    state = position(seven_o(), hands, discard="red 5", draw=DRAW)
    state.apply("play red 7")
    assert isinstance(state.pending[-1], SwapHands) and state.current_player == 0
    assert legal(state) == ["swap with seat 1", "swap with seat 2", "swap with seat 3"]
    state.apply("swap with seat 2")
    assert hand(state, 0) == ["green 1", "green 2", "green 3"] and hand(state, 2) == ["blue 1", "blue 2"]
    assert state.current_player == 1


def test_seven_o_going_out_on_a_zero_or_seven_ends_the_round_first() -> None:
    """Our reading: "Once a player has no cards left, the round is over", before the 0 or 7 acts."""
    state = position(seven_o(), ["red 7", "yellow 1", "green 1", "blue 3"], discard="red 5", draw=DRAW)
    state.apply("play red 7")
    assert state.is_over and state.winners() == [0] and hand(state, 1) == ["yellow 1"]
    state = position(seven_o(), ["red 0", "yellow 1", "green 1", "blue 3"], discard="red 5", draw=DRAW)
    state.apply("play red 0")
    assert state.is_over and hand(state, 1) == ["yellow 1"]


def test_a_missed_call_is_catchable_only_while_that_player_holds_one_card() -> None:
    """Our reading: after a seven-o trade the player who forgot UNO may hold many cards: nothing to catch."""
    hands = ["red 7, blue 1", "yellow 1, yellow 2", "green 1, green 2, green 3", "blue 3, blue 4"]
    state = position(seven_o(), hands, discard="red 5", draw=DRAW)
    state.apply("play red 7")  # no UNO call
    state.apply("swap with seat 2")
    assert isinstance(state.pending[-1], Turn) and state.current_player == 1
    state = position(seven_o(), hands, discard="red 5", draw=DRAW)
    state.apply("play red 7")
    state.apply("swap with seat 1")
    assert not isinstance(state.pending[-1], Catch)


def test_a_missed_call_is_not_caught_on_a_one_card_hand_received_in_a_trade_or_pass() -> None:
    """The one card the player holds after a seven-o trade or pass is another player's: nothing to catch."""
    # a 7 traded with a player who holds one card
    hands = ["red 7, blue 1", "yellow 1", "green 1, green 2, green 3"]
    state = position(seven_o(3), hands, discard="red 5", draw=DRAW)
    state.apply("play red 7")  # no UNO call
    state.apply("swap with seat 1")
    assert len(state.hands[0]) == 1 and not isinstance(state.pending[-1], Catch)
    # a 0 passes the hands on: the player receives a one-card hand
    hands = ["red 0, blue 9", "green 1, green 2", "yellow 1"]
    state = position(seven_o(3), hands, discard="red 5", draw=DRAW)
    state.apply("play red 0")  # no UNO call
    assert len(state.hands[0]) == 1 and not isinstance(state.pending[-1], Catch)
