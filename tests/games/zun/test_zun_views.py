"""What a seat may know (observation, determinize), the JSON round trip, and the terminal view."""

from __future__ import annotations

import json

from rich.console import Console

import cardtable
from cardtable.games.zun import text

from .helpers import play, position


def test_other_hands_and_the_deck_are_hidden() -> None:
    s = position(3, hands={0: ["Attack"], 1: ["Trap", "Fizzle"]})
    obs = s.observation(0)
    assert obs["hand"] == ["Attack"] and obs["hand_counts"] == [1, 2, 0]
    assert "Trap" not in json.dumps(obs)
    assert "hand" not in s.observation(None)
    det = s.determinize(0, 11)
    assert det.hands[0] == s.hands[0] and det.seed is None and det.history == []
    assert sorted(det.deck + det.hands[1]) == sorted(s.deck + s.hands[1])


def test_private_draws_stay_private_in_determinized_copies() -> None:
    s = position(2, hands={0: ["Channel"]})
    play(s, "play Channel", "target seat 1", "no reaction")
    det = s.determinize(0, 3)
    assert all(e.visible_to(0) for e in det.events or [])
    assert any(e.kind == "drew_cards" for e in s.events or [])
    assert not any(e.kind == "drew_cards" for e in det.events or [])


def test_reaction_window_opens_even_without_a_reaction_in_hand() -> None:
    """So that being asked reveals nothing about the targeted hand."""
    s = position(2, hands={0: ["Attack"], 1: ["Attack"]})
    play(s, "play Attack", "target seat 1")
    assert s.decision.kind == "reaction" and [a.text for a in s.legal_actions()] == ["no reaction"]


def test_json_round_trip_mid_chain() -> None:
    s = position(3, hands={0: ["Attack", "Share"], 1: ["Redirect"], 2: ["Trap"]})
    play(s, "play Attack", "modify with Share", "target seat 1", "target seat 2", "react with Redirect")
    data = json.loads(json.dumps(s.to_json()))
    back = s.game.state_from_json(data)
    assert json.dumps(back.to_json(), sort_keys=True) == json.dumps(s.to_json(), sort_keys=True)
    assert [a.text for a in back.legal_actions()] == [a.text for a in s.legal_actions()]


def test_same_seed_same_game() -> None:
    g = cardtable.make("zun", players=4, teams=2)
    a = cardtable.play(g, [cardtable.agents.make("random", seed=i) for i in range(4)], seed=5)
    b = cardtable.play(g, [cardtable.agents.make("random", seed=i) for i in range(4)], seed=5)
    assert a.to_json() == b.to_json() and a.is_over


def test_terminal_view_shows_trackers_hands_in_play_and_ongoing() -> None:
    s = position(4, teams=2, hands={0: ["Defend", "Attack", "Boost"], 1: ["Fizzle"]}, hp={1: 7, 2: 3})
    play(s, "play Defend", "target seat 0", "no reaction", "play Attack", "modify with Boost", "target seat 1")
    console = Console(width=160, record=True)
    console.print(text.render(s.observation(1)))
    out = console.export_text()
    for needed in ("HP", "tier 2 (5–8 HP)", "tier 1 (1–4 HP)", "team 1", "team 2", "Defend", "Attack (seat 0)",
                   "Boost (seat 0)", "Your hand: Fizzle", "You: play a Reaction to seat 0's Attack, or not?", "seat 1 (you)",
                   "Resolving: seat 0's Attack → seat 1 (targets: seat 1; boosted 1×)"):
        assert needed in out, needed
    assert "team 0" not in out and "[" not in out  # teams counted from 1 as in the browser; no list written out
    lines = [text.narrate(e.to_json(), 1) for e in s.events or [] if e.visible_to(1)]
    assert "seat 0 targets seat 1 with Attack" in lines  # the table's names replace "seat N" (cardtable.ui.names)
    assert "seat 0 targets themselves with Defend" in lines
