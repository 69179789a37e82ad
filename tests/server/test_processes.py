"""Issue 31: several `cardtable serve` processes on one PostgreSQL database, live.

Two real server processes share a fresh database; a spectator is connected to each. Every move is
taken through one process or the other (by the seat's HTTP request), and both spectators are sent
every move without asking (no `sync`, no request of theirs): PostgreSQL's LISTEN/NOTIFY carries it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import PostgreSQL

websockets_sync = pytest.importorskip("websockets.sync.client")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def start(database: str, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """`cardtable serve` as a person starts it, on a free port; returns the process and its address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port), "--database", database,
                             "--bot-delay", "0", "--bot-time", "0.2", "--bot-processes", "0", *extra],
                            stdout=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/api/games", timeout=2).read()
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("the server exited at start") from None
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start within 60 s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def two(postgresql: PostgreSQL) -> Iterator[tuple[str, str]]:
    database = postgresql.new_database()
    procs = []
    try:
        for _ in range(2):
            proc, url = start(database)
            procs.append((proc, url))
        yield procs[0][1], procs[1][1]
    finally:
        for proc, _ in procs:
            stop(proc)


class Spectator:
    """A websocket watching a table: the newest version it was sent, and every log line."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = -1
        self.log: list[str] = []

    def until(self, version: int) -> None:
        """Read until a state at `version` or later arrives (the test fails if none comes in 30 s: it
        hangs on nothing, and asks the server nothing)."""
        while self.version < version:
            m = json.loads(self.ws.recv(timeout=30))
            if m["type"] != "state":
                continue
            if m.get("log_reset"):
                pytest.fail("a spectator of a slow table is sent every line")
            assert m["log_from"] == len(self.log), (m["log_from"], len(self.log))
            self.log += m["log"]
            self.version = m["version"]


def test_two_processes_and_a_spectator_on_each_see_every_move(two: tuple[str, str]) -> None:
    a, b = two
    t = http("POST", a + "/api/tables", {"game": "juno", "options": {"match": False},
                                         "seats": [{"kind": "person"}, {"kind": "person"}]})
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    with websockets_sync.connect(f"{a.replace('http://', 'ws://')}/ws/{tid}", open_timeout=30) as wa, \
            websockets_sync.connect(f"{b.replace('http://', 'ws://')}/ws/{tid}", open_timeout=30) as wb:
        watch(a, b, tid, tokens, [Spectator(wa), Spectator(wb)])


def watch(a: str, b: str, tid: str, tokens: list[str], watchers: list[Spectator]) -> None:
    """Take moves through `a` and `b` in turn; every watcher is sent each one, in order."""
    for w in watchers:
        w.until(0)
    moves = 0
    while moves < 30:
        state = http("GET", a + f"/api/tables/{tid}")
        if state["over"]:
            break
        seat = state["current_player"]
        via = (a, b)[moves % 2]  # each move through the other process
        mine = http("GET", via + f"/api/tables/{tid}?token={tokens[seat]}")
        http("POST", via + f"/api/tables/{tid}/act", {"token": tokens[seat], "action": mine["legal"][0]["index"],
                                                      "version": mine["version"]})
        moves += 1
        for w in watchers:  # both are sent this move, whichever process took it
            w.until(moves)
    assert moves >= 10
    final = http("GET", b + f"/api/tables/{tid}")
    for w in watchers:
        assert w.version == final["version"] == moves
        assert w.log == final["log"]  # every line of every move, in order


def test_workers_need_postgresql(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "cardtable.cli", "serve", "--workers", "2", "--database",
                          str(tmp_path / "t.db")], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "PostgreSQL" in out.stderr
