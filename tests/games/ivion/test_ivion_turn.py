"""Setup and the turn (rulebook: Resources, Movement, Initiative, Saving Resources; NOTES.md public facts)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core import IllegalAction

from .helpers import EDDA, LIO, play, position, texts, tile


def test_setup_corners_opening_hands_hp_and_the_first_players_skipped_draw() -> None:
    g = cardtable.make("ivion")
    s = g.new_state(seed=4)
    assert s.pos == [tile("d1"), tile("a4")]  # opposite corners: each player's bottom right
    first = s.first
    assert len(s.hand[first]) == 5 and len(s.deck[first]) == 40  # no draw on the first player's first turn
    assert len(s.hand[1 - first]) == 5
    assert s.hp == s.max_hp == [33, 32]  # from the ultimates: Last Stand 33, Bewilder 32
    assert s.pools[first]["actions"] == 3 and s.initiative[first] == 1
    assert s.pools[first]["power"] == (1 if first == 0 else 0)  # Edda's passive trait Kindle: 1 power
    assert [len(f) for f in s.feats] == [3, 3]
    s.apply("end turn")
    assert len(s.hand[1 - first]) == 6  # the second player draws on their first turn
    assert s.pools[first]["actions"] == 3 and s.initiative[first] == 0  # unused initiative is lost


def test_board_size_is_an_option() -> None:
    s = cardtable.make("ivion", board=6).new_state(seed=1)
    assert s.pos == [tile("f1", 6), tile("a6", 6)]
    with pytest.raises(cardtable.core.OptionError, match="board"):
        cardtable.make("ivion", board=2)


def test_each_turn_gains_three_actions_and_resources_stop_at_five() -> None:
    s = position(actions=(3, 4), power=(5, 5))
    play(s, "end turn")
    assert s.turn == 1 and s.pools[1] == {"actions": 5, "power": 5}  # 4 + 3 stops at 5
    assert s.initiative == [0, 1]
    assert len(s.hand[1]) == 1  # drew 1


def test_moving_costs_an_action_and_goes_orthogonally() -> None:
    s = position(at=("a1", "d4"))
    moves = [t for t in texts(s) if t.startswith("move")]
    assert moves == ["move north", "move east"]  # no diagonal, nothing off the board
    with pytest.raises(IllegalAction, match="no tile south"):
        s.apply("move south")
    play(s, "move north")
    assert s.pos[0] == tile("a2") and s.pools[0]["actions"] == 2


def test_cannot_enter_the_opponents_tile() -> None:
    s = position(at=("a1", "a2"))
    with pytest.raises(IllegalAction, match="opponent in it"):
        s.apply("move north")
    with pytest.raises(IllegalAction, match="opponent in it"):
        s.apply("initiative move north")


def test_initiative_draws_or_moves_once() -> None:
    s = position(at=("a1", "d4"))
    n = len(s.deck[0])
    play(s, "initiative draw")
    assert len(s.hand[0]) == 1 and len(s.deck[0]) == n - 1 and s.initiative[0] == 0
    assert "initiative move north" not in texts(s) and "initiative draw" not in texts(s)
    s = position(at=("a1", "d4"))
    play(s, "initiative move north")
    assert s.pos[0] == tile("a2") and s.pools[0]["actions"] == 3  # no action spent


def test_slow_stops_moving_and_initiative_moves_but_not_drawing() -> None:
    s = position(at=("a1", "d4"))
    s.controls[0]["slow"] = 1
    legal = texts(s)
    assert not any(t.startswith(("move", "initiative move")) for t in legal)
    assert "initiative draw" in legal
    with pytest.raises(IllegalAction, match="slowed"):
        s.apply("move north")


def test_hand_limit_seven_at_the_end_of_the_turn() -> None:
    s = position(hands=(["Oathstrike"] * 3 + ["Cleave"] * 3 + ["Kindling"] * 2, []))
    play(s, "end turn")
    assert s.decision.kind == "discard_down" and s.current_player == 0
    assert texts(s) == ["discard Cleave", "discard Kindling", "discard Oathstrike"]
    play(s, "discard Kindling")
    assert len(s.hand[0]) == 7 and s.turn == 1


def test_defeat_at_zero_hp_ends_the_game() -> None:
    s = position(hands=(["Oathstrike"], []))
    s.hp[1] = 2
    s.wounded[1] = True
    play(s, "play Oathstrike", "pass")
    assert s.is_over and s.winners() == [0] and s.returns() == [1.0, -1.0]


def test_turn_limit_gives_the_game_to_the_most_hp() -> None:
    s = position(turn_limit=3)
    s.hp = [10, 12]
    play(s, "end turn")
    assert s.is_over and s.winners() == [1]


def test_decks_per_seat_are_options() -> None:
    g = cardtable.make("ivion", decks=[LIO, LIO])
    assert [d.hero for d in g.decks] == [LIO, LIO]
    with pytest.raises(cardtable.core.OptionError, match="no starter hero"):
        cardtable.make("ivion", decks=[EDDA, "Nobody"])
