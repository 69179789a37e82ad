"""Fixtures for the server tests: an app on a fresh SQLite file, driven by FastAPI's TestClient."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import create_app


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "tables.db")


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
