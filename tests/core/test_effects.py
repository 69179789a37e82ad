"""The effect layer's worked example (tests/core/effects_toy.py): a trigger, a replacement, a
two-card and a three-card loop stopped by the loop rule, simultaneous triggers in turn order, a
countered stack item and a meta-countered one with its refund; and every pending step saved,
cloned and restored in the middle of an effect."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from cardtable.core import IllegalAction
from cardtable.core.effects import Attempt, Context, Finish, Fire, GameEvent, Sequence, Triggered

from ..conformance.checks import dumps
from .effects_toy import Duel, DuelState


def duel(p0: list[str], p1: list[str] | None = None, power: int = 5) -> DuelState:
    return Duel(Duel.Options(figures=[p0, p1 or []], power=power)).new_state(1)


def play(state: DuelState, *texts: str) -> DuelState:
    game = state.game
    for text in texts:
        # every step also survives a JSON round trip and a clone, in the middle of an effect
        again = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert dumps(again) == dumps(state) and dumps(state.clone()) == dumps(state)
        state.apply(text)
    return state


def asked(state: DuelState) -> str:
    d = state.decision
    assert d is not None
    return d.describe(state)


def test_a_trigger_also_does_its_effect_when_its_controller_says_yes() -> None:
    s = play(duel(["Scholar"]), "cast gain")
    assert asked(s) == "seat 0 may also draw 1 card (Scholar)"
    play(s, "yes")
    assert (s.gems[0], s.drawn[0]) == (1, 1)
    assert s.decision.kind == "turn"  # type: ignore[union-attr]


def test_a_trigger_is_optional() -> None:
    s = play(duel(["Scholar"]), "cast gain", "no")
    assert (s.gems[0], s.drawn[0]) == (1, 0) and s.decision.kind == "turn"  # type: ignore[union-attr]


def test_a_mandatory_ability_is_not_asked() -> None:
    s = play(duel(["Tinker", "Forge"]), "cast gain")
    assert s.decision.kind == "turn"  # type: ignore[union-attr]  # nothing answers a gain: no question
    s = duel(["Scholar", "Tinker", "Forge"])
    play(s, "cast gain", "yes", "yes")  # Scholar draws; Tinker sparks; Forge sparks unasked, once
    assert (s.gems[0], s.drawn[0], s.sparks[0]) == (1, 1, 2)


def test_a_replacement_happens_instead_of_the_activity() -> None:
    s = play(duel(["Scholar", "Alchemist"]), "cast gain", "yes")
    assert asked(s) == "seat 0 may instead gain 2 gems (Alchemist)"
    play(s, "yes")
    # the draw never happened: 1 gem cast + 2 instead of the draw; Scholar has fired, so the gain
    # from the Alchemist does not set it off again
    assert (s.gems[0], s.drawn[0]) == (3, 0)
    assert s.decision.kind == "turn"  # type: ignore[union-attr]


def test_a_declined_replacement_lets_the_activity_happen() -> None:
    s = play(duel(["Scholar", "Alchemist"]), "cast gain", "yes", "no")
    assert (s.gems[0], s.drawn[0]) == (1, 1)


def test_the_loop_rule_stops_a_two_card_loop() -> None:
    # gain -> Scholar: draw -> Miner: gain -> Scholar would draw again, but it has fired
    s = play(duel(["Scholar", "Miner"]), "cast gain", "yes", "yes")
    assert (s.gems[0], s.drawn[0]) == (2, 1)
    assert s.decision.kind == "turn"  # type: ignore[union-attr]
    # a new effect sequence starts afresh: the same loop runs once more
    play(s, "cast gain", "yes", "yes")
    assert (s.gems[0], s.drawn[0]) == (4, 2)


def test_the_loop_rule_stops_a_three_card_loop() -> None:
    # gain -> Scholar: draw -> Tinker: spark -> Smith: gain -> Scholar has fired: stop
    s = play(duel(["Scholar", "Tinker", "Smith"]), "cast gain", "yes", "yes", "yes")
    assert (s.gems[0], s.drawn[0], s.sparks[0]) == (2, 1, 1)
    assert s.decision.kind == "turn"  # type: ignore[union-attr]


def test_a_controller_orders_their_simultaneous_triggers() -> None:
    s = play(duel(["Scholar", "Miner", "Tinker"]), "cast gain", "yes")
    # the draw sets off Miner and Tinker together: seat 0 chooses which comes first
    assert asked(s).startswith("seat 0 must choose which of their abilities happens first (1: Miner, gain 1 gem; 2: Tinker, make 1 spark)")
    with pytest.raises(IllegalAction):
        s.apply("first 3")
    play(s, "first 2", "yes")  # Tinker first: a spark
    assert (s.sparks[0], s.gems[0]) == (1, 1)
    play(s, "yes")  # then Miner: a gem (which Scholar, fired, does not answer)
    assert (s.gems[0], s.drawn[0], s.sparks[0]) == (2, 1, 1)


def test_an_ability_marked_first_goes_before_the_others_unasked() -> None:
    # the draw sets off Miner, Tinker and Herald together: Herald (first) happens before seat 0 is
    # asked to order the other two (Iuno Avatar: a spell's own effect on its arrival)
    s = play(duel(["Scholar", "Miner", "Tinker", "Herald"]), "cast gain", "yes")
    assert asked(s) == "seat 0 may also make 1 spark (Herald)"
    play(s, "yes")
    assert s.sparks[0] == 1
    assert asked(s).startswith("seat 0 must choose which of their abilities happens first (1: Miner, gain 1 gem; 2: Tinker, make 1 spark)")


def test_triggers_of_both_players_go_in_turn_order_from_the_active_player() -> None:
    s = play(duel(["Scholar"], ["Spy"]), "cast gain")
    assert asked(s).startswith("seat 0 ")  # seat 0's turn: its Scholar first
    play(s, "yes")
    assert s.drawn == [1, 0]
    assert asked(s).startswith("seat 1 ")  # then seat 1's Spy
    play(s, "yes")
    assert s.drawn == [1, 1]


def test_a_chained_abilitys_effects_each_need_the_one_before() -> None:
    s = play(duel(["Trader"]), "cast gain")
    assert asked(s) == "seat 0 may also spend 1 gem, then draw 1 card (Trader)"
    play(s, "yes")
    assert (s.gems[0], s.drawn[0]) == (0, 1)  # the gem spent, then the card drawn
    s = play(duel(["Miser"]), "cast gain", "yes")
    assert (s.gems[0], s.drawn[0]) == (1, 0)  # two gems to spend, one held: no card drawn either


def test_a_countered_card_goes_to_its_owners_discard_without_resolving() -> None:
    s = play(duel([]), "play bolt")
    assert s.power[0]["power"] == 3
    assert asked(s) == "seat 1 may respond to Bolt, or pass"
    play(s, "play negate")  # seat 1 answers with an instant
    assert [i.card for i in s.chain.items] == [100, 101]
    play(s, "pass")  # seat 0 does not respond: the stack resolves, last in first out
    assert s.hp == [10, 10]  # the bolt was countered
    assert s.discard == [[100], [101]]
    assert s.power == [{"power": 3}, {"power": 4}]  # a countered card is not refunded
    assert [e.kind for e in s.events or []][-1] == "countered"
    assert s.decision.kind == "turn"  # type: ignore[union-attr]


def test_a_meta_countered_card_is_discarded_and_refunded() -> None:
    s = play(duel([]), "play bolt", "play ward", "pass")
    # the ward resolved first; the bolt's target is now warded, so it cannot resolve
    assert s.hp == [10, 10] and s.warded == [False, True]
    assert s.discard == [[100], [102]]
    assert s.power == [{"power": 5}, {"power": 4}]  # the bolt's 2 power came back
    last = (s.events or [])[-1]
    assert (last.kind, last.data["refunded"]) == ("meta_countered", 2)


def test_an_answered_card_resolves_when_both_pass() -> None:
    s = play(duel([]), "play bolt", "pass")
    assert s.hp == [10, 7] and s.discard == [[100], []]


def test_a_counter_war_resolves_last_in_first_out() -> None:
    s = play(duel([]), "play bolt", "play negate", "play negate", "pass")
    # seat 0's negate counters seat 1's negate, so the bolt resolves
    assert s.hp == [10, 7]
    assert s.discard == [[101, 100], [101]]
    assert s.power == [{"power": 2}, {"power": 4}]


def test_a_clone_has_its_own_stack_items() -> None:
    # Stack items change in place (StackItem): a counter marks the item it answers. A clone made
    # before must keep its own, unanswered, item and play on independently.
    s = play(duel([]), "play bolt", "play negate")
    before = s.clone()
    play(s, "pass")  # seat 1's negate resolves and counters the bolt in the original
    assert s.hp == [10, 10]
    assert [i.countered for i in before.chain.items] == [False, False]
    play(before, "play negate", "pass")  # in the clone, seat 0 answers: the bolt resolves after all
    assert before.hp == [10, 7] and s.hp == [10, 10]


def test_the_pending_records_are_values_that_copy_and_pickle() -> None:
    # The records are native classes in the compiled build (core/effects/records.py): no
    # `__dict__`, so equality, hashing, copies and pickles are their own, and the same in both engines.
    s = play(duel(["Scholar"]), "cast gain")  # the Scholar's trigger is offered
    ability = s.decision.ability  # type: ignore[union-attr]
    event = GameEvent(("move", "card", "heaven", "earth"), 0, 4, 1, 2)
    attempt = Attempt(ability.effects[0], ability.context)
    seq = Sequence((Finish(ability), Fire(ability), Triggered((ability,), 0, event), attempt), (ability.card,))
    for record in (seq, *seq.work, ability, ability.context, event):
        for again in (copy.copy(record), copy.deepcopy(record), pickle.loads(pickle.dumps(record))):
            assert again == record and hash(again) == hash(record) and repr(again) == repr(record)
    assert Context(0, 3) != Context(0, 4) and Context(0) != Sequence()
    assert repr(Context(0, 3, (1,))) == "Context(controller=0, source=3, targets=(1,))"
    declined = attempt.declining(7, 0)
    assert declined.declined == ((7, 0),) and declined.effect is attempt.effect and not declined.then
    assert seq.with_fired(9).fired == (ability.card, 9) and seq.with_fired(9).work is seq.work
    assert seq.with_work(()).fired is seq.fired and not seq.with_work(()).allows(ability)
