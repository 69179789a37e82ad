"""Rulebook "Let's play", "Functions of Action Cards", "Going out" and "Scoring" (classic rules)."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction
from cardtable.games.juno.cards import COLORS
from cardtable.games.juno.decisions import AfterDraw, Catch, ChooseColor, Turn

from .scenario import hand, juno, legal, names, position, snapshot


def refused(state, action: str, reason: str) -> None:
    """The action is refused with a reason a person understands, and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert reason in str(err.value)
    assert snapshot(state) == before


def test_match_by_color() -> None:
    """"If the card on the DISCARD pile is a red 7, the player must put down a red card ..."."""
    state = position(juno(players=3), ["red 2, blue 3, green 9", "blue 1", "blue 2"], discard="red 7")
    assert legal(state) == ["play red 2", "draw"]
    state.apply("play red 2")
    assert names(state.discard) == ["red 2", "red 7"] and hand(state, 0) == ["blue 3", "green 9"]
    assert state.current_player == 1


def test_match_by_number() -> None:
    """"... OR any color 7"."""
    state = position(juno(players=3), ["blue 7, green 8, blue 3", "blue 1", "blue 2"], discard="red 7")
    assert legal(state) == ["play blue 7", "draw"]
    state.apply("play blue 7")
    assert state.color == COLORS.index("blue")


def test_match_by_symbol() -> None:
    """"match ... by number, color or symbol": a Skip on a Skip of another color."""
    state = position(juno(players=4), ["green skip, blue 3, yellow 1", "blue 1", "blue 2", "blue 4"], discard="red skip")
    assert legal(state) == ["play green skip", "draw"]


def test_a_card_that_does_not_match_is_refused() -> None:
    state = position(juno(players=3), ["blue 3, green 9, red 1", "blue 1", "blue 2"], discard="red 7")
    refused(state, "play blue 3", "blue 3 does not match the red 7 on the discard pile (color in play: red)")
    refused(state, "play yellow 4", "seat 0 holds no yellow 4")


def test_wild_may_be_played_on_anything_even_with_a_playable_card() -> None:
    """"You may play a Wild card on your turn even if you have another playable card in your hand.\""""
    state = position(juno(players=3), ["wild, red 3, blue 9", "blue 1", "blue 2"], discard="red 7")
    assert "play wild" in legal(state) and "play red 3" in legal(state)
    state.apply("play wild")
    assert isinstance(state.pending[-1], ChooseColor) and state.current_player == 0


def test_wild_draw_four_refused_while_holding_the_color_in_play() -> None:
    """"You may only play this card when you do NOT have another card in your hand that matches
    the COLOR on the DISCARD pile"."""
    state = position(juno(players=3), ["wild draw four, red 3, blue 9", "blue 1", "blue 2"], discard="red 7")
    assert "play wild draw four" not in legal(state)
    refused(state, "play wild draw four", "Wild Draw Four only when you hold no red card; you hold red 3")


def test_wild_draw_four_refused_while_holding_the_color_chosen_for_a_wild() -> None:
    state = position(juno(players=3), ["wild draw four, green 3", "blue 1", "blue 2"], discard="wild", color="green")
    refused(state, "play wild draw four", "Wild Draw Four only when you hold no green card; you hold green 3")


def test_wild_draw_four_acceptable_with_a_matching_number_or_action_card() -> None:
    """"... but it is acceptable to play this card if you have matching number or Action Cards\""""
    state = position(
        juno(players=3), ["wild draw four, blue 7, green skip", "blue 1", "blue 2"], discard="red skip", color="red"
    )
    assert legal(state) == ["play wild draw four", "play green skip", "draw"]
    state = position(juno(players=3), ["wild draw four, blue 7", "blue 1", "blue 2"], discard="red 7")
    assert "play wild draw four" in legal(state)


def test_draw_when_you_cannot_play_and_play_the_drawn_card() -> None:
    """"If you don't have a card that matches ..., you must take a card from the DRAW pile. If the card
    you picked up can be played, you are free to put it down in the same turn.\""""
    state = position(juno(players=3), ["blue 3, green 9", "blue 1", "blue 2"], discard="red 7", draw="red 2, red 4")
    assert legal(state) == ["draw"]
    state.apply("draw")
    assert isinstance(state.pending[-1], AfterDraw) and state.current_player == 0
    assert hand(state, 0) == ["blue 3", "green 9", "red 4"]  # the top of the DRAW pile
    assert legal(state) == ["play red 4", "pass"]
    state.apply("play red 4")
    assert state.current_player == 1


def test_a_drawn_card_that_cannot_be_played_is_kept_and_play_moves_on() -> None:
    """"Otherwise, play moves on to the next person in turn.\""""
    state = position(juno(players=3), ["blue 3", "blue 1", "blue 2"], discard="red 7", draw="green 4")
    state.apply("draw")
    # No question is asked (issue 21, item 8): the turn has moved on, the card kept.
    assert hand(state, 0) == ["blue 3", "green 4"] and state.current_player == 1
    assert [e.kind for e in state.events[-2:]] == ["drew_cards", "kept"]


def test_choosing_not_to_play_you_draw_and_may_play_only_the_drawn_card() -> None:
    """"You may also choose NOT to play a playable card ... you must draw ... you may not play any
    other card from your hand after the draw.\""""
    state = position(juno(players=3), ["red 3, red 9, blue 1", "blue 1", "blue 2"], discard="red 7", draw="blue 7")
    assert legal(state) == ["play red 3", "play red 9", "draw"]
    state.apply("draw")
    assert legal(state) == ["play blue 7", "pass"]
    refused(state, "play red 3", "after drawing you may play only the card you drew (blue 7) or pass")


def test_draw_two_next_player_draws_two_and_misses_their_turn() -> None:
    state = position(juno(players=4), ["red draw two, blue 1, blue 5", "blue 2", "blue 3", "blue 4"], discard="red 7",
                     draw="green 1, green 2, green 3")
    state.apply("play red draw two")
    assert hand(state, 1) == ["blue 2", "green 2", "green 3"]
    assert state.current_player == 2


def test_draw_two_only_on_its_color_or_another_draw_two() -> None:
    """"This card may only be played on a matching color or on another Draw Two card.\""""
    state = position(juno(players=3), ["red draw two, blue draw two, green skip", "blue 1", "blue 2"],
                     discard="green draw two")
    assert legal(state) == ["play red draw two", "play blue draw two", "play green skip", "draw"]
    state = position(juno(players=3), ["red draw two, blue draw two", "blue 1", "blue 2"], discard="green 2")
    assert legal(state) == ["draw"]


def test_skip_next_player_loses_their_turn() -> None:
    state = position(juno(players=4), ["red skip, blue 1, blue 5", "blue 2", "blue 3", "blue 4"], discard="red 7")
    state.apply("play red skip")
    assert state.current_player == 2 and hand(state, 1) == ["blue 2"]


def test_reverse_reverses_the_direction_of_play() -> None:
    """"the direction of play reverses (if play is currently to the left, then play changes to the right)".
    Seats are numbered to the left: seat + 1 is the player on the left."""
    state = position(juno(players=4), ["blue 1", "red reverse, blue 2", "blue 3", "blue 4"], discard="red 7", turn=1)
    state.apply("play red reverse")
    assert state.direction == -1 and state.current_player == 0
    state = position(juno(players=4), ["blue 1", "red reverse, blue 2", "blue 3", "blue 4"], discard="red 7", turn=1,
                     direction=-1)
    state.apply("play red reverse")
    assert state.direction == 1 and state.current_player == 2


def test_play_passes_to_the_left_by_default() -> None:
    """"The person to the left of the dealer starts play": play goes to the left (seat + 1)."""
    state = position(juno(players=5), ["red 1, blue 1", "red 2", "blue 3", "blue 4", "blue 5"], discard="red 7", turn=4)
    state.hands[4] = state.hands[0][:]
    state._legal = None
    state.apply("play red 1")
    assert state.current_player == 0


def test_after_a_reverse_every_play_passes_to_the_right() -> None:
    """"the direction of play reverses": it stays reversed, so after it a plain number card passes
    the turn to the right (seat - 1), and so does a drawn card that is kept."""
    state = position(juno(players=4), ["blue 1", "red reverse, red 2, green 2", "red 3, red 9", "red 4, red 8"],
                     discard="red 7", turn=1)
    state.apply("play red reverse")
    assert state.current_player == 0
    state.apply("draw")  # the drawn card cannot be played: it is kept, play moves on
    assert state.current_player == 3
    state.apply("play red 4")
    assert state.current_player == 2 and state.direction == -1


def test_two_players_reverse_acts_as_skip() -> None:
    """NOTES.md: with two players a Reverse acts like a Skip: the player who played it goes again."""
    state = position(juno(players=2), ["red reverse, blue 1, blue 2", "blue 3"], discard="red 7")
    state.apply("play red reverse")
    assert state.current_player == 0 and isinstance(state.pending[-1], Turn)


def test_wild_player_chooses_the_color_that_continues_play() -> None:
    state = position(juno(players=3), ["wild, blue 1, blue 5", "blue 2, red 2, yellow 9", "blue 3"], discard="red 7")
    state.apply("play wild")
    assert legal(state) == ["choose red", "choose yellow", "choose green", "choose blue"]
    state.apply("choose blue")
    assert state.color == COLORS.index("blue") and state.current_player == 1
    assert legal(state) == ["play blue 2", "draw"]


def test_wild_may_choose_the_color_already_in_play() -> None:
    """"any color including the color in play before the Wild card was laid down\""""
    state = position(juno(players=3), ["wild, blue 1, blue 5", "blue 2, red 2, yellow 9", "blue 3"], discard="red 7")
    state.apply("play wild")
    state.apply("choose red")
    assert state.color == COLORS.index("red") and legal(state) == ["play red 2", "draw"]


def test_uno_is_called_only_with_the_next_to_last_card() -> None:
    """"When you play your next-to-last card, you must yell UNO".  The call is part of the play."""
    state = position(juno(players=3), ["red 1, red 2, blue 9", "blue 1", "blue 2"], discard="red 7")
    assert legal(state) == ["play red 1", "play red 2", "draw"]
    refused(state, "play red 1 uno", "UNO is called only with your next-to-last card")
    state = position(juno(players=3), ["red 1, blue 9", "blue 1", "blue 2"], discard="red 7")
    assert legal(state) == ["play red 1", "play red 1 uno", "draw"]
    state.apply("play red 1 uno")
    assert isinstance(state.pending[-1], Turn) and state.current_player == 1  # no catch window


def test_a_missed_uno_call_opens_a_catch_window_for_each_other_seat_in_order() -> None:
    """"If you don't yell UNO and you are caught before the next player begins their turn, you must draw
    two cards.\" Every other seat may catch, in order of play from the next player."""
    state = position(juno(players=4), ["blue 5", "red 1, blue 9", "blue 1", "blue 2"], discard="red 7", turn=1)
    state.apply("play red 1")
    asked = []
    while isinstance(state.pending[-1], Catch):
        assert legal(state) == ["catch", "pass"]
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [2, 3, 0]
    assert state.current_player == 2 and isinstance(state.pending[-1], Turn)
    # the window closed when the next turn began
    refused(state, "catch", "'catch' is not possible now")
    assert hand(state, 1) == ["blue 9"]


def test_a_caught_player_draws_two() -> None:
    state = position(juno(players=4), ["blue 5", "red 1, blue 9", "blue 1", "blue 2"], discard="red 7", turn=1,
                     draw="green 1, green 2, green 3")
    state.apply("play red 1")
    state.apply("pass")  # seat 2 does not catch
    assert state.current_player == 3
    state.apply("catch")
    assert hand(state, 1) == ["blue 9", "green 2", "green 3"]
    assert state.current_player == 2 and isinstance(state.pending[-1], Turn)  # no more catching


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out_top_card_stays() -> None:
    """"If no player is out of cards by the time the DRAW pile is depleted, the DISCARD pile is reshuffled\""""
    state = position(juno(players=3), ["blue 3, green 9", "blue 1", "blue 2"], discard="yellow 1, yellow 2, yellow 3, red 7",
                     draw="")
    state.apply("draw")
    assert names(state.discard) == ["red 7"]  # the top card stays
    assert len(state.draw) == 2 and state.invariants() == {"cards": 8}
    assert names(state.draw + [state.hands[0][-1]]) == ["yellow 1", "yellow 2", "yellow 3"]


def test_going_out_with_a_draw_two_next_player_draws_and_the_cards_count() -> None:
    """"If the last card played in a round is a Draw Two or Wild Draw Four card, the next player must
    draw the 2 or 4 cards respectively. These cards are counted when the points are totaled.\""""
    state = position(juno(players=3), ["red draw two", "blue 1", "blue 2"], discard="red 7", draw="green 9, wild")
    state.apply("play red draw two")
    assert state.is_over and state.winners() == [0]
    assert hand(state, 1) == ["blue 1", "green 9", "wild"]
    assert state.scores == [1 + 9 + 50 + 2, 0, 0]


def test_going_out_with_a_wild_draw_four() -> None:
    state = position(juno(players=2), ["wild draw four", "blue 1"], discard="red 7",
                     draw="green 1, green 2, green 3, green 4, green 5")
    state.apply("play wild draw four")
    assert state.is_over and hand(state, 1) == ["blue 1", "green 2", "green 3", "green 4", "green 5"]
    assert state.scores == [1 + 2 + 3 + 4 + 5, 0]


def test_round_scoring_face_values_twenty_and_fifty() -> None:
    """"Scoring": numbers at face value; Draw Two, Reverse, Skip 20; Wild, Wild Draw Four 50."""
    state = position(
        juno(players=3),
        ["red 1", "blue 9, green 0, yellow draw two, red reverse", "blue skip, wild, wild draw four, green 5"],
        discard="red 7",
    )
    state.apply("play red 1")
    assert state.is_over
    assert state.scores == [9 + 0 + 20 + 20 + 20 + 50 + 50 + 5, 0, 0]
    assert state.round_results == [{"round": 1, "winner": 0, "points": 174, "blocked": False}]
    assert state.returns() == [1.0, -0.5, -0.5]


def test_match_play_continues_to_500_and_the_deal_passes_left() -> None:
    """"Points in rounds accumulate and the first player to reach 500 points wins"; our reading: the
    deal passes to the left each round (a table's custom; the rulebook is silent)."""
    game = juno(players=3, match=True)
    state = position(game, ["red 1", "blue 9", "green 5"], discard="red 7", dealer=1, scores=[480, 0, 30])
    state.apply("play red 1")
    assert not state.is_over and state.scores == [494, 0, 30]
    assert state.round == 2 and state.dealer == 2
    assert [len(h) for h in state.hands][:1] == [len(state.hands[0])] and state.invariants() == {"cards": 108}
    assert sum(len(h) for h in state.hands) >= 21
    state = position(game, ["red 1", "blue 9", "green 5"], discard="red 7", dealer=1, scores=[490, 0, 30])
    state.apply("play red 1")
    assert state.is_over and state.scores == [504, 0, 30] and state.winners() == [0]


def test_single_round_when_match_is_off() -> None:
    state = position(juno(players=3, match=False), ["red 1", "blue 9", "green 5"], discard="red 7")
    state.apply("play red 1")
    assert state.is_over and state.winners() == [0] and state.scores == [14, 0, 0]
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("draw")


def test_blocked_round_ends_when_no_player_can_play_or_draw() -> None:
    """Our rule (the rulebook is silent): when the DRAW pile is empty and the DISCARD pile holds only its
    top card, a player with no play passes; when every player in a row has passed so, the round ends and
    the player with the fewest points in hand wins it, scoring the others' cards as usual."""
    state = position(juno(players=3), ["blue 1, blue 2", "green 9", "yellow skip"], discard="red 7", draw="")
    for seat in (0, 1):
        assert legal(state) == ["draw"] and state.current_player == seat
        state.apply("draw")
    assert not state.is_over
    state.apply("draw")
    assert state.is_over and state.winners() == [0]
    assert state.round_results == [{"round": 1, "winner": 0, "points": 29, "blocked": True}]


def test_with_nothing_to_draw_a_player_who_can_play_must_play() -> None:
    """Declining to play means drawing ("you must draw a card"), so with both piles spent a player
    who holds a playable card must play it (our reading)."""
    state = position(juno(players=3), ["red 1, blue 2", "green 9", "yellow skip"], discard="red 7", draw="")
    assert legal(state) == ["play red 1", "play red 1 uno"]
    refused(state, "draw", "there is nothing to draw: you must play a card you can")


@pytest.mark.parametrize("players", [2, 10])
def test_two_and_ten_player_games_play_to_the_end(players: int) -> None:
    from cardtable.core.rng import Rng

    game = juno(players=players)
    state = game.new_state(seed=5, record_events=False)
    assert [len(h) for h in state.hands].count(7) >= players - 1
    rng = Rng(1)
    steps = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
        assert state.invariants() == {"cards": 108}
    assert len(state.winners()) == 1 and sorted(state.returns())[-1] == 1.0
    assert steps < game.max_length


def test_a_skip_that_goes_out_does_not_skip_anyone_in_the_next_round() -> None:
    """"Once a player has no cards left, the round is over": a last Skip has no effect on the next round."""
    state = position(juno(players=3, match=True), ["red skip", "blue 9", "green 5"], discard="red 7", dealer=2)
    state.apply("play red skip")
    assert state.round == 2 and state.skips == 0 and state.penalty == 0
