"""VARIANTS FOR IUNU WITH 2 PLAYERS: The Rise of Aten, and Memphis and Thebes (Heliopolis)."""

from __future__ import annotations

import random

import pytest

from cardtable import OptionError
from cardtable.games.iunu.cards import CITIZENS

from .scenario import AFTERLIFE, cards, iunu, legal, names, position


def test_variants_are_for_two_players() -> None:
    with pytest.raises(OptionError, match="for 2 players"):
        iunu(players=3, variant="rise-of-aten")


@pytest.mark.parametrize("variant", ["rise-of-aten", "memphis-and-thebes"])
def test_round_start_reduces_every_die_by_one(variant: str) -> None:
    """"After the Starting Player rolls the dice, their values are each reduced by 1. Any dice with a
    value of 0 are temporarily removed"; the standard game keeps the roll."""
    for seed in range(30):
        plain = iunu(players=2).new_state(seed)
        reduced = iunu(players=2, variant=variant).new_state(seed)
        assert reduced.dice == [v - 1 for v in plain.dice]


def test_rise_of_aten_forum_row() -> None:
    """Rise of Aten: placed cards go to the right of the row; at the end of the Rejuvenation phase the
    leftmost (oldest) card is removed and 2 new cards are added on the right."""
    state = position(iunu(variant="rise-of-aten"), hands=["Farmer, Noble, Pharaoh, Baker", "Farmer"],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Artisan, Merchant, Merchant, Soldier")
    state.apply("play farmer")
    state.apply("place pharaoh in forum")
    state.apply("place baker in forum")
    assert [CITIZENS[t] for t in state.forum] == ["Scribe", "Priest", "Priest", "Soldier", "Noble", "Pharaoh", "Baker"]
    state.apply("take priest")
    state.apply("take priest")
    state.apply("take noble")
    # the Scribe (oldest) leaves the game; Soldier and Merchant (the top two) join on the right
    assert [CITIZENS[t] for t in state.forum] == ["Soldier", "Pharaoh", "Baker", "Soldier", "Merchant"]
    assert names(state.removed) == ["Scribe"]
    assert state.observation(1)["removed"] == ["Scribe"]


def test_rise_of_aten_takes_the_oldest_copy() -> None:
    """Our reading: of two cards of one type, `take` takes the older one (leftmost)."""
    state = position(iunu(variant="rise-of-aten"), hands=["Farmer, Noble, Pharaoh, Baker", "Farmer"],
                     forum="Scribe, Priest, Soldier, Priest, Noble", deck="Artisan, Merchant, Merchant, Soldier")
    state.apply("play farmer")
    state.apply("place pharaoh in forum")
    state.apply("place baker in forum")
    state.apply("take priest")
    assert [CITIZENS[t] for t in state.forum][:4] == ["Scribe", "Soldier", "Priest", "Noble"]


# -- Memphis and Thebes -----------------------------------------------------------------------------

def mt():
    return iunu(players=2, variant="memphis-and-thebes")


def test_heliopolis_setup() -> None:
    """Setup: "Deal 4 Citizen cards, face up, which will belong to a neutral Heliopolis player"."""
    state = mt().new_state(4)
    assert sum(state.dynasty[2]) == 4
    assert len(state.deck) == 45 - 8 - 5 - 4
    obs = state.observation(0)
    assert sum(obs["heliopolis"]["dynasty"].values()) == 4
    assert len(state.debens) == 2  # "receives no Debens during the game"


def test_heliopolis_takes_its_turn_last() -> None:
    """"always 'takes a turn' last in the round, after both human players have done so"; its Dynasty
    phase takes a Forum card and its Rejuvenation puts one from the deck in the Forum."""
    state = position(mt(), hands=["Farmer, Noble, Pharaoh, Baker", "Farmer, Noble, Noble, Noble"],
                     dynasty=[{}, {}, {"Merchant": 2, "Farmer": 1}],
                     forum="Scribe, Priest, Priest, Soldier, Noble", deck="Artisan, " * 10 + "Merchant, Baker")
    for seat in (0, 1):
        assert state.current_player == seat
        while state.current_player == seat:
            state.apply(legal(state)[-1])
    assert state.round == 2 and state.starter == 1
    helio = state.dynasty[2]
    assert sum(helio) == 4  # took one card
    assert len(state.forum) == 5 and state.forum[-1] == cards("Artisan")[0]  # then one from the deck


def heliopolis_pick(dynasty: dict[str, int], forum: str) -> str:
    state = position(mt(), hands=["Farmer", "Farmer"], dynasty=[{}, {}, dynasty], forum=forum)
    return CITIZENS[state.heliopolis_choice()]


def test_heliopolis_card_choice() -> None:
    """"Heliopolis will always choose to take a card matching a type it already controls ... the one
    matching the type of Citizen it already controls the most of"; equal counts: "the card with the
    highest Citizen VP"; no match: the highest Citizen VP in the Forum."""
    assert heliopolis_pick({"Farmer": 3, "Merchant": 1}, "Pharaoh, Merchant, Farmer") == "Farmer"
    assert heliopolis_pick({"Farmer": 2, "Merchant": 2}, "Pharaoh, Merchant, Farmer") == "Merchant"
    assert heliopolis_pick({"Farmer": 2, "Merchant": 3}, "Pharaoh, Farmer, Baker") == "Farmer"
    assert heliopolis_pick({"Soldier": 2}, "Baker, Noble, Farmer, Merchant") == "Noble"


def test_heliopolis_farmers_cannot_be_taken() -> None:
    """"cannot have any Farmers taken by another player"."""
    state = position(mt(), hands=["Soldier, Noble, Noble, Noble", "Farmer"], dynasty=[{}, {}, {"Farmer": 4}])
    state.apply("play soldier")
    assert state.decision.kind == "place"
    assert all(not a.startswith("steal") for a in legal(state))


def test_heliopolis_end_of_game() -> None:
    """End of the game: 2 Bread per Baker on the cards with the highest Bread VP first; an Afterlife
    card if it controls a Priest, face up and scored; +1 VP per Merchant."""
    state = position(mt(), hands=["", ""], dynasty=[{}, {}, {"Baker": 1, "Priest": 1, "Merchant": 2, "Farmer": 1}],
                     afterlife_deck=[AFTERLIFE["hatshepsut"], AFTERLIFE["khufu"]])
    state.pending = []
    state._game_over()
    h = state.scores[2]
    # Bread VP order: Farmer 5, then Baker 4 and Merchant 4 (equal: rulebook order, Baker first)
    assert names([t for t in range(9) for _ in range(state.fed[2][t])]) == ["Baker", "Farmer"]
    assert h["bread"] == 9
    assert state.held[2] == AFTERLIFE["khufu"]  # the top card of the Afterlife deck
    assert h["afterlife"] == 7  # 4 types against none
    assert h["merchant_bonus"] == 2 and h["debens"] == 0
    obs = state.observation(0)
    assert obs["heliopolis"]["afterlife"] == "The Glory of Khufu"


def test_heliopolis_bread_limited_by_cards_and_tokens() -> None:
    state = position(mt(), hands=["", ""], dynasty=[{}, {}, {"Baker": 3}])
    state.bread = 20
    state.pending = []
    state._game_over()
    assert state.fed[2][6] == 3  # 6 tokens, but only 3 cards to feed


def test_heliopolis_first_is_reported_but_seats_win() -> None:
    """Our reading: only seats win; when Heliopolis outscores both, the observation and the score
    table say so, and the better of Memphis and Thebes is still reported as the winner."""
    state = position(mt(), hands=["", ""], dynasty=[{"Farmer": 1}, {}, {"Pharaoh": 1, "Scribe": 2}])
    state.pending = []
    state._game_over()
    assert state.winners() == [0] and state.heliopolis_first()
    assert state.observation(None)["heliopolis"]["first"] is True


def test_heliopolis_games_run_to_the_end() -> None:
    game = mt()
    for seed in range(20):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            state.apply(rnd.choice(state.legal_actions()))
        assert len(state.scores) == 3 and state.winners()
