"""Rulebook "Serious rules" and "Cards stackability"."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction
from cardtable.games.juno.cards import COLORS
from cardtable.games.juno.decisions import ChooseColor, StackMore, Turn

from .scenario import hand, juno, legal, position, snapshot

DRAW = "green 1, green 2, green 3, green 4, green 6, green 8, green 9, yellow 9, yellow 8"


def serious(players: int = 4, **options):
    return juno(players=players, variant="serious", **options)


def test_serious_deals_eleven_cards() -> None:
    """"Each player starts with 11 cards.\""""
    state = serious().new_state(seed=2)
    assert sorted(len(h) for h in state.hands)[:3] == [11, 11, 11]
    assert serious().hand_size == 11


def test_up_to_three_cards_of_the_same_value_in_one_play() -> None:
    """"Each player can stack a maximum of 3 cards, a card is stackable when matches the value of another card.\""""
    state = position(serious(), ["red 5, blue 5, green 5, yellow 5, blue 9", "blue 1, blue 2", "blue 3, blue 4", "yellow 1, yellow 2"], discard="red 7", draw=DRAW)
    state.apply("play red 5")
    assert isinstance(state.pending[-1], StackMore) and state.current_player == 0
    assert legal(state) == ["play blue 5", "play green 5", "play yellow 5", "pass"]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"only another 5 can be added to this play \(at most 3 cards\), or pass"):
        state.apply("play blue 9")
    assert snapshot(state) == before
    state.apply("play blue 5")
    state.apply("play green 5")
    assert hand(state, 0) == ["blue 9", "yellow 5"]  # the 4th 5 stays: three is the most
    assert isinstance(state.pending[-1], Turn) and state.current_player == 1
    assert state.color == COLORS.index("green")  # the last card laid sets the color


def test_stacking_stops_when_the_player_passes() -> None:
    state = position(serious(), ["red 5, blue 5, blue 9", "blue 1, blue 2", "blue 3, blue 4", "yellow 1, yellow 2"],
                     discard="red 7", draw=DRAW)
    state.apply("play red 5")
    state.apply("pass")
    assert state.current_player == 1 and hand(state, 0) == ["blue 5", "blue 9"]


def test_draw_twos_stack_across_players_and_the_first_who_does_not_match_draws_the_sum() -> None:
    """"Draw +2 can be stacked and the sum of the cards will be drawn by the first player that doesn't match\""""
    state = position(serious(), ["red draw two, blue 1, blue 2", "blue draw two, green 3, green 4",
                                 "red 5, yellow 1", "yellow 2, yellow 3"], discard="red 7", draw=DRAW)
    state.apply("play red draw two")
    assert state.current_player == 1 and state.penalty == 2
    assert legal(state) == ["play blue draw two", "draw"]  # match the draw, or take it
    state.apply("play blue draw two")
    assert state.current_player == 2 and state.penalty == 4
    assert legal(state) == ["draw"]  # a red 5 matches the color but does not answer a draw
    state.apply("draw")
    assert len(state.hands[2]) == 6 and state.penalty == 0
    assert state.current_player == 3  # and they lose their turn


def test_wild_draw_fours_stack_and_sum_the_color_rule_does_not_apply_to_the_answer() -> None:
    """"Wild Draw +4 can be stacked and the cards to draw sum up and the color choice is likewise wild cards".
    Our reading: answering a Wild Draw Four with another is allowed whatever you hold."""
    state = position(serious(), ["wild draw four, blue 1, blue 2", "wild draw four, green 3, red 4",
                                 "red 5, yellow 1", "yellow 2, yellow 3"], discard="red 7", draw=DRAW)
    state.apply("play wild draw four")
    state.apply("choose green")
    assert state.current_player == 1 and state.penalty == 4
    assert legal(state) == ["play wild draw four", "draw"]  # holds green 3, still may stack
    state.apply("play wild draw four")
    state.apply("choose blue")
    state.apply("draw")
    assert len(state.hands[2]) == 10 and state.color == COLORS.index("blue")
    assert state.current_player == 3


def test_no_stacking_after_the_draw_was_taken() -> None:
    """Once a player has drawn the sum, the Draw Two on top is an ordinary card: a Draw Two played on it
    (matching by symbol) starts a new count of 2."""
    state = position(serious(), ["yellow draw two, blue 1, blue 2", "blue 3, blue 4", "blue 5, blue 6", "blue 7, blue 8"],
                     discard="red draw two", draw=DRAW)
    assert state.penalty == 0 and "play yellow draw two" in legal(state) and "play blue 1" not in legal(state)
    state.apply("play yellow draw two")
    state.apply("draw")
    assert len(state.hands[1]) == 4 and state.current_player == 2


def test_a_drawn_card_is_played_alone() -> None:
    """"you may not play any other card from your hand after the draw": no stack after drawing."""
    state = position(serious(), ["red 5, blue 9, yellow 9", "blue 1, blue 2", "blue 3, blue 4", "yellow 1, yellow 2"],
                     discard="green 5", draw="green 5")
    state.apply("draw")
    state.apply("play green 5")
    assert isinstance(state.pending[-1], Turn) and state.current_player == 1


def test_stacked_skips_each_skip_a_player() -> None:
    """"Skip can be stacked as many as players can play them, but the effect sum up to 3": with at most
    3 cards in a play, three stacked Skips skip three players."""
    state = position(serious(players=5), ["red skip, blue skip, green skip, blue 9, blue 8"] + ["yellow 1, yellow 2"] * 4,
                     discard="red 7", draw=DRAW)
    state.apply("play red skip")
    state.apply("play blue skip")
    state.apply("play green skip")
    assert state.current_player == 4


def test_the_skip_effect_is_at_most_three() -> None:
    """The cap, shown directly: a play that somehow carried 4 skips skips only 3 players."""
    state = position(serious(players=6), ["red skip, blue 9, blue 8"] + ["yellow 1, yellow 2"] * 5,
                     discard="red 7", draw=DRAW)
    state.skips = 3  # as if three more Skips were already in this play
    state.apply("play red skip")
    assert state.current_player == 4


def test_each_stacked_reverse_reverses() -> None:
    """"Reverse card are stackable but each cards performs the turn reversing\""""
    two = position(serious(), ["blue 1, blue 2", "red reverse, blue reverse, blue 9", "yellow 1, yellow 2",
                               "yellow 3, yellow 4"], discard="red 7", turn=1, draw=DRAW)
    two.apply("play red reverse")
    two.apply("play blue reverse")
    assert two.direction == 1 and two.current_player == 2
    three = position(serious(), ["blue 1, blue 2", "red reverse, blue reverse, green reverse, blue 9",
                                 "yellow 1, yellow 2", "yellow 3, yellow 4"], discard="red 7", turn=1, draw=DRAW)
    for card in ("red reverse", "blue reverse", "green reverse"):
        three.apply(f"play {card}")
    assert three.direction == -1 and three.current_player == 0


def test_two_players_stacked_reverses_count_as_skips() -> None:
    """With two players each Reverse is a Skip (NOTES.md), so two stacked Reverses skip twice:
    the opponent, then the player, and the opponent plays."""
    state = position(serious(players=2), ["red reverse, blue reverse, blue 9", "yellow 1, yellow 2"],
                     discard="red 7", draw=DRAW)
    state.apply("play red reverse")
    state.apply("play blue reverse")
    assert state.current_player == 1


def test_stacked_wilds_one_color_choice_by_the_last_player() -> None:
    """"Wild cards can be stacked but only the last player that matches will choose the color\""""
    state = position(serious(), ["wild, wild, blue 9, blue 8", "wild, yellow 1, yellow 9", "blue 3, blue 4", "yellow 3, yellow 4"],
                     discard="red 7", draw=DRAW)
    state.apply("play wild")
    assert isinstance(state.pending[-1], StackMore)
    state.apply("play wild")
    assert isinstance(state.pending[-1], ChooseColor) and state.current_player == 0
    state.apply("choose blue")
    assert state.current_player == 1
    state.apply("play wild")
    state.apply("choose yellow")
    assert state.color == COLORS.index("yellow")  # the last wild's player decides


def test_a_win_grants_1000_points_and_one_win_decides_the_match() -> None:
    """"One single win will grant you 1000 points each time." With the classic target of 500, the first
    win ends the match; raise `target` to play on."""
    state = position(serious(match=True), ["red 1", "blue 9, blue 8", "blue 3", "yellow 3"], discard="red 7", draw=DRAW)
    state.apply("play red 1")
    assert state.is_over and state.scores == [1000, 0, 0, 0]
    state = position(serious(match=True, target=2000), ["red 1", "blue 9, blue 8", "blue 3", "yellow 3"],
                     discard="red 7", draw=DRAW)
    state.apply("play red 1")
    assert not state.is_over and state.scores == [1000, 0, 0, 0] and state.round == 2


def test_the_challenge_rule_is_not_offered_with_serious() -> None:
    from cardtable import OptionError

    with pytest.raises(OptionError, match="challenge rule is not available with serious"):
        juno(variant="serious", wild_draw_four="challenge")
