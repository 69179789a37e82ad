"""Recorded games: the safety net for every change to existing rules code.

Each game was played once (random and heuristic seats) and stored as its replay
(`{options, seed, actions}`) with three fingerprints taken while it was recorded:

- `trace`: every decision's seat and legal action texts, in order;
- `state`: the final `to_json()` without its event log;
- `events`: the final event log;
- `state_keys`: the digest of each field of the final state, so that a change of representation
  (Runes of Zun's frames moving onto the core's response stack) is checked field by field: every
  field both versions have is identical, and a field only one has holds nothing (`EMPTY`).

`python -m tests.replays.recorded check` replays them all and reports any difference;
`... record` writes them anew (only when a rules change is meant to change behaviour, with a note).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cardtable
from cardtable import agents
from cardtable.core import Replay, State
from cardtable.core.errors import ReplayError

HERE = Path(__file__).parent

# (game, options, games with random seats, games with heuristic seats)
PLAN: list[tuple[str, dict[str, Any], int, int]] = []
for _variant in ("classic", "seven-o", "serious"):
    for _players in (2, 4, 7):
        PLAN.append(("juno", {"players": _players, "variant": _variant, "match": False}, 12, 8))
PLAN += [
    ("juno", {"players": 10, "match": False}, 6, 4),
    ("juno", {"players": 3, "wild_draw_four": "challenge", "match": False}, 6, 6),
    ("juno", {"players": 5, "variant": "seven-o", "wild_draw_four": "challenge", "match": False}, 6, 4),
    ("juno", {"players": 3, "match": True, "target": 200}, 2, 3),
    ("juno", {"players": 2, "match": False, "hand_size": 3,
              "deck": {"cards": {"red 1": 3, "blue 2": 3, "green skip": 2, "yellow reverse": 2, "wild": 2}}}, 6, 4),
]
for _players, _variant in ((2, "standard"), (3, "standard"), (4, "standard"),
                           (2, "rise-of-aten"), (2, "memphis-and-thebes")):
    PLAN.append(("iunu", {"players": _players, "variant": _variant}, 24, 18))
PLAN += [
    ("zun", {"players": 2}, 36, 24),
    ("zun", {"players": 3}, 10, 6),
    ("zun", {"players": 4}, 30, 20),
    ("zun", {"players": 4, "teams": 2}, 10, 6),
    ("zun", {"players": 6, "teams": 3, "turn_limit": 100}, 20, 12),
    ("zun", {"players": 8, "teams": 2, "turn_limit": 100}, 20, 12),
    ("iuno_avatar", {"players": 2, "turn_limit": 60}, 60, 40),
    ("iuno_avatar", {"players": 3, "turn_limit": 60}, 60, 40),
]
PLAN += [
    ("ivion", {"decks": ["Sir Edda Vane", "Lio Marrow"]}, 30, 22),
    ("ivion", {"decks": ["Lio Marrow", "Sir Edda Vane"]}, 30, 22),
    ("ivion", {"decks": ["Sir Edda Vane", "Sir Edda Vane"]}, 30, 22),
    ("ivion", {"decks": ["Lio Marrow", "Lio Marrow"], "board": 5}, 30, 22),
]


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def fingerprints(replay: Replay) -> dict[str, str]:
    """Replay `replay` and fingerprint the path it took and where it ended."""
    state = replay.start(record_events=True)
    trace = hashlib.sha256()
    for step, text in enumerate(replay.actions, 1):
        trace.update(f"{state.current_player}|{'|'.join(a.text for a in state.legal_actions())}\n".encode())
        Replay._apply(state, step, text)
    trace.update(f"end {state.is_over} {state.winners()} {state.returns()}".encode())
    data = state.to_json()
    events = data.pop("events")
    return {"trace": trace.hexdigest(), "state": _digest(data), "events": _digest(events),
            "state_keys": _field_digests(data)}


def _field_digests(data: dict[str, Any]) -> dict[str, str]:
    """A digest per field of the state (the game's own fields one by one: `state.<name>`)."""
    out = {k: _digest(v) for k, v in data.items() if k != "state"}
    out.update({f"state.{k}": _digest(v) for k, v in data["state"].items()})
    return out


#: what an empty piece of pending machinery looks like (no frames, no triggers, nothing resolving,
#: a flag down: Ivion's `stack_busy`, gone since the stack and the effect layer tell it apart)
EMPTY = {_digest(v) for v in ([], {}, None, False, {"items": []}, {"work": [], "fired": []})}


def _same_state(entry: dict[str, Any], got: dict[str, Any]) -> bool:
    if got["state"] == entry["state"]:
        return True
    old, new = entry.get("state_keys"), got["state_keys"]
    if old is None:
        return False
    for k in set(old) | set(new):
        a, b = old.get(k), new.get(k)
        if a != b and not (a is None and b in EMPTY) and not (b is None and a in EMPTY):
            return False
    return True


def _play(game_name: str, options: dict[str, Any], seed: int, bots: str) -> State:
    game = cardtable.make(game_name, **options)
    seats = [agents.make(bots) for _ in range(game.players)]
    return cardtable.play(game, seats, seed=seed, record_events=False)


def record(only: str | None = None) -> None:
    """Record every game of PLAN anew, or only those of game `only` (a new game's first recording)."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for game_name, options, n_random, n_heuristic in PLAN:
        if only is not None and game_name != only:
            continue
        for k in range(n_random + n_heuristic):
            bots = "random" if k < n_random else "heuristic"
            seed = len(by_game.get(game_name, []))
            final = _play(game_name, options, seed, bots)
            replay = final.replay()
            entry = {"bots": bots, **replay.to_json(), **fingerprints(replay)}
            by_game.setdefault(game_name, []).append(entry)
        print(f"{game_name} {options}: {n_random + n_heuristic} games", file=sys.stderr)
    for game_name, entries in by_game.items():
        with gzip.open(HERE / f"{game_name}.jsonl.gz", "wt", compresslevel=9) as f:
            for e in entries:
                f.write(json.dumps(e, separators=(",", ":")) + "\n")


def recorded(game_name: str) -> Iterator[dict[str, Any]]:
    with gzip.open(HERE / f"{game_name}.jsonl.gz", "rt") as f:
        for line in f:
            yield json.loads(line)


def games() -> list[str]:
    return sorted(p.name.split(".")[0] for p in HERE.glob("*.jsonl.gz"))


def differences(entry: dict[str, Any]) -> list[str]:
    """What differs between a recorded game and its replay today (empty: identical)."""
    try:
        got = fingerprints(Replay.from_json(entry))
    except ReplayError as exc:  # a move of the recording is no longer legal: the path changed
        return [f"trace ({exc})"]
    out = [k for k in ("trace", "events") if got[k] != entry[k]]
    return out if _same_state(entry, got) else [*out, "state"]


def add_state_keys() -> None:
    """Store each recorded game's final state field by field (replayed with today's rules, which
    must first pass `check`)."""
    for game_name in games():
        entries = list(recorded(game_name))
        for e in entries:
            got = fingerprints(Replay.from_json(e))
            assert got["state"] == e["state"], f"{game_name} seed {e['seed']}: run check first"
            e["state_keys"] = got["state_keys"]
        with gzip.open(HERE / f"{game_name}.jsonl.gz", "wt", compresslevel=9) as f:
            for e in entries:
                f.write(json.dumps(e, separators=(",", ":")) + "\n")


def check() -> int:
    bad = 0
    for game_name in games():
        n = 0
        for entry in recorded(game_name):
            n += 1
            diff = differences(entry)
            if diff:
                bad += 1
                print(f"{game_name} seed {entry['seed']} {entry['options']}: {', '.join(diff)} differ")
        print(f"{game_name}: {n} recorded games checked")
    return bad


if __name__ == "__main__":
    if sys.argv[1:2] == ["record"] and len(sys.argv) <= 3:
        record(sys.argv[2] if len(sys.argv) == 3 else None)
    elif sys.argv[1:] == ["keys"]:
        add_state_keys()
    elif sys.argv[1:] == ["check"]:
        sys.exit(1 if check() else 0)
    else:
        sys.exit("usage: python -m tests.replays.recorded record [GAME]|keys|check")
