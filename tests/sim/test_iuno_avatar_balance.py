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


def test_played_share_counts_the_seat_games_that_held_a_card_and_played_it(tmp_path: Path) -> None:
    from cardtable import agents
    from cardtable.sim.job import agent_seeds

    run("iuno_avatar", ["heuristic"], games=4, seed=11, options={"turn_limit": 40}, workers=1, out=tmp_path)
    result = element_balance([tmp_path])
    # the same games played again with every event kept: a card is held when dealt into a seat's
    # Heaven or drawn, played when announced (figure, spell) or paid with (gem card)
    game = cardtable.make("iuno_avatar", turn_limit=40)
    expected: dict[str, list[int]] = {}
    for seed in range(11, 15):
        bots = [agents.make("heuristic", seed=s) for s in agent_seeds(seed, 2)]
        start = game.new_state(seed)
        held = [{game.cards[c].name for c in start.heaven[s]} for s in range(2)]
        used: list[set[str]] = [set(), set()]
        final = cardtable.play(game, bots, seed=seed)
        for e in final.events or []:
            if e.kind == "drew":
                held[e.data["seat"]].add(e.data["card"])
            elif e.kind in ("announced", "paid_card"):
                used[e.data["seat"]].add(e.data["card"])
        for s in range(2):
            for name in held[s]:
                tally = expected.setdefault(name, [0, 0])
                tally[0] += name in used[s]
                tally[1] += 1
    assert len(expected) > 12 and any(w for w, _ in expected.values())
    shares = result["played_share"]
    assert {k: [r["wins"], r["seat_games"]] for k, r in shares.items()} == expected
    rates = [r["rate"] for r in shares.values()]
    assert rates == sorted(rates)  # the least played first
    assert "played share" in render(result)
