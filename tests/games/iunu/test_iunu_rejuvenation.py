"""REJUVENATION PHASE and GAME END (../shared/rules/iunu.txt)."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction
from cardtable.games.iunu.cards import CITIZENS
from cardtable.games.iunu.decisions import PlaceCard, PlayCitizen, TakeCard

from .scenario import hand, iunu, legal, names, position, snapshot


def test_place_two_take_three_others() -> None:
    """1: "places 2 of their remaining cards in hand face up into the Forum. Then they take 3 other
    cards from those previously available in the Forum (which can not be any of the ones just placed)"."""
    state = position(iunu(), hands=["Farmer, Noble, Pharaoh, Baker", "Farmer"],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Merchant, Merchant, Artisan")
    state.apply("play farmer")
    assert isinstance(state.decision, PlaceCard) and state.decision.remaining == 2
    state.apply("place pharaoh in forum")
    state.apply("place baker in forum")
    assert isinstance(state.decision, TakeCard) and state.decision.remaining == 3
    # the Pharaoh and the Baker just placed cannot be taken back
    assert legal(state) == ["take scribe", "take noble", "take priest", "take soldier"]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="not one you just placed"):
        state.apply("take pharaoh")
    assert snapshot(state) == before
    state.apply("take priest")
    state.apply("take priest")
    state.apply("take noble")
    assert hand(state, 0) == ["Noble", "Noble", "Priest", "Priest"]
    # 3: the top card of the Citizen deck joins the Forum
    assert [CITIZENS[t] for t in state.forum] == ["Scribe", "Soldier", "Pharaoh", "Baker", "Artisan"]
    assert len(state.deck) == 2


def test_a_card_placed_can_be_taken_if_an_older_copy_was_there() -> None:
    """Cards of one type are alike: a Farmer already in the Forum may be taken even after placing one."""
    state = position(iunu(), hands=["Noble, Farmer, Baker, Baker", "Farmer"], forum="Farmer, Scribe, Scribe, Priest, Priest",
                     deck="Merchant, " * 5)
    state.apply("play noble")
    state.apply("skip ability")
    state.apply("place farmer in forum")
    state.apply("place baker in forum")
    assert "take farmer" in legal(state)
    state.apply("take farmer")
    assert "take farmer" not in legal(state)  # the Farmer left is the one just placed


def test_refill_to_four_from_the_deck() -> None:
    """2: "If at this point the active player has fewer than 4 cards in hand, they draw cards from the
    Citizen deck until they reach 4"."""
    state = position(iunu(), hands=["Farmer, Farmer, Noble, Baker", "Farmer"], debens=[3, 3],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Artisan, Merchant, Pharaoh, Soldier")
    state.apply("play farmer")
    state.apply("play a second card")  # hand: Noble, Baker
    state.apply("place noble in forum")
    state.apply("place baker in forum")  # hand empty
    for _ in range(3):
        state.apply("take priest" if "take priest" in legal(state) else "take scribe")
    assert len(state.hands[0]) == 4  # 3 taken + 1 drawn (the Soldier on top)
    assert "Soldier" in hand(state, 0)
    assert state.forum[-1] == 0  # then the Pharaoh revealed into the Forum


def test_hand_limit_is_four() -> None:
    """Note: "the hand limit for each player is 4 cards. If a player already has 4 cards in hand, no
    more cards may be drawn" — taking stops at 4 too (a hand of 3 placing 1 with a short hand)."""
    state = position(iunu(), hands=["Noble, Farmer, Baker, Baker", "Farmer"], dynasty=[{"Artisan": 1}, {}],
                     forum="Scribe, Scribe, Priest, Priest, Soldier", deck="Merchant, " * 5)
    state.apply("play noble")
    state.apply("skip ability")
    state.apply("place 1 card")  # pay 1: place 1, take 2
    state.apply("place farmer in forum")
    state.apply("take scribe")
    state.apply("take scribe")
    assert len(state.hands[0]) == 4 and state.current_player == 1
    assert len(state.deck) == 4  # no card drawn: the hand was full; one revealed to the Forum


def test_exhausted_deck_no_more_draws() -> None:
    """Note: "If the Citizen deck runs out of cards during this Phase, no further cards may be drawn"."""
    state = position(iunu(), hands=["Farmer, Farmer, Noble, Baker", "Farmer"], debens=[3, 3],
                     forum="Scribe, Priest", deck="")
    state.apply("play farmer")
    state.apply("play a second card")
    state.apply("place noble in forum")
    state.apply("place baker in forum")
    state.apply("take scribe")
    state.apply("take priest")  # only 2 cards were there before
    assert hand(state, 0) == ["Priest", "Scribe"] and names(state.forum) == ["Baker", "Noble"]
    assert state.current_player == 1


def test_game_end_trigger_and_final_dynasty_only_turns() -> None:
    """GAME END: the Citizen deck empty at the beginning of a player's turn triggers the end; the round
    is played out, players who have not had a turn take a final turn with the Dynasty Phase only."""
    game = iunu(players=3)
    state = position(game, hands=["Farmer, Noble, Baker, Baker", "Farmer, Soldier", "Noble, Noble, Merchant"],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Artisan")
    state.apply("play farmer")
    state.apply("place baker in forum")
    state.apply("place baker in forum")
    for _ in range(3):
        state.apply(legal(state)[0])
    # the last card was revealed into the Forum; seat 1's turn begins with an empty deck: triggered
    assert state.deck == [] and state.current_player == 1 and state.ending
    assert not state.is_over
    assert state.observation(2)["final_turns"] is True
    forum = list(state.forum)
    state.apply("play farmer")
    assert state.current_player == 2 and state.forum == forum and hand(state, 1) == ["Soldier"]  # no Rejuvenation
    state.apply("play noble")
    state.apply("play a second card")
    state.apply("skip ability")
    assert state.is_over and hand(state, 2) == ["Merchant"]
    assert state.legal_actions() == [] and state.winners()


def test_game_end_waits_for_the_start_of_a_turn() -> None:
    """The deck running out during a turn (here by the Scribe's draw) does not cut that turn short:
    the trigger is checked when the next turn begins."""
    state = position(iunu(), hands=["Scribe, Noble, Baker, Baker", "Farmer, Soldier"],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Artisan")
    state.apply("play scribe")
    state.apply("put noble under scribe")
    assert state.deck == [] and not state.ending
    assert isinstance(state.decision, PlaceCard)  # the Rejuvenation phase still happens
    state.apply("place baker in forum")
    state.apply("place baker in forum")
    for _ in range(3):
        state.apply(legal(state)[0])
    assert state.current_player == 1 and state.ending


def test_empty_hand_in_a_final_turn_plays_nothing() -> None:
    """Our reading: a player with no card left in the final turns has no Dynasty phase."""
    state = position(iunu(), hands=["", "Farmer"], deck="", pending=[])
    state.k = -1
    state._end_turn()  # seat 0's turn begins: the deck is empty, the hand too
    assert state.ending and state.current_player == 1 and isinstance(state.decision, PlayCitizen)
