"""Why a card of the hand cannot be played now (issue 30): `JunoState.card_moves` says which moves
play each card ("Let's play": `play X`, and with the next-to-last card `play X uno`), and the
core's `card_status` gives each the reason `check` refuses it with, the decisions' `why_illegal`,
the rules the legal moves are read from. Only the seat that decides is told, of its own hand."""

from __future__ import annotations

import random

import pytest

from cardtable import IllegalAction
from cardtable.games.juno.decisions import AfterDraw

from .scenario import juno, legal, position


def test_each_card_says_whether_it_matches_and_the_rule_that_refuses_it() -> None:
    state = position(juno(players=3), ["red 8, blue 9, wild draw four, red 8", "blue 1, blue 2", "blue 3, blue 4"],
                     discard="red 5")
    status = state.card_status(0)
    assert list(status) == ["red 8", "blue 9", "wild draw four"]  # one entry per card, as the hand holds them
    assert status["red 8"] == {"move": "play red 8", "why": None, "moves": [{"move": "play red 8", "why": None}]}
    assert status["blue 9"]["why"] == "blue 9 does not match the red 5 on the discard pile (color in play: red)"
    assert status["wild draw four"]["why"] == "Wild Draw Four only when you hold no red card; you hold red 8"
    assert state.card_status(1) == {} and state.card_status(None) == {}  # only the seat that decides is told


def test_the_next_to_last_card_is_played_with_or_without_calling_uno() -> None:
    state = position(juno(players=3), ["red 8, blue 9", "blue 1, blue 2", "blue 3, blue 4"], discard="red 5")
    status = state.card_status(0)
    assert status["red 8"]["moves"] == [{"move": "play red 8", "why": None}, {"move": "play red 8 uno", "why": None}]
    assert status["red 8"]["move"] == "play red 8"
    assert [m["move"] for m in status["blue 9"]["moves"]] == ["play blue 9", "play blue 9 uno"]
    assert all(m["why"] and "does not match" in m["why"] for m in status["blue 9"]["moves"])


def test_after_drawing_only_the_drawn_card_is_played() -> None:
    state = position(juno(players=3), ["red 8, blue 9", "blue 1, blue 2", "blue 3, blue 4"], discard="yellow 5",
                     draw="yellow 7")
    state.apply("draw")
    assert isinstance(state.decision, AfterDraw)
    status = state.card_status(0)
    assert status["yellow 7"]["why"] is None
    assert status["red 8"]["why"] == "after drawing you may play only the card you drew (yellow 7) or pass"


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 4, "variant": "serious"},
                                     {"players": 2, "variant": "seven-o", "wild_draw_four": "challenge"}])
def test_each_card_s_reason_agrees_with_the_legal_moves_in_whole_games(options: dict[str, object]) -> None:
    """At every decision of random games, a card's move is legal exactly when its reason is None, a
    refused move is refused by `apply` with that reason, and every legal play is a card's move."""
    game = juno(**options)
    checked = refusals = 0
    for seed in range(6):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            moves = [m for st in state.card_status(seat).values() for m in st["moves"]]
            texts = legal(state)
            assert {m["move"] for m in moves if m["why"] is None} == {t for t in texts if t.startswith("play ")}
            for m in moves:
                if m["why"] is not None:
                    refusals += 1
                    with pytest.raises(IllegalAction) as refused:
                        state.apply(m["move"])
                    assert str(refused.value) == m["why"]
            checked += bool(moves)
            assert all(state.card_status(s) == {} for s in range(game.players) if s != seat)
            state.apply(rnd.choice(texts))
    assert checked > 100 and refusals > 100, (checked, refusals)
