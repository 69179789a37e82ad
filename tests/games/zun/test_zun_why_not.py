"""Why a rune of the hand cannot be played now (issue 30): `ZunState.card_moves` says which move
plays each rune at the decision (an Action in the Action Phase, a modifier while the rune just
played is modified, a Reaction in the reaction window, any rune when discarding), and the core's
`card_status` gives each the reason `check` refuses it with. Only the seat that decides is told."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction
from cardtable.games.zun.actions import Kind
from cardtable.games.zun.decisions import KIND_RULES

from .helpers import play, position

HAND_KINDS = {Kind.PLAY, Kind.MODIFY, Kind.REACT, Kind.DISCARD}


@pytest.mark.parametrize("players", [2, 3])
def test_each_rune_s_reason_agrees_with_the_legal_moves_in_whole_games(players: int) -> None:
    game = cardtable.make("zun", players=players)
    refused: list[str] = []
    checked = 0
    for seed in range(8):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            moves = [m for st in state.card_status(seat).values() for m in st["moves"]]
            # every legal move that plays a rune of the hand is a rune's move, legal exactly when its reason is None
            assert {m["move"] for m in moves if m["why"] is None} == {
                a.text for a in legal if a.kind in HAND_KINDS}  # type: ignore[attr-defined]
            for m in moves:
                if m["why"] is not None:
                    with pytest.raises(IllegalAction) as err:
                        state.apply(m["move"])
                    assert str(err.value) == m["why"]
                    refused.append(m["why"])
            checked += bool(moves)
            assert all(state.card_status(s) == {} for s in range(players) if s != seat)
            state.apply(rnd.choice(legal))
    assert checked > 100
    # a modifier that is not a charm of the rune being played says so (Action Phase 3)
    assert any(" is not a charm of " in why for why in refused), refused[:5]


def _says(s: Any, legal: str, refused: dict[str, Kind]) -> None:
    """The deciding seat's runes: `legal` is a move now, each of `refused` is refused with the rule
    of its kind, and a click on one is refused with the same words."""
    status = s.card_status(s.current_player)
    assert set(status) == {legal, *refused} and status[legal]["why"] is None
    for rune, kind in refused.items():
        assert status[rune]["why"] == KIND_RULES[kind]
        with pytest.raises(IllegalAction) as err:
            s.apply(status[rune]["move"])
        assert str(err.value) == KIND_RULES[kind]


def test_every_rune_of_the_hand_says_when_its_kind_is_played() -> None:
    """"Playing cards": in the Action Phase a held Reaction and a held modifier each say when their
    kind is played (an Action targeting you; on the rune just played); in the reaction window a
    held Action and modifier do."""
    s = position(2, hands={0: ["Attack", "Absorb", "Boost"], 1: ["Attack", "Redirect", "Share"]})
    _says(s, "Attack", {"Absorb": Kind.REACT, "Boost": Kind.MODIFY})
    assert "a Reaction is played only when an Action targets you" in KIND_RULES[Kind.REACT]
    play(s, "play Attack", "target seat 1")
    assert s.decision.kind == "reaction" and s.current_player == 1
    _says(s, "Redirect", {"Attack": Kind.PLAY, "Share": Kind.MODIFY})


def test_every_rune_has_its_move_at_every_decision_in_whole_games() -> None:
    """At every decision of whole games, each rune the deciding seat holds has its entry (its move,
    and the rule's reason when refused), whatever the decision."""
    game = cardtable.make("zun", players=3)
    kinds: set[str] = set()
    for seed in range(4):
        state = game.new_state(seed)
        rnd = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            held = {state._name(r) for r in state.hands[seat]}
            assert set(state.card_status(seat)) == held, state.decision.kind
            kinds.add(state.decision.kind)
            state.apply(rnd.choice(state.legal_actions()))
    assert {"action_phase", "modify", "declare_target", "reaction", "recovery"} <= kinds, kinds
