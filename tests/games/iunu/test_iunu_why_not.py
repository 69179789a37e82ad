"""Each Citizen card of the hand at every decision (issue 30): `IunuState.card_moves` says which
move takes it at the decision (DYNASTY PHASE: play; the Scribe: tuck; REJUVENATION 1: place; a
second card of the type just played; elsewhere play, refused with what the decision asks), and the
core's `card_status` gives each move's verdict from `check`. Only the seat that decides is told, of
its own hand."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.games.iunu.actions import Kind

#: the decisions that take a card of the hand, and the kind of move that takes it
HAND_MOVES = {"play": Kind.PLAY, "scribe": Kind.SCRIBE, "place": Kind.PLACE}


@pytest.mark.parametrize("players", [2, 4])
def test_the_hand_s_moves_agree_with_the_legal_moves_in_whole_games(players: int) -> None:
    game = cardtable.make("iunu", players=players)
    checked = 0
    for seed in range(5):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            status = state.card_status(seat)
            legal = state.legal_actions()
            texts = [a.text for a in legal]
            kind = state.decision.kind
            hand = sorted(set(state.observation(seat)["hand"]))
            assert sorted(status) == hand  # every card of the hand, once, at every decision
            playable = {st["move"] for st in status.values() if st["why"] is None}
            if kind in HAND_MOVES:
                takes = {a.text for a in legal if a.kind == HAND_MOVES[kind]}  # type: ignore[attr-defined]
                assert playable == takes, (status, texts)
                checked += 1
            elif kind == "second_card":  # the card of the type just played: its second copy
                assert playable == {"play a second card"}
            else:  # a decision that takes no card of the hand says what it asks instead
                assert playable == set()
                asks = state.decision.describe(state)
                assert all(asks in st["why"] for st in status.values()), status
            assert all(state.card_status(s) == {} for s in range(players) if s != seat)
            state.apply(rnd.choice(texts))
    assert checked > 100
