"""Issue 31: the server at internet scale. Each test names the hole it covers and fails without its fix."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from cardtable.core import game_class, games
from cardtable.server import create_app, live

from .conftest import new_table, next_state

PERSON = {"kind": "person"}
TWO = [PERSON, PERSON]


@pytest.fixture
def fast(tmp_path: Path) -> Any:
    """An app on a fresh SQLite file that lets a test create as many tables as it likes."""
    with TestClient(create_app(str(tmp_path / "t.db"), create_per_minute=0)) as c:
        yield c


# -- 1. no web option is ever a file name -----------------------------------------------------


def test_hole1_no_option_of_any_game_reads_a_file(fast: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option of every game, given a file name (bare, with a suffix, absolute, in a list), is
    refused without the file system being asked about it; Ivion's `content` named 'notes' as well."""
    work = tmp_path / "cwd"
    work.mkdir()
    for name in ("notes", "notes.toml", "notes.json", ".env"):
        (work / name).write_text('[[hero]]\nname = "TOP SECRET"\nkey = "VALUE"\n')
    monkeypatch.chdir(work)
    asked: list[str] = []
    real_stat, real_open = Path.stat, Path.open

    def stat(self: Path, *a: Any, **k: Any) -> Any:
        if "notes" in str(self) or ".env" in str(self):
            asked.append(str(self))
        return real_stat(self, *a, **k)

    def open_(self: Path, *a: Any, **k: Any) -> Any:
        if "notes" in str(self) or ".env" in str(self):
            asked.append(str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(Path, "open", open_)
    tried = 0
    for game in games():
        spec = game_class(game).spec
        seats = [PERSON] * spec.min_players
        for option in game_class(game).Options.model_json_schema().get("properties", {}):
            if option == "players":
                continue
            for value in ("notes", ".env", "notes.toml", str(work / "notes.json"), ["notes"], ["notes.toml", "notes"],
                          [str(work / "notes.toml")] * 2):
                r = fast.post("/api/tables", json={"game": game, "options": {option: value}, "seats": seats})
                tried += 1
                assert r.status_code != 201 or "notes" not in r.text, (game, option, value, r.text)
                assert "TOP SECRET" not in r.text and "VALUE" not in r.text and not re.search(r"line \d", r.text), r.text
    assert tried > 50
    assert asked == []
    r = fast.post("/api/tables", json={"game": "ivion", "options": {"content": ["notes"]}, "seats": TWO})
    assert r.status_code == 400 and r.json()["error"] == "bad_options"
    assert "inline" in r.json()["message"] and "never as a file name" in r.json()["message"], r.text
    # The deck builder's check reads no hero file either.
    r = fast.post("/api/games/ivion/decks", json="notes.toml")
    assert "TOP SECRET" not in r.text and asked == []


def test_hole1_ivion_content_goes_inline_over_the_web_and_plays(fast: TestClient) -> None:
    """Ivion's own content (classes, cards, heroes) is sent as data, as in its content file: the table is
    made and played, its card data reaches a connection once; a bad item is refused naming its card and
    field; a file name is refused, alone or beside inline content; every text in it is bounded."""
    from tests.games.ivion.helpers import tide_content

    content = tide_content()
    t = new_table(fast, TWO, game="ivion", content=[content], decks=["Nerei Tide", "Lio Marrow"])
    tokens = [s["token"] for s in t["seats"]]
    cards = {c["name"]: c for c in fast.get(f"/api/tables/{t['id']}/cards").json()["cards"]}
    assert cards["Tidecaller Wave 4"]["body"] == "Draw 1 card." and cards["High Tide"]["kind"] == "ultimate"
    with fast.websocket_connect(f"/ws/{t['id']}?token={tokens[0]}") as p0, fast.websocket_connect(f"/ws/{t['id']}") as spectator:
        first = [next_state(ws) for ws in (p0, spectator)]
        assert all(m["options"]["content"] == [content] for m in first)
        assert first[0]["observation"]["heroes"][0]["hero"] == "Nerei Tide" and "content" not in first[0]["observation"]
        later = []
        for version in range(1, 7):
            act_first(fast, t["id"], tokens)
            for ws in (p0, spectator):
                m = next_state(ws)
                later.append(m)
                while m["version"] < version:
                    m = next_state(ws)
                    later.append(m)
        # the content is in no update: neither as the options nor inside the state
        assert later and all("options" not in m and "Pulls the enemy" not in json.dumps(m) for m in later)
    bad = {"card": [{"name": "Bad Wave", "archetype": "Knight", "power": 9}]}
    r = fast.post("/api/tables", json={"game": "ivion", "options": {"content": [content, bad]}, "seats": TWO})
    assert r.status_code == 400 and r.json()["error"] == "bad_options", r.text
    assert "content item 2: card 'Bad Wave': field 'power'" in r.json()["message"]
    for named in (["notes"], [content, "notes"], [content, "tide.toml"]):
        r = fast.post("/api/tables", json={"game": "ivion", "options": {"content": named}, "seats": TWO})
        assert r.status_code == 400 and "file name" in r.json()["message"], r.text
    long = dict(content, **{"class": [dict(content["class"][0], description="x" * 5000)]})
    r = fast.post("/api/tables", json={"game": "ivion", "options": {"content": [long]}, "seats": TWO})
    assert r.status_code == 400 and "at most 400 characters" in r.json()["message"], r.text


# -- 2. every text in options bounded -----------------------------------------------------------


def test_hole2_every_text_in_options_is_bounded(fast: TestClient) -> None:
    from cardtable.games.ivion.cards import base_library

    hero = base_library().heroes["Sir Edda Vane"].model_dump(mode="json")
    ok = new_table(fast, TWO, game="ivion", decks=[dict(hero, name="Edda the Long"), "Lio Marrow"])
    assert ok["id"]
    for long in (dict(hero, name="E" * 5000), dict(hero, description="x" * 5000)):
        r = fast.post("/api/tables", json={"game": "ivion", "options": {"decks": [long, "Lio Marrow"]}, "seats": TWO})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_options" and "at most 400 characters" in r.json()["message"]
    r = fast.post("/api/tables", json={"game": "juno", "options": {"variant": "v" * 1000}, "seats": TWO})
    assert r.status_code == 400 and "at most 400 characters" in r.json()["message"]
    r = fast.post("/api/games/ivion/decks", json=dict(hero, name="E" * 5000))
    assert r.status_code == 400 and "at most 400 characters" in r.json()["message"]


def act_first(c: TestClient, tid: str, tokens: list[str]) -> None:
    """The seat to move takes its first legal move, over HTTP."""
    m = c.get(f"/api/tables/{tid}").json()
    tok = tokens[m["current_player"]]
    legal = c.get(f"/api/tables/{tid}", params={"token": tok}).json()["legal"]
    r = c.post(f"/api/tables/{tid}/act", json={"token": tok, "action": legal[0]["index"], "version": m["version"]})
    assert r.status_code == 200, r.text


# -- 2. options and card data go to a connection once ---------------------------------------------


def test_hole2_options_are_sent_once_per_connection_not_in_every_state(fast: TestClient) -> None:
    deck = {"red 1": 12, "blue 2": 12, "green 3": 12, "yellow 4": 12, "wild": 8}
    t = new_table(fast, TWO, deck={"cards": deck})
    tokens = [s["token"] for s in t["seats"]]
    with fast.websocket_connect(f"/ws/{t['id']}?token={tokens[0]}") as p0, \
            fast.websocket_connect(f"/ws/{t['id']}?token={tokens[1]}") as p1, \
            fast.websocket_connect(f"/ws/{t['id']}") as spectator:
        first = [next_state(ws) for ws in (p0, p1, spectator)]
        assert all(m["options"]["deck"] == {"cards": deck} for m in first)
        later = []
        for version in range(1, 7):
            act_first(fast, t["id"], tokens)
            for ws in (p0, p1, spectator):
                m = next_state(ws)
                later.append(m)
                while m["version"] < version:
                    m = next_state(ws)
                    later.append(m)
        assert later and all("options" not in m for m in later)
        p0.send_json({"type": "sync"})  # a sync is the whole state again, options included
        m = next_state(p0)
        while "options" not in m:
            m = next_state(p0)
        assert m["options"]["deck"] == {"cards": deck}
    # The state over HTTP is one whole message: it has them.
    assert fast.get(f"/api/tables/{t['id']}").json()["options"]["deck"] == {"cards": deck}


# -- 4 and 7: the startup line hides every password; the server answers only to its own names ---------


def test_hole4_and_7_serve_prints_no_password_and_answers_only_to_its_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer
    import uvicorn
    from typer.testing import CliRunner

    import cardtable.server as server_pkg
    from cardtable.commands import serve

    cli = typer.Typer()
    cli.callback()(lambda: None)  # commands by name, as in `cardtable serve`
    serve.register(cli)
    made: dict[str, Any] = {}

    def fake_app(database: str, **kw: Any) -> Any:
        from types import SimpleNamespace

        from cardtable.server.db import database_url
        made.update(kw)
        return SimpleNamespace(state=SimpleNamespace(store=SimpleNamespace(url=database_url(database))))

    monkeypatch.setattr(server_pkg, "create_app", fake_app)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    for url in ("postgresql://ann@db.example/cards?password=s3cretPW", "postgresql://ann:s3cretPW@db.example/cards",
                "postgresql://ann@db.example/cards?sslpassword=s3cretPW&application_name=ct"):
        out = CliRunner().invoke(cli, ["serve", "--database", url]).output
        assert "db.example" in out and "s3cretPW" not in out, out
    assert set(made["allowed_hosts"]) >= {"127.0.0.1", "localhost"} and "evil.example" not in made["allowed_hosts"]
    CliRunner().invoke(cli, ["serve", "--host", "10.0.0.5", "--allowed-host", "games.example"])
    assert {"10.0.0.5", "games.example", "localhost"} <= set(made["allowed_hosts"])


def test_hole7_a_request_for_another_name_is_refused(tmp_path: Path) -> None:
    """DNS rebinding: a page of evil.example whose name resolves to this server sends Host and Origin
    evil.example, which match each other; the Host is not one of the server's names, so it is refused."""
    app = create_app(str(tmp_path / "t.db"), allowed_hosts=("127.0.0.1", "localhost"))
    with TestClient(app, base_url="http://localhost:8000") as c:
        assert c.get("/api/games").status_code == 200
        assert c.get("/api/games", headers={"host": "127.0.0.1:8000"}).status_code == 200
        evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        r = c.get("/api/tables", headers=evil)
        assert r.status_code == 421 and r.json()["error"] == "unknown_host" and "--allowed-host" in r.json()["message"]
        r = c.post("/api/tables", json={"game": "juno", "seats": TWO}, headers=evil)
        assert r.status_code == 421
        t = new_table(c, TWO)
        with c.websocket_connect(f"/ws/{t['id']}", headers=evil) as ws:
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "unknown_host"
        assert c.get(f"/t/{t['id']}", headers={"host": "evil.example"}).status_code == 421


# -- 3 and 5: a token bucket per connection and message kind; the error arrives before the close ---


def drain(ws: Any) -> list[dict[str, Any]]:
    """Every message until the server closes the socket (a socket left open fails the test, not hangs it)."""

    async def receive() -> Any:
        with anyio.fail_after(20):
            return await ws._send_rx.receive()

    out = []
    while True:
        try:
            m = ws.portal.call(receive)
        except TimeoutError:
            pytest.fail(f"the server neither closed the socket nor sent anything after {out[-1:]}")
        if m["type"] == "websocket.close":
            return out
        out.append(json.loads(m["text"]))


@pytest.mark.parametrize("kind", ["ping", "sync", "name", "act", "nonsense"])
def test_hole3_a_burst_of_any_message_kind_is_refused_with_a_clear_error_then_closed(tmp_path: Path, kind: str) -> None:
    limits = {k: (0.01, 5.0) for k in ("act", "sync", "ping", "name", "rematch", "other")}
    with TestClient(create_app(str(tmp_path / "t.db"), message_limits=limits)) as c:
        t = new_table(c, TWO)
        tid, token = t["id"], t["seats"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            for i in range(30):
                ws.send_json({"type": kind, "name": f"Ann {i}", "action": 0, "version": 99})
            got = drain(ws)
        errors = [m for m in got if m["type"] == "error" and m["code"] == "rate_limited"]
        assert len(errors) == 1 and "at most" in errors[0]["message"] and "reconnect" in errors[0]["message"]
        assert got[-1] is errors[0]  # the error, then the close
        if kind == "name":  # at most the burst of renames was stored
            assert c.app.state.store.load(tid).seats[0]["name"] in {f"Ann {i}" for i in range(5)}  # type: ignore[attr-defined]


def test_hole5_too_slow_is_sent_before_the_close(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.server import live

    monkeypatch.setattr(live, "DIRECT_LIMIT", 0)  # the first own message overflows the queue
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        t = new_table(c, TWO)
        with c.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
            assert next_state(ws)["type"] == "state"
            ws.send_json({"type": "ping"})
            got = drain(ws)
        assert got[-1]["type"] == "error" and got[-1]["code"] == "too_slow", got


# -- 2 (bytes): spectators and players paced by bytes as well as by messages -----------------------------


def receive_within(ws: Any, seconds: float) -> dict[str, Any] | None:
    """The next message if one comes within `seconds`, else None."""

    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        m = ws.portal.call(receive)
    except TimeoutError:
        return None
    return json.loads(m["text"])  # type: ignore[no-any-return]


def test_hole2_a_crowd_of_spectators_is_paced_by_the_bytes_of_the_state(fast: TestClient) -> None:
    t = new_table(fast, TWO)
    table = fast.app.state.lobby.get(t["id"])  # type: ignore[attr-defined]
    table.spectators = 200
    with fast.websocket_connect(f"/ws/{t['id']}") as spectator:
        assert next_state(spectator)["type"] == "state"
    small = table.spectator_interval()
    table.spectators = 200
    table.spectator_bytes = 362_000  # the state the 120 KB hero name made
    assert table.spectator_interval() >= 200 * 362_000 / live.SPECTATOR_BYTES_PER_S > 40 * small


def test_hole2_a_connection_over_its_byte_budget_gets_the_newest_state_later(
        fast: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "CONN_BYTES_BURST", 1.0)  # every state puts the connection in debt ...
    monkeypatch.setattr(live, "CONN_BYTES_PER_S", 1.0)  # ... that takes an hour to pay
    t = new_table(fast, TWO)
    tokens = [s["token"] for s in t["seats"]]
    with fast.websocket_connect(f"/ws/{t['id']}?token={tokens[0]}") as p0, \
            fast.websocket_connect(f"/ws/{t['id']}") as spectator:
        assert next_state(p0)["version"] == 0 and next_state(spectator)["version"] == 0
        for _ in range(4):
            act_first(fast, t["id"], tokens)
        # four moves, and neither the player nor the spectator was sent a state: both are paced
        assert receive_within(p0, 1.0) is None and receive_within(spectator, 1.0) is None
    conn = live.Conn(None, send=lambda text: asyncio.sleep(0))
    conn.spend(10)
    assert conn.byte_wait() > 5


# -- 6. the lobby's listing reads no table's options ---------------------------------------------------


def test_hole6_the_listing_does_not_parse_options(fast: TestClient, tmp_path: Path) -> None:
    t = new_table(fast, TWO)
    with sqlite3.connect(tmp_path / "t.db") as db:  # options that no JSON parser reads
        db.execute("UPDATE tables SET options = '{not json' WHERE id = ?", (t["id"],))
    r = fast.get("/api/tables")
    assert r.status_code == 200, r.text
    listed = [x for x in r.json()["tables"] if x["id"] == t["id"]]
    assert listed and "options" not in listed[0]


# -- scale: bots think in worker processes -----------------------------------------------------------


@pytest.mark.parametrize("game", ["juno", "iuno_avatar", "ivion"])
def test_bots_think_in_worker_processes(tmp_path: Path, game: str, caplog: pytest.LogCaptureFixture) -> None:
    """The view is made in the server and read in a worker (Iuno Avatar's actions refer to an action
    space the worker has only once it has made the game); the pool keeps its workers."""
    import os

    # a cap a busy machine keeps to (a bot over it is replaced, which this test counts as a failure)
    with TestClient(create_app(str(tmp_path / "t.db"), bot_time=2.0, bot_processes=1)) as c:
        t = new_table(c, [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "medium"}], game=game)
        with c.websocket_connect(f"/ws/{t['id']}") as spectator:
            m = next_state(spectator)
            while m["version"] < 6 and not m["over"]:
                m = next_state(spectator)
        pool = c.app.state.lobby.bots.workers.running  # type: ignore[attr-defined]
        assert pool is not None and not pool._broken, "a worker process died"
        workers = set(pool._processes)  # the pids of its worker processes
        assert workers and os.getpid() not in workers
    # every move was the bot's own: none failed in the worker and was replaced by a random one
    assert not [r.getMessage() for r in caplog.records if "replaces it" in r.getMessage()]
