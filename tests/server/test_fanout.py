"""Finding 3 of issue 20: one slow spectator never slows a table, and a crowd costs little.

These tests drive the lobby on a real event loop with connections whose `send` is a test double:
one that never completes is exactly a socket that never reads (its send would wait forever)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import Store, create_app
from cardtable.server import live as live_mod
from cardtable.server import lobby as lobby_mod
from cardtable.server.live import DIRECT_LIMIT, Conn, LiveTable
from cardtable.server.lobby import Lobby

PERSON = {"kind": "person"}
# A table that waited on a stuck socket would hang here: fail instead (a guard, not a timing assertion).
pytestmark = pytest.mark.timeout(120)


class Recorder:
    """A connection that reads everything it is sent."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.closed = False

    async def send(self, text: str) -> None:
        self.got.append(json.loads(text))

    async def close(self) -> None:
        self.closed = True


class NeverReads:
    """A connection whose socket never takes a byte: every send waits forever."""

    def __init__(self) -> None:
        self.sends = 0
        self.closed = False

    async def send(self, text: str) -> None:
        self.sends += 1
        await asyncio.Event().wait()

    async def close(self) -> None:
        self.closed = True


async def settle(done: Callable[[], bool], rounds: int = 2000) -> None:
    """Let the writers run until `done()` (a bound on loop turns, not a time limit)."""
    for _ in range(rounds):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the writers never got there")


def run(tmp_path: Path, body: Callable[[Lobby, LiveTable], Awaitable[None]], **lobby_kw: Any) -> None:
    store = Store(str(tmp_path / "t.db"))

    async def main() -> None:
        lobby = Lobby(store, **lobby_kw)
        table, _ = lobby.create("juno", {"match": True}, [PERSON, PERSON], seed=5)
        await body(lobby, table)

    # A thread of its own: a browser test earlier in the same worker may have left an event loop
    # running in this one (Playwright's sync API), where asyncio.run refuses to start.
    try:
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, main()).result()
    finally:
        store.close()


async def play(lobby: Lobby, table: LiveTable, players: dict[int, Conn], moves: int) -> list[str]:
    """The seat to move plays its first legal action `moves` times; each is acknowledged on its connection."""
    done = []
    for _ in range(moves):
        seat = table.state.current_player
        assert seat is not None
        text = await lobby.act(table, seat, table.state.legal_actions()[0].text, table.version)
        players[seat].push({"type": "ack", "action": text, "version": table.version})
        done.append(text)
    return done


def test_a_spectator_that_never_reads_does_not_slow_the_players(tmp_path: Path) -> None:
    async def body(lobby: Lobby, table: LiveTable) -> None:
        stuck = NeverReads()
        lobby.attach(table, Conn(None, stuck.send, stuck.close))
        seen = {s: Recorder() for s in (0, 1)}
        players = {s: Conn(s, seen[s].send, seen[s].close) for s in (0, 1)}
        for c in players.values():
            lobby.attach(table, c)
        moves = await play(lobby, table, players, 150)
        assert table.version == 150 and table.rec.actions == moves  # every move committed and applied
        await settle(lambda: all(c.rev_sent == table.rev and not c.direct for c in players.values()))
        for s in (0, 1):
            acks = [m for m in seen[s].got if m["type"] == "ack"]
            assert [a["action"] for a in acks] == [m for i, m in enumerate(moves) if lobby_seat(table, i) == s]
            assert seen[s].got[-1]["type"] in ("state", "ack") and max(
                m["version"] for m in seen[s].got if m["type"] == "state") == 150
        # The spectator took its first message and is stuck in it: nothing piled up for it.
        assert stuck.sends == 1 and not stuck.closed

    run(tmp_path, body)


def lobby_seat(table: LiveTable, step: int) -> int:
    """Who made move `step` (the table's own log knows)."""
    from cardtable.server.live import replay

    return int(replay(table.rec, table.rec.actions[:step])[0].current_player or 0)


def test_a_connection_that_does_not_read_is_dropped_and_the_table_goes_on(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_mod, "SEND_TIMEOUT", 0.05)

    async def body(lobby: Lobby, table: LiveTable) -> None:
        # One spectator floods its own queue (it sends and never reads): told why, then dropped.
        flood = NeverReads()
        flooder = Conn(None, flood.send, flood.close)
        lobby.attach(table, flooder)
        for _ in range(DIRECT_LIMIT + 5):
            flooder.push({"type": "pong"})
        assert flooder.dropped == "too_slow" and len(flooder.direct) == 1
        assert "too_slow" in flooder.direct[0]
        # Another one simply never reads: its send does not finish in time, so it is dropped.
        stuck = NeverReads()
        slow = Conn(None, stuck.send, stuck.close)
        lobby.attach(table, slow)
        seen = {s: Recorder() for s in (0, 1)}
        players = {s: Conn(s, seen[s].send, seen[s].close) for s in (0, 1)}
        for c in players.values():
            lobby.attach(table, c)
        await play(lobby, table, players, 40)
        for _ in range(200):  # the writers' timeouts are real time: wait for them, however long it takes
            if slow not in table.conns and flooder not in table.conns:
                break
            await asyncio.sleep(0.05)
        assert slow not in table.conns and flooder not in table.conns and table.spectators == 0
        assert stuck.closed and flood.closed
        await play(lobby, table, players, 10)
        assert table.version == 50

    run(tmp_path, body)


def test_a_state_is_built_once_per_version_for_all_spectators(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int | None] = []
    real = LiveTable.message

    def counting(self: LiveTable, seat: int | None, *args: Any) -> dict[str, Any]:
        built.append(seat)
        return real(self, seat, *args)

    monkeypatch.setattr(LiveTable, "message", counting)

    async def body(lobby: Lobby, table: LiveTable) -> None:
        watchers = [Recorder() for _ in range(60)]
        conns = [Conn(None, w.send, w.close) for w in watchers]
        for c in conns:
            lobby.attach(table, c)
        await settle(lambda: all(w.got for w in watchers))
        assert built == [None]  # one full state for the 60 newcomers, serialized once
        first = [w.got[0] for w in watchers]
        assert all(m == first[0] for m in first) and first[0]["log_from"] == 0
        # A spectator arriving or leaving sends nothing to the others.
        late = Recorder()
        lobby.attach(table, Conn(None, late.send, late.close))
        await settle(lambda: bool(late.got))
        lobby.detach(table, conns.pop())
        for _ in range(50):
            await asyncio.sleep(0)
        assert all(len(w.got) == 1 for w in watchers[:-1])
        # A move: one incremental message for all the spectators who were up to date.
        built.clear()
        seat = table.state.current_player
        await lobby.act(table, seat, table.state.legal_actions()[0].text, 0)
        await settle(lambda: all(len(w.got) == 2 for w in watchers[:-1]))
        assert built == [None]
        assert all(w.got[1]["version"] == 1 and w.got[1]["log_from"] > 0 for w in watchers[:-1])

    run(tmp_path, body)


def test_spectators_per_table_are_capped(db: str) -> None:
    with TestClient(create_app(db, max_spectators=2)) as client:
        r = client.post("/api/tables", json={"game": "juno", "seats": [PERSON, PERSON]})
        tid = r.json()["id"]
        with client.websocket_connect(f"/ws/{tid}") as a, client.websocket_connect(f"/ws/{tid}") as b:
            assert a.receive_json()["type"] == "state" and b.receive_json()["type"] == "state"
            with client.websocket_connect(f"/ws/{tid}") as c:
                m = c.receive_json()
                assert m["type"] == "error" and m["code"] == "table_full" and "2 spectators" in m["message"]
            # seats are not spectators: a player still gets in
            tok = r.json()["seats"][0]["token"]
            with client.websocket_connect(f"/ws/{tid}?token={tok}") as p:
                assert p.receive_json()["seat"] == 0


def test_a_spectator_far_behind_gets_only_the_newest_lines(tmp_path: Path) -> None:
    async def body(lobby: Lobby, table: LiveTable) -> None:
        players = {s: Conn(s, Recorder().send) for s in (0, 1)}
        await play(lobby, table, players, 120)
        behind = Conn(None, Recorder().send)
        behind.log_sent = behind.events_seen = 1  # it saw the first event only
        m = json.loads(table.state_text(behind))
        total = len(table.state.events_for(None))
        assert m["log_reset"] is True and m["log_total"] == total and m["log_from"] == total - live_mod.SPECTATOR_TAIL
        assert 0 < len(m["log"]) <= live_mod.SPECTATOR_TAIL
        # a spectator that is up to date gets the next lines as usual, without a reset
        nxt = json.loads(table.state_text(behind))
        assert "log_reset" not in nxt and nxt["log_from"] == total and nxt["log"] == []

    run(tmp_path, body)
