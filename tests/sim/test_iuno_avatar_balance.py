"""The by-element balance read from a simulation folder: avatars dealt again from the seeds."""

from __future__ import annotations

from pathlib import Path

import cardtable
from cardtable.sim.iuno_avatar_balance import element_balance, render
from cardtable.sim.runner import run


def test_element_balance_counts_each_seat_game_once_by_its_dealt_avatar(tmp_path: Path) -> None:
    run("iuno_avatar", ["heuristic"], games=6, seed=3, options={"turn_limit": 30}, workers=1, out=tmp_path)
    result = element_balance([tmp_path])
    assert result["games"] == 6
    assert sum(r["seat_games"] for r in result["avatar"].values()) == 12
    game = cardtable.make("iuno_avatar", turn_limit=30)
    dealt = [game.new_state(s, record_events=False).avatars for s in range(3, 9)]
    fire = sum(a.count(0) for a in dealt)  # Fire is element 0
    assert result["avatar"].get("fire", {"seat_games": 0})["seat_games"] == fire
    for r in result["played"].values():
        assert r["with"]["seat_games"] + r["without"]["seat_games"] == 12
        assert r["with"]["low"] <= r["with"]["rate"] <= r["with"]["high"]
    lim = result["by_limit"]
    assert lim["seat_games"] == 6 and 0 <= lim["wins"] <= 6  # every row says whether the turn limit ended it
    assert "avatar element" in render(result) and "ended at the turn limit" in render(result)
