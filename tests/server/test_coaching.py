"""The coach at a table: a finished game's review for its seats, hints only for one person among bots."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cardtable.server import coaching
from cardtable.server.live import replay
from cardtable.sim import coach

from .conftest import new_table, play_until


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


def test_a_hint_is_hard_s_move_for_the_one_person_among_bots(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3)
    tid, tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        m = play_until(ws, lambda m: bool(m["legal"]))
        r = client.get(f"/api/tables/{tid}/hint", params={"token": tok})
        assert r.status_code == 200, r.text
        assert r.json()["action"] in {a["text"] for a in m["legal"]}
        assert r.json()["level"] == "hard" and r.json()["version"] == m["version"]


def test_no_hint_where_several_people_play(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "person"}], seed=3)
    tid = t["id"]
    for seat in t["seats"]:
        r = client.get(f"/api/tables/{tid}/hint", params={"token": seat["token"]})
        assert r.status_code == 403 and r.json()["error"] == "no_hints"
    assert client.get(f"/api/tables/{tid}/hint").status_code == 403  # nor for a spectator
