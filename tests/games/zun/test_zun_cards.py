"""One scenario per rune of the base set, plus "All Players", (forced), (immune) and chains."""

from __future__ import annotations

import pytest

from cardtable import IllegalAction

from .helpers import events, legal, names, play, position, start_turn, total


def test_attack() -> None:
    s = position(2, hands={0: ["Attack"]})
    play(s, "play Attack", "target seat 1", "no reaction")
    assert s.hp[1] == 11


def test_boost_adds_its_amount() -> None:
    """NOTES.md: Attack + Boost: 2 HP."""
    s = position(2, hands={0: ["Attack", "Boost"]})
    play(s, "play Attack", "modify with Boost", "target seat 1", "no reaction")
    assert s.hp[1] == 10


def test_banish_is_all_players_no_targets_no_reactions() -> None:
    """All Players: everyone affected, nobody targeted, no Reactions. Banish discards every (ongoing) rune."""
    s = position(3, hands={0: ["Defend", "Daze", "Banish"], 1: ["Fizzle"], 2: ["Redirect"]})
    play(s, "play Defend", "target seat 1", "no reaction", "play Daze", "target seat 2", "no reaction")
    assert len(s.ongoing) == 2
    play(s, "play Banish", "done modifying")  # Reserve may modify it; no targets to declare
    assert s.ongoing == [] and s.decision.kind == "action_phase"  # no reaction window opened
    assert names(s, s.discard) == ["Daze", "Defend"]


def test_defend_lasts_until_the_start_of_the_next_turn() -> None:
    s = position(2, hands={0: ["Defend"], 1: ["Attack", "Attack"]})
    play(s, "play Defend", "target seat 0", "no reaction", "end action phase")
    play(s, "play Attack", "target seat 0", "no reaction")
    assert s.hp[0] == 12
    play(s, "end action phase", "done discarding")
    assert s.turn == 0 and s.ongoing == []  # triggered and discarded at the start of seat 0's turn


def test_expose_shows_the_hand_to_everyone() -> None:
    """NOTES.md: Expose: the hand stays face up until the rune is discarded."""
    s = position(3, hands={0: ["Expose"], 1: ["Trap"]}, deck=["Attack", "Steal"])
    play(s, "play Expose", "target seat 1", "no reaction")
    obs = s.observation(2)
    assert obs["exposed_hands"] == {"1": ["Attack", "Steal", "Trap"]}
    det = s.determinize(2, 5)
    assert names(det, det.hands[1]) == ["Attack", "Steal", "Trap"]  # what is face up is not resampled
    play(s, "end action phase")
    start_turn(s, 1)
    assert s.observation(2)["exposed_hands"] == {}


def test_steal_takes_a_random_card() -> None:
    s = position(2, hands={0: ["Steal", "Boost"], 1: ["Trap", "Fizzle"]})
    play(s, "play Steal", "modify with Boost", "target seat 1", "no reaction")
    assert names(s, s.hands[0]) == ["Fizzle", "Trap"] and s.hands[1] == []
    assert events(s, "stolen_cards")[0]["to"] == [0, 1]  # only thief and victim see which cards


def test_daze_discards_at_the_start_of_the_targets_next_turn() -> None:
    s = position(2, hands={0: ["Daze"], 1: ["Attack", "Steal", "Trap"]})
    play(s, "play Daze", "target seat 1", "no reaction", "end action phase")
    assert s.decision.kind == "discard" and s.decision.seat == 1 and s.decision.count == 2
    play(s, "discard Trap", "discard Steal")
    assert names(s, s.hands[1]) == ["Attack"] and s.ongoing == []


def test_channel_draws_two() -> None:
    s = position(2, hands={0: ["Channel"]})
    play(s, "play Channel", "target seat 1", "no reaction")
    assert len(s.hands[1]) == 2


def test_restore_gains_two() -> None:
    s = position(2, hands={0: ["Restore"]}, hp={1: 5})
    play(s, "play Restore", "target seat 1", "no reaction")
    assert s.hp[1] == 7


def test_revive_gains_two_on_a_living_player() -> None:
    s = position(2, hands={0: ["Revive"]}, hp={0: 9})
    play(s, "play Revive", "target seat 0", "no reaction")
    assert s.hp[0] == 11


def test_punish_is_immune_and_costs_its_player() -> None:
    s = position(2, hands={0: ["Punish"], 1: ["Absorb"]})
    play(s, "play Punish", "target seat 1", "react with Absorb")
    assert s.hp == [11, 10]  # Absorb is ignored by the (immune) Punish


def test_mimic_repeats_the_last_other_action() -> None:
    s = position(2, hands={0: ["Attack", "Boost", "Mimic"]})
    play(s, "play Attack", "modify with Boost", "target seat 1", "no reaction")
    play(s, "play Mimic", "target seat 1", "no reaction")
    assert s.hp[1] == 9  # the Attack's effect, with Mimic's own (no) Boost


def test_a_mimic_copying_banish_cannot_be_shared() -> None:
    # All Players: "no player is targeted", so Share has nobody to add
    s = position(3, hands={0: ["Banish", "Mimic", "Share"]})
    play(s, "play Banish", "done modifying", "play Mimic")
    assert "modify with Share" not in [a.text for a in s.legal_actions()]


def test_mimic_with_nothing_to_copy_does_nothing() -> None:
    s = position(2, hands={0: ["Mimic"]})
    play(s, "play Mimic", "target seat 1", "no reaction")
    assert s.hp == [12, 12] and events(s, "played")[0]["mimics"] is None


def test_mimic_of_an_ongoing_rune_stays_in_play() -> None:
    s = position(2, hands={0: ["Defend", "Mimic"], 1: ["Attack"]})
    play(s, "play Defend", "target seat 0", "no reaction", "play Mimic", "target seat 1", "no reaction")
    assert sorted((o["affects"][0], s.runes[o["as"]].name) for o in s.ongoing) == [(0, "Defend"), (1, "Defend")]


def test_mimic_of_an_ongoing_rune_triggers_as_that_rune() -> None:
    """A Mimic that copied Daze stays in play as Daze and, at the start of the target's next
    turn, does what Daze does (it triggered nothing before this fix)."""
    s = position(2, hands={0: ["Daze", "Mimic"], 1: ["Attack", "Steal", "Trap", "Boost", "Share"]})
    play(s, "play Daze", "target seat 1", "no reaction", "play Mimic", "target seat 1", "no reaction")
    play(s, "end action phase")
    assert s.decision.kind == "order_triggers" and legal(s) == ["trigger Daze", "trigger Mimic"]
    play(s, "trigger Mimic")
    assert s.decision.kind == "discard" and s.decision.seat == 1 and s.decision.count == 2
    play(s, "discard Trap", "discard Steal")  # Mimic as Daze; then Daze itself triggers
    assert s.decision.kind == "discard" and s.decision.count == 2
    play(s, "discard Share", "discard Boost")
    assert names(s, s.hands[1]) == ["Attack"] and s.ongoing == []


def test_redirect_chain_followed_to_the_end() -> None:
    """Action Phase 5 / NOTES.md: Redirect can be redirected again; each new target may react."""
    s = position(3, hands={0: ["Attack"], 1: ["Redirect"], 2: ["Redirect"]})
    play(s, "play Attack", "target seat 1", "react with Redirect")
    assert legal(s) == ["redirect to seat 0", "redirect to seat 2"]
    play(s, "redirect to seat 2")
    assert s.decision.kind == "reaction" and s.decision.seat == 2  # the new target may react
    play(s, "react with Redirect", "redirect to seat 1", "no reaction")
    assert s.hp == [12, 11, 12]


def test_trap_is_forced_and_hits_the_actions_player() -> None:
    """NOTES.md: Trap (forced): 2 damage to whoever played the Action; no one may react to it."""
    s = position(2, hands={0: ["Attack", "Fizzle"], 1: ["Trap", "Boost"]})
    play(s, "play Attack", "target seat 1", "react with Trap", "modify with Boost", "done modifying")
    assert s.hp == [9, 11]  # no reaction window for seat 0 (forced); the Attack still resolved
    assert s.decision.kind == "action_phase"


def test_fizzle_cancels_the_action_for_you_only() -> None:
    s = position(3, hands={0: ["Attack", "Share"], 1: ["Fizzle"]})
    play(s, "play Attack", "modify with Share", "target seat 1", "target seat 2", "react with Fizzle", "done modifying")
    play(s, "no reaction")
    assert s.hp == [12, 12, 11]


def test_absorb_turns_the_loss_into_a_gain() -> None:
    s = position(2, hands={0: ["Attack", "Boost"], 1: ["Absorb"]}, hp={1: 5})
    play(s, "play Attack", "modify with Boost", "target seat 1", "react with Absorb")
    assert s.hp[1] == 7


def test_share_adds_a_target() -> None:
    s = position(3, hands={0: ["Restore", "Share"]}, hp={0: 5, 1: 5})
    play(s, "play Restore", "modify with Share", "target seat 0", "target seat 1", "no reaction", "no reaction")
    assert s.hp[:2] == [7, 7]


def test_blame_makes_reactions_treat_another_player_as_the_actions_player() -> None:
    s = position(3, hands={0: ["Attack", "Blame"], 1: ["Trap"]})
    play(s, "play Attack", "modify with Blame", "target seat 1")
    assert legal(s) == ["blame seat 1", "blame seat 2"]
    play(s, "blame seat 2", "react with Trap", "done modifying")
    assert s.hp == [12, 11, 10]


def test_reserve_on_a_reaction_returns_it_to_the_reactor() -> None:
    s = position(2, hands={0: ["Attack"], 1: ["Fizzle", "Reserve"]})
    play(s, "play Attack", "target seat 1", "react with Fizzle", "modify with Reserve", "done modifying")
    play(s, "end action phase")
    assert "Fizzle" in names(s, s.hands[1]) and "Reserve" in names(s, s.discard)


def test_a_reaction_only_when_targeted() -> None:
    """Reaction cards: only when an Action targets you; not in your own Action Phase."""
    s = position(2, hands={0: ["Fizzle", "Attack"]})
    assert "react with Fizzle" not in legal(s)
    with pytest.raises(IllegalAction, match="a Reaction is played only when an Action targets you"):
        s.apply("react with Fizzle")


def test_one_reaction_per_targeting() -> None:
    """Interpretation: a targeted player plays at most one Reaction each time they are targeted."""
    s = position(2, hands={0: ["Attack"], 1: ["Trap", "Trap"]})
    play(s, "play Attack", "target seat 1", "react with Trap", "done modifying")
    assert s.decision.kind == "action_phase" and s.hp == [10, 11]


def test_every_played_card_is_accounted_for() -> None:
    s = position(3, hands={0: ["Attack", "Share", "Boost", "Reserve"], 1: ["Redirect"], 2: ["Absorb"]})
    before = total(s)
    play(s, "play Attack", "modify with Share", "modify with Boost", "modify with Reserve", "target seat 1",
         "target seat 2", "react with Redirect", "redirect to seat 2", "react with Absorb",
         "no reaction", "end action phase")
    assert total(s) == before and s.hp == [12, 12, 10]  # seat 2 absorbs 2 (capped at 12), then loses 2
