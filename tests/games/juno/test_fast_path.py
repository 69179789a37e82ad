"""JUNO's fast path behaves exactly as the checked path, and the equivalence digest is stable.

`State.apply` takes an action object of the cached legal list straight to its decision's `resolve`
(the fast path); a text or an index first goes through `State.check`. The tests below drive two
states of the same seed in lockstep, one with the action objects (fast path) and one with the
indices or texts of the same actions (checked path), and require the same legal actions,
decisions and `to_json()` throughout.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.juno.cards import CARD_RANK
from cardtable.games.juno.game import Juno
from cardtable.games.juno.state import JunoState

from . import equivalence
from .equivalence import CLAIMS, CONFIGS, missing_claims, run
from .scenario import juno

ROOT = Path(__file__).resolve().parents[3]
LOCKSTEP_GAMES = 10  # per configuration: half with the event log on, half off
COMPARE_EVERY = 5   # steps between full to_json comparisons
DIGEST_GAMES = 6    # per configuration, for the digest tests (3 with the event log on)


def _dump(state: JunoState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _texts(state: JunoState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def _lockstep(game: Juno, seed: int, record_events: bool, form: str) -> Counter[str]:
    """Play one seeded game on two states: `fast` takes the action objects, `checked` the same
    actions as indices (`form="index"`) or texts (`form="text"`). Returns what the game went through."""
    policy = random.Random(f"lockstep/{seed}")
    fast = game.new_state(seed=seed, record_events=record_events)
    checked = game.new_state(seed=seed, record_events=record_events)
    seen: Counter[str] = Counter()
    step = 0
    while not fast.is_over:
        assert step <= game.max_length, "the game does not end"
        legal = fast.legal_actions()
        assert _texts(checked) == [a.text for a in legal], f"step {step}: legal actions differ"
        d, dc = fast.decision, checked.decision
        assert d is not None and dc is not None and d.to_json() == dc.to_json(), f"step {step}: decisions differ"
        assert fast.current_player == checked.current_player
        # `blocked` counts turns on which nothing could be played or drawn; it is nonzero only while
        # both piles are spent, so in a dealt game a draw never meets a nonzero count and its reset
        # is invisible. The two paths must still be the same function of any state (a loaded position,
        # a later rule), so now and then both states get the same count before their next moves.
        if policy.random() < 0.1:
            fast.blocked = checked.blocked = policy.randrange(1, game.players)
            seen["blocked_set"] += 1
        if policy.random() < 0.5:
            i = policy.randrange(len(legal))
        else:  # play-first: long games with few draws reach match ends and serious stacks
            plays = [i for i, a in enumerate(legal) if a.kind == 0]  # type: ignore[attr-defined]
            i = policy.choice(plays) if plays else policy.randrange(len(legal))
        action = legal[i]
        seen[f"{d.kind}:{'draw' if action.text == 'draw' else action.text.split()[0]}"] += 1
        seat, direction, round_ = fast.turn, fast.direction, fast.round
        fast.apply(action)
        checked.apply(action.index if form == "index" else action.text)
        step += 1
        if fast.round == round_ and _plain_play(fast, action, seat):
            # Both paths share `_play`'s copy of `_end_of_play` for a play with nothing left to settle,
            # so lockstep cannot see it; the rule can ("Let's play": play moves on in the direction of play).
            nxt = (seat + direction) % game.players
            assert (fast.turn, fast.decision.to_json()) == (nxt, {"kind": "turn", "seat": nxt}), f"step {step}"
            seen["plain_play"] += 1
        if step % COMPARE_EVERY == 0 or fast.is_over:
            text = _dump(fast)
            assert _dump(checked) == text, f"step {step}: to_json differs after {action.text!r}"
            # The cached legal list equals one computed afresh from the saved state (the core's cache).
            fresh = game.state_from_json(json.loads(text))
            assert [a.text for a in State.legal_actions(fresh)] == _texts(fast), f"step {step}: stale legal actions"
    assert checked.is_over and fast.legal_actions() == [] and checked.legal_actions() == []
    assert _dump(checked) == _dump(fast)
    assert fast.returns() == checked.returns() and fast.winners() == checked.winners()
    seen["games"] += 1
    seen["steps"] += step
    return seen


def _plain_play(state: JunoState, action: Any, seat: int) -> bool:
    """A number card without a seven-o effect that left its player more than one card (no UNO,
    no catch window) and started no serious stack: the next player simply takes a turn."""
    if state.is_over or action.kind != 0 or CARD_RANK[action.card] >= 10:
        return False
    if state.game.seven_o and CARD_RANK[action.card] in (0, 7):
        return False
    return len(state.hands[seat]) > 1 and state.decision.kind != "stack"  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=[name for name, _ in CONFIGS])
def test_fast_path_matches_index_path(name: str, options: dict[str, Any]) -> None:
    """Action objects (fast path) and action indices (State.apply) give the same games."""
    game = juno(**options)
    seen: Counter[str] = Counter()
    for g in range(LOCKSTEP_GAMES):
        seen += _lockstep(game, seed=1000 + g, record_events=g % 2 == 0, form="index")
    # The branches of the fast path were taken: a turn's play and draw, keeping a drawn card.
    assert seen["turn:play"] and seen["turn:draw"] and seen["after_draw:pass"], seen
    assert seen["blocked_set"] and seen["plain_play"], seen


@pytest.mark.parametrize("name", ["classic-4p", "seven-o-4p", "serious-4p", "challenge-4p", "small-deck-3p"])
def test_fast_path_matches_text_path(name: str) -> None:
    """Action objects and action texts (parsed by State.apply) give the same games."""
    game = juno(**dict(CONFIGS)[name])
    for g in range(2):
        _lockstep(game, seed=2000 + g, record_events=g % 2 == 1, form="text")


@pytest.fixture(scope="module")
def digest_run() -> tuple[str, dict[str, Counter[str]]]:
    return run(DIGEST_GAMES)


@pytest.mark.slow
def test_digest_is_deterministic_and_reaches_every_claim(digest_run: tuple[str, dict[str, Counter[str]]]) -> None:
    """The same games give the same digest and counts; each configuration reaches what it is listed for."""
    hexdigest, coverage = digest_run
    assert run(DIGEST_GAMES) == (hexdigest, coverage)
    assert set(CLAIMS) == {name for name, _ in CONFIGS}
    assert missing_claims(coverage) == {}, coverage
    assert all(c["games"] == DIGEST_GAMES for c in coverage.values())


@pytest.mark.slow
def test_digest_command_prints_the_in_process_digest(digest_run: tuple[str, dict[str, Counter[str]]]) -> None:
    """`python -m tests.games.juno.equivalence --games N` (a fresh interpreter) prints the same digest."""
    out = subprocess.run(
        [sys.executable, "-m", "tests.games.juno.equivalence", "--games", str(DIGEST_GAMES)],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )
    assert out.stdout.strip() == digest_run[0]


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, wrap: Any) -> None:
    monkeypatch.setattr(JunoState, name, wrap(getattr(JunoState, name)))


# Each of these changes one thing the digest claims to cover; the digest must notice each of them.
_CHANGES: dict[str, tuple[str, Any]] = {
    "observation": ("observation", lambda f: lambda s, seat: {**f(s, seat), "x": 1} if seat == 1 else f(s, seat)),
    "to_json": ("to_json", lambda f: lambda s: {**f(s), "x": 1}),
    # (a clone's history only: `determinize` starts from a clone but empties the history)
    "clone": ("clone", lambda f: lambda s: _with(f(s), "history", [])),
    "determinize": ("determinize", lambda f: lambda s, seat, rng=None: f(s, seat, 12345)),
    "events_for": ("events_for", lambda f: lambda s, seat: f(s, seat)[:-1] if seat == 0 else f(s, seat)),
    "refusal message": ("check", lambda f: lambda s, a: _reworded(f, s, a)),
}


def _reworded(check: Any, state: JunoState, action: Any) -> Any:
    try:
        return check(state, action)
    except IllegalAction as exc:
        raise IllegalAction(f"{exc}.") from None


def _with(state: JunoState, field: str, value: Any) -> JunoState:
    setattr(state, field, value)
    return state


@pytest.mark.skipif(
    not isinstance(JunoState.__dict__.get("observation"), FunctionType),
    reason="patching JunoState's methods needs the pure-Python modules (CARDTABLE_PURE=1)",
)
@pytest.mark.parametrize("change", list(_CHANGES))
def test_digest_notices_a_change(monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    one = CONFIGS[1:2]  # classic-4p: two games, one with the event log
    monkeypatch.setattr(equivalence, "CONFIGS", one)
    before = run(2)[0]
    _patched(monkeypatch, *_CHANGES[change])
    assert run(2)[0] != before
