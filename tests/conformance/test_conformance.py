"""The conformance suite (DESIGN.md): random playouts of every game, variant and player count.

Heavy checks (clone, JSON, illegal actions, no leaks) run at every 7th step of the first games
of each configuration and at two sampled steps of each of the rest; cheap invariants run at every step of
every game, and every game is replayed from its seed and actions.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from .checks import play_and_check
from .configs import CONFIGS

FULL_GAMES_SHARE = float(os.environ.get("CARDTABLE_CONFORMANCE_SHARE", "1.0"))
FULLY_CHECKED = 3  # games per configuration checked at every HEAVY_EVERY-th step
HEAVY_EVERY = 7
CHUNKS = 4


@pytest.mark.parametrize("cid,name,options,n_games", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_checked_playouts(cid: str, name: str, options: dict, n_games: int) -> None:
    counters: Counter[str] = Counter()
    for seed in range(FULLY_CHECKED):
        play_and_check(name, options, seed, heavy_every=HEAVY_EVERY, counters=counters)
    assert counters["games"] == FULLY_CHECKED
    assert counters["resampled"] > 0, "determinize never changed a hidden card"
    assert counters["shuffled"] > 0, "shuffle_unseen never changed the order of an unseen card"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("cid,name,options,n_games", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games(cid: str, name: str, options: dict, n_games: int, chunk: int) -> None:
    total = max(CHUNKS, int(n_games * FULL_GAMES_SHARE))
    seeds = range(FULLY_CHECKED + chunk, FULLY_CHECKED + total, CHUNKS)
    counters: Counter[str] = Counter()
    for seed in seeds:
        play_and_check(name, options, seed, heavy_every=0, counters=counters)
    assert counters["games"] == len(seeds)
