"""Issue 20, findings 1, 2, 4, 5, 7 and 8: the server trusts no client.

Each test names the finding it covers. Every refusal is a clear 4xx (or 503) and changes nothing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from cardtable.server import Store, create_app
from cardtable.server import lobby as lobby_mod
from cardtable.server.live import replay

from .conftest import new_table, next_state, snapshot

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "agent": "random"}
TWO = [PERSON, PERSON]


def count_tables(client: TestClient) -> int:
    return len(client.app.state.store.list(limit=0))  # type: ignore[attr-defined]


# -- 1. unpredictable deals ----------------------------------------------------------------


def test_finding1_served_tables_have_128_bit_secret_seeds_and_keyed_deals(client: TestClient) -> None:
    seeds = []
    for _ in range(4):
        r = client.post("/api/tables", json={"game": "juno", "seats": TWO})
        rec = client.app.state.store.load(r.json()["id"])  # type: ignore[attr-defined]
        assert rec.rng == "keyed"
        seeds.append(rec.seed)
        # nothing a client receives carries the seed or the generator's state
        tid = r.json()["id"]
        for tok in [None] + [s["token"] for s in r.json()["seats"]]:
            text = client.get(f"/api/tables/{tid}", params={"token": tok} if tok else {}).text
            assert str(rec.seed) not in text and '"rng"' not in text and '"seed"' not in text
    assert len(set(seeds)) == 4 and max(seeds) >= 2**64  # 128 random bits: below 2**64 one time in 2**64
    # The replay of a served table is exact: the same seed and actions make the same state.
    table = client.app.state.lobby.get(tid)  # type: ignore[attr-defined]
    assert replay(table.rec)[0].to_json() == table.state.to_json()


def test_finding1_a_creator_seed_deals_the_same_game_and_may_be_large(client: TestClient) -> None:
    big = 2**200 + 12345
    a = new_table(client, TWO, seed=big)
    b = new_table(client, TWO, seed=big)
    sa, sb = (client.app.state.lobby.get(t["id"]).state for t in (a, b))  # type: ignore[attr-defined]
    assert sa.to_json()["state"] == sb.to_json()["state"]
    assert client.app.state.store.load(a["id"]).seed == big  # type: ignore[attr-defined]
    r = client.post("/api/tables", json={"game": "juno", "seats": TWO, "seed": 2**256})
    assert r.status_code == 400 and "seed" in r.json()["message"]


def test_finding1_tables_stored_before_keyed_deals_resume_exactly(tmp_path: Path) -> None:
    """An older database (no seed_text/rng columns, SplitMix64 seeds) is opened and its tables resume."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as con:
        con.executescript("""
            CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, options JSON NOT NULL,
              seed INTEGER NOT NULL, seats JSON NOT NULL, created FLOAT NOT NULL, finished BOOLEAN NOT NULL,
              rematch_of VARCHAR(32), rematch VARCHAR(32));
            CREATE TABLE actions (table_id VARCHAR(32) NOT NULL, n INTEGER NOT NULL, action TEXT NOT NULL,
              seat INTEGER NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (table_id, n));
        """)
        import cardtable

        game = cardtable.make("juno", players=2, match=False)
        state = game.new_state(77)
        move = state.legal_actions()[0].text
        state.apply(move)
        con.execute("INSERT INTO tables VALUES ('old1', 'juno', ?, 77, ?, 0, 0, NULL, NULL)",
                    (__import__("json").dumps(game.options.to_json()), '[{"kind": "person"}, {"kind": "person"}]'))
        con.execute("INSERT INTO actions VALUES ('old1', 0, ?, 0, 0)", (move,))
    with TestClient(create_app(str(path))) as c:
        table = c.app.state.lobby.get("old1")  # type: ignore[attr-defined]
        assert table.rec.rng == "splitmix" and table.state.to_json() == state.to_json()
        assert new_table(c, TWO)["id"]  # and new tables are keyed in the same database


# -- 2. no file access through options -----------------------------------------------------


@pytest.mark.parametrize(("game", "option"), [("juno", "deck"), ("iunu", "cards"), ("zun", "runes")])
def test_finding2_card_options_given_as_a_path_are_refused_unread(client: TestClient, tmp_path: Path, game: str,
                                                                  option: str) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text('cards = "TOP SECRET VALUE"\n')
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # reading it would block forever
    before = count_tables(client)
    for path in (str(secret), "/etc/shadow", str(tmp_path / "missing.toml"), str(fifo)):
        r = client.post("/api/tables", json={"game": game, "options": {option: path}, "seats": TWO})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_options" and "not as a file name" in r.json()["message"]
        assert "TOP SECRET" not in r.text and "exist" not in r.text
    assert count_tables(client) == before


def test_finding2_inline_card_data_is_accepted_checked_and_capped(client: TestClient) -> None:
    deck = {"red 1": 12, "blue 2": 12, "green 3": 12, "yellow 4": 12, "wild": 8}
    t = new_table(client, TWO, deck={"cards": deck})
    table = client.app.state.lobby.get(t["id"])  # type: ignore[attr-defined]
    assert table.game.options.deck == deck
    r = client.post("/api/tables", json={"game": "juno", "options": {"deck": {"cards": {"purple 9": 3}}}, "seats": TWO})
    assert r.status_code == 400 and r.json()["error"] == "bad_options"
    huge = {"cards": {f"red {i}": 1 for i in range(20000)}}
    r = client.post("/api/tables", json={"game": "juno", "options": {"deck": huge}, "seats": TWO})
    assert r.status_code == 413 and r.json()["error"] == "too_large"


# -- 4. bad input is never a 500 -----------------------------------------------------------


def test_finding4_tokens_that_are_not_text(client: TestClient) -> None:
    t = new_table(client, TWO, seed=3)
    tid = t["id"]
    before = snapshot(client, tid)
    for bad in (5, [1], {"a": 1}, True, 1.5):
        r = client.post(f"/api/tables/{tid}/act", json={"token": bad, "action": 0, "version": 0})
        assert r.status_code == 403 and r.json()["error"] == "bad_token", r.text
    r = client.get(f"/api/tables/{tid}", params={"token": "x" * 500})
    assert r.status_code == 403
    with client.websocket_connect(f"/ws/{tid}?token={t['seats'][0]['token']}") as ws:
        next_state(ws)
        for bad in (5, [1], {"x": 1}, 1.5, False):
            ws.send_json({"type": "act", "action": 0, "version": 0, "token": bad})
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "bad_token", m
    assert snapshot(client, tid) == before


def test_finding4_seats_cannot_carry_a_token_hash_or_a_bad_name(client: TestClient) -> None:
    before = count_tables(client)
    r = client.post("/api/tables", json={"game": "juno", "seats": [{"kind": "person", "token_hash": "0" * 64}, PERSON]})
    assert r.status_code == 400 and "token_hash" in r.json()["message"]
    for name in ('"\\ud800bad"', '"tab\\there"', '"' + "x" * 41 + '"', "7"):  # as JSON text: \ud800 is a lone surrogate
        body = '{"game": "juno", "seats": [{"kind": "person", "name": ' + name + '}, {"kind": "person"}]}'
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, name
    assert count_tables(client) == before


def test_finding4_a_damaged_row_does_not_break_the_lobby_listing(client: TestClient) -> None:
    new_table(client, TWO)
    store = client.app.state.store  # type: ignore[attr-defined]
    # rows an older server let in: a lone surrogate, seats that are not a list
    rows = {"bad1": '[{"kind": "person", "name": "\\ud800"}]', "bad2": "7"}
    with store.engine.begin() as conn:
        for table_id, seats in rows.items():
            conn.execute(text("INSERT INTO tables (id, game, options, seed, seats, created, finished) "
                              "VALUES (:id, 'juno', '{}', 0, :seats, 1e12, :finished)"),
                         {"id": table_id, "seats": seats, "finished": False})
    r = client.get("/api/tables")
    assert r.status_code == 200
    ids = [t["id"] for t in r.json()["tables"]]
    assert "bad1" in ids and "bad2" not in ids and len(ids) == 2
    assert r.json()["tables"][ids.index("bad1")]["seats"][0]["name"] == "\ufffd"


def test_finding4_deep_binary_and_huge_messages(client: TestClient) -> None:
    t = new_table(client, TWO, seed=4)
    tid = t["id"]
    before = snapshot(client, tid)
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
    assert r.status_code in (400, 413)
    r = client.post("/api/tables", content='{"game": "juno", "seats": ' + "[" * 50 + "]" * 50 + "}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested" in r.json()["message"]
    r = client.post(f"/api/tables/{tid}/act", json={"token": t["seats"][0]["token"], "action": "x" * 10_000_000,
                                                    "version": 0})
    assert r.status_code == 413 and len(r.text) < 500
    with client.websocket_connect(f"/ws/{tid}?token={t['seats'][0]['token']}") as ws:
        next_state(ws)
        for payload in (deep, "x" * 1_000_000):
            ws.send_text(payload)
            m = ws.receive_json()
            assert m["type"] == "error" and len(m["message"]) < 300
        ws.send_bytes(b"\x00\x01binary")
        m = ws.receive_json()
        assert m["type"] == "error" and "binary" in m["message"]
        ws.send_json({"type": "act", "action": "y" * 5000, "version": 0})
        m = ws.receive_json()
        assert m["type"] == "error" and "y" * 300 not in m["message"]
        ws.send_json({"type": "ping"})  # still open
        assert ws.receive_json()["type"] == "pong"
    assert snapshot(client, tid) == before


def test_finding4_large_seeds_fit_any_database(client: TestClient) -> None:
    t = new_table(client, TWO, seed=2**31 + 5)
    assert client.app.state.store.load(t["id"]).seed == 2**31 + 5  # type: ignore[attr-defined]


def test_finding4_database_down_is_503_for_create_lobby_and_moves(client: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    t = new_table(client, TWO, seed=6)
    tid = t["id"]
    mine = client.get(f"/api/tables/{tid}", params={"token": t["seats"][0]["token"]}).json()
    seat = mine["current_player"]
    tok = t["seats"][seat]["token"]
    legal = client.get(f"/api/tables/{tid}", params={"token": tok}).json()["legal"]
    before = snapshot(client, tid)
    store = client.app.state.store  # type: ignore[attr-defined]

    def down(*_: Any, **__: Any) -> Any:
        raise OperationalError("SELECT 1", None, Exception("the database is down"))

    for name in ("create", "list", "append", "load", "count"):
        monkeypatch.setattr(store, name, down)
    r = client.post("/api/tables", json={"game": "juno", "seats": TWO})
    assert r.status_code == 503 and r.json()["error"] == "unavailable"
    assert client.get("/api/tables").status_code == 503
    r = client.post(f"/api/tables/{tid}/act", json={"token": tok, "action": legal[0]["index"], "version": 0})
    assert r.status_code == 503
    assert client.get("/api/tables/notloaded1").status_code == 503
    monkeypatch.undo()
    assert snapshot(client, tid) == before


# -- 5. limits -----------------------------------------------------------------------------


def test_finding5_table_creation_is_rate_limited_per_client(db: str) -> None:
    with TestClient(create_app(db, create_per_minute=3)) as c:
        codes = [c.post("/api/tables", json={"game": "juno", "seats": TWO}).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        assert count_tables(c) == 3


def test_finding5_bot_tables_are_capped_and_bots_think_in_a_small_pool(db: str) -> None:
    with TestClient(create_app(db, max_bot_tables=1, bot_delay=5.0)) as c:
        assert c.post("/api/tables", json={"game": "juno", "seats": [PERSON, BOT]}).status_code == 201
        r = c.post("/api/tables", json={"game": "juno", "seats": [BOT, BOT]})
        assert r.status_code == 503 and r.json()["error"] == "busy"
        assert c.post("/api/tables", json={"game": "juno", "seats": TWO}).status_code == 201  # people only: fine
        assert c.app.state.lobby.executor._max_workers == 1  # type: ignore[attr-defined]


def test_finding5_only_json_and_only_from_this_site(db: str) -> None:
    body = '{"game": "juno", "seats": [{"kind": "person"}, {"kind": "person"}]}'
    with TestClient(create_app(db, allowed_origins=("https://friends.example",))) as c:
        r = c.post("/api/tables", content=body, headers={"content-type": "text/plain"})  # a cross-site form's type
        assert r.status_code == 415
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json", "origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "forbidden_origin"
        assert count_tables(c) == 0
        for origin in ("http://testserver", "https://friends.example"):
            r = c.post("/api/tables", content=body, headers={"content-type": "application/json", "origin": origin})
            assert r.status_code == 201
        tid = r.json()["id"]
        with c.websocket_connect(f"/ws/{tid}", headers={"origin": "https://evil.example"}) as ws:
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "forbidden_origin"
        with c.websocket_connect(f"/ws/{tid}", headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "state"


def test_finding5_replay_states_are_built_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    t = new_table(client, [BOT, BOT], seed=3)
    with client.websocket_connect(f"/ws/{t['id']}") as spec:
        m = next_state(spec)
        while not m["over"]:
            m = next_state(spec)
    calls = []
    real = lobby_mod.replay

    def counting(*a: Any, **k: Any) -> Any:
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(lobby_mod, "replay", counting)
    for step in (0, 1, 2, 1):
        assert client.get(f"/api/tables/{t['id']}/replay", params={"step": step}).status_code == 200
    assert len(calls) == 1


def test_finding5_a_restart_loads_only_tables_with_bots(db: str) -> None:
    with TestClient(create_app(db, bot_delay=5.0)) as a:
        people = new_table(a, TWO)["id"]
        bots = new_table(a, [PERSON, BOT])["id"]
    with TestClient(create_app(db, bot_delay=5.0)) as b:
        loaded = b.app.state.lobby.tables  # type: ignore[attr-defined]
        assert bots in loaded and people not in loaded
        assert b.get(f"/api/tables/{people}").status_code == 200  # loaded when someone comes back


# -- 7. two processes on one database ------------------------------------------------------


def test_finding7_a_process_behind_the_database_catches_up_on_every_request(db: str) -> None:
    with TestClient(create_app(db)) as a, TestClient(create_app(db)) as b:
        t = new_table(a, TWO, seed=12)
        tid = t["id"]
        toks = [s["token"] for s in t["seats"]]
        st = b.get(f"/api/tables/{tid}").json()  # b loads the table at version 0
        first = st["current_player"]
        legal = a.get(f"/api/tables/{tid}", params={"token": toks[first]}).json()["legal"]
        assert a.post(f"/api/tables/{tid}/act", json={"token": toks[first], "action": legal[0]["index"],
                                                      "version": 0}).status_code == 200
        nxt = a.get(f"/api/tables/{tid}").json()["current_player"]
        # over b's websocket (which never reloads on its own before), the next seat moves at version 1
        with b.websocket_connect(f"/ws/{tid}?token={toks[nxt]}") as ws:
            m = next_state(ws)
            assert m["version"] == 1 and m["current_player"] == nxt
            ws.send_json({"type": "act", "action": m["legal"][0]["index"], "version": 1})
            while True:
                r = ws.receive_json()
                if r["type"] != "state":
                    break
            assert r["type"] == "ack" and r["version"] == 2
        # a's websocket: a move taken on b is seen by a when its seat acts (a's view is behind)
        later = b.get(f"/api/tables/{tid}").json()["current_player"]
        with a.websocket_connect(f"/ws/{tid}?token={toks[later]}") as ws:
            m = next_state(ws)
            assert m["version"] == 2
        assert a.get(f"/api/tables/{tid}").json()["version"] == 2


def test_finding7_a_seat_acting_through_a_stale_socket_is_not_stuck(db: str) -> None:
    with TestClient(create_app(db)) as a, TestClient(create_app(db)) as b:
        t = new_table(a, TWO, seed=14)
        tid = t["id"]
        toks = [s["token"] for s in t["seats"]]
        first = a.get(f"/api/tables/{tid}").json()["current_player"]
        other = 1 - first
        with b.websocket_connect(f"/ws/{tid}?token={toks[other]}") as ws:
            next_state(ws)  # b at version 0: it is not `other`'s turn there
            legal = a.get(f"/api/tables/{tid}", params={"token": toks[first]}).json()["legal"]
            assert a.post(f"/api/tables/{tid}/act", json={"token": toks[first], "action": legal[0]["index"],
                                                          "version": 0}).status_code == 200
            mine = a.get(f"/api/tables/{tid}", params={"token": toks[other]}).json()
            if mine["current_player"] != other:
                pytest.skip("this deal gives the first seat another move")
            ws.send_json({"type": "act", "action": mine["legal"][0]["index"], "version": 1})
            while True:
                r = ws.receive_json()
                if r["type"] != "state":
                    break
            assert r["type"] == "ack", r  # before: not_your_turn, for as long as b lived


# -- 8. smaller things ---------------------------------------------------------------------


def test_finding8_security_headers_and_no_public_api_docs(client: TestClient, db: str) -> None:
    for path in ("/", "/t/abc", "/static/table.js", "/api/games"):
        h = client.get(path).headers
        assert "script-src 'self'" in h["content-security-policy"] and "frame-ancestors 'none'" in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff" and h["referrer-policy"] == "no-referrer"
    assert client.get("/docs").status_code == 404 and client.get("/openapi.json").status_code == 404
    with TestClient(create_app(db, api_docs=True)) as c:
        assert c.get("/openapi.json").status_code == 200 and c.get("/docs").status_code == 200


def test_finding8_the_startup_line_hides_the_database_password(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from cardtable.commands import serve
    from cardtable.server import app as app_mod

    seen: dict[str, Any] = {}
    monkeypatch.setattr("uvicorn.run", lambda web, **kw: seen.update(kw))

    class FakeStore(Store):
        def __init__(self, url: str | None = None) -> None:
            super().__init__(str(tmp_path / "x.db"))
            self.url = "postgresql+psycopg://player:hunter2@db.example/cardtable"

    monkeypatch.setattr(app_mod, "Store", FakeStore)
    cli = typer.Typer()
    serve.register(cli)
    cli.command("noop")(lambda: None)
    out = CliRunner().invoke(cli, ["serve", "--database", "postgresql://player:hunter2@db.example/cardtable"])
    assert out.exit_code == 0, out.output
    assert "hunter2" not in out.output and "player:***@db.example" in out.output
    assert seen["ws_max_size"] > 0


def test_finding8_the_table_page_takes_the_token_out_of_the_address() -> None:
    """The browser suite (tests/browser) runs the page; here: the page's script removes it once read."""
    js = (Path(lobby_mod.__file__).parent.parent / "web" / "table.js").read_text()
    assert 'params.delete("token")' in js and "history.replaceState" in js


@pytest.mark.parametrize("option", ["decks", "content", "cards"])
def test_ivion_decks_and_content_naming_a_file_are_refused_unread(client: TestClient, tmp_path: Path, option: str) -> None:
    # Ivion's decks and content are lists: a file name inside one is refused as a whole string would be
    # (its cards, a cards file's name: the designers' lab sends them inline)
    secret = tmp_path / "secret.toml"
    secret.write_text('[[hero]]\nname = "TOP SECRET VALUE"\n')
    before = count_tables(client)
    for path in (str(secret), "/etc/shadow", "hero.json"):
        value = [path, "Lio Marrow"] if option == "decks" else path if option == "cards" else [path]
        r = client.post("/api/tables", json={"game": "ivion", "options": {option: value}, "seats": TWO})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_options" and "not as a file name" in r.json()["message"]
        assert "TOP SECRET" not in r.text
    assert count_tables(client) == before
    # starters by name and hero tables are data: accepted
    hero = {"name": "Ann", "mode": "herocrafting", "classes": ["Knight", "Ranger"], "specialization": "Mirage",
            "traits": ["Kindle", "Thornskin"]}
    r = client.post("/api/tables", json={"game": "ivion", "options": {"decks": [hero, "Lio Marrow"]}, "seats": TWO})
    assert r.status_code == 201, r.text


def test_the_deck_builder_api_builds_a_hero_or_names_the_rule(client: TestClient) -> None:
    info = client.get("/api/games/ivion/decks").json()
    assert {c["name"] for c in info["classes"]} >= {"Knight", "Ranger"} and "Lio Marrow" in info["starters"]
    assert all({"name", "colours", "ultimate"} <= set(s) for s in info["specializations"])
    hero = {"name": "Ann", "mode": "herocrafting", "classes": ["Knight", "Ranger"], "specialization": "Mirage",
            "traits": ["Kindle", "Thornskin"]}
    ok = client.post("/api/games/ivion/decks", json=hero).json()
    assert ok["ok"] and ok["size"] == 45 and sum(c["count"] for c in ok["cards"]) == 45 and ok["hp"] == 32
    bad = client.post("/api/games/ivion/decks", json={**hero, "traits": ["Kindle", "Kindle"]}).json()
    assert not bad["ok"] and "two different traits" in bad["rule"]
    assert not client.post("/api/games/ivion/decks", json="/etc/passwd.toml").json()["ok"]  # a name, not a table: never read
    assert client.get("/api/games/juno/decks").status_code == 404
