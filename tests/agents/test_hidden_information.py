"""Bots only ever see determinized copies (DESIGN.md, "Agents"): `cardtable.play` and the arena
hand them `state.determinize(seat, rng)`, so no bot can read the true hidden cards."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardtable
from cardtable.agents.random_agent import RandomAgent
from cardtable.commands import arena
from cardtable.core.state import State


class Spy:
    """Records what it is handed, then plays like a random agent."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.inner = RandomAgent(seat)
        self.views: list[dict[str, Any]] = []

    def act(self, view: State) -> Any:
        self.views.append({
            "seed": view.seed,
            "history": list(view.history),
            "hands": [sorted(h) for h in view.hands],  # type: ignore[attr-defined]
            "private": [e.to_json() for e in (view.events or []) if e.to and self.seat not in e.to],
            "obs": json.dumps(view.observation(self.seat), sort_keys=True),
        })
        return self.inner.act(view)


def check(final: State, spies: list[Spy], min_hidden: int = 50) -> None:
    """Replay the true game and compare each view with the true state at that decision."""
    game = final.game
    truth = game.new_state(final.seed)  # type: ignore[arg-type]
    seen = {id(s): 0 for s in spies}
    same_hidden = total_hidden = 0
    for index in final.history:
        seat = truth.current_player
        assert seat is not None
        spy = spies[seat]
        view = spy.views[seen[id(spy)]]
        seen[id(spy)] += 1
        assert view["seed"] is None and view["history"] == []  # no seed to replay the deal from
        assert view["private"] == []  # no private event of another seat
        assert view["obs"] == json.dumps(truth.observation(seat), sort_keys=True)  # what the seat may know
        assert view["hands"][seat] == sorted(truth.hands[seat])  # type: ignore[attr-defined]
        for other in range(game.players):
            if other != seat and len(truth.hands[other]) >= 3:  # type: ignore[attr-defined]
                total_hidden += 1
                same_hidden += view["hands"][other] == sorted(truth.hands[other])  # type: ignore[attr-defined]
        truth.apply(game.action_from_index(index))
    assert all(seen[id(s)] == len(s.views) for s in spies)
    assert total_hidden > min_hidden
    # A resampled hand of three or more cards matches the truth only by chance.
    assert same_hidden / total_hidden < 0.1


def test_play_hands_bots_determinized_copies_not_the_true_state() -> None:
    game = cardtable.make("juno", players=3, match=False)
    spies = [Spy(s) for s in range(3)]
    final = cardtable.play(game, spies, seed=21)
    check(final, spies)


def test_the_arena_uses_the_same_door() -> None:
    game = cardtable.make("juno", players=2, match=False)
    spies = [Spy(0), Spy(1)]
    result = arena.run_game(game, spies, seats=[0, 1], seed=5)
    final_seed = 5
    # Rebuild the final state from the arena's own seed and check every view against it.
    final = cardtable.play(game, [RandomAgent(0), RandomAgent(1)], seed=final_seed)
    assert result.decisions == len(final.history)
    check(final, spies)


@pytest.mark.parametrize("name", ["iunu", "zun"])
def test_every_game_hands_bots_copies_with_other_hands_resampled(name: str) -> None:
    game = cardtable.make(name, players=2)
    spies = [Spy(0), Spy(1)]
    final = cardtable.play(game, spies, seed=4)
    check(final, spies, min_hidden=20)
