"""The lobby API and every kind of bad input: a clear error, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable import agents
from cardtable.server.encoding import narrate_lines
from cardtable.server.live import replay

from .conftest import new_table, next_state, snapshot

PERSON = {"kind": "person"}


def test_pages_and_static_assets_are_served(client: TestClient) -> None:
    assert "New table" in client.get("/").text
    assert "/static/table.js" in client.get("/t/anything").text
    for asset in ("app.css", "lobby.js", "table.js", "views/generic.js", "views/juno.js"):
        assert client.get(f"/static/{asset}").status_code == 200, asset


@pytest.mark.parametrize(("game", "view"), [("juno", "juno.js"), ("iunu", "iunu.js"), ("zun", "zun.js"), ("ivion", "ivion.js")])
def test_a_table_page_carries_the_view_its_game_registers(client: TestClient, game: str, view: str) -> None:
    table = new_table(client, [{"kind": "bot", "agent": "random"}] * 2, game=game)
    page = client.get(f"/t/{table['id']}").text
    scripts = [line.strip() for line in page.splitlines() if "/static/views/" in line]
    assert scripts == ['<script src="/static/views/generic.js"></script>', f'<script src="/static/views/{view}"></script>']
    assert 'src="/static/views/generic.js"></script>' in client.get("/t/no-such-table").text


def test_games_lists_every_registered_game_and_every_bot(client: TestClient) -> None:
    data = client.get("/api/games").json()
    names = [g["name"] for g in data["games"]]
    assert "juno" in names
    juno = next(g for g in data["games"] if g["name"] == "juno")
    assert juno["variants"] == ["classic", "seven-o", "serious"]
    assert "variant" in juno["options"]["properties"]
    # Difficulty words and agent names come from cardtable.agents, so new bots appear by themselves.
    assert set(agents.DIFFICULTY) <= set(data["bots"])
    assert set(agents.names()) <= set(data["bots"])


def test_create_gives_tokens_to_people_only_and_stores_options_and_seed(client: TestClient) -> None:
    t = new_table(client, [PERSON, {"kind": "bot", "agent": "easy"}, PERSON], seed=42, variant="seven-o")
    assert [("token" in s) for s in t["seats"]] == [True, False, True]
    assert t["seats"][0]["token"] != t["seats"][2]["token"]
    rec = client.app.state.store.load(t["id"])  # type: ignore[attr-defined]
    assert rec.seed == 42 and rec.options["variant"] == "seven-o" and rec.options["players"] == 3
    # Only a hash of each token is stored.
    assert all(t["seats"][0]["token"] not in str(s) for s in rec.seats)
    listed = client.get("/api/tables").json()["tables"]
    assert listed[0]["id"] == t["id"] and "token_hash" not in str(listed)


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "chess", "seats": [PERSON, PERSON]}, "bad_options", "no game named 'chess'"),
        ({"game": "juno", "options": {"variant": "fast"}, "seats": [PERSON, PERSON]}, "bad_options", "variant"),
        ({"game": "juno", "seats": [PERSON]}, "bad_options", "players"),
        ({"game": "juno", "seats": [PERSON, {"kind": "robot"}]}, "bad_request", "seat 1: kind must be"),
        ({"game": "juno", "seats": [PERSON, {"kind": "bot", "agent": "genius"}]}, "bad_request", "no bot named 'genius'"),
        ({"game": "juno", "options": {"players": 3}, "seats": [PERSON, PERSON]}, "bad_request", "3 players but 2 seats"),
        ({"game": "juno", "seats": "two"}, "bad_request", "list of seats"),
        ({"game": "juno", "seats": [PERSON, PERSON], "seed": -1}, "bad_request", "seed"),
        ({"seats": [PERSON, PERSON]}, "bad_request", '"game"'),
    ],
)
def test_bad_tables_are_refused_with_a_reason(client: TestClient, body: dict[str, Any], code: str, words: str) -> None:
    before = len(client.get("/api/tables").json()["tables"])
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == code and words in r.json()["message"]
    assert len(client.get("/api/tables").json()["tables"]) == before


def test_create_with_a_body_that_is_not_json(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["message"]


def test_websocket_refuses_unknown_tables_and_wrong_tokens(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchtable") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "unknown_table"
    t = new_table(client, [PERSON, PERSON])
    with client.websocket_connect(f"/ws/{t['id']}?token=forged") as ws:
        m = ws.receive_json()
        assert m["code"] == "bad_token" and "join link" in m["message"]
    r = client.get(f"/api/tables/{t['id']}", params={"token": "forged"})
    assert r.status_code == 403


def test_bad_messages_get_clear_errors_and_change_nothing(client: TestClient) -> None:
    t = new_table(client, [PERSON, PERSON], seed=5)
    tok = [s["token"] for s in t["seats"]]
    tid = t["id"]
    first = client.get(f"/api/tables/{tid}").json()["current_player"]
    other = 1 - first
    with client.websocket_connect(f"/ws/{tid}?token={tok[first]}") as me, \
            client.websocket_connect(f"/ws/{tid}?token={tok[other]}") as them:
        m = next_state(me)
        next_state(them)
        before = snapshot(client, tid)

        def refused(ws: Any, payload: Any, code: str, words: str) -> None:
            ws.send_text(payload) if isinstance(payload, str) else ws.send_json(payload)
            while True:
                e = ws.receive_json()
                if e["type"] == "error":
                    break
            assert e["code"] == code, e
            assert words in e["message"], e
            assert snapshot(client, tid) == before

        v = m["version"]
        refused(me, "not json", "malformed", "JSON")
        refused(me, [1, 2], "malformed", '"type"')
        refused(me, {"type": "dance"}, "malformed", "unknown message type 'dance'")
        refused(me, {"type": "act", "action": m["legal"][0]["index"]}, "bad_request", "version")
        refused(me, {"type": "act", "action": m["legal"][0]["index"], "version": v - 1 if v else v + 3}, "stale", "out of date")
        refused(me, {"type": "act", "action": 3.5, "version": v}, "bad_request", "index")
        refused(me, {"type": "act", "action": "fly away", "version": v}, "illegal", "fly away")
        refused(me, {"type": "act", "action": 10**6, "version": v}, "illegal", "")
        refused(me, {"type": "act", "action": m["legal"][0]["index"], "version": v, "token": tok[other]},
                "bad_token", "does not belong")
        refused(them, {"type": "act", "action": m["legal"][0]["index"], "version": v}, "not_your_turn", "not your turn")
        # A card this seat does not hold: the engine's own reason is passed on.
        hand = set(m["observation"]["hand"])
        missing = next(a for a in ("play red 5", "play blue 5", "play green 5", "play yellow 5") if a[5:] not in hand)
        refused(me, {"type": "act", "action": missing, "version": v}, "illegal", f"holds no {missing[5:]}")
        # A spectator cannot act.
        with client.websocket_connect(f"/ws/{tid}") as spec:
            next_state(spec)
            refused(spec, {"type": "act", "action": m["legal"][0]["index"], "version": v}, "not_seated", "spectators")


def test_http_act_requires_the_token_and_commits_before_answering(client: TestClient) -> None:
    t = new_table(client, [PERSON, PERSON], seed=9)
    tid = t["id"]
    st = client.get(f"/api/tables/{tid}").json()
    seat = st["current_player"]
    tok = t["seats"][seat]["token"]
    mine = client.get(f"/api/tables/{tid}", params={"token": tok}).json()
    action = mine["legal"][0]["text"]
    r = client.post(f"/api/tables/{tid}/act", json={"action": action, "version": 0})
    assert r.status_code == 403 and "token" in r.json()["message"]
    r = client.post(f"/api/tables/{tid}/act", json={"action": action, "version": 0, "token": tok})
    assert r.status_code == 200 and r.json() == {"ok": True, "action": action, "version": 1}
    # The action is in the database when the answer arrives (a new store sees it).
    from cardtable.server import Store

    other = Store(client.app.state.store.url)  # type: ignore[attr-defined]
    stored = other.load(tid)
    assert stored is not None and stored.actions == [action]
    other.close()
    r = client.post(f"/api/tables/{tid}/act", json={"action": action, "version": 0, "token": tok})
    assert r.status_code == 409 and r.json()["error"] in ("stale", "not_your_turn")
    r = client.post("/api/tables/nosuch/act", json={"action": action, "version": 0, "token": tok})
    assert r.status_code == 404


def test_replay_of_a_finished_game_move_by_move(client: TestClient) -> None:
    t = new_table(client, [{"kind": "bot", "agent": "easy"}, {"kind": "bot", "agent": "random"}], seed=3)
    tid = t["id"]
    r = client.get(f"/api/tables/{tid}/replay")
    with client.websocket_connect(f"/ws/{tid}") as spec:
        m = next_state(spec)
        while not m["over"]:
            m = next_state(spec)
    if r.status_code != 200:  # asked before the bots finished
        assert r.json()["error"] == "not_over"
    rec = client.app.state.store.load(tid)  # type: ignore[attr-defined]
    states = replay(rec, every=True)
    for step in (0, 1, len(rec.actions) // 2, len(rec.actions)):
        data = client.get(f"/api/tables/{tid}/replay", params={"step": step}).json()
        assert data["steps"] == len(rec.actions)
        assert data["observation"] == states[step].observation(None)
        # a spectator reads the move as the table's log narrated it (finding 6: never a hidden choice)
        new = states[step].events_for(None)[len(states[step - 1].events_for(None)):] if step else []
        names = [x["name"] for x in data["seats"]]
        assert data["last_action"] == ((" ".join(narrate_lines(states[step].game, new, None, names)) or None) if step else None)
        # who made the move is said by name (issue 21: a replay says who made each move)
        assert data["actor"] == (names[states[step - 1].current_player] if step else None)
        assert "seat " not in (data["last_action"] or "")
    assert client.get(f"/api/tables/{tid}/replay", params={"step": len(rec.actions) + 1}).status_code == 400


def test_rematch_keeps_each_persons_token(client: TestClient) -> None:
    t = new_table(client, [PERSON, {"kind": "bot", "agent": "easy"}], seed=11)
    tok = t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{t['id']}?token={tok}") as ws:
        from .conftest import play_until  # noqa: I001

        play_until(ws, lambda m: False)
        ws.send_json({"type": "rematch"})
        while True:
            m = ws.receive_json()
            if m["type"] == "rematch":
                break
        new_id = m["table"]
        ws.send_json({"type": "rematch"})  # asking twice gives the same table
        while True:
            m2 = ws.receive_json()
            if m2["type"] == "rematch":
                break
        assert m2["table"] == new_id
    st = client.get(f"/api/tables/{new_id}", params={"token": tok}).json()
    assert st["seat"] == 0 and st["table"] == new_id and "hand" in st["observation"]
    rec = client.app.state.store.load(new_id)  # type: ignore[attr-defined]
    assert rec.rematch_of == t["id"] and rec.seats[1]["agent"] == "easy"
