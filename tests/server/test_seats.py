"""Issue 21: one name per seat, open seats taken from the lobby, the lobby's status of each table."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import new_table, next_state

BOT = {"kind": "bot", "agent": "random"}


def test_names_are_used_in_the_seats_the_log_the_moves_and_the_refusals(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}, BOT], seed=3)
    tid, ann, bo = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
    assert [s["name"] for s in t["seats"]] == ["Ann", "Bo", "Bot 3"]
    with client.websocket_connect(f"/ws/{tid}?token={ann}") as ws:
        m = next_state(ws)
        assert [s["name"] for s in m["seats"]] == ["Ann", "Bo", "Bot 3"]
        text = " ".join(m["log"]) + " ".join(a["label"] for a in m["legal"])
        assert "seat 0" not in text and "seat 1" not in text and "Ann" in text
    # a move out of turn says whose turn it is, by name
    current = m["current_player"]
    other = bo if current == 0 else ann
    r = client.post(f"/api/tables/{tid}/act", json={"token": other, "action": 0, "version": m["version"]})
    assert r.status_code == 409 and f"{['Ann', 'Bo'][current]} must decide now" in r.json()["message"]


def test_a_seat_without_a_name_chooses_one_when_it_sits(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person"}, BOT])
    tid, tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        m = next_state(ws)
        assert m["seats"][0]["name"] == "Player 1" and m["seats"][0]["named"] is False
        ws.send_json({"type": "name", "name": "seat 1"})  # a seat number is not a name
        while (e := ws.receive_json())["type"] != "error":
            pass
        assert e["code"] == "bad_name"
        ws.send_json({"type": "name", "name": "  Zoë  "})
        while (m := ws.receive_json())["type"] != "state" or not m["seats"][0]["named"]:
            pass
        assert m["seats"][0]["name"] == "Zoë"
    assert client.app.state.store.load(tid).seats[0]["name"] == "Zoë"  # type: ignore[attr-defined]


def test_an_open_seat_is_taken_from_the_lobby_once(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person", "name": "Ann"}, {"kind": "open"}, BOT])
    tid = t["id"]
    assert "token" not in t["seats"][1] and t["seats"][1]["open"] is True
    listing = next(x for x in client.get("/api/tables").json()["tables"] if x["id"] == tid)
    assert listing["open_seats"] == [1] and listing["title"] == "JUNO" and listing["turn"]
    assert [s["name"] for s in listing["seats"]] == ["Ann", "Player 2", "Bot 3"]
    # bad requests: a clear 4xx, nothing taken
    for body, status, code in (({"seat": 1, "name": ""}, 400, "bad_name"), ({"seat": 1, "name": "ann"}, 400, "bad_name"),
                               ({"seat": "1", "name": "Cy"}, 400, "bad_request"), ({"seat": 9, "name": "Cy"}, 400, "bad_request"),
                               ({"seat": 0, "name": "Cy"}, 409, "seat_taken"), ({"seat": 2, "name": "Cy"}, 409, "seat_taken"),
                               ({"seat": 1, "name": "Cy", "token": "x"}, 400, "bad_request")):
        r = client.post(f"/api/tables/{tid}/join", json=body)
        assert (r.status_code, r.json()["error"]) == (status, code), body
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Cy"})
    assert r.status_code == 201
    token = r.json()["token"]
    assert r.json()["link"] == f"/t/{tid}?token={token}"
    again = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Di"})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        m = next_state(ws)
        assert m["seat"] == 1 and m["seats"][1]["name"] == "Cy" and not m["seats"][1]["open"]
    listing = next(x for x in client.get("/api/tables").json()["tables"] if x["id"] == tid)
    assert listing["open_seats"] == []
    # the seat survives a restart of the server (the database holds it)
    assert client.app.state.store.load(tid).seats[1]["name"] == "Cy"  # type: ignore[attr-defined]


def test_a_finished_game_ends_in_places_and_points(client: TestClient) -> None:
    t = new_table(client, [BOT, BOT], seed=5)
    tid = t["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        m = next_state(ws)
        while not m["over"]:
            m = next_state(ws)
    assert "returns" not in m
    places = [r["place"] for r in m["standings"]]
    assert places[0] == 1 and places == sorted(places)
    assert {r["seat"] for r in m["standings"]} == {0, 1}
    assert m["standings"][0]["place_name"] == "1st" and isinstance(m["standings"][0]["points"], int)
    assert m["standings"][0]["seat"] in m["winners"]
    assert m["last_plays"] and all(not line.startswith("seat ") for line in m["last_plays"].values())


def test_each_seats_last_play_is_something_it_did() -> None:
    import random

    from cardtable import make
    from cardtable.server.encoding import last_plays

    game = make("iunu", players=3)
    state = game.new_state(2)
    rnd = random.Random(2)
    for _ in range(40):
        state.apply(rnd.choice(state.legal_actions()))
    while state.events[-1].kind != "turn_started":  # a turn has just begun: its marker is the newest event
        state.apply(rnd.choice(state.legal_actions()))
    plays = last_plays(game, state, 0, ["Ann", "Bo", "Cy"])
    assert set(plays) == {"0", "1", "2"}
    for seat, line in plays.items():
        assert line.startswith(["Ann", "Bo", "Cy"][int(seat)]), line  # about that seat, by name
        assert not line.endswith(": turn") and not line.startswith("—"), line  # a turn marker is no play
