"""The conformance suite (DESIGN.md): random playouts of every game, variant and player count.

Heavy checks (clone, JSON, illegal actions, no leaks) run at every 7th step of the first games
of each configuration and at two sampled steps of each of the rest; cheap invariants run at every step of
every game, and every game is replayed from its seed and actions.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest

from .checks import play_and_check
from .configs import CONFIGS

FULLY_CHECKED = 3  # games per configuration checked at every HEAVY_EVERY-th step
HEAVY_EVERY = 7
CHUNKS = 4

# How many random games: by default each configuration gets an equal share of a CPU-time budget
# (CARDTABLE_CONFORMANCE_MINUTES, CPU-minutes for all of them together, spread over the pytest
# workers), so adding a game or a configuration does not grow CI's time; a configuration plays its
# seeds in order until its share is spent or its full count is reached, at least one game a chunk.
# CARDTABLE_CONFORMANCE_SHARE=1 plays the full counts of configs.py instead (0.05: 5% of them), with
# no time bound.
BUDGET_MINUTES = float(os.environ.get("CARDTABLE_CONFORMANCE_MINUTES", "20"))
_SHARE = os.environ.get("CARDTABLE_CONFORMANCE_SHARE")
FULL_GAMES_SHARE = float(_SHARE) if _SHARE else None


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
    total = n_games if FULL_GAMES_SHARE is None else max(CHUNKS, int(n_games * FULL_GAMES_SHARE))
    seeds = range(FULLY_CHECKED + chunk, FULLY_CHECKED + total, CHUNKS)
    share = None if FULL_GAMES_SHARE is not None else BUDGET_MINUTES * 60 / (len(CONFIGS) * CHUNKS)
    counters: Counter[str] = Counter()
    start = time.process_time()
    for seed in seeds:
        play_and_check(name, options, seed, heavy_every=0, counters=counters)
        if share is not None and time.process_time() - start >= share:
            break  # this configuration's share of the budget is spent (the next seeds wait for a full run)
    assert counters["games"] >= 1
    assert counters["games"] == len(seeds) or share is not None
    print(f"{cid} chunk {chunk}: {counters['games']} of {len(seeds)} games")
