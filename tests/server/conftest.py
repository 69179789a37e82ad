"""Fixtures for the server tests: an app on a fresh database, driven by FastAPI's TestClient.

Every test that takes `db` runs twice: on a fresh SQLite file and on a fresh database of a real
PostgreSQL server (`postgresql://` by URL, psycopg 3), which this module starts once per test
process in a temporary directory, on a Unix socket only. Without PostgreSQL's programs the
PostgreSQL runs are skipped, except under CI, where scripts/test installs them."""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import create_app


def _pg_bin(name: str) -> str | None:
    """A PostgreSQL server program: on the PATH, else Debian's versioned directory."""
    found = shutil.which(name)
    if found:
        return found
    def version(path: str) -> tuple[int, ...]:
        return tuple(int(x) for x in path.split("/")[4].split(".") if x.isdigit())

    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=version)
    return versions[-1] if versions else None


class PostgreSQL:
    """A throwaway PostgreSQL cluster: no TCP, its socket in its own directory. As root the server
    runs as the `postgres` user (it refuses root)."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("no PostgreSQL server programs (initdb, pg_ctl): apt-get install postgresql")
        self.pg_ctl = pg_ctl
        self.root = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data, self.socket = self.root / "data", self.root / "socket"
        self.as_user: list[str] = []
        self.user = os.environ.get("USER") or "postgres"
        try:
            self.socket.mkdir()
            if os.geteuid() == 0:
                shutil.chown(self.root, "postgres")  # LookupError: no postgres user
                shutil.chown(self.socket, "postgres")
                self.as_user, self.user = ["runuser", "-u", "postgres", "--"], "postgres"
            self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", self.user, "--no-sync")
            self._run(pg_ctl, "-D", str(self.data), "-w", "-l", str(self.root / "log"), "-o",
                      f"-k {self.socket} -c listen_addresses='' -c fsync=off -c max_connections=200", "start")
        except BaseException:
            self.stop()  # nothing left behind: no half-started server, no directory
            raise

    def _run(self, *cmd: str) -> None:
        subprocess.run([*self.as_user, *cmd], check=True, capture_output=True, cwd=self.root)

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.socket}"

    def new_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if not self.root.exists():
            return
        subprocess.run([*self.as_user, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, cwd=self.root)
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgresql() -> Iterator[PostgreSQL]:
    try:
        server = PostgreSQL()
    except (FileNotFoundError, LookupError, subprocess.CalledProcessError) as exc:
        detail = exc.stderr.decode(errors="replace") if isinstance(exc, subprocess.CalledProcessError) else str(exc)
        if os.environ.get("CI"):  # CI installs PostgreSQL (scripts/test): its absence is a failure there
            raise RuntimeError(f"PostgreSQL could not start: {detail}") from exc
        pytest.skip(f"PostgreSQL could not start: {detail}")
    atexit.register(server.stop)  # also when the test process ends without its teardown
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests play their seats as fast as the machine goes, faster than the per-connection limit
    for people allows: lifted here, except where a test sets its own (`message_limits`)."""
    from cardtable.server import context

    for kind in ("act", "sync", "ping"):
        monkeypatch.setitem(context.MESSAGE_LIMITS, kind, (1e6, 1e6))


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for one test, by URL: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.db")
    server: PostgreSQL = request.getfixturevalue("postgresql")
    return server.new_database()


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_time=0.5)) as c:
        yield c


def new_table(client: TestClient, seats: list[dict[str, Any]], seed: int = 1, game: str = "juno",
              **options: Any) -> dict[str, Any]:
    if game == "juno":
        options.setdefault("match", False)  # one round keeps the tests short
    r = client.post("/api/tables", json={"game": game, "options": options, "seats": seats, "seed": seed})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def snapshot(client: TestClient, tid: str) -> tuple[int, list[str], dict[str, Any]]:
    """What a refusal must leave unchanged: the version, the stored log and the true state.

    Read on the server's event loop under the table's lock: a bot's move is then either wholly applied or
    not begun (read from the test's thread, a state could be caught halfway through an apply)."""
    lobby, store = client.app.state.lobby, client.app.state.store  # type: ignore[attr-defined]

    async def read() -> tuple[int, list[str], dict[str, Any]]:
        table = lobby.get(tid)  # on the event loop too: a table evicted and loaded again starts its bots there
        async with table.lock:
            return table.version, store.load(tid).actions, table.state.to_json()

    return client.portal.call(read)  # type: ignore[union-attr,no-any-return]


def next_state(ws: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next `state` message (acks are skipped); every message is kept in `seen`."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if seen is not None:
            seen.append(m)
        if m["type"] == "state":
            return m
        assert m["type"] == "ack", m


def play_until(ws: Any, stop: Callable[[dict[str, Any]], bool], choose: Callable[[dict[str, Any]], Any] | None = None,
               seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play this seat's moves (the first legal one unless `choose` says) until `stop(state)`."""
    acted = -1
    while True:
        m = next_state(ws, seen)
        if stop(m) or m["over"]:
            return m
        # Several messages may carry one version (a seat connecting is broadcast too): act once per version.
        if m["legal"] and m["version"] > acted:
            acted = m["version"]
            action = choose(m) if choose else m["legal"][0]["index"]
            ws.send_json({"type": "act", "action": action, "version": m["version"]})
