"""Rulebook "On Your Turn": Start of Turn, Action, Recovery and End of Turn phases; drawing."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction

from .helpers import events, legal, names, play, position, start_turn, total


def test_ongoing_effects_trigger_in_the_order_the_player_chooses() -> None:
    """Start of Turn 1: several (ongoing) runes affect you: you decide the order."""
    s = position(2, hands={0: ["Daze", "Defend"], 1: ["Attack", "Attack", "Attack"]})
    play(s, "play Daze", "target seat 1", "no reaction", "play Defend", "target seat 1", "no reaction")
    play(s, "end action phase")
    assert s.turn == 1 and s.decision.kind == "order_triggers"
    assert legal(s) == ["trigger Defend", "trigger Daze"] or legal(s) == ["trigger Daze", "trigger Defend"]
    play(s, "trigger Defend")  # Defend leaves play; then Daze triggers alone
    assert s.decision.kind == "discard" and s.decision.count == 2
    play(s, "discard Attack", "discard Attack")
    assert s.ongoing == [] and s.decision.kind == "action_phase"


def test_mulligan_only_without_an_action_in_hand() -> None:
    """Start of Turn 2: with no Action in hand you may mulligan once: discard the hand, draw 3."""
    s = position(2, hands={1: ["Boost", "Trap"]}, deck=["Attack", "Steal", "Fizzle"])
    start_turn(s, 1)
    assert legal(s) == ["mulligan", "keep hand"]
    play(s, "mulligan")
    assert names(s, s.hands[1]) == ["Attack", "Fizzle", "Steal"]
    assert names(s, s.discard) == ["Boost", "Trap"]
    assert s.decision.kind == "action_phase"  # once per turn
    s2 = position(2, hands={1: ["Attack", "Trap"]})
    start_turn(s2, 1)
    assert s2.decision.kind == "action_phase"


def test_only_actions_in_hand_can_be_played() -> None:
    """Action cards: you may only play Actions from your hand during your turn."""
    s = position(2, hands={0: ["Attack", "Boost", "Fizzle"]})
    assert legal(s) == ["play Attack", "end action phase"]
    with pytest.raises(IllegalAction, match="holds no Steal"):
        s.apply("play Steal")


def test_a_reaction_not_held_is_refused_by_its_name() -> None:
    """Reaction cards: only a Reaction in your hand answers a rune; the refusal names the one asked for."""
    s = position(2, hands={0: ["Attack"], 1: ["Redirect"]})
    play(s, "play Attack", "target seat 1")
    assert "react with Redirect" in legal(s)
    with pytest.raises(IllegalAction, match="seat 1 holds no Absorb"):
        s.apply("react with Absorb")


def test_modifiers_only_from_the_charms() -> None:
    """Modifier cards: check the rune's charms before you play a modifier on it."""
    s = position(2, hands={0: ["Defend", "Boost", "Share"]})
    play(s, "play Defend")
    assert "modify with Boost" not in legal(s) and "modify with Share" in legal(s)
    before = total(s)
    with pytest.raises(IllegalAction, match="not a charm of Defend"):
        s.apply("modify with Boost")
    assert total(s) == before


def test_multiple_copies_of_a_modifier() -> None:
    """Action Phase 3: you may play multiples of the same modifier."""
    s = position(2, hands={0: ["Attack", "Boost", "Boost"]})
    play(s, "play Attack", "modify with Boost", "modify with Boost", "target seat 1", "no reaction")
    assert s.hp[1] == 9


def test_targets_in_declared_order_and_never_the_same_player_twice() -> None:
    """Action Phase 4-5: targets declared in order, resolved one at a time; no duplicate target."""
    s = position(3, hands={0: ["Attack", "Share"], 1: ["Fizzle"], 2: ["Fizzle"]})
    play(s, "play Attack", "modify with Share", "target seat 2")
    assert "target seat 2" not in legal(s)
    with pytest.raises(IllegalAction, match="already a target"):
        s.apply("target seat 2")
    play(s, "target seat 1")
    assert s.decision.kind == "reaction" and s.decision.seat == 2  # seat 2 first, as declared
    play(s, "no reaction")
    assert s.hp == [12, 12, 11]
    assert s.decision.seat == 1
    play(s, "no reaction")
    assert s.hp == [12, 11, 11]


def test_share_cannot_target_the_same_player_twice() -> None:
    """Action Phase 4: a Share alone cannot target the same player twice (two players: one Share)."""
    s = position(2, hands={0: ["Attack", "Share", "Share"]})
    play(s, "play Attack", "modify with Share")
    assert "modify with Share" not in legal(s)
    with pytest.raises(IllegalAction, match="not enough players"):
        s.apply("modify with Share")


def test_you_may_target_yourself_and_react_to_your_own_action() -> None:
    """Action Phase 4 and Reaction cards: you may target yourself and react to your own Action."""
    s = position(2, hands={0: ["Attack", "Fizzle"]})
    play(s, "play Attack", "target seat 0")
    assert s.decision.kind == "reaction" and s.decision.seat == 0
    play(s, "react with Fizzle")
    assert s.hp == [12, 12]


def test_several_actions_in_one_turn_each_resolved_before_the_next() -> None:
    """Action Phase 7: repeat; an Action is resolved before another is played."""
    s = position(2, hands={0: ["Attack", "Attack"]})
    play(s, "play Attack", "target seat 1")
    assert "play Attack" not in legal(s)  # still resolving
    play(s, "no reaction", "play Attack", "target seat 1", "no reaction")
    assert s.hp[1] == 10


def test_played_cards_stay_on_the_table_until_the_end_of_turn() -> None:
    """Action Phase 6 and End of Turn 2: played cards stay face up, then are discarded."""
    s = position(2, hands={0: ["Attack", "Boost"]})
    play(s, "play Attack", "modify with Boost", "target seat 1", "no reaction")
    assert [s.game.rune_set.runes[e[0]].name for e in s.table] == ["Attack", "Boost"]
    play(s, "end action phase")
    assert s.table == [] and names(s, s.discard) == ["Attack", "Boost"]


def test_recovery_discard_any_then_draw_to_five() -> None:
    """Recovery 1-2: discard any number of cards, then draw until you hold 5."""
    s = position(2, hands={0: ["Attack", "Steal", "Boost"]}, deck=["Channel", "Daze", "Trap", "Absorb"])
    play(s, "end action phase", "discard Boost", "discard Steal", "done discarding")
    assert names(s, s.hands[0]) == ["Absorb", "Attack", "Channel", "Daze", "Trap"]


def test_recovery_with_an_empty_hand_asks_nothing() -> None:
    """Recovery 1: with no card in hand there is nothing to discard, so nothing is asked (the
    hand's size is public); the player draws to 5. Discarding the last card ends the question too."""
    s = position(2, hands={0: ["Attack"]}, deck=["Channel", "Daze", "Trap", "Absorb", "Steal", "Boost"])
    play(s, "play Attack", "target seat 1", "no reaction", "end action phase")
    assert len(s.hands[0]) == 5 and s.turn == 1
    s = position(2, hands={0: ["Boost"]}, deck=["Channel", "Daze", "Trap", "Absorb", "Steal", "Attack"])
    play(s, "end action phase", "discard Boost")
    assert len(s.hands[0]) == 5 and s.turn == 1


def test_recovery_with_more_than_five_keeps_them() -> None:
    s = position(2, hands={0: ["Attack"] * 7})
    play(s, "end action phase")
    assert len(s.hands[0]) == 7


def test_reserve_returns_the_modified_rune_but_not_itself() -> None:
    """End of Turn 1: modified with Reserve, the rune comes back to hand; the Reserve does not."""
    s = position(2, hands={0: ["Attack", "Reserve"]}, deck=["Trap"] * 2 + ["Fizzle"] * 3)
    play(s, "play Attack", "modify with Reserve", "target seat 1", "no reaction", "end action phase")
    assert "Attack" in names(s, s.hands[0]) and names(s, s.discard) == ["Reserve"]
    assert len(s.hands[0]) == 6  # drew to 5 first, then the Attack came back


def test_ongoing_runes_stay_in_play_after_cleanup() -> None:
    """End of Turn 2: cards that say otherwise ((ongoing)) are not discarded."""
    s = position(2, hands={0: ["Defend"]})
    play(s, "play Defend", "target seat 0", "no reaction", "end action phase")
    assert [o["affects"] for o in s.ongoing] == [[0]] and s.discard == []


def test_drawing_reshuffles_the_discard_pile_when_the_deck_is_empty() -> None:
    """Drawing cards: no cards left: shuffle the discard pile into a new deck and keep drawing."""
    s = position(2, hands={0: ["Channel"]})
    s.discard = s.deck[:-1]
    s.deck = s.deck[-1:]
    before = total(s)
    play(s, "play Channel", "target seat 0", "no reaction")
    assert len(s.hands[0]) == 2 and events(s, "reshuffled") and total(s) == before


def test_discarding_a_card_ends_its_effect() -> None:
    """Discarding cards: a discarded card's effects end at once (Banish discards a Defend)."""
    s = position(2, hands={0: ["Defend", "Banish", "Attack"]})
    play(s, "play Defend", "target seat 1", "no reaction", "play Banish", "done modifying")
    assert s.ongoing == []
    play(s, "play Attack", "target seat 1", "no reaction")
    assert s.hp[1] == 11


def test_discard_pile_is_public_and_the_deck_is_not() -> None:
    """Discarding cards: any player may look at the discard pile; cards in the deck may not be viewed."""
    s = position(2, hands={0: ["Attack", "Boost"]})
    play(s, "end action phase", "discard Boost")
    obs = s.observation(1)
    assert obs["discard"] == ["Boost"] and isinstance(obs["deck"], int)


def test_mulligan_reveals_the_hand_to_everyone() -> None:
    """Start of Turn 2: "reveal and discard your hand"."""
    s = position(2, hands={1: ["Trap", "Boost"]})
    start_turn(s, 1)
    play(s, "mulligan")
    shown = events(s, "mulligan")
    assert shown and "to" not in shown[0] and sorted(shown[0]["hand"]) == ["Boost", "Trap"]


def test_setup_draws_in_turn_order() -> None:
    """Setup 6: each player draws 5 cards in the chosen turn order."""
    import cardtable

    s = cardtable.make("zun", players=3).new_state(4)
    drew = [e.data["seat"] for e in s.events or [] if e.kind == "drew"]
    assert drew[:3] == [0, 1, 2]
