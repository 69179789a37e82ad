"""DYNASTY PHASE and the Citizen abilities (../shared/rules/iunu.txt, CITIZEN ABILITIES)."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction
from cardtable.games.iunu.decisions import (
    Bake,
    PharaohReroll,
    PlaceCard,
    PlayCitizen,
    PriestKeep,
    ScribeTuck,
    Tribute,
)

from .scenario import AFTERLIFE, col, hand, iunu, legal, names, position, snapshot


def refused(state, action: str, reason: str) -> None:
    """Refused with a reason a person understands; the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert reason in str(err.value)
    assert snapshot(state) == before


# -- Dynasty phase ------------------------------------------------------------------------------

def test_must_play_one_card_from_hand() -> None:
    """"the active player must play 1 Citizen card in front of them"."""
    state = position(iunu(), hands=["Farmer, Farmer, Artisan, Pharaoh", "Farmer"])
    assert legal(state) == ["play pharaoh", "play artisan", "play farmer"]
    refused(state, "play noble", "holds no Noble")
    refused(state, "take farmer", "must play a Citizen card")
    state.apply("play artisan")
    assert col(state, 0, "Artisan") == 1 and hand(state, 0) == ["Farmer", "Farmer", "Pharaoh"]


def test_second_card_of_the_same_type_costs_one_deben() -> None:
    """"may then also play exactly 1 additional card of the same type ... pay 1 Deben"."""
    state = position(iunu(), hands=["Farmer, Farmer, Farmer, Artisan", "Farmer"], debens=[3, 3])
    state.apply("play farmer")
    assert legal(state) == ["play a second card", "no second card"]
    state.apply("play a second card")
    assert col(state, 0, "Farmer") == 2 and state.debens[0] == 2
    # exactly one additional card: the third Farmer stays in hand, and the phase moves on
    assert isinstance(state.decision, PlaceCard) and hand(state, 0) == ["Artisan", "Farmer"]


def test_second_card_declined_costs_nothing() -> None:
    state = position(iunu(), hands=["Farmer, Farmer, Artisan, Noble", "Farmer"], debens=[3, 3])
    state.apply("play farmer")
    state.apply("no second card")
    assert col(state, 0, "Farmer") == 1 and state.debens[0] == 3


def test_no_second_card_without_a_deben_or_a_pair() -> None:
    state = position(iunu(), hands=["Farmer, Farmer, Artisan, Noble", "Farmer"], debens=[0, 3])
    state.apply("play farmer")
    assert isinstance(state.decision, PlaceCard)  # no Deben: no second card offered
    state = position(iunu(), hands=["Farmer, Baker, Artisan, Noble", "Farmer"], debens=[3, 3])
    state.apply("play farmer")
    assert isinstance(state.decision, PlaceCard)  # no second Farmer


def test_ability_is_triggered_once_for_two_cards() -> None:
    """"the Special Ability is only triggered once, regardless of whether 1 or 2 cards were played"."""
    state = position(iunu(), hands=["Merchant, Merchant, Artisan, Noble", "Farmer"], debens=[3, 3], dice=[4, 2, 1])
    state.apply("play merchant")
    state.apply("play a second card")
    state.apply("use ability")
    # once: highest die 4 + 1 per Merchant (2, including both just played) = 6; that die down by 1
    assert state.debens[0] == 3 - 1 + 6 and state.dice == [3, 2, 1]
    assert isinstance(state.decision, PlaceCard)


def test_ability_may_be_skipped() -> None:
    """"the active player may then use the Special Ability"."""
    state = position(iunu(), hands=["Noble, Artisan, Artisan, Farmer", "Farmer"], dice=[4, 2, 1])
    state.apply("play noble")
    assert legal(state) == ["use ability", "skip ability"]
    state.apply("skip ability")
    assert state.debens[0] == 3 and state.dice == [4, 2, 1]


# -- Pharaoh ----------------------------------------------------------------------------------------

def test_pharaoh_rerolls_one_die_at_the_start_of_the_turn() -> None:
    """PHARAOH: "you may roll one of the dice again at the start of your turn, before you play"."""
    state = position(iunu(), hands=["Farmer, Artisan, Artisan, Noble", "Farmer"], dynasty=[{"Pharaoh": 1}, {}],
                     dice=[2, 0, 3], pending=[PharaohReroll(0)])
    # "You may not roll any die that has been temporarily removed."
    assert legal(state) == ["reroll die 1", "reroll die 3", "keep the dice"]
    refused(state, "reroll die 2", "out of play")
    refused(state, "play farmer", "reroll one die")
    state.apply("reroll die 3")
    assert 1 <= state.dice[2] <= 4 and state.dice[:2] == [2, 0]
    assert isinstance(state.decision, PlayCitizen)


def test_pharaoh_has_no_effect_when_played_but_offers_the_reroll_next_turn() -> None:
    state = position(iunu(), hands=["Pharaoh, Artisan, Artisan, Noble", "Farmer, Farmer, Farmer, Farmer"],
                     forum="Baker, Baker, Baker, Baker, Baker", deck="Merchant, " * 10)
    state.apply("play pharaoh")
    assert isinstance(state.decision, PlaceCard)  # no ability decision
    for a in ("place artisan in forum", "place artisan in forum", "take baker", "take baker", "take baker"):
        state.apply(a)
    assert state.current_player == 1
    while state.current_player == 1:
        state.apply(legal(state)[0])
    assert isinstance(state.decision, PharaohReroll) and state.decision.seat == 0


def test_no_pharaoh_no_reroll() -> None:
    state = iunu().new_state(1)
    assert isinstance(state.decision, PlayCitizen)


# -- Scribe ---------------------------------------------------------------------------------------

def test_scribe_tucks_a_card_and_draws_one() -> None:
    """SCRIBE: pay 1 Deben, put 1 card from hand under the Scribe, then draw 1 card."""
    state = position(iunu(), hands=["Scribe, Pharaoh, Farmer, Baker", "Farmer"], deck="Noble, Merchant")
    state.apply("play scribe")
    assert isinstance(state.decision, ScribeTuck)
    assert legal(state) == ["put pharaoh under scribe", "put baker under scribe", "put farmer under scribe",
                            "skip ability"]
    state.apply("put pharaoh under scribe")
    assert state.debens[0] == 2 and names(state.scribed[0]) == ["Pharaoh"]
    assert hand(state, 0) == ["Baker", "Farmer", "Merchant"]  # drew the top card
    # "You may look at the card at any time": the owner sees it, nobody else does
    assert state.observation(0)["scribed"] == ["Pharaoh"]
    assert state.observation(1)["scribed"] == [] and state.observation(1)["dynasties"][0]["scribe_cards"] == 1
    assert "Pharaoh" not in str(state.observation(1)) and "Pharaoh" not in str(state.observation(None))


def test_scribe_needs_a_deben() -> None:
    state = position(iunu(), hands=["Scribe, Pharaoh, Farmer, Baker", "Farmer"], debens=[0, 3])
    state.apply("play scribe")
    assert isinstance(state.decision, PlaceCard)


def test_scribe_cards_join_their_columns_at_the_end() -> None:
    """"At the end of the game, each card under a Scribe card is revealed and added to the matching column"."""
    state = position(iunu(), hands=["Farmer", "Farmer"], dynasty=[{"Scribe": 1, "Noble": 1}, {"Noble": 1}])
    state.scribed[0] = [2]  # a Noble under the Scribe
    assert state.columns(0)[2] == 2
    rows = state.score_table()
    assert rows[0]["majority"] == 2 + 3  # Scribe and Noble majorities: 2 Nobles against 1


# -- Noble ----------------------------------------------------------------------------------------

def test_noble_gains_all_dice_then_reduces_each() -> None:
    """NOBLE: Debens equal to all dice in play, then each die down by 1; a die below 1 leaves play."""
    state = position(iunu(), hands=["Noble, Artisan, Artisan, Farmer", "Farmer"], dice=[3, 1, 0])
    state.apply("play noble")
    state.apply("use ability")
    assert state.debens[0] == 3 + 4 and state.dice == [2, 0, 0]
    assert state.observation(1)["dice"] == [2, None, None]


def test_dice_removed_stay_out_until_the_next_round() -> None:
    """"if it is reduced below 1, it is removed from play until the next round"; the next Starting
    Player rolls all three again."""
    state = position(iunu(), hands=["Noble, Artisan, Artisan, Farmer", "Farmer, Farmer, Farmer, Farmer"],
                     dice=[1, 1, 1], forum="Baker, Baker, Baker, Baker, Baker", deck="Merchant, " * 12)
    state.apply("play noble")
    state.apply("use ability")
    assert state.dice == [0, 0, 0]
    for a in ("place artisan in forum", "place artisan in forum", "take baker", "take baker", "take baker"):
        state.apply(a)
    assert state.current_player == 1 and state.dice == [0, 0, 0]  # still out during the round
    while state.round == 1:
        state.apply(legal(state)[0])
    assert all(v >= 1 for v in state.dice)


# -- Priest ---------------------------------------------------------------------------------------

def test_priest_draws_die_value_cards_and_keeps_one() -> None:
    """PRIEST: choose a die, pay its value, draw that many Afterlife cards, keep one face down,
    shuffle the rest back, then reduce that die by 1."""
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], debens=[3, 3], dice=[3, 4, 1],
                     afterlife_deck=[0, 3, 5, 6, 8])
    state.apply("play priest")
    # die 2 shows 4: more than the 3 Debens this player has
    assert legal(state) == ["priest with die 1", "priest with die 3", "skip ability"]
    refused(state, "priest with die 2", "shows 4")
    state.apply("priest with die 1")
    d = state.decision
    assert isinstance(d, PriestKeep) and sorted(d.drawn) == [5, 6, 8]  # the top 3
    assert state.debens[0] == 0
    assert state.observation(0)["decision"]["drawn"] == [state.game.afterlife_names[x] for x in (5, 6, 8)]
    assert "drawn" not in state.observation(1)["decision"]
    refused(state, "keep current afterlife card", "no Afterlife card yet")
    state.apply("keep the judgment of osiris")
    assert state.held[0] == AFTERLIFE["osiris"]
    assert sorted(state.afterlife_deck) == [0, 3, 5, 8]
    assert state.dice == [2, 4, 1]
    assert state.observation(1)["dynasties"][0]["has_afterlife"] is True
    assert state.observation(1)["dynasties"][0].get("afterlife") is None


def test_priest_draws_only_the_cards_available() -> None:
    """"(and up to the number of cards available)", still paying the die's value."""
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], debens=[5, 3], dice=[4, 0, 0],
                     afterlife_deck=[7, 2])
    state.apply("play priest")
    state.apply("priest with die 1")
    assert sorted(state.decision.drawn) == [2, 7] and state.debens[0] == 1


def test_second_priest_may_replace_the_afterlife_card() -> None:
    """"you may choose a new Afterlife card to replace the previously chosen one ... Any replaced card
    and all unselected cards are then shuffled back"; only 1 Afterlife card at any time."""
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], debens=[5, 3], dice=[2, 0, 0],
                     dynasty=[{"Priest": 1}, {}], held=[AFTERLIFE["peret"]], afterlife_deck=[1, 3, 4, 8])
    state.apply("play priest")
    state.apply("priest with die 1")
    assert legal(state) == ["keep the dynasty of amenhotep i", "keep the glory of khufu", "keep current afterlife card"]
    state.apply("keep the glory of khufu")
    assert state.held[0] == AFTERLIFE["khufu"]
    assert sorted(state.afterlife_deck) == [0, 1, 3, 4]


def test_second_priest_may_keep_the_old_card() -> None:
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], debens=[5, 3], dice=[2, 0, 0],
                     held=[AFTERLIFE["peret"]], afterlife_deck=[1, 3, 4, 8])
    state.apply("play priest")
    state.apply("priest with die 1")
    state.apply("keep current afterlife card")
    assert state.held[0] == AFTERLIFE["peret"] and sorted(state.afterlife_deck) == [1, 3, 4, 8]
    assert state.dice == [1, 0, 0]


def test_priest_with_an_empty_afterlife_deck_does_nothing() -> None:
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], dice=[2, 1, 1], afterlife_deck=[])
    state.apply("play priest")
    assert isinstance(state.decision, PlaceCard)


# -- Soldier --------------------------------------------------------------------------------------

def test_soldier_steals_a_farmer_when_the_victim_gives_it_up() -> None:
    """SOLDIER: "You may steal 1 Farmer ... That player may pay a tribute of 1 Deben to you" —
    the victim decides (a decision of the victim's seat, out of turn)."""
    state = position(iunu(players=3), hands=["Soldier, Farmer, Farmer, Baker", "Farmer", "Farmer"],
                     dynasty=[{}, {"Farmer": 2}, {}], debens=[3, 2, 3])
    state.apply("play soldier")
    assert legal(state) == ["steal a farmer from seat 1", "skip ability"]
    refused(state, "steal a farmer from seat 2", "no Farmer you can steal")
    state.apply("steal a farmer from seat 1")
    assert isinstance(state.decision, Tribute) and state.current_player == 1
    assert legal(state) == ["pay tribute", "give up a farmer"]
    state.apply("give up a farmer")
    assert col(state, 0, "Farmer") == 1 and col(state, 1, "Farmer") == 1
    assert state.current_player == 0 and isinstance(state.decision, PlaceCard)


def test_soldier_victim_pays_tribute() -> None:
    state = position(iunu(), hands=["Soldier, Farmer, Farmer, Baker", "Farmer"], dynasty=[{}, {"Farmer": 1}],
                     debens=[3, 2])
    state.apply("play soldier")
    state.apply("steal a farmer from seat 1")
    state.apply("pay tribute")
    assert state.debens == [4, 1] and col(state, 1, "Farmer") == 1 and col(state, 0, "Farmer") == 0


def test_soldier_victim_without_debens_loses_the_farmer() -> None:
    state = position(iunu(), hands=["Soldier, Farmer, Farmer, Baker", "Farmer"], dynasty=[{}, {"Farmer": 1}],
                     debens=[3, 0])
    state.apply("play soldier")
    state.apply("steal a farmer from seat 1")
    assert col(state, 0, "Farmer") == 1 and state.current_player == 0


def test_fed_farmers_cannot_be_stolen() -> None:
    """"steal 1 Farmer (without a Bread token on it)"."""
    state = position(iunu(), hands=["Soldier, Farmer, Farmer, Baker", "Farmer"], dynasty=[{}, {"Farmer": 2}],
                     fed=[{}, {"Farmer": 2}])
    state.apply("play soldier")
    assert isinstance(state.decision, PlaceCard)  # nobody to steal from: no decision


def test_each_soldier_protects_two_farmers() -> None:
    """"for the rest of the game each 1 of your Soldiers protects 2 of your Farmers"."""
    game = iunu()
    hands = ["Soldier, Farmer, Farmer, Baker", "Farmer"]
    state = position(game, hands=hands, dynasty=[{}, {"Farmer": 2, "Soldier": 1}])
    state.apply("play soldier")
    assert isinstance(state.decision, PlaceCard)
    state = position(game, hands=hands, dynasty=[{}, {"Farmer": 3, "Soldier": 1}])
    state.apply("play soldier")
    assert legal(state)[0] == "steal a farmer from seat 1"


def test_soldier_protection_and_bread_fed_farmers() -> None:
    """Our reading (docs): Soldiers guard the unfed Farmers; fed Farmers are safe anyway.
    3 Farmers, 1 fed, 1 Soldier: the 2 unfed are guarded, none can be stolen."""
    game = iunu()
    hands = ["Soldier, Farmer, Farmer, Baker", "Farmer"]
    state = position(game, hands=hands, dynasty=[{}, {"Farmer": 3, "Soldier": 1}], fed=[{}, {"Farmer": 1}])
    state.apply("play soldier")
    assert isinstance(state.decision, PlaceCard)
    state = position(game, hands=hands, dynasty=[{}, {"Farmer": 4, "Soldier": 1}], fed=[{}, {"Farmer": 1}])
    state.apply("play soldier")
    assert legal(state)[0] == "steal a farmer from seat 1"


# -- Baker and Farmer -------------------------------------------------------------------------------

def test_baker_price_is_the_highest_die() -> None:
    """BAKER: "For each Bread, pay Deben equal to the highest die value showing"; one Bread per Citizen;
    "After baking bread, rotate the die with the value that was used down by one value"."""
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], debens=[9, 3], dice=[2, 3, 1],
                     dynasty=[{"Noble": 1, "Priest": 1}, {}])
    state.apply("play baker")
    d = state.decision
    assert isinstance(d, Bake) and d.price == 3
    assert legal(state) == ["bread on noble", "bread on priest", "bread on baker", "stop baking"]
    state.apply("bread on noble")
    assert "bread on noble" not in legal(state)  # "A maximum of 1 Bread token may be placed on each Citizen"
    state.apply("bread on baker")
    state.apply("stop baking")
    assert state.debens[0] == 3 and state.bread == 18
    assert state.fed[0][2] == 1 and state.fed[0][6] == 1
    assert state.dice == [2, 2, 1]  # the die used (3) down by one, once


def test_baker_at_most_three_bread() -> None:
    """"You may buy up to 3 Bread tokens"."""
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], debens=[20, 3], dice=[1, 1, 1],
                     dynasty=[{"Noble": 1, "Priest": 1, "Soldier": 1, "Scribe": 1}, {}])
    state.apply("play baker")
    for a in ("bread on scribe", "bread on noble", "bread on priest"):
        state.apply(a)
    assert state.debens[0] == 17 and sum(state.fed[0]) == 3
    assert isinstance(state.decision, PlaceCard)  # the third Bread ended the baking
    assert state.dice == [0, 1, 1]


def test_bread_minimum_price_is_one() -> None:
    """"The minimum price for bread is 1 Deben" (every die removed, or a big Farmer discount)."""
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], dice=[0, 0, 0])
    state.apply("play baker")
    assert state.decision.price == 1
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], dice=[2, 1, 0],
                     dynasty=[{"Farmer": 6}, {}])
    state.apply("play baker")
    assert state.decision.price == 1


def test_farmers_discount_bread() -> None:
    """FARMER: "For every 2 Farmers in your Dynasty you pay 1 less Deben for each Bread token"."""
    for farmers, price in ((1, 4), (2, 3), (3, 3), (4, 2), (5, 2)):
        state = position(iunu(), hands=["Baker, Noble, Noble, Noble", "Farmer"], dice=[4, 1, 1],
                         dynasty=[{"Farmer": farmers}, {}], debens=[10, 3])
        state.apply("play baker")
        assert state.decision.price == price, farmers


def test_farmer_has_no_effect_when_played() -> None:
    state = position(iunu(), hands=["Farmer, Noble, Noble, Noble", "Farmer"])
    state.apply("play farmer")
    assert isinstance(state.decision, PlaceCard)


def test_bread_is_limited_to_twenty_tokens() -> None:
    """NOTES.md: Bread is limited to the 20 tokens."""
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], debens=[9, 3], dice=[1, 1, 1],
                     dynasty=[{"Noble": 1, "Priest": 1}, {}])
    state.bread = 1
    state.apply("play baker")
    state.apply("bread on noble")
    assert state.bread == 0 and isinstance(state.decision, PlaceCard)
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], dynasty=[{"Noble": 1}, {}])
    state.bread = 0
    state.apply("play baker")
    assert isinstance(state.decision, PlaceCard)


def test_baker_cannot_afford_bread() -> None:
    state = position(iunu(), hands=["Baker, Farmer, Farmer, Noble", "Farmer"], debens=[2, 3], dice=[3, 1, 1])
    state.apply("play baker")
    assert isinstance(state.decision, PlaceCard)


# -- Merchant -------------------------------------------------------------------------------------

def test_merchant_gains_the_highest_die_plus_merchants() -> None:
    """MERCHANT: "Choose the die with the highest value and gain Debens equal to its value +1 per
    Merchant you control, including the one(s) just played. Reduce the value of the die used by 1"."""
    state = position(iunu(), hands=["Merchant, Farmer, Farmer, Noble", "Farmer"], dice=[1, 3, 1],
                     dynasty=[{"Merchant": 2}, {}])
    state.apply("play merchant")
    state.apply("use ability")
    assert state.debens[0] == 3 + 3 + 3 and state.dice == [1, 2, 1]


def test_merchant_on_a_die_of_one_removes_it() -> None:
    state = position(iunu(), hands=["Merchant, Farmer, Farmer, Noble", "Farmer"], dice=[1, 0, 0])
    state.apply("play merchant")
    state.apply("use ability")
    assert state.debens[0] == 3 + 1 + 1 and state.dice == [0, 0, 0]


# -- Artisan --------------------------------------------------------------------------------------

def test_artisan_pays_to_place_fewer_cards() -> None:
    """ARTISAN: "if you have 2 Artisans, you may pay 0 / 1 / 2 Deben to place 2 / 1 / 0 cards into
    the Forum. Then take 1 more card from the Forum than the number of cards you placed there"."""
    game = iunu()
    for place, paid, took in ((2, 0, 3), (1, 1, 2), (0, 2, 1)):
        state = position(game, hands=["Artisan, Farmer, Noble, Baker", "Farmer"], dynasty=[{"Artisan": 1}, {}],
                         forum="Scribe, Scribe, Priest, Priest, Soldier", deck="Merchant, " * 10)
        state.apply("play artisan")
        assert legal(state) == ["place 0 cards", "place 1 card", "place 2 cards"]
        state.apply(f"place {place} card{'s' if place != 1 else ''}")
        assert state.debens[0] == 3 - paid
        for _ in range(place):
            state.apply(legal(state)[0])
        for _ in range(took):
            assert state.decision.kind == "take"
            state.apply(legal(state)[0])
        assert state.current_player == 1
        assert len(state.hands[0]) == 4


def test_artisan_discount_limited_by_artisans_and_debens() -> None:
    state = position(iunu(), hands=["Artisan, Farmer, Noble, Baker", "Farmer"], debens=[1, 3])
    state.apply("play artisan")  # one Artisan: place 1 or 2
    assert legal(state) == ["place 1 card", "place 2 cards"]
    state = position(iunu(), hands=["Artisan, Farmer, Noble, Baker", "Farmer"], debens=[1, 3],
                     dynasty=[{"Artisan": 3}, {}])
    state.apply("play artisan")  # 4 Artisans but 1 Deben
    assert legal(state) == ["place 1 card", "place 2 cards"]
    refused(state, "place 0 cards", "you may place 1 to 2 cards")
