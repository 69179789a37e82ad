"""The database layer: URLs, and two server processes sharing one database."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardtable.server import create_app
from cardtable.server.db import database_url

from .conftest import new_table, next_state


def test_database_urls() -> None:
    assert database_url(None) == "sqlite:///cardtable.db"
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
    # psycopg 3, the driver of the "postgres" extra
    assert database_url("postgresql://u:p@db/cardtable") == "postgresql+psycopg://u:p@db/cardtable"


def test_two_servers_on_one_database_never_both_take_a_move(db: str) -> None:
    with TestClient(create_app(db)) as a, TestClient(create_app(db)) as b:
        t = new_table(a, [{"kind": "person"}, {"kind": "person"}], seed=6)
        tid = t["id"]
        seat = a.get(f"/api/tables/{tid}").json()["current_player"]
        tok = t["seats"][seat]["token"]
        legal = b.get(f"/api/tables/{tid}", params={"token": tok}).json()["legal"]  # b loads the table
        r = a.post(f"/api/tables/{tid}/act", json={"token": tok, "action": legal[0]["text"], "version": 0})
        assert r.status_code == 200
        # b still holds version 0: its attempt at move 0 is refused, and b catches up
        r = b.post(f"/api/tables/{tid}/act", json={"token": tok, "action": legal[-1]["text"], "version": 0})
        assert r.status_code == 409 and r.json()["error"] == "stale" and "out of date" in r.json()["message"]
        assert a.app.state.store.load(tid).actions == [legal[0]["text"]]  # type: ignore[attr-defined]
        after = b.get(f"/api/tables/{tid}").json()
        assert after["version"] == 1
        assert after["observation"] == a.get(f"/api/tables/{tid}").json()["observation"]
        with b.websocket_connect(f"/ws/{tid}") as spec:
            assert next_state(spec)["version"] == 1


def test_unused_tables_leave_memory_beyond_the_cap_and_come_back_from_the_database(db: str) -> None:
    """A long-running server does not keep every table ever made: beyond `max_live_tables`, tables
    nobody uses are dropped (finished ones first) and loaded again, moves intact, when asked for."""
    app = create_app(db, max_live_tables=2, create_per_minute=0)
    lobby = app.state.lobby
    with TestClient(app) as c:
        made = [new_table(c, [{"kind": "person"}, {"kind": "person"}], seed=10 + k) for k in range(4)]
        first = made[0]
        seat = c.get(f"/api/tables/{first['id']}").json()["current_player"]
        tok = first["seats"][seat]["token"]
        legal = c.get(f"/api/tables/{first['id']}", params={"token": tok}).json()["legal"]
        assert c.post(f"/api/tables/{first['id']}/act",
                      json={"token": tok, "action": legal[0]["text"], "version": 0}).status_code == 200
        for t in made[1:]:  # the others are made again and again: the first, unused, is dropped
            c.get(f"/api/tables/{t['id']}")
        assert len(lobby.tables) <= 3 and first["id"] not in lobby.tables
        back = c.get(f"/api/tables/{first['id']}", params={"token": tok}).json()
        assert back["version"] == 1 and first["id"] in lobby.tables
