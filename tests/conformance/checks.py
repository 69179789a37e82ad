"""The conformance checks of DESIGN.md, written once for every game."""

from __future__ import annotations

import json
import random
from typing import Any

import cardtable
from cardtable.core import Game, IllegalAction, Replay, State
from cardtable.core.rng import Rng


def dumps(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_step(game: Game[Any], state: State, rnd: random.Random, counters: dict[str, int]) -> None:
    """The expensive checks, on one state that is not over."""
    before = dumps(state)
    legal = state.legal_actions()

    # clone is independent: moving the clone leaves the original untouched
    c = state.clone()
    assert dumps(c) == before, "a clone differs from its original"
    c.apply(rnd.choice(legal))
    assert dumps(state) == before, "applying an action to a clone changed the original"

    # to_json round-trips exactly, through real JSON text
    back = game.state_from_json(json.loads(before))
    assert dumps(back) == before, "to_json -> state_from_json -> to_json is not exact"
    assert [a.index for a in back.legal_actions()] == [a.index for a in legal]

    # a random illegal action is refused with a reason, and the state is unchanged
    illegal = [a for a in game.actions if a not in legal]
    if illegal:
        bad = rnd.choice(illegal)
        try:
            state.apply(bad)
        except IllegalAction as exc:
            assert str(exc).strip(), "IllegalAction without a reason"
        else:
            raise AssertionError(f"illegal action {bad.text!r} was accepted")
        assert dumps(state) == before, "a refused action changed the state"
    try:
        state.apply("no such action")
    except IllegalAction:
        pass
    else:
        raise AssertionError("a nonsense action text was accepted")

    # no leaks: a determinized copy (other seats' hidden cards resampled) looks the same
    seats: list[int | None] = [None, *range(game.players)]
    for seat in range(game.players):
        det = state.determinize(seat, rnd.randrange(1 << 30))
        obs = state.observation(seat)
        json.dumps(obs)
        assert det.observation(seat) == obs, f"observation({seat}) changes when only hidden cards change"
        assert det.observation(None) == state.observation(None), "the spectator view changes with hidden cards"
        assert det.seed is None, "a determinized copy must not carry the true seed"
        assert det.rng.state != state.rng.state, "a determinized copy must not share the true RNG"
        if seat == state.current_player:
            assert [a.index for a in det.legal_actions()] == [a.index for a in legal], (
                "the deciding seat's legal actions differ in its determinized copy"
            )
        if dumps(det) != before:
            counters["resampled"] += 1
        for e in det.events or []:
            assert e.visible_to(seat), "a determinized copy kept another seat's private event"
    for seat in seats:
        json.dumps(state.observation(seat))
    assert dumps(state) == before, "observation/determinize changed the state"

    # chance between a choice and its effect (OpenSpiel's chance nodes): the cards no seat sees
    # take a new order and the RNG a new stream; what any seat sees, and the cards, stay
    shuffled = state.clone()
    shuffled.shuffle_unseen(Rng(rnd.randrange(1 << 62)))
    for seat in seats:
        assert shuffled.observation(seat) == state.observation(seat), f"shuffle_unseen changed what seat {seat} sees"
    assert shuffled.invariants() == state.invariants(), "shuffle_unseen lost or made cards"
    assert [a.index for a in shuffled.legal_actions()] == [a.index for a in legal], "shuffle_unseen changed the legal actions"
    if dumps(shuffled) != before:
        counters["shuffled"] += 1
    shuffled.apply(rnd.choice(shuffled.legal_actions()))  # the game goes on from it


def _heavy(step: int, every: int) -> bool:
    """The steps of a fully checked game that get the expensive checks: every `every`-th of the first
    50 * `every` steps, then every (10 * `every`)-th. A check costs time in proportion to the game so
    far (its JSON holds the events), so checking a long game (a 3-player JUNO match runs to ~8,000
    decisions) at every 7th step would cost the square of its length."""
    return step % every == 0 and (step < 50 * every or step % (10 * every) == 0)


def play_and_check(name: str, options: dict[str, Any], seed: int, heavy_every: int, counters: dict[str, int]) -> None:
    game = cardtable.make(name, **options)
    state = game.new_state(seed)
    rnd = random.Random(seed)
    start = state.invariants()
    steps = 0
    heavy_at = {rnd.randrange(0, 200), rnd.randrange(0, 2000)} if heavy_every == 0 else None
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "no legal action in a state that is not over"
        assert state.current_player is not None
        assert 0 <= state.current_player < game.players
        assert state.invariants() == start, f"conservation broken at step {steps}: {state.invariants()} != {start}"
        if (steps in heavy_at) if heavy_at is not None else _heavy(steps, heavy_every):
            check_step(game, state, rnd, counters)
        state.apply(rnd.choice(legal))
        steps += 1
        assert steps < game.max_length, f"the game did not end within {game.max_length} decisions"
    assert state.invariants() == start
    assert state.legal_actions() == [] and state.current_player is None
    returns = state.returns()
    assert len(returns) == game.players
    winners = state.winners()
    assert winners and all(0 <= w < game.players for w in winners)
    try:
        state.apply(game.actions.actions[0])
    except IllegalAction as exc:
        assert "over" in str(exc)
    else:
        raise AssertionError("an action was accepted after the game ended")
    # determinism: the replay (seed + action texts) reproduces the final state byte for byte
    replay = Replay.from_json(json.loads(json.dumps(state.replay().to_json())))
    assert dumps(replay.run()) == dumps(state), "replaying seed + actions does not reproduce the game"
    counters["games"] += 1
    counters["steps"] += steps
