"""The Ivion heuristic's habits, each in a position built for it (helpers.position)."""

from __future__ import annotations

from cardtable import agents

from .helpers import play, position


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
    s = position(hands=(["Fireball"], ["Dispel"]), power=(1, 0), actions=(3, 1), at=("a1", "c1"))
    play(s, "play Fireball")
    assert s.current_player == 1 and choice(s) == "play Dispel"  # 3 damage: countered
    s = position(hands=(["Kindling"], ["Dispel"]), actions=(3, 1))
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
