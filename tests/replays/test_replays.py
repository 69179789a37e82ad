"""Every recorded game replays to the identical path and final state (tests/replays/recorded.py)."""

from __future__ import annotations

import pytest

from .recorded import PLAN, differences, games, recorded


def test_every_game_has_recorded_games() -> None:
    assert games() == sorted({g for g, *_ in PLAN})
    for game_name in games():
        assert sum(1 for _ in recorded(game_name)) >= 200


@pytest.mark.parametrize("game_name", sorted({g for g, *_ in PLAN}))
def test_recorded_games_replay_identically(game_name: str) -> None:
    failures = []
    for entry in recorded(game_name):
        diff = differences(entry)
        if diff:
            failures.append(f"seed {entry['seed']} {entry['options']} ({entry['bots']}): {', '.join(diff)}")
    assert not failures, f"{len(failures)} recorded {game_name} games replay differently:\n" + "\n".join(failures[:20])
