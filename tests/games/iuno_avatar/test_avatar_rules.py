"""One scenario per rule clause of the Iuno Avatar rulebook (../shared/rules/iuno-avatar.txt);
docs/games/iuno_avatar.md lists each clause with its test."""

from __future__ import annotations

from types import FunctionType

import pytest

import cardtable
from cardtable.core import IllegalAction, OptionError
from cardtable.games.iuno_avatar.decisions import DiscardDown, Pay, Turn
from cardtable.games.iuno_avatar.state import AvatarState

from .helpers import cid, deck_with, do, names, rolled, start, table, texts

# -- setup --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_setup_three_gems_six_cards_six_in_hell(players: int) -> None:
    s = cardtable.make("iuno_avatar", players=players).new_state(4)
    first = s.order[0]
    # the first turn has begun: its player took a die, a card and a gem (no figure on Earth yet)
    for p in range(players):
        if p != first:
            assert len(s.heaven[p]) == 6 and s.gems[p] == 3 and s.dice[p] == 0
    assert len(s.heaven[first]) == 7 and s.gems[first] == 4 and s.dice[first] == 1
    assert len(s.hell) == 6 and s.middle == 5 and len(s.stack) == 54 - 6 * players - 6 - 1
    assert s.invariants() == {"cards": 54, "gems": 30, "dice": 6}


@pytest.mark.skipif(
    not isinstance(AvatarState.__dict__.get("_begin_turn"), FunctionType),
    reason="patching AvatarState's methods needs the pure-Python modules (tests/core/test_native.py runs it so)",
)
def test_setup_before_the_first_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AvatarState, "_begin_turn", lambda self, seat: None)  # stop before the first turn
    s = cardtable.make("iuno_avatar", players=3).new_state(0)
    assert [len(h) for h in s.heaven] == [6, 6, 6]
    assert s.gems == [3, 3, 3] and s.purse == 21
    assert len(s.hell) == 6 and s.middle == 6 and len(s.stack) == 54 - 18 - 6


def test_seat_order_follows_the_elements() -> None:
    s = cardtable.make("iuno_avatar", players=3, avatars=["dark", "water", "fire"]).new_state(0)
    assert s.order == [2, 1, 0]  # Fire, then Water, then Dark
    assert s.turn == 2


def test_dark_never_starts() -> None:
    game = cardtable.make("iuno_avatar", players=2)
    starters = {game.new_state(seed).avatars[game.new_state(seed).order[0]] for seed in range(60)}
    assert 5 not in starters  # ELEMENTS[5] is Dark
    assert len(starters) > 2


def test_avatar_options_are_checked() -> None:
    with pytest.raises(OptionError, match="not an element"):
        cardtable.make("iuno_avatar", players=2, avatars=["fire", "air"])
    with pytest.raises(OptionError, match="different element"):
        cardtable.make("iuno_avatar", players=2, avatars=["fire", "fire"])
    with pytest.raises(OptionError, match="one avatar element per player"):
        cardtable.make("iuno_avatar", players=3, avatars=["fire", "water"])
    with pytest.raises(OptionError, match="players"):
        cardtable.make("iuno_avatar", players=4)


# -- the start of a turn --------------------------------------------------------------------------


def test_turn_start_takes_a_die_a_card_and_a_gem() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Kindle"]}, stack_top=["Fireball"], gems=[3, 3], dice=[0, 0])
    s.turn = 1
    s._begin_turn(0)
    assert s.dice[0] == 1 and s.middle == 5
    assert names(s, s.heaven[0]) == ["Fireball", "Tide"]
    assert s.gems[0] == 4
    assert isinstance(s.decision, Turn) and s.decision.seat == 0


def test_no_die_in_the_middle_take_from_the_player_with_the_most() -> None:
    s = table(3, heaven={0: ["Tide"], 1: ["Kindle"], 2: ["Smite"]}, dice=[0, 2, 4], middle=0, gems=[3, 3, 3])
    s._begin_turn(0)
    assert s.dice == [1, 2, 3] and s.middle == 0


def test_no_gem_in_the_purse_take_from_the_richest_first_in_turn_order_on_a_tie() -> None:
    s = table(3, heaven={0: ["Tide"], 1: ["Kindle"], 2: ["Smite"]}, gems=[0, 15, 15])
    assert s.purse == 0
    s._begin_turn(0)
    assert s.gems == [1, 14, 15]  # seat 1 comes first after seat 0


def test_empty_stack_hell_becomes_the_stack() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Kindle"]})
    s.hell, s.stack = s.hell + s.stack, []
    hell_before = sorted(s.hell)
    s._begin_turn(0)
    drawn = [c for c in s.heaven[0] if c != cid(s, "Tide")]
    assert s.hell == [] and len(drawn) == 1
    assert sorted(s.stack + drawn) == hell_before
    assert s.events is not None and any(e.kind == "hell_shuffled" for e in s.events)


def test_the_last_card_leaving_the_stack_turns_hell_into_the_stack_at_once() -> None:
    # "If there are no cards left in the card stack, Hell gets shuffled and replaces the stack":
    # when the turn's draw takes the last card, not at the next draw (no effect picks from that Hell)
    s = table(heaven={0: ["Tide"], 1: ["Kindle"]}, hell=["Renewal", "Fireball", "Mole"])
    last = s.stack[-1]
    s.hell, s.stack = s.hell + s.stack[:-1], [last]
    in_hell = sorted(s.hell)
    s._begin_turn(0)
    assert last in s.heaven[0]
    assert s.hell == [] and sorted(s.stack) == in_hell
    assert s.events is not None and any(e.kind == "hell_shuffled" for e in s.events)


def test_taking_from_the_richest_on_a_tie_starts_after_the_taker() -> None:
    # seat 1 takes a gem during seat 0's turn with the purse empty: seats 2 and 0 tie, and seat 2
    # is the first after the taker
    s = table(3, heaven={0: ["Tide"], 1: ["Kindle"], 2: ["Smite"]}, gems=[15, 0, 15])
    assert s.purse == 0
    start(s, 1, {"verb": "take", "what": "gem"})
    assert s.gems == [15, 1, 14]


# -- dice and actions -------------------------------------------------------------------------------


def test_summon_needs_a_roll_above_the_figures_on_earth() -> None:
    s = table(heaven={0: ["Gnome"]}, earth={0: {"Salamander": 0, "Dryad": 0}})
    rolled(s, 2)
    assert "summon Gnome" not in texts(s)
    rolled(s, 3)
    assert "summon Gnome" in texts(s)
    with pytest.raises(IllegalAction, match="must exceed your figures on Earth"):
        rolled(s, 2)
        s.apply("summon Gnome")


def test_cast_needs_a_roll_above_the_spells_cast_this_turn() -> None:
    s = table(heaven={0: ["Kindle", "Tide"]})
    s.spells_cast = 1
    rolled(s, 1)
    assert "cast Kindle" not in texts(s)
    rolled(s, 2)
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert s.spells_cast == 2
    rolled(s, 2)
    assert "cast Tide" not in texts(s)


def test_activate_and_level_up_need_a_roll_above_the_gems_on_the_figure() -> None:
    s = table(earth={0: {"Phoenix": 0, "Golem": 1}})
    rolled(s, 1)
    assert "activate Phoenix" in texts(s) and "level up Golem" not in texts(s)
    rolled(s, 2)
    assert "level up Golem" in texts(s)
    do(s, "level up Golem")
    assert s.charge[cid(s, "Golem")] == 2 and s.gems[0] == 2
    assert isinstance(s.decision, Turn)


def test_level_up_with_at_most_as_many_gems_as_the_level() -> None:
    s = table(earth={0: {"Phoenix": 2, "Salamander": 1}})
    rolled(s, 6)
    assert not any(t.startswith(("level up", "activate")) for t in texts(s))


def test_activating_needs_a_gem() -> None:
    s = table(earth={0: {"Phoenix": 0}}, gems=[0, 3])
    rolled(s, 6)
    assert "activate Phoenix" not in texts(s)


def test_rolling_discards_the_die_to_the_middle_and_one_action_per_die() -> None:
    s = table(heaven={0: ["Tide", "Kindle"]}, dice=[2, 0])
    do(s, "roll a die")
    assert s.dice[0] == 1 and s.middle == 5
    d = s.decision
    assert d is not None and d.kind == "use_roll"
    do(s, "discard the die")
    assert isinstance(s.decision, Turn)  # the action (none) is finished before the next die
    assert texts(s) == ["roll a die", "end turn"]


def test_with_no_die_left_the_turn_ends_without_a_question() -> None:
    # "The player can then roll and discard their dies to perform actions": with none left nothing
    # else is possible, and the dice are public, so "end turn" is not asked
    s = table(heaven={0: ["Tide", "Kindle"], 1: ["Smite"]}, dice=[1, 0], stack_top=["Curse", "Bury"])
    do(s, "roll a die", "discard the die")
    assert s.turn == 1 and isinstance(s.decision, Turn) and s.decision.seat == 1
    assert [e.kind for e in s.events or []].count("end_turn") == 1


def test_an_action_is_finished_before_the_next_one() -> None:
    s = table(heaven={0: ["Kindle", "Tide"]}, dice=[1, 0])
    rolled(s, 6)
    do(s, "cast Kindle", "pay the rest with gems")
    assert s.decision is not None and s.decision.kind == "use_ability"  # Kindle's effect first
    do(s, "yes")
    assert isinstance(s.decision, Turn) and s.dice[0] == 2


# -- paying ---------------------------------------------------------------------------------------


def test_gems_pay_any_element() -> None:
    s = table(heaven={0: ["Fireball", "Tide"]}, gems=[2, 3])
    rolled(s, 6)
    do(s, "cast Fireball")
    assert texts(s) == ["pay the rest with gems"]
    do(s, "pay the rest with gems")
    assert s.gems[0] == 0 and s.purse == 30 - 3


def test_gem_cards_pay_only_matching_symbols_and_never_overpay() -> None:
    s = table(heaven={0: ["Kindle", "Sunfire Ruby", "Ember Shard", "Dawn Shard", "Tide"]}, gems=[0, 3])
    rolled(s, 6)
    do(s, "cast Kindle")
    assert isinstance(s.decision, Pay)
    # Sunfire Ruby pays 2 Fire: more than Kindle's 1 Fire; Dawn Shard is Light
    assert texts(s) == ["pay with Ember Shard"]
    with pytest.raises(IllegalAction, match="must not overpay"):
        s.apply("pay with Sunfire Ruby")
    do(s, "pay with Ember Shard")
    assert "Ember Shard" in names(s, s.hell)


def test_a_card_that_cannot_be_paid_exactly_cannot_be_played() -> None:
    s = table(heaven={0: ["Kindle", "Sunfire Ruby", "Tide"]}, gems=[0, 3])
    rolled(s, 6)
    assert "cast Kindle" not in texts(s)


def test_gem_cards_and_gems_combined() -> None:
    s = table(heaven={0: ["Demon", "Sunfire Ruby", "Tide"]}, gems=[2, 3])  # Dark Dark Fire Fire
    rolled(s, 6)
    do(s, "summon Demon", "pay with Sunfire Ruby")
    assert texts(s) == ["pay the rest with gems"]
    do(s, "pay the rest with gems")
    assert "Demon" in names(s, s.earth[0]) and s.gems[0] == 0


# -- cards on Earth and in Hell ----------------------------------------------------------------------


def test_spells_go_to_hell_after_resolving_and_figures_stay() -> None:
    s = table(heaven={0: ["Kindle", "Gnome", "Tide"]}, gems=[5, 3])
    rolled(s, 6)
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert "Kindle" in names(s, s.hell) and not s.earth[0]
    rolled(s, 6)
    do(s, "summon Gnome", "pay the rest with gems")
    assert names(s, s.earth[0]) == ["Gnome"]
    do(s, "end turn")
    assert "Gnome" in names(s, s.earth[0])


def test_more_than_six_figures_on_earth_all_go_to_hell() -> None:
    six = {"Salamander": 1, "Phoenix": 0, "Gnome": 0, "Golem": 0, "Mole": 0, "Angel": 0}
    s = table(heaven={0: ["Renewal", "Dryad", "Tide"]}, earth={0: six}, gems=[5, 3])
    rolled(s, 6)
    do(s, "cast Renewal", "pay the rest with gems", "yes")
    assert s.earth[0] == []
    assert {"Salamander", "Dryad", "Angel"} <= set(names(s, s.hell))
    assert s.charge[cid(s, "Salamander")] == 0  # its gem went back to the purse
    assert s.invariants()["gems"] == 30


def test_figure_effects_only_while_it_has_a_gem() -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 0}})
    start(s, 0, {"verb": "take", "what": "die"})
    assert isinstance(s.decision, Turn)  # Gnome is not active: nothing asked
    s.charge[cid(s, "Gnome")] = 1
    start(s, 0, {"verb": "take", "what": "die"})
    assert s.decision is not None and s.decision.kind == "use_ability"


# -- end of turn -------------------------------------------------------------------------------------


def test_end_of_turn_every_player_discards_dice_cards_and_gems() -> None:
    many = ["Kindle", "Tide", "Smite", "Curse", "Bury", "Harvest", "Fireball", "Siphon"]
    s = table(heaven={0: many, 1: ["Gnome", "Dryad", "Mole", "Angel", "Seraph", "Lich", "Shade"]},
              dice=[2, 1], gems=[9, 8])
    do(s, "end turn")
    assert s.dice == [0, 0] and s.middle == 6
    assert s.gems == [6, 6]
    assert isinstance(s.decision, DiscardDown) and s.decision.seat == 0
    do(s, "discard Kindle", "discard Tide")
    assert isinstance(s.decision, DiscardDown) and s.decision.seat == 1
    do(s, "discard Shade")
    assert len(s.heaven[0]) >= 6 and s.turn == 1  # seat 1's turn began (it took a card)
    assert {"Kindle", "Tide", "Shade"} <= set(names(s, s.hell))


# -- winning -----------------------------------------------------------------------------------------


def test_win_the_moment_heaven_is_empty() -> None:
    s = table(heaven={0: ["Kindle"], 1: ["Tide", "Smite"]}, dice=[2, 0])
    rolled(s, 6)
    do(s, "cast Kindle", "pay the rest with gems")
    assert s.is_over and s.winners() == [0] and s.returns() == [1.0, -1.0]
    assert s.legal_actions() == []
    assert not s.by_limit and s.observation(None)["by_limit"] is False


def test_paying_with_the_last_gem_card_is_not_yet_an_empty_heaven() -> None:
    s = table(heaven={0: ["Kindle", "Ember Shard"], 1: ["Tide"]}, gems=[0, 3])
    rolled(s, 6)
    do(s, "cast Kindle", "pay with Ember Shard")
    # the played card counted as in Heaven until it arrived; then Heaven is empty
    assert s.is_over and s.winners() == [0]


def test_an_opponent_can_win_during_my_turn() -> None:
    s = table(heaven={0: ["Tide", "Smite"], 1: ["Kindle"]})
    start(s, 0, {"verb": "take", "what": "card", "owner": "black"})
    assert s.is_over and s.winners() == [1]


def test_turn_limit_fewest_cards_in_heaven_win() -> None:
    s = table(heaven={0: ["Tide", "Smite"], 1: ["Kindle"]}, turn_limit=1)
    do(s, "end turn")
    assert s.is_over and s.winners() == [1]
    assert s.by_limit and s.observation(None)["by_limit"] is True  # the report counts these games


# -- interpretations (docs/games/iuno_avatar.md) ------------------------------------------------------


def test_a_replaced_summon_goes_back_to_heaven_and_the_payment_is_spent() -> None:
    # a Golem that answers an opponent's summon instead of a figure going to Hell
    raw = deck_with(Golem={"when": {"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "black",
                                    "to_area": "earth", "to_owner": "black"}})
    s = table(heaven={0: ["Gnome", "Tide"], 1: ["Smite"]}, earth={1: {"Golem": 1}}, gems=[3, 3], cards=raw)
    rolled(s, 6)
    do(s, "summon Gnome", "pay the rest with gems")
    d = s.decision
    assert d is not None and d.kind == "use_ability" and d.seat == 1 and d.ability.instead  # type: ignore[attr-defined]
    do(s, "yes")
    assert "Gnome" in names(s, s.heaven[0]) and s.earth[0] == [] and s.announced == []
    assert s.gems == [2, 4]  # the cost was paid; Golem's player took a gem instead
    assert isinstance(s.decision, Turn)


def test_a_replaced_cast_is_no_spell_cast_this_turn() -> None:
    # "If the rolled number exceeds the number of spells already casted this turn": a Kraken that
    # replaces the cast (exclusive) leaves Kindle in Heaven, and a 1 still casts
    s = table(heaven={0: ["Kindle", "Tide"]}, earth={1: {"Kraken": 1}}, gems=[3, 3],
              cards=deck_with(Kraken={"kind": "exclusive"}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert names(s, s.heaven[0]) == ["Kindle", "Tide"] and s.spells_cast == 0
    rolled(s, 1)
    assert "cast Kindle" in texts(s)


def test_paying_is_not_a_discard() -> None:
    # Lantern Sprite answers a card of yours discarded, Fire Titan a gem of yours discarded: paying
    # (a `move` of a gem card to Hell, of gems to the middle) sets off neither
    s = table(heaven={0: ["Fireball", "Sunfire Ruby", "Tide"]}, earth={0: {"Lantern Sprite": 1, "Fire Titan": 1}},
              gems=[3, 3])
    rolled(s, 6)
    do(s, "cast Fireball", "pay with Sunfire Ruby")
    assert isinstance(s.decision, Turn) and s.gems[0] == 3  # nothing asked (Fireball had no target), no gem
    s2 = table(heaven={0: ["Fireball", "Tide"]}, earth={0: {"Fire Titan": 1}, 1: {"Gnome": 0}}, gems=[3, 3])
    rolled(s2, 6)
    do(s2, "cast Fireball", "pay the rest with gems")
    assert s2.card(s2.decision.ability.card).name == "Fireball"  # type: ignore[union-attr]


def test_a_spell_arriving_through_an_effect_comes_into_effect_but_is_not_cast() -> None:
    s = table(heaven={0: ["Revelation", "Tide"]})
    start(s, 0, {"verb": "move", "what": "spell card", "from_area": "heaven", "from_owner": "white",
                 "to_area": "earth", "to_owner": "white"})
    do(s, "choose Revelation")
    d = s.decision
    assert d is not None and d.kind == "use_ability" and s.card(d.ability.card).name == "Revelation"  # type: ignore[attr-defined]
    do(s, "yes")
    assert s.gems[0] == 5 and "Revelation" in names(s, s.hell) and s.spells_cast == 0
