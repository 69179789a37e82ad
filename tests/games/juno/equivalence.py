"""A digest of JUNO's observable behaviour over seeded games, to compare two builds of the engine.

`State.apply` takes an action object of the cached legal list straight to its decision (the fast
path) and anything else through `State.check` first; each rule is written once, in JUNO's
decisions and state, for both. `digest(n)` plays `n`
seeded games for every configuration in `CONFIGS` and hashes everything a user of the engine can
observe: at every step the legal actions' texts and the pending decision, and every `CHECK_EVERY`
steps `to_json()`, `observation(seat)` for every seat and a spectator, a clone's and a
determinized copy's `to_json()`, the recorded events each seat may see, and now and then the
message of a refused action (checking that the refusal left the state unchanged).

Two builds that behave identically print the same digest: the pure-Python modules against a
compiled (mypyc) build (`CARDTABLE_PURE=1` forces the pure ones), or a change of the hot path
against the commit before it:

    python -m tests.games.juno.equivalence --games 20          # prints the digest
    python -m tests.games.juno.equivalence --games 20 -v       # and coverage counts, CPU time (stderr)

`tests/games/juno/test_fast_path.py` checks the fast path against the checked path step by step and
that each configuration reaches the rules it is listed for (`CLAIMS`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import Counter
from typing import Any

import cardtable
from cardtable.core.errors import IllegalAction
from cardtable.games.juno.actions import DRAW, PASS, JunoAction, Kind
from cardtable.games.juno.cards import CARD_RANK
from cardtable.games.juno.game import Juno
from cardtable.games.juno.state import JunoState

CHECK_EVERY = 7  # steps between full checkpoints (to_json, observations, clone, determinize, events)

# A deck small enough that both piles run out: with 3 players holding 2 cards each and 10 cards in
# all, drawing soon spends the DRAW pile, and the DISCARD pile is often down to its top card (the
# "nothing to draw" rule: `draw` is offered only without a play). No Wild, and the blue 9 and the
# yellow 3 match no other card, so with one of them on top and every other card in hand nobody can
# play or draw, and the round ends blocked (docs/games/juno.md, a locked table).
SMALL_DECK: dict[str, Any] = {
    "name": "equivalence: starved piles",
    "cards": {
        "red 1": 1, "red 2": 1, "red 5": 1, "red draw two": 1, "green 1": 1, "green 6": 1,
        "green 7": 1, "green skip": 1, "yellow 3": 1, "blue 9": 1,
    },
}

# (name, options). Single rounds unless the configuration is about match play.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic-2p", {"players": 2, "match": False}),
    ("classic-4p", {"players": 4, "match": False}),
    ("classic-7p", {"players": 7, "match": False}),
    ("classic-10p", {"players": 10, "match": False}),
    ("seven-o-4p", {"players": 4, "variant": "seven-o", "match": False}),
    ("serious-4p", {"players": 4, "variant": "serious", "match": False}),
    ("serious-7p", {"players": 7, "variant": "serious", "match": False}),
    ("challenge-4p", {"players": 4, "wild_draw_four": "challenge", "match": False}),
    ("match-3p", {"players": 3, "match": True, "target": 150}),
    ("small-deck-3p", {"players": 3, "match": True, "target": 60, "hand_size": 2, "deck": SMALL_DECK}),
]

# What each configuration is there for: counters of `run` that must be above zero (checked by
# test_fast_path.py, so that a change of the configurations or the policy cannot silently lose them).
# Counted in every game, from the state: `decision:<kind>` (decisions met), `path:<way into apply>`
# (`inline_draw`/`inline_keep`: a draw from a DRAW pile that has a card, or keeping the drawn card,
# with the event log off, where the fast path once had copies of its own; `checked_draw`/
# `checked_keep`: the same actions with the log on or an empty DRAW pile; `index`, `text`: through
# State.check),
# `reshuffles` (the DISCARD pile turned into the DRAW pile), `could_not_draw`, `blocked_rounds`,
# `nothing_to_draw` (a turn whose only way on is a play), `facing_stack` (serious: a turn facing a
# stacked draw), `stack_of_3`, `caught`, `challenged` with `guilty`/`innocent`, `swapped`,
# `hands_passed`, `rounds_per_game_above_1`, `refused` (illegal actions tried) and
# `refused:nothing_to_draw`. Counted in the games that record events: `event:<kind>`.
_EVERY = (
    "path:inline_draw", "path:inline_keep", "path:checked_draw", "path:checked_keep", "path:play",
    "path:index", "path:text", "reshuffles", "decision:catch", "caught", "refused",
    "event:drew_cards", "event:uno_missed",
)
CLAIMS: dict[str, tuple[str, ...]] = {
    "classic-2p": _EVERY,
    "classic-4p": _EVERY,
    "classic-7p": _EVERY,
    "classic-10p": _EVERY,
    "seven-o-4p": (*_EVERY, "decision:swap", "swapped", "hands_passed", "event:swapped", "event:hands_passed"),
    "serious-4p": (*_EVERY, "decision:stack", "facing_stack", "stack_of_3"),
    "serious-7p": (*_EVERY, "decision:stack", "facing_stack", "stack_of_3"),
    "challenge-4p": (*_EVERY, "decision:challenge", "challenged", "guilty", "innocent", "event:challenged"),
    "match-3p": (*_EVERY, "rounds_per_game_above_1"),
    "small-deck-3p": (
        *_EVERY, "rounds_per_game_above_1", "could_not_draw", "blocked_rounds", "nothing_to_draw",
        "refused:nothing_to_draw", "event:could_not_draw",
    ),
}


def _feed(h: Any, tag: str, obj: Any) -> None:
    """Hash one tagged value; JSON with sorted keys, so the bytes depend only on the value."""
    h.update(tag.encode())
    h.update(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode())
    h.update(b"\n")


def _dump(state: JunoState, since: int = 0) -> str:
    """`state.to_json()` as text, with its event log from event `since` on and the log's length:
    checkpoints hash each event once, so a checkpoint's cost does not grow with the game. The whole
    log is hashed at the end of each game."""
    data = state.to_json()
    events = data["events"]
    if events is not None and since:
        data["events"] = {"count": len(events), "since": since, "new": events[since:]}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _logged(state: JunoState) -> int:
    return 0 if state.events is None else len(state.events)


def _choose(policy: random.Random, legal: list[Any], uniform: float) -> Any:
    """Uniform over the legal actions with probability `uniform`, else play-first (a random play if any)."""
    if policy.random() < uniform:
        return legal[policy.randrange(len(legal))]
    plays = [a for a in legal if a.kind is Kind.PLAY]
    return policy.choice(plays or legal)


def _refuse(state: JunoState, policy: random.Random, h: Any, counts: Counter[str], before: tuple[str, int]) -> None:
    """Try one action the rules refuse, in one of its three forms (object, text, index) or as
    something that is no action at all; hash the message; the state must be unchanged (`before`:
    `_dump(state, since)` and `since`)."""
    legal = state.legal_actions()
    texts = [a.text for a in legal]
    game = state.game
    illegal = [a for a in game.actions if a not in legal]
    # A turn with both piles spent refuses `draw` with its own message: try it often.
    if DRAW not in legal and state.pending[-1].kind == "turn" and policy.random() < 0.5:
        attempt: Any = DRAW
        counts["refused:nothing_to_draw"] += 1
    else:
        attempt = policy.choice(illegal)
    form = policy.randrange(5)
    if form == 1:
        attempt = attempt.text
    elif form == 2:
        attempt = attempt.index
    elif form == 3:
        attempt = policy.choice(["play purple 11", "draw  twice", game.num_actions + policy.randrange(9), -1])
    try:
        state.apply(attempt)
    except IllegalAction as err:
        shown = ["object", attempt.text] if isinstance(attempt, JunoAction) else attempt
        _feed(h, "refused", [shown, str(err)])
    else:
        raise AssertionError(f"{attempt!r} was accepted; legal: {texts}")
    counts["refused"] += 1
    if _dump(state, before[1]) != before[0] or [a.text for a in state.legal_actions()] != texts:
        raise AssertionError(f"refusing {attempt!r} changed the state")


def _checkpoint(state: JunoState, policy: random.Random, h: Any, seen: list[int], k: int) -> tuple[str, int]:
    """Hash the full views of the state. `seen[i]`: events already hashed for viewer i (the seats,
    a spectator, then the whole log). Returns `_dump(state, since)` and `since`."""
    n = state.game.players
    since = seen[-1]
    text = _dump(state, since)
    h.update(b"to_json")
    h.update(text.encode())
    for seat in [*range(n), None]:
        _feed(h, f"obs{seat}", state.observation(seat))
    h.update(b"clone")
    h.update(_dump(state.clone(), since).encode())
    seat = k % n
    h.update(b"determinize")
    h.update(_dump(state.determinize(seat, policy.getrandbits(64))).encode())
    # The events each seat (and a spectator) may see, those since the last checkpoint.
    for i, viewer in enumerate([*range(n), None]):
        events = state.events_for(viewer)
        _feed(h, f"events{viewer}", [e.to_json() for e in events[seen[i]:]])
        seen[i] = len(events)
    seen[-1] = _logged(state)
    return text, since


def play_game(
    game: Juno, policy: random.Random, seed: int, record_events: bool, uniform: float, h: Any, counts: Counter[str]
) -> None:
    """One seeded game, hashed into `h`, with what it reached added to `counts`. The policy is uniform
    over the legal actions with probability `uniform`, else play-first."""
    state = game.new_state(seed=seed, record_events=record_events)
    n = game.players
    seen = [0] * (n + 2)
    step = 0
    while not state.is_over:
        if step > game.max_length:
            raise AssertionError(f"{game!r} seed {seed}: no end after {step} decisions")
        legal = state.legal_actions()
        d = state.pending[-1]
        _feed(h, "step", [step, d.to_json(), [a.text for a in legal]])
        counts[f"decision:{d.kind}"] += 1
        nothing_to_draw = d.kind == "turn" and DRAW not in legal
        if nothing_to_draw:
            counts["nothing_to_draw"] += 1
        if d.kind == "turn" and state.penalty:
            counts["facing_stack"] += 1
        elif d.kind == "stack" and d.count == 2:  # type: ignore[attr-defined]
            counts["stack_of_3"] += 1
        check = step % CHECK_EVERY == 0
        if check:
            before = _checkpoint(state, policy, h, seen, step // CHECK_EVERY)
        # A refused action at half the checkpoints, and at half the turns that refuse `draw`.
        if (check or nothing_to_draw) and policy.random() < 0.5:
            _refuse(state, policy, h, counts, before if check else (_dump(state, _logged(state)), _logged(state)))
        action = _choose(policy, legal, uniform)
        before_move = _Before(state)
        form = policy.random()
        # Mostly the action object (the fast path bots take); some indices and texts (State.apply).
        if form < 0.8:
            fast = True
            if d.kind == "turn" and action is DRAW and not state.penalty:
                inline = state.draw and state.events is None
                counts["path:inline_draw" if inline else "path:checked_draw"] += 1
            elif d.kind == "after_draw" and action is PASS:
                counts["path:inline_keep" if state.events is None else "path:checked_keep"] += 1
            elif action.kind is Kind.PLAY:
                counts["path:play"] += 1
            state.apply(action)
        elif form < 0.9:
            fast = False
            counts["path:index"] += 1
            state.apply(action.index)
        else:
            fast = False
            counts["path:text"] += 1
            state.apply(action.text)
        _feed(h, "applied", [action.text, fast])
        step += 1
        _count_effects(state, d, action, before_move, counts)
    _checkpoint(state, policy, h, seen, step // CHECK_EVERY + 1)
    h.update(_dump(state).encode())  # the whole event log, once
    h.update(_dump(state.clone()).encode())
    _feed(h, "end", [state.returns(), state.winners(), [a.text for a in state.legal_actions()], state.current_player])
    try:
        state.apply(policy.choice(game.actions.actions))
    except IllegalAction as err:
        _feed(h, "over", str(err))
    else:
        raise AssertionError("a finished game accepted an action")
    counts["games"] += 1
    counts["steps"] += step
    rounds = state.round_results
    counts["rounds"] += len(rounds)
    counts["rounds_per_game_above_1"] += len(rounds) > 1
    counts["blocked_rounds"] += sum(1 for r in rounds if r["blocked"])
    for e in state.events or ():
        counts[f"event:{e.kind}"] += 1


class _Before:
    """What `_count_effects` compares a move's result with."""

    __slots__ = ("round", "discard", "blocked", "hand_sizes", "hands")

    def __init__(self, state: JunoState) -> None:
        self.round = state.round
        self.discard = len(state.discard)
        self.blocked = state.blocked
        self.hand_sizes = [len(h) for h in state.hands]
        self.hands = [sorted(h) for h in state.hands]


def _count_effects(state: JunoState, d: Any, action: Any, before: _Before, counts: Counter[str]) -> None:
    """Count the rules a move reached, from the state (so games without an event log count too)."""
    if state.round != before.round:
        return
    if len(state.discard) < before.discard:  # only a reshuffle takes cards off the DISCARD pile
        counts["reshuffles"] += 1
    if state.blocked > before.blocked:
        counts["could_not_draw"] += 1
    if d.kind == "catch" and action.kind is Kind.CATCH:
        counts["caught"] += 1
    elif d.kind == "challenge" and action.kind is Kind.CHALLENGE:
        counts["challenged"] += 1
        # Guilty: the player of the Wild Draw Four draws 4 at once; innocent: the challenger draws 6 later.
        guilty = len(state.hands[d.offender]) > before.hand_sizes[d.offender]
        counts["guilty" if guilty else "innocent"] += 1
    elif d.kind == "swap":
        counts["swapped"] += 1
    if action.kind is Kind.PLAY and state.game.seven_o and CARD_RANK[action.card] == 0:
        # seven-o 0: every hand moved on to the next player in the direction of play
        n = state.game.players
        old = [list(h) for h in before.hands]
        old[d.seat].remove(action.card)
        if all(sorted(state.hands[(s + state.direction) % n]) == old[s] for s in range(n)):
            counts["hands_passed"] += 1


def run(
    games_per_config: int, seed: int = 0, cpu: dict[str, float] | None = None
) -> tuple[str, dict[str, Counter[str]]]:
    """The digest (hex) and, per configuration, the counts of what the games reached; `cpu`, when
    given, receives each configuration's CPU seconds (kept out of the counts, which must repeat)."""
    h = hashlib.sha256()
    coverage: dict[str, Counter[str]] = {}
    for name, options in CONFIGS:
        t0 = time.process_time()
        game = cardtable.make("juno", **options)
        assert isinstance(game, Juno)
        _feed(h, "config", [name, game.options.to_json()])
        counts: Counter[str] = Counter()
        for g in range(games_per_config):
            policy = random.Random(f"{seed}/{name}/{g}")  # str seeds are hashed with SHA-512: stable
            game_seed = policy.getrandbits(32)
            _feed(h, "game", [g, game_seed])
            # Events on in every other game; in every other pair of games the policy draws more (long
            # games, reshuffles), else it plays more (stacks, UNO calls, short games).
            uniform = 0.7 if g // 2 % 2 else 0.3
            play_game(game, policy, game_seed, g % 2 == 0, uniform, h, counts)
        coverage[name] = counts
        if cpu is not None:
            cpu[name] = time.process_time() - t0
    return h.hexdigest(), coverage


def digest(games_per_config: int, seed: int = 0) -> str:
    """SHA-256 (hex) of everything observable in `games_per_config` seeded games per configuration."""
    return run(games_per_config, seed)[0]


def missing_claims(coverage: dict[str, Counter[str]]) -> dict[str, list[str]]:
    """For each configuration, the counters of `CLAIMS` that stayed at zero."""
    out = {name: [c for c in CLAIMS[name] if not coverage[name][c]] for name, _ in CONFIGS}
    return {name: m for name, m in out.items() if m}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.games.juno.equivalence", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per configuration (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-v", "--verbose", action="store_true", help="coverage counts and CPU time on stderr")
    args = parser.parse_args(argv)
    cpu: dict[str, float] = {}
    hexdigest, coverage = run(args.games, args.seed, cpu)
    print(hexdigest)
    if args.verbose:
        for name, counts in coverage.items():
            per_game = 1000 * cpu[name] / max(counts["games"], 1)
            print(f"{name} ({per_game:.1f} ms CPU per game): {json.dumps(dict(sorted(counts.items())))}", file=sys.stderr)
        games = sum(c["games"] for c in coverage.values())
        total = sum(cpu.values())
        print(f"{games} games, {total:.2f} s CPU, {1000 * total / games:.1f} ms per game", file=sys.stderr)
        missing = missing_claims(coverage)
        if missing:
            print(f"not reached: {missing}", file=sys.stderr)


if __name__ == "__main__":
    main()
