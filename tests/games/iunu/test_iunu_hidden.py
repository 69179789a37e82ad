"""Hidden information: observations and determinize (DESIGN.md, "Hidden information")."""

from __future__ import annotations

import random

from cardtable.games.iunu.cards import CITIZENS

from .scenario import AFTERLIFE, iunu, position


def test_observation_shows_public_facts_and_only_your_hand() -> None:
    state = iunu(players=3).new_state(9)
    obs = state.observation(1)
    assert obs["hand"] == [CITIZENS[t] for t in sorted(state.hands[1])] and len(obs["hand"]) == 4
    assert [p["hand_size"] for p in obs["dynasties"]] == [4, 4, 4]
    assert len(obs["forum"]) == 5 and len(obs["dice"]) == 3
    assert obs["bread_supply"] == 20 and [p["debens"] for p in obs["dynasties"]] == [3, 3, 3]
    assert "hand" not in state.observation(None)
    assert "legal_actions" not in obs and "legal_actions" in state.observation(0)
    for key in ("deck", "afterlife_deck"):
        assert isinstance(obs[key], int)  # sizes only


def test_determinize_resamples_what_the_seat_cannot_see() -> None:
    state = position(iunu(players=3), hands=["Farmer, Noble", "Pharaoh, Scribe, Baker", "Priest, Priest"],
                     dynasty=[{"Scribe": 1}, {"Scribe": 1}, {}], held=[AFTERLIFE["khufu"], AFTERLIFE["osiris"], -1])
    state.scribed = [[4], [5], []]
    seen_hands, seen_held = set(), set()
    for k in range(40):
        det = state.determinize(0, random.Random(k).randrange(1 << 30))
        assert det.seed is None and det.history == []
        assert det.hands[0] == state.hands[0] and det.scribed[0] == [4] and det.held[0] == AFTERLIFE["khufu"]
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert [len(s) for s in det.scribed] == [1, 1, 0] and det.held[2] == -1 and det.held[1] >= 0
        assert det.observation(0) == state.observation(0)
        assert det.invariants() == state.invariants()
        seen_hands.add(tuple(sorted(det.hands[1])))
        seen_held.add(det.held[1])
    assert len(seen_hands) > 1 and len(seen_held) > 1


def test_private_events_go_to_their_seat_only() -> None:
    state = position(iunu(), hands=["Scribe, Pharaoh, Farmer, Baker", "Farmer"], deck="Noble, Merchant")
    state.apply("play scribe")
    state.apply("put pharaoh under scribe")
    mine = [e.kind for e in state.events_for(0)]
    theirs = [e.kind for e in state.events_for(1)]
    assert "scribed_card" in mine and "scribed_card" not in theirs and "scribed" in theirs
    det = state.determinize(1, 3)
    assert all(e.visible_to(1) for e in det.events or [])


def test_determinize_resamples_another_seats_priest_draw() -> None:
    """The Afterlife cards a Priest is looking at are seen by its owner only: another seat's copy
    resamples them (same number), the owner's copy keeps them."""
    state = position(iunu(), hands=["Priest, Farmer, Farmer, Baker", "Farmer"], debens=[5, 3], dice=[3, 0, 0],
                     afterlife_deck=[0, 3, 5, 6, 8])
    state.apply("play priest")
    state.apply("priest with die 1")
    drawn = state.decision.drawn
    assert state.determinize(0, 1).decision.drawn == drawn
    seen = set()
    for k in range(30):
        det = state.determinize(1, k)
        assert len(det.decision.drawn) == 3 and det.invariants() == state.invariants()
        assert det.observation(1) == state.observation(1)
        seen.add(tuple(sorted(det.decision.drawn)))
    assert len(seen) > 1
