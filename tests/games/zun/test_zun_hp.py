"""Rulebook Overdraw, Underdraw, "Changing your HP" (tiers), "If you're Defeated" and "Rule Priority"."""

from __future__ import annotations

from .helpers import events, legal, names, play, position, start_turn, total


def test_overdraw_defend_does_not_prevent_it() -> None:
    """Rule Priority example: Overdraw (priority 1) reduces HP even under Defend (priority 4)."""
    s = position(2, hands={0: ["Defend", "Channel"] + ["Attack"] * 9})
    play(s, "play Defend", "target seat 0", "no reaction")
    play(s, "play Channel", "target seat 0", "no reaction")  # 9 cards + 2 = 11
    assert len(s.hands[0]) == 11 and s.hp[0] == 11
    assert events(s, "overdraw")


def test_defend_prevents_normal_hp_reductions() -> None:
    """Rule Priority example: Defend always prevents normal HP reductions (its text says so)."""
    s = position(2, hands={0: ["Defend"], 1: ["Attack"]})
    play(s, "play Defend", "target seat 0", "no reaction", "end action phase")
    play(s, "play Attack", "target seat 0", "no reaction")
    assert s.hp[0] == 12 and events(s, "prevented")


def test_channel_pushing_a_hand_past_10() -> None:
    """Overdraw example: 9 cards in hand, draw 2: the 11th card costs 1 HP."""
    s = position(2, hands={0: ["Channel"] + ["Attack"] * 9})
    play(s, "play Channel", "target seat 0", "no reaction")
    assert len(s.hands[0]) == 11 and s.hp[0] == 11  # Channel left the hand: 9 + 2
    s = position(2, hands={0: ["Channel"], 1: ["Attack"] * 9})
    play(s, "play Channel", "target seat 1", "no reaction")
    assert len(s.hands[1]) == 11 and s.hp[1] == 11


def test_expose_pushing_a_hand_past_10() -> None:
    """Overdraw example, with Expose: each card beyond 10 costs 1 HP."""
    s = position(2, hands={0: ["Expose", "Boost"], 1: ["Attack"] * 9})
    play(s, "play Expose", "modify with Boost", "target seat 1", "no reaction")  # draws 3: 12 cards
    assert len(s.hands[1]) == 12 and s.hp[1] == 10


def test_steal_from_an_empty_hand() -> None:
    """Underdraw example: Steal on an empty hand: lose 1 HP for the 1 card you cannot produce."""
    s = position(2, hands={0: ["Steal"], 1: []})
    play(s, "play Steal", "target seat 1", "no reaction")
    assert s.hp[1] == 11 and events(s, "underdraw")


def test_underdraw_is_not_prevented_by_defend() -> None:
    """Priority 1 over 4: Underdraw costs HP under Defend too (Daze asks for 2 cards, hand holds 1)."""
    s = position(2, hands={0: ["Daze", "Defend"], 1: ["Attack"]})
    play(s, "play Defend", "target seat 1", "no reaction", "play Daze", "target seat 1", "no reaction")
    play(s, "end action phase")
    s.hands[1] = s.hands[1][:1]
    play(s, "trigger Daze")
    assert s.hp[1] == 11  # lacked 1 card
    play(s, "discard Attack")


def test_revive_at_3_hp_gains_only_1() -> None:
    """HP example: at 3 HP, Revive (2 HP) only brings you to 4: the tracker never moves up a tier."""
    s = position(2, hands={0: ["Revive"]}, hp={0: 3})
    play(s, "play Revive", "target seat 0", "no reaction")
    assert s.hp[0] == 4


def test_healing_stays_within_the_tier() -> None:
    """Priority 3 over 4: Restore's text cannot move the tracker up into a higher tier."""
    s = position(2, hands={0: ["Restore", "Restore", "Boost"]}, hp={0: 8, 1: 5})
    play(s, "play Restore", "target seat 0", "no reaction")
    assert s.hp[0] == 8
    play(s, "play Restore", "modify with Boost", "target seat 1", "no reaction")
    assert s.hp[1] == 8


def test_hp_loss_may_cross_tiers() -> None:
    """Changing your HP: the tracker moves left, right or down freely."""
    s = position(2, hands={0: ["Punish", "Boost"]}, hp={1: 9})
    play(s, "play Punish", "modify with Boost", "target seat 1", "no reaction")
    assert s.hp[1] == 6 and s.hp[0] == 11


def test_defeat_discards_hand_played_cards_and_cards_affecting_you() -> None:
    """If you're Defeated 1-2: discard the hand, the cards you played this turn, every card affecting you."""
    s = position(3, hands={0: ["Daze", "Attack", "Punish"], 1: ["Trap", "Steal"]}, hp={0: 2})
    before = total(s)
    play(s, "play Daze", "target seat 0", "no reaction")  # Daze now affects seat 0
    play(s, "play Punish", "target seat 1", "react with Trap", "done modifying")  # Trap: seat 0 loses 2
    assert s.hp[0] == 0 and s.hands[0] == [] and s.ongoing == []
    assert "Punish" in names(s, s.discard) and "Daze" in names(s, s.discard) and "Attack" in names(s, s.discard)
    assert s.hp[1] == 12  # the Punish was discarded before it resolved on seat 1
    assert s.turn == 1 and total(s) == before


def test_defeated_players_cannot_be_targeted_except_by_revive() -> None:
    s = position(3, hands={0: ["Attack", "Revive"]}, hp={2: 0})
    play(s, "play Attack")
    assert "target seat 2" not in legal(s)
    play(s, "target seat 1", "no reaction", "play Revive")
    assert "target seat 2" in legal(s)


def test_revive_brings_a_defeated_player_back() -> None:
    """If you're Defeated 3: a Revive brings you back (with the HP it gives)."""
    s = position(3, hands={0: ["Revive"]}, hp={2: 0})
    play(s, "play Revive", "target seat 2", "no reaction")
    assert s.hp[2] == 2 and events(s, "revived")
    play(s, "end action phase")
    start_turn(s, 2)
    assert s.turn == 2


def test_a_player_defeated_on_their_own_turn_ends_it() -> None:
    s = position(3, hands={0: ["Punish", "Attack"]}, hp={0: 1})
    play(s, "play Punish", "target seat 1", "no reaction")
    assert s.hp == [0, 10, 12] and s.turn == 1


def test_preventative_text_wins_over_plain_text_and_immune_ignores_it() -> None:
    """Priority 2 over 4: (immune) Punish ignores Defend; plain Attack does not."""
    s = position(2, hands={0: ["Defend", "Punish", "Attack"]})
    play(s, "play Defend", "target seat 1", "no reaction", "play Attack", "target seat 1", "no reaction")
    assert s.hp[1] == 12
    play(s, "play Punish", "target seat 1", "no reaction")
    assert s.hp[1] == 10


def test_order_of_effects_on_a_rune_is_as_written() -> None:
    """Priority 5 (everything else): a rune's effects happen in the order its text gives."""
    s = position(2, hands={0: ["Punish"]}, hp={0: 1, 1: 2})
    play(s, "play Punish", "target seat 1", "no reaction")
    assert s.is_over and s.winners() == [0]  # the target fell first: the game ended there
