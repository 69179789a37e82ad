"""Bots never see the true state (DESIGN.md, "Agents"): `cardtable.play`, the arena and the simulator
hand each what it declares it needs (`cardtable.core.views`): its legal actions only, its
observation, or `state.determinize(seat, rng)`, so no bot can read the true hidden cards."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardtable
from cardtable import agents
from cardtable.agents.ismcts import IsmctsAgent
from cardtable.agents.random_agent import RandomAgent
from cardtable.commands import arena
from cardtable.core import CardtableError, Need, Turn
from cardtable.core.state import State
from cardtable.sim.job import Job, play_game


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


class LegalSpy:
    """Declares it reads the legal actions only; records everything it is handed."""

    needs = Need.LEGAL_ACTIONS

    def __init__(self, seed: int = 0) -> None:
        self.inner = RandomAgent(seed)
        self.views: list[Any] = []

    def act(self, view: Any) -> Any:
        self.views.append((view, list(view.legal_actions())))
        return self.inner.act(view)


def check_legal_only(final: State, spies: list[LegalSpy]) -> None:
    """Every view a legal-actions agent was handed is a `Turn`, never a state, with no observation,
    and holds exactly the true state's legal actions for the deciding seat."""
    game = final.game
    truth = game.new_state(final.seed)  # type: ignore[arg-type]
    seen = [0] * len(spies)
    for index in final.history:
        seat = truth.current_player
        assert seat is not None
        view, legal = spies[seat].views[seen[seat]]
        seen[seat] += 1
        assert type(view) is Turn and not isinstance(view, State)
        assert view.current_player == seat and legal == truth.legal_actions()
        with pytest.raises(CardtableError, match="legal actions only"):
            view.observation(seat)
        truth.apply(game.action_from_index(index))
    assert seen == [len(s.views) for s in spies] and sum(seen) > 20


@pytest.mark.parametrize("name", ["juno", "iunu", "zun"])
def test_an_agent_that_needs_only_legal_actions_is_handed_no_state(name: str) -> None:
    game = cardtable.make(name, players=2)
    spies = [LegalSpy(0), LegalSpy(1)]
    final = cardtable.play(game, spies, seed=8)
    check_legal_only(final, spies)


def test_the_arena_hands_a_legal_actions_agent_no_state() -> None:
    game = cardtable.make("juno", players=2, match=False)
    spies = [LegalSpy(0), LegalSpy(1)]
    arena.run_game(game, spies, seats=[0, 1], seed=5)
    final = cardtable.play(game, [RandomAgent(0), RandomAgent(1)], seed=5)
    check_legal_only(final, spies)


def test_the_simulator_hands_the_random_agent_no_state() -> None:
    handed: list[Any] = []

    class Watched(RandomAgent):
        def act(self, view: Any) -> Any:
            handed.append(view)
            return super().act(view)

    agents.register("watched", Watched)
    try:
        play_game(Job.build("juno", {"players": 3, "match": False}, ["watched"]), 3)
    finally:
        agents._FACTORIES.pop("watched", None)
    assert handed and all(type(v) is Turn for v in handed)


def test_an_agent_that_needs_the_observation_is_handed_its_own() -> None:
    class Observer(LegalSpy):
        needs = Need.OBSERVATION

        def act(self, view: Any) -> Any:
            self.views.append((view, json.dumps(view.observation(view.current_player), sort_keys=True)))
            return self.inner.act(view)

    game = cardtable.make("juno", players=2, match=False)
    spies = [Observer(0), Observer(1)]
    final = cardtable.play(game, spies, seed=3)
    truth = game.new_state(3)
    seen = [0, 0]
    for index in final.history:
        seat = truth.current_player
        assert seat is not None
        view, obs = spies[seat].views[seen[seat]]
        seen[seat] += 1
        assert type(view) is Turn and obs == json.dumps(truth.observation(seat), sort_keys=True)
        with pytest.raises(CardtableError, match="its own observation"):
            view.observation(1 - seat)
        truth.apply(game.action_from_index(index))


def test_hard_still_searches_on_determinized_copies() -> None:
    class Hard(IsmctsAgent):
        """The `hard` search, recording what it is handed and what each iteration plays on."""

        def __init__(self, **params: Any) -> None:
            super().__init__(**params)
            self.views: list[Any] = []
            self.iterated: list[tuple[Any, State]] = []

        def act(self, view: Any) -> Any:
            self.views.append(view)
            return super().act(view)

        def _iterate(self, state: State, *args: Any, **kwargs: Any) -> Any:
            self.iterated.append((self.views[-1], state))
            return super()._iterate(state, *args, **kwargs)  # (its returns: the compiled search checks their type)

    game = cardtable.make("juno", players=2, match=False)
    params = {**agents.DIFFICULTY["hard"][1], "time_limit": None, "iterations": 8}
    hard = Hard(seed=1, **params)
    assert agents.make("hard").needs is Need.DETERMINIZED
    cardtable.play(game, [hard, RandomAgent(2)], seed=6, record_events=False)
    assert hard.views and all(isinstance(v, State) and v.seed is None and v.history == [] for v in hard.views)
    # every iteration plays on a determinization of its own, not on the view it was handed
    assert len(hard.iterated) > 20
    assert all(s is not v and s.seed is None for v, s in hard.iterated)


def test_what_one_agent_needs_does_not_change_what_another_is_handed() -> None:
    """A copy's deal is drawn from the stream position of its decision, whatever the other seats'
    agents needed: the same seed gives the same views (and games) as when every agent got a copy."""
    game = cardtable.make("juno", players=3, match=False)
    runs = []
    for other in (RandomAgent, Spy):
        watched = Spy(0)
        cardtable.play(game, [watched, other(1), other(2)], seed=11)
        runs.append(watched.views)
    assert runs[0] == runs[1] and len(runs[0]) > 20


def test_an_agent_must_declare_a_need() -> None:
    class Confused(RandomAgent):
        needs = "legal actions"  # type: ignore[assignment]

    with pytest.raises(CardtableError, match="needs must be a cardtable Need"):
        cardtable.play(cardtable.make("juno", players=2), [Confused(0), RandomAgent(1)])
