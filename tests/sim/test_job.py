"""One simulated game: the same game `cardtable.play` plays, agents see only determinized
views, seats rotate, and the per-card counters come from the game's hook or its events."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import agents
from cardtable.core.state import State
from cardtable.games.juno.state import JunoState
from cardtable.sim import job as job_module
from cardtable.sim.job import Job, SimError, agent_seeds, parse_agent, play_game


def test_a_simulated_game_is_the_game_cardtable_play_plays(small: dict[str, Any]) -> None:
    job = Job.build("juno", small, ["random"])
    game = job.make_game()
    for seed in range(6):
        row = play_game(job, seed)
        bots = [agents.make("random", seed=s) for s in agent_seeds(seed, 2)]
        final = cardtable.play(game, bots, seed=seed, record_events=True)
        assert row["winners"] == final.winners()
        assert row["length"] == len(final.history)
        assert row["returns"] == final.returns()
        assert row["scores"] == [float(x) for x in final.observation(None)["scores"]]
        # counters: every `played` event of the full log, the deal, and the cards drawn
        events = final.events or []
        played = Counter((e.data["seat"], e.data["card"]) for e in events if e.kind == "played")
        dealt = Counter((e.data["seat"], c) for e in events if e.kind == "dealt" for c in e.data["cards"])
        drawn = Counter((e.data["seat"], c) for e in events if e.kind == "drew_cards" for c in e.data["cards"])
        got = {(c["seat"], c["counter"], c["card"]): c["count"] for c in row["cards"]}
        assert got == {**{(s, "played", k): n for (s, k), n in played.items()},
                       **{(s, "dealt", k): n for (s, k), n in dealt.items()},
                       **{(s, "drawn", k): n for (s, k), n in drawn.items()}}
        assert sum(n for (s, k, _), n in got.items() if k == "dealt") == 2 * small["hand_size"]
        assert "held" not in {k for _, k, _ in got}  # the final hand says who lost, not which card matters


def test_an_opening_hand_drawn_before_the_first_decision_counts_as_dealt() -> None:
    # Runes of Zun draws its opening hands (Setup 6: draw 5): those are the deal, not draws
    job = Job.build("zun", {"players": 2}, ["random"])
    game = job.make_game()
    for seed in range(3):
        row = play_game(job, seed)
        bots = [agents.make("random", seed=s) for s in agent_seeds(seed, 2)]
        final = cardtable.play(game, bots, seed=seed, record_events=True)
        setup = len(game.new_state(seed, record_events=True).events or [])
        events = final.events or []
        opening = Counter((e.data["seat"], c) for e in events[:setup] if e.kind == "drew_cards" for c in e.data["cards"])
        later = Counter((e.data["seat"], c) for e in events[setup:] if e.kind == "drew_cards" for c in e.data["cards"])
        got = {(c["seat"], c["counter"], c["card"]): c["count"] for c in row["cards"]}
        assert {(s, k): n for (s, c, k), n in got.items() if c == "dealt"} == opening
        assert {(s, k): n for (s, c, k), n in got.items() if c == "drawn"} == later
        assert sum(opening.values()) == 10 and later


def test_agents_are_handed_determinized_views_never_the_true_state(small: dict[str, Any]) -> None:
    seen: list[State] = []

    class Spy:
        name = "spy"

        def __init__(self, seed: int = 0) -> None:
            self.inner = agents.RandomAgent(seed)

        def act(self, view: State) -> Any:
            seen.append(view)
            return self.inner.act(view)

    agents.register("spy", Spy)
    try:
        play_game(Job.build("juno", small, ["spy"]), 3)
    finally:
        agents._FACTORIES.pop("spy", None)
    assert seen
    # determinize() gives copies with no seed and no replay history (docs/developing.md)
    assert all(v.seed is None and v.history == [] for v in seen)


def test_seats_rotate_one_per_seed_and_agents_cycle_over_the_seats() -> None:
    job = Job("juno", {"players": 3}, ("a", "b"), rotate=True)
    a, b = "a", "b"
    assert job.seat_agents(0, 3) == [a, b, a]
    assert job.seat_agents(1, 3) == [a, a, b]
    assert job.seat_agents(2, 3) == [b, a, a]
    assert job.seat_agents(3, 3) == [a, b, a]
    fixed = Job(job.game, job.options, job.agents, rotate=False)
    assert {tuple(fixed.seat_agents(s, 3)) for s in range(6)} == {(a, b, a)}


def test_agent_specs_take_parameters_and_bad_ones_are_refused_before_any_game(small: dict[str, Any]) -> None:
    assert parse_agent("ismcts:iterations=50:rollout=random") == ("ismcts", {"iterations": 50, "rollout": "random"})
    with pytest.raises(agents.AgentError, match="no agent named 'nobody'.*known agents"):
        Job.build("juno", small, ["nobody"])
    with pytest.raises(agents.AgentError, match="has no parameter 'depth'"):
        Job.build("juno", small, ["random:depth=3"])
    with pytest.raises(SimError, match="3 agents for 2 seats"):
        Job.build("juno", small, ["random", "random", "random"])
    with pytest.raises(SimError, match="name:key=value"):
        Job.build("juno", small, ["random:seed"])
    with pytest.raises(cardtable.OptionError, match="players"):
        Job.build("juno", {"players": 11}, ["random"])


def test_a_game_hook_replaces_the_event_counters_and_recording_is_off(
    small: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded: list[bool] = []

    def card_counters(self: JunoState, seat: int) -> dict[str, dict[str, int]]:
        recorded.append(self.events is not None)
        return {"kept": {f"seat {seat}": 2}, "held": {}}

    monkeypatch.setattr(JunoState, "card_counters", card_counters, raising=False)
    monkeypatch.setattr(job_module, "_GAMES", {})
    row = play_game(Job.build("juno", small, ["random"]), 1)
    assert row["cards"] == [{"seat": 0, "counter": "kept", "card": "seat 0", "count": 2},
                            {"seat": 1, "counter": "kept", "card": "seat 1", "count": 2}]
    assert recorded == [False, False]


def test_without_counters_no_cards_are_counted(small: dict[str, Any]) -> None:
    row = play_game(Job.build("juno", small, ["random"], counters=False), 2)
    assert row["cards"] == []
    assert row["winners"] == play_game(Job.build("juno", small, ["random"]), 2)["winners"]


def test_event_counters_count_every_seat_and_card_event_by_kind_and_count() -> None:
    from cardtable.core.events import Event
    from cardtable.sim.counters import EventCounter

    counter = EventCounter()
    counter.feed([
        Event("played", {"seat": 0, "card": "Merchant", "count": 2}),
        Event("took", {"seat": 0, "card": "Soldier"}),
        Event("took", {"seat": 0, "card": "Soldier"}, to=(0,)),
        Event("played", {"seat": 1, "card": "red 7"}),
        Event("drew_cards", {"seat": 1, "cards": ["red 1", "red 1"]}),
        Event("dealt", {"seat": 0, "cards": ["red 2"]}, to=(0,)),
        Event("stolen_cards", {"seat": 0, "target": 1, "cards": ["Dagger"]}),  # other kinds keep their name
        Event("revealed", {"card": "Farmer"}),                 # no seat
    ])
    assert counter.counts == {(0, "played", "Merchant"): 2, (0, "took", "Soldier"): 2, (1, "played", "red 7"): 1,
                              (1, "drawn", "red 1"): 2, (0, "dealt", "red 2"): 1, (0, "stolen_cards", "Dagger"): 1}
    counter.feed([Event("drew_cards", {"seat": 1, "cards": ["red 3"]})], opening=True)
    assert counter.counts[1, "dealt", "red 3"] == 1


def test_a_game_with_a_turn_limit_of_its_own_says_whether_it_ended_the_game() -> None:
    limited = Job.build("iuno_avatar", {"turn_limit": 2}, ["random"])
    row = play_game(limited, 0)
    final = cardtable.play(limited.make_game(), [agents.make("random", seed=s) for s in agent_seeds(0, 2)], seed=0)
    assert row["by_limit"] is final.observation(None)["by_limit"] is True  # two random turns empty no Heaven
    assert row["turns"] == final.observation(None)["turns"] == 2
    juno = play_game(Job.build("juno", {"match": False}, ["random"]), 0)
    assert juno["by_limit"] is None and juno["turns"] is None  # no such limit, no turn count shown


def test_scores_are_the_games_own_scores_or_the_returns() -> None:
    from cardtable.sim.job import final_scores

    assert final_scores([3, 0], 2) == [3.0, 0.0]
    assert final_scores([{"citizen": 70, "total": 95}, {"total": 77}], 2) == [95.0, 77.0]
    assert final_scores([{"citizen": 70}, {"total": 77}], 2) is None
    assert final_scores(None, 2) is None and final_scores([1, 2, 3], 2) is None


def test_a_game_may_rename_its_event_kinds_to_the_reports_counters() -> None:
    # Iuno Avatar: a card announced (summoned or cast, then paid) is played, one taken from the stack drawn
    job = Job.build("iuno_avatar", {"players": 2}, ["heuristic"])
    game = job.make_game()
    row = play_game(job, 4)
    bots = [agents.make("heuristic", seed=s) for s in agent_seeds(4, 2)]
    final = cardtable.play(game, bots, seed=4, record_events=True)
    events = final.events or []
    announced = Counter((e.data["seat"], e.data["card"]) for e in events if e.kind == "announced")
    drew = Counter((e.data["seat"], e.data["card"]) for e in events if e.kind == "drew")
    got = {(c["seat"], c["counter"], c["card"]): c["count"] for c in row["cards"]}
    assert {(s, k): n for (s, c, k), n in got.items() if c == "played"} == announced and announced
    assert {(s, k): n for (s, c, k), n in got.items() if c == "drawn"} == drew and drew
    assert not any(c in ("announced", "drew") for _, c, _ in got)


def test_every_games_rules_version_fingerprints_its_own_rules_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The version hashes the files of the game's package: never the hash of no files at all (the
    report once warned of a run "played with rules version e3b0c44298fc": Ivion had no
    `__init__.py`, and the current folder was hashed instead), and a different fingerprint for each
    game, whatever the current folder."""
    monkeypatch.chdir(tmp_path)
    nothing = hashlib.sha256().hexdigest()[:12]
    versions = {name: job_module.rules_version(name) for name in cardtable.games()}
    for name, version in versions.items():
        assert len(version) == 12 and version != nothing, (name, version)
    assert len(set(versions.values())) == len(versions), versions
