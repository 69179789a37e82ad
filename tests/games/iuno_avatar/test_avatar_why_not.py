"""Why a card cannot be played now, from the rules (issue 30): the deciding seat's cards, each with
the move that plays it and the reason `check` refuses that move (the core's `State.card_status`
over `AvatarState.card_moves`); the legal moves and the refusals read one rule each
(`why_not_play`, `why_not_raise`, `why_not_pay_with`, `why_not_pay_gems`)."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core import IllegalAction
from cardtable.games.iuno_avatar.state import AvatarState

from .helpers import do, rolled, table, texts


def refused_with(s: AvatarState, move: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        s.check(move)
    return str(refused.value)


def test_a_roll_says_which_cards_it_plays_and_the_rule_that_refuses_the_others() -> None:
    s = table(heaven={0: ["Tide", "Gnome", "Ember Shard"]}, earth={0: {"Salamander": 1}}, gems=[0, 3])
    rolled(s, 1)
    status = s.card_status(0)
    assert status["Gnome"] == {"move": "summon Gnome", "why": "the roll (1) must exceed your figures on Earth (1)",
                               "moves": [{"move": "summon Gnome", "why": "the roll (1) must exceed your figures on Earth (1)"}]}
    assert status["Tide"]["why"] == "its cost (Water) cannot be paid exactly with your gems and gem cards"
    # a gem card is not played with a roll: it pays, and says when
    assert status["Ember Shard"]["move"] == "pay with Ember Shard"
    assert status["Ember Shard"]["why"] == "a gem card pays only for a card being summoned or cast, while its cost is owed"
    assert status["Salamander"]["move"] == "level up Salamander"
    assert status["Salamander"]["why"] == "you have no gem to put on it"
    s.gems[0] = 1
    rolled(s, 2)
    assert s.card_status(0)["Gnome"]["why"] is None and s.card_status(0)["Tide"]["why"] is None
    assert s.card_status(0)["Salamander"]["why"] == "level 1: it holds at most 1 gem"
    # the reason drawn on the card is the one the move is refused with
    assert refused_with(s, "level up Salamander") == "level 1: it holds at most 1 gem"
    assert s.card_status(1) == {} and s.card_status(None) == {}  # only the seat that decides is told
    assert "plays" not in s.observation(0)


def test_the_reason_names_the_rule_that_refuses_the_card() -> None:
    s = table(heaven={0: ["Gnome", "Kindle"]}, earth={0: {"Salamander": 0, "Dryad": 0}})
    s.spells_cast = 2
    rolled(s, 2)
    status = s.card_status(0)
    assert status["Gnome"]["why"] == "the roll (2) must exceed your figures on Earth (2)"
    assert status["Kindle"]["why"] == "the roll (2) must exceed the spells cast this turn (2)"
    assert status["Dryad"]["move"] == "activate Dryad" and status["Dryad"]["why"] is None
    assert refused_with(s, "activate Gnome") == "Gnome is not on your Earth"
    assert refused_with(s, "level up Dryad") == "Dryad is inactive: activate it first"


def test_a_payment_says_which_gem_cards_pay_and_whether_the_gems_do() -> None:
    s = table(heaven={0: ["Kindle", "Sunfire Ruby", "Ember Shard", "Dawn Shard", "Tide"]}, gems=[0, 3])
    rolled(s, 6)
    do(s, "cast Kindle")
    status = s.card_status(0)
    assert status["Ember Shard"]["why"] is None
    assert status["Sunfire Ruby"]["why"] == "players must not overpay: it pays 2 Fire, only 1 owed"
    assert status["Dawn Shard"]["why"] == "players must not overpay: it pays Light, and no Light is owed"
    assert status["gems"] == {"move": "pay the rest with gems", "why": "you have 0 gems, 1 owed",
                              "moves": [{"move": "pay the rest with gems", "why": "you have 0 gems, 1 owed"}]}
    assert status["Tide"]["move"] == "cast Tide"  # a spell does not pay: the payment is what is asked now
    assert status["Tide"]["why"] == "'cast Tide' is not possible now: pay 1 Fire with gems or gem cards"
    for st in status.values():
        assert st["move"] in texts(s) if st["why"] is None else refused_with(s, st["move"]) == st["why"]


@pytest.mark.parametrize("players", [2, 3])
def test_each_card_s_reason_agrees_with_the_legal_moves_in_whole_games(players: int) -> None:
    """Random games: at every decision, every move the seat's cards report is legal exactly when its
    reason is None, a refused one is refused by `apply` with that reason, every legal move that
    plays or chooses a card (all but rolling, ending the turn, discarding the die and the effects'
    answers) is one a card reports, and every card of the seat's Heaven and Earth has its entry."""
    game = cardtable.make("iuno_avatar", players=players)
    checked = refusals = 0
    for seed in range(4):
        s = game.new_state(seed)
        rnd = random.Random(seed)
        while not s.is_over and s.turns < 30:
            seat = s.current_player
            legal = texts(s)
            status = s.card_status(seat)
            moves = [m for st in status.values() for m in st["moves"]]
            for m in moves:
                if m["why"] is None:
                    assert m["move"] in legal, (m, legal)
                else:
                    refusals += 1
                    assert m["move"] not in legal and refused_with(s, m["move"]) == m["why"], m
            if s.decision.kind in ("use_roll", "pay", "discard_down", "choose_card"):
                playing = {a for a in legal if a != "discard the die"}
                assert playing == {m["move"] for m in moves if m["why"] is None}, (playing, moves)
                checked += 1
            else:  # a decision that plays no card: each card says what it asks instead
                assert all(m["why"] is not None for m in moves), moves
            # every card of its Heaven and every figure on its Earth, at every decision
            assert {c["name"] if isinstance(c, dict) else c for c in s.observation(seat)["heaven"]} <= set(status)
            assert {f["name"] for f in s.observation(seat)["seats"][seat]["earth"] if f["type"] == "figure"} <= set(status)
            for other in range(players):
                if other != seat:
                    assert s.card_status(other) == {}
            s.apply(rnd.choice(legal))
    assert checked > 50 and refusals > 50, (checked, refusals)
