"""The Ivion heuristic's habits, each in a position built for it (helpers.position)."""

from __future__ import annotations

import pytest

from cardtable import agents
from cardtable.games.ivion.heuristic import evaluate
from cardtable.games.ivion.state import Host

from .helpers import EDDA, LIO_DISPEL, play, position


def choice(s: object) -> str:
    return agents.make("heuristic", seed=1).act(s).text  # type: ignore[arg-type, attr-defined]


def test_it_takes_lethal() -> None:
    s = position(hands=(["Flame Lash", "Rallying Cry"], []), at=("b2", "c2"))
    s.hp[1] = 2
    assert choice(s) == "play Flame Lash"


def test_it_moves_into_range_when_its_hand_cannot_reach() -> None:
    s = position(hands=(["Oathstrike", "Cleave"], []), at=("a1", "c1"), initiative=(0, 0))
    assert choice(s) == "move east"
    play(s, "move east")
    assert choice(s) in ("play Oathstrike", "play Cleave")


def test_it_counters_what_hurts_and_lets_small_things_resolve() -> None:
    s = position(hands=(["Fireball"], ["Dispel"]), decks=(EDDA, LIO_DISPEL), power=(1, 0), actions=(3, 1), at=("a1", "c1"))
    play(s, "play Fireball")
    assert s.current_player == 1 and choice(s) == "play Dispel"  # 3 damage: countered
    s = position(hands=(["Kindling"], ["Dispel"]), decks=(EDDA, LIO_DISPEL), actions=(3, 1))
    play(s, "play Kindling")
    assert s.current_player == 1 and choice(s) == "pass"  # power for the enemy: not worth a counter


def test_it_does_not_end_the_turn_with_actions_that_the_cap_would_waste() -> None:
    s = position(hands=([], []), at=("a1", "d4"), actions=(5, 0), initiative=(0, 0))
    assert choice(s) != "end turn"  # five actions: three more next turn would be lost at the cap


def test_it_sidesteps_out_of_the_range_of_an_attack() -> None:
    s = position(hands=(["Longshot"], ["Sidestep"]), decks=("Lio Marrow", "Vesk the Quiet"), at=("a1", "c2"),
                 actions=(3, 1))
    play(s, "play Longshot")
    assert choice(s) == "play Sidestep"
    play(s, "play Sidestep")
    assert choice(s) == "target d2"  # the one tile out of Longshot's range 3


def test_it_chooses_the_effect_worth_most_now() -> None:
    s = position(hands=(["Crossroads Prayer"], []), decks=("Brother Aldous", "Lio Marrow"))
    play(s, "play Crossroads Prayer")
    assert choice(s) == "choose 2"  # at full HP: the card and the power, not the heal
    s = position(hands=(["Crossroads Prayer"], []), decks=("Brother Aldous", "Lio Marrow"))
    s.hp[0] = 10
    play(s, "play Crossroads Prayer")
    assert choice(s) == "choose 1"  # wounded: the heal


def test_a_ranged_hero_with_no_attack_in_hand_keeps_out_of_melee() -> None:
    # Lio's deck fights from range 3: with nothing to strike with he spends his turn (a draw, a
    # step) without walking up to Aldous (the old habit: no attack in hand meant "close to 1")
    s = position(hands=([], []), decks=("Lio Marrow", "Brother Aldous"), at=("a1", "d1"), actions=(4, 0),
                 initiative=(0, 0))
    while s.current_player == 0 or s.turn == 0 and s.current_player == 1:
        move = choice(s) if s.current_player == 0 else "pass"
        if move == "end turn":
            break
        play(s, move)
    assert s.distance(s.pos[0], s.pos[1]) >= 3


def test_a_ranged_hero_keeps_to_its_reach_and_a_step_beyond_the_enemys_melee() -> None:
    s = position(hands=(["Hunter's Step", "Bramble Snare"], []), decks=("Lio Marrow", "Brother Aldous"),
                 at=("b1", "d1"), initiative=(1, 0), actions=(5, 0))
    # at 2 from Aldous, Lio steps back to 3 (his attacks' reach), by foot or by Hunter's Step
    move = choice(s)
    assert move in ("move west", "move north", "initiative move west", "initiative move north", "cantrip Hunter's Step")
    play(s, move)
    if move == "cantrip Hunter's Step":
        play(s, choice(s), "pass")  # its tile; Aldous lets it resolve
    assert s.distance(s.pos[0], s.pos[1]) == 3


def test_a_step_that_reaches_no_better_tile_is_not_taken() -> None:
    # Wayfinder (a cantrip step): at range 3 from Aldous with range-3 attacks, no tile is better
    s = position(hands=(["Longshot"], []), decks=("Lio Marrow", "Brother Aldous"), at=("a1", "d1"),
                 initiative=(1, 0), actions=(0, 0))
    assert choice(s) != "cantrip Wayfinder"


def test_the_evaluation_weighs_hp_cards_in_hand_power_and_attached_cards() -> None:
    # ISMCTS scores a cut rollout with `evaluate` (fitted to medium games' winners: a card in hand is
    # worth more than the same card left in the deck; power and cards attached count).
    level = position(hands=(["Flame Lash"], ["Dispel"]), decks=(EDDA, LIO_DISPEL))
    assert len(level.deck[0]) == len(level.deck[1])
    assert evaluate(level) == pytest.approx([0.0, 0.0])
    drawn = position(hands=(["Flame Lash", "Rallying Cry"], ["Dispel"]), decks=(EDDA, LIO_DISPEL))
    assert evaluate(drawn)[0] > 0 and evaluate(drawn)[1] == pytest.approx(-evaluate(drawn)[0])
    powered = position(hands=(["Flame Lash"], ["Dispel"]), decks=(EDDA, LIO_DISPEL), power=(2, 0))
    assert evaluate(powered)[0] > 0
    hurt = position(hands=(["Flame Lash"], ["Dispel"]), decks=(EDDA, LIO_DISPEL))
    hurt.hp[1] -= 5
    assert evaluate(hurt)[0] > evaluate(drawn)[0]
    attached = position(hands=(["Flame Lash"], ["Dispel"]), decks=(EDDA, LIO_DISPEL))
    card = attached.hand[0].pop()  # seat 0's card, attached to the enemy instead of held
    attached.attached[Host("hero", 1)] = [card]
    discarded = position(hands=(["Flame Lash"], ["Dispel"]), decks=(EDDA, LIO_DISPEL))
    discarded.discard[0].append(discarded.hand[0].pop())
    assert evaluate(attached)[0] > evaluate(discarded)[0]


def test_it_keeps_an_instant_heal_for_the_blow_that_would_end_it() -> None:
    # Kaida's Penance (instant, heal 3): kept on her own turn, played on Fireball's 3 only when it
    # would end her; the first player's edge is that tie of the race ("Staying Vigilant")
    s = position(hands=(["Fireball"], ["Penance"]), decks=(EDDA, "Marshal Kaida"), power=(1, 2), actions=(3, 1),
                 at=("a1", "c1"))
    s.hp[1] = 3
    play(s, "play Fireball")
    assert s.current_player == 1 and choice(s) == "play Penance"
    s = position(hands=(["Fireball"], ["Penance"]), decks=(EDDA, "Marshal Kaida"), power=(1, 2), actions=(3, 1),
                 at=("a1", "c1"))
    s.hp[1] = 20
    play(s, "play Fireball")
    assert s.current_player == 1 and choice(s) == "pass"
    s = position(hands=([], ["Penance", "Flame Lash"]), decks=(EDDA, "Marshal Kaida"), turn=1, power=(0, 2),
                 at=("a1", "c1"))
    s.hp[1] = 10
    assert choice(s) != "play Penance"


@pytest.mark.parametrize("deck", [True, False])
def test_it_does_not_draw_from_an_empty_deck(deck: bool) -> None:
    """Rules Reference, "Exhausted": "if you would draw a card, instead take 5 damage". With its deck
    spent, Lio keeps Timeweaver (an instant draw) rather than take 5; with cards left it draws.
    (Until 2026-11-28 it drew itself to death: a PPO policy that outlasted its deck won 85%.)"""
    s = position(hands=([], ["Mirror Image"]), turn=1, actions=(0, 3), initiative=(0, 0))
    s.pos = [11, 13]
    s.hp[1] = 16
    if not deck:
        s.deck[1] = []
    s.feats_used[1].append(next(c for c in s.feats[1] if s.name(c) == "Wayfinder"))
    s._legal = None
    assert "feat Timeweaver" in [a.text for a in s.legal_actions()]
    assert (choice(s) == "feat Timeweaver") is deck
