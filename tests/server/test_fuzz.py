"""Issue 20, "must show": hundreds of random malformed requests and websocket messages.

Property: never a 500; every websocket message gets an answer and the socket stays open; the
server stays alive; the table under attack does not change (the fuzzer never holds a token of it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.server import create_app

from .conftest import snapshot

# A server task that dies leaves a test client's socket waiting: fail instead of hanging.
pytestmark = pytest.mark.timeout(300)

KEYS = ["game", "options", "seats", "seed", "kind", "agent", "name", "token", "action", "version", "type", "deck",
        "cards", "runes", "players", "variant", "token_hash", "match", "step"]
WORDS = ["juno", "iunu", "zun", "person", "bot", "easy", "random", "/etc/passwd", "\ud800", "act", "sync", "ping",
         "rematch", "draw", "play red 5", "", "x" * 300]

leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**300), st.floats(allow_nan=True),
    st.text(max_size=20), st.sampled_from(WORDS),
)
value = st.recursive(
    leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner,
                                                                      max_size=5),
    max_leaves=16,
)
deep = st.integers(1, 3000).map(lambda n: "[" * n + "]" * n) | st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n)
shaped = st.fixed_dictionaries(
    {"type": st.sampled_from(["act", "sync", "ping", "rematch", "dance", 5, None])},
    optional={"action": leaf, "version": leaf, "token": leaf, "table": value},
)
table_body = st.fixed_dictionaries(
    {"game": st.sampled_from(["juno", "iunu", "zun", "chess", 3])},
    optional={"options": value | st.fixed_dictionaries({}, optional={k: value for k in ("deck", "cards", "runes", "players",
                                                                                          "variant")}),
              "seats": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["person", "bot", "x"])},
                                                      optional={"agent": leaf, "name": leaf, "token_hash": leaf}),
                                max_size=9) | value,
              "seed": leaf},
)


def dumps(v: Any) -> str:
    return json.dumps(v)  # ASCII: a lone surrogate travels as the \\ud800 escape, as a hostile client would send it


frames = st.one_of(
    st.text(max_size=60),
    value.map(dumps),
    shaped.map(dumps),
    st.binary(max_size=60),
    deep,
    st.integers(1, 3000).map(lambda n: '{"type": "act", "action": ' + "[" * n + "]" * n + ', "version": 0}'),
    st.integers(9000, 40000).map(lambda n: '{"type": "act", "action": "' + "a" * n + '", "version": 0}'),
)

requests = st.one_of(
    st.tuples(st.just("create"), table_body.map(dumps) | value.map(dumps) | deep),
    st.tuples(st.just("act"), deep),
    st.tuples(st.just("act"), shaped.map(dumps) | value.map(dumps)),
    st.tuples(st.just("raw"), st.binary(max_size=80)),
    st.tuples(st.just("get"), st.text(max_size=40)),
    st.tuples(st.just("replay"), st.text(max_size=12)),
    st.tuples(st.just("type"), st.sampled_from(["text/plain", "application/x-www-form-urlencoded", "", "application/json"])),
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    """An app, one table under attack, and the token of the seat that is NOT to move (its moves are refused)."""
    db = str(tmp_path_factory.mktemp("fuzz") / "fuzz.db")
    with TestClient(create_app(db, create_per_minute=0, max_bot_tables=2, bot_delay=0.2, bot_time=0.05)) as c:
        r = c.post("/api/tables", json={"game": "juno", "options": {"match": False},
                                        "seats": [{"kind": "person"}, {"kind": "person"}]})
        tid = r.json()["id"]
        waiting = 1 - c.get(f"/api/tables/{tid}").json()["current_player"]
        yield c, tid, r.json()["seats"][waiting]["token"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(req=requests)
def test_fuzz_http_api_never_500_and_changes_nothing(served: tuple[TestClient, str, str], req: tuple[str, Any]) -> None:
    client, tid, _ = served
    before = snapshot(client, tid)
    kind, payload = req
    json_type = {"content-type": "application/json"}
    if kind == "create":
        r = client.post("/api/tables", content=payload, headers=json_type)
    elif kind == "act":
        r = client.post(f"/api/tables/{tid}/act", content=payload, headers=json_type)
    elif kind == "raw":
        r = client.post("/api/tables", content=payload, headers=json_type)
    elif kind == "get":
        r = client.get(f"/api/tables/{tid}", params={"token": payload})
    elif kind == "replay":
        r = client.get(f"/api/tables/{tid}/replay", params={"step": payload})
    else:
        r = client.post("/api/tables", content='{"game": "juno", "seats": [{"kind": "person"}]}', headers={"content-type": payload})
    # A valid table with a bot that the fuzzer never plays stays open, so a third one meets the server's cap
    # on tables with bots (max_bot_tables=2 above): that refusal, 503 "busy" with its reason, is designed, not a failure
    busy = r.status_code == 503 and r.json().get("error") == "busy"
    assert r.status_code < 500 or busy, (req, r.status_code, r.text)
    if r.status_code >= 400:
        body = r.json()
        assert ("error" in body and body["message"]) or "detail" in body  # a reason, or FastAPI's own 422 detail
    assert snapshot(client, tid) == before
    assert client.get("/api/games").status_code == 200  # alive


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frame=frames)
def test_fuzz_websocket_every_message_answered_socket_kept(served: tuple[TestClient, str, str], frame: str | bytes) -> None:
    client, tid, token = served
    before = snapshot(client, tid)
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
        ws.send_text('{"type": "ping"}')
        answers: list[dict[str, Any]] = []
        while True:  # a closed socket raises here: the test fails
            m = ws.receive_json()
            if m["type"] == "pong" and answers:
                break
            answers.append(m)
        assert all(m["type"] in ("error", "state", "pong") for m in answers), answers
        for m in answers:
            if m["type"] == "error":
                assert m["code"] and m["message"] and len(m["message"]) < 2500
    assert snapshot(client, tid) == before
