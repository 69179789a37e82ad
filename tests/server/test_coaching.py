"""The coach at a table: a finished game's review for its seats, hints only for one person among bots,
both thought in the coach's worker processes (never holding the server's interpreter), on the seat's
determinized copies only."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.agents.heuristics import policy_for
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.server import coaching
from cardtable.server.live import replay
from cardtable.sim import coach
from tests.sim.test_coach import ProbeSearch, hidden_hands

from .conftest import new_table, next_state, play_until

#: where a test's stand-in for the coach's work, in a worker process, finds its files (set before the
#: coach's workers are spawned: they inherit the environment)
TEST_DIR = "CARDTABLE_COACH_TEST_DIR"


@pytest.fixture(autouse=True)
def quick_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coaching, "REVIEW_BUDGET", coach.Budget(search_seconds=0.01, playouts=4, playout_seconds=0.01))
    monkeypatch.setattr(coaching, "HINT_SECONDS", 0.05)


def finished_game(client: TestClient) -> tuple[str, str]:
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3)
    tid, tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        play_until(ws, lambda m: False)
    return tid, tok


def test_a_finished_game_is_reviewed_for_its_seat(client: TestClient) -> None:
    tid, tok = finished_game(client)
    r = client.get(f"/api/tables/{tid}/review", params={"token": tok})
    assert r.status_code == 200, r.text
    data = r.json()
    table = client.app.state.lobby.get(tid)  # type: ignore[attr-defined]
    states = replay(table.rec, every=True)
    mine = [n for n in range(1, len(states)) if states[n - 1].current_player == 0 and len(states[n - 1].legal_actions()) > 1]
    assert data["seat"] == 0 and [v["step"] for v in data["verdicts"]] == mine
    for v in data["verdicts"]:
        assert 0 <= v["made_chance"] <= 1 and v["loss_interval"][0] <= v["loss"] <= v["loss_interval"][1]
    # a spectator has no decisions to review
    assert client.get(f"/api/tables/{tid}/review").status_code == 403


def test_a_review_too_big_or_too_early_is_refused(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3)
    early = client.get(f"/api/tables/{t['id']}/review", params={"token": t["seats"][0]["token"]})
    assert early.status_code == 409 and early.json()["error"] == "not_over"
    tid, tok = finished_game(client)
    monkeypatch.setattr(coaching, "REVIEW_MAX_SECONDS", 0.03)  # one decision's worth
    big = client.get(f"/api/tables/{tid}/review", params={"token": tok})
    assert big.status_code == 413 and "cardtable review" in big.json()["message"]


def test_a_hint_is_hard_s_move_for_the_one_person_among_bots(client: TestClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3)
    tid, tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        m = play_until(ws, lambda m: bool(m["legal"]))
        r = client.get(f"/api/tables/{tid}/hint", params={"token": tok})
        assert r.status_code == 200, r.text
        assert r.json()["action"] in {a["text"] for a in m["legal"]}
        assert r.json()["level"] == "hard" and r.json()["version"] == m["version"]
        assert client.app.state.coach_workers.running is not None  # type: ignore[attr-defined]  # thought there
        monkeypatch.setattr(coaching, "MAX_HINTS", 0)  # the coach's hints at other tables fill its workers
        busy = client.get(f"/api/tables/{tid}/hint", params={"token": tok})
        assert busy.status_code == 503 and busy.json()["error"] == "busy"


def test_no_hint_where_several_people_play(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "person"}], seed=3)
    tid = t["id"]
    for seat in t["seats"]:
        r = client.get(f"/api/tables/{tid}/hint", params={"token": seat["token"]})
        assert r.status_code == 403 and r.json()["error"] == "no_hints"
    assert client.get(f"/api/tables/{tid}/hint").status_code == 403  # nor for a spectator


# -- the coach's worker processes --------------------------------------------------------------------


def probed_review(*args: Any) -> tuple[int, list[dict[str, Any]]]:
    """`coaching.review_in_worker` as the server hands it its arguments, in the coach's worker process, with
    a probe search and a probe rollout policy at each decision (tests/sim/test_coach.py's checks: never the
    true state, the seat's own observation, no seed or history). It writes what it saw to probe.json."""
    real_judge = coach.judge
    report = {"pid": os.getpid(), "judged": 0, "dealt_otherwise": 0}

    def judge(state: State, made: Action, seed: int, budget: coach.Budget, search: Any = None,
              policy: Any = None) -> coach.Verdict:
        seat = state.current_player
        assert seat is not None
        probe = ProbeSearch(state, seat)
        heuristic = policy_for(state.game.spec.name)

        def probed_policy(s: State, rng: Rng) -> Action:
            assert s is not state and s.hands is not state.hands  # type: ignore[attr-defined]
            return heuristic(s, rng)

        verdict = real_judge(state, made, seed, budget, search=probe, policy=probed_policy)
        assert len(probe.seen) == 1
        report["judged"] += 1
        report["dealt_otherwise"] += hidden_hands(probe.seen[0], seat) != hidden_hands(state, seat)
        return verdict

    coach.judge = judge  # in this worker process only; it closes with the test's app
    try:
        return coaching.review_in_worker(*args)
    finally:
        coach.judge = real_judge
        (Path(os.environ[TEST_DIR]) / "probe.json").write_text(json.dumps(report))


def test_the_review_s_search_in_its_worker_sees_only_determinized_copies(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_DIR, str(tmp_path))
    monkeypatch.setattr(coaching, "review_in_worker", probed_review)
    tid, tok = finished_game(client)
    r = client.get(f"/api/tables/{tid}/review", params={"token": tok})
    assert r.status_code == 200, r.text
    report = json.loads((tmp_path / "probe.json").read_text())
    assert report["pid"] != os.getpid()  # judged in a worker process
    assert report["judged"] == len(r.json()["verdicts"]) > 0  # every decision went through the probe
    assert report["dealt_otherwise"] == report["judged"]  # no copy the search saw was the true deal


def held_review(*args: Any) -> tuple[int, list[dict[str, Any]]]:
    """A review that holds its interpreter (the GIL) from start to end, as a search that never gives it up
    would, until it is released: it blocks in read(2) on the test's FIFO called through ctypes.PyDLL, which
    keeps the GIL. It writes who released it: the test (b"t"), or the test's watchdog (b"w")."""
    here = Path(os.environ[TEST_DIR])
    fd = os.open(here / "release", os.O_RDONLY | os.O_NONBLOCK)
    os.set_blocking(fd, True)
    (here / "started").touch()
    byte = ctypes.create_string_buffer(1)
    ctypes.PyDLL(None).read(fd, byte, 1)
    (here / "released").write_bytes(byte.raw)
    os.close(fd)
    return 0, []


def test_a_review_holds_no_other_table_up(client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a review thinks, holding its interpreter, a person at another table moves and is sent the new
    state, and a table of bots plays: the test releases the review only after that. Thought in the server's own process (a thread,
    as before the coach had workers), the review would hold everything, the test's own requests included,
    until the watchdog released it; then the review reads the watchdog's byte and the test fails."""
    os.mkfifo(tmp_path / "release")
    writer = os.open(tmp_path / "release", os.O_RDWR)  # a writer from the start: the review's read waits
    monkeypatch.setenv(TEST_DIR, str(tmp_path))
    monkeypatch.setattr(coaching, "review_in_worker", held_review)
    tid, tok = finished_game(client)
    other = new_table(client, [{"kind": "person"}, {"kind": "person"}], seed=5)
    # Only for a review that holds this process: a bound on the failure, not a timing assertion.
    watchdog = subprocess.Popen(["sh", "-c", f"while [ ! -e '{tmp_path}/started' ]; do sleep 0.1; done; sleep 60; "
                                 f"printf w > '{tmp_path}/release'"])
    try:
        with ThreadPoolExecutor(1) as requests:
            review = requests.submit(client.get, f"/api/tables/{tid}/review", params={"token": tok})
            deadline = time.monotonic() + 120  # a worker is spawned first (a bound, not a timing assertion)
            while not (tmp_path / "started").exists():
                assert time.monotonic() < deadline and not review.done(), "the review never started"
                time.sleep(0.05)
            first = client.get(f"/api/tables/{other['id']}").json()["current_player"]
            with client.websocket_connect(f"/ws/{other['id']}?token={other['seats'][first]['token']}") as ws:
                m = next_state(ws)
                ws.send_json({"type": "act", "action": m["legal"][0]["index"], "version": m["version"]})
                assert next_state(ws)["version"] == m["version"] + 1
            bots = new_table(client, [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}], seed=6)
            with client.websocket_connect(f"/ws/{bots['id']}") as spectator:  # and a table of bots plays on
                m = next_state(spectator)
                while m["version"] < 4 and not m["over"]:
                    m = next_state(spectator)
            assert not review.done()
            os.write(writer, b"t")
            r = review.result()
        assert r.status_code == 200 and r.json()["verdicts"] == []
        assert (tmp_path / "released").read_bytes() == b"t", "the other table's move waited for the review to end"
    finally:
        watchdog.kill()
        watchdog.wait()
        os.close(writer)


def dies(*args: Any) -> Any:
    """A worker process that dies at its job (killed, out of memory)."""
    os._exit(3)


def test_a_coach_s_worker_that_dies_is_a_503_and_the_next_request_has_new_ones(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, tok = finished_game(client)
    workers = client.app.state.coach_workers  # type: ignore[attr-defined]
    with monkeypatch.context() as m:
        m.setattr(coaching, "review_in_worker", dies)
        r = client.get(f"/api/tables/{tid}/review", params={"token": tok})
    assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
    assert "ask again" in r.json()["message"] and workers.running is None  # the broken pool is dropped
    assert client.get(f"/api/tables/{tid}/review", params={"token": tok}).status_code == 200
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3)
    hint_tid, hint_tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{hint_tid}?token={hint_tok}") as ws:
        play_until(ws, lambda m: bool(m["legal"]))
        pool = workers.running
        with monkeypatch.context() as m:
            m.setattr(coaching, "choose_in_process", dies)
            r = client.get(f"/api/tables/{hint_tid}/hint", params={"token": hint_tok})
        assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
        assert workers.running is None and pool is not None
        assert client.get(f"/api/tables/{hint_tid}/hint", params={"token": hint_tok}).status_code == 200
