"""The lobby's list of tables (issue 36): moves so far and the time of the last move, and abandoned
tables (unfinished, no move for `abandoned_after`) left out of the list but kept, links working.
Time is a fake clock given to the store: nothing sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server import Store, create_app

from .conftest import new_table

PERSON = {"kind": "person"}
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lobby(db: str, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(store=Store(db, clock=clock), abandoned_after=24 * HOUR)) as c:
        yield c


def listed(client: TestClient) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in client.get("/api/tables").json()["tables"]}


def move(client: TestClient, t: dict[str, Any]) -> None:
    """The player whose turn it is makes their first legal move."""
    st = client.get(f"/api/tables/{t['id']}").json()
    token = t["seats"][st["current_player"]]["token"]
    mine = client.get(f"/api/tables/{t['id']}", params={"token": token}).json()
    r = client.post(f"/api/tables/{t['id']}/act", json={"action": mine["legal"][0]["index"], "version": mine["version"],
                                                        "token": token})
    assert r.status_code == 200, r.text


def test_the_list_gives_moves_and_the_time_of_the_last_move(lobby: TestClient, clock: Clock) -> None:
    t = new_table(lobby, [PERSON, PERSON])
    row = listed(lobby)[t["id"]]
    assert row["moves"] == 0 and row["last_move"] is None and row["created"] == clock.now
    clock.now += 90
    move(lobby, t)
    clock.now += 3 * HOUR
    data = lobby.get("/api/tables").json()
    row = {r["id"]: r for r in data["tables"]}[t["id"]]
    assert row["moves"] == 1 and data["now"] - row["last_move"] == 3 * HOUR


def test_abandoned_tables_leave_the_list_but_keep_their_game(lobby: TestClient, clock: Clock) -> None:
    idle = new_table(lobby, [PERSON, PERSON], seed=1)
    move(lobby, idle)
    playing = new_table(lobby, [PERSON, PERSON], seed=2)
    waiting = new_table(lobby, [PERSON, {"kind": "open"}], seed=3)  # nobody has moved: its creation counts
    clock.now += 23 * HOUR
    move(lobby, playing)
    assert {idle["id"], playing["id"], waiting["id"]} <= set(listed(lobby))
    clock.now += 2 * HOUR  # idle and waiting: 25 h without a move; playing: 2 h
    shown = listed(lobby)
    assert playing["id"] in shown and idle["id"] not in shown and waiting["id"] not in shown
    # Left out of the list only: the game is stored, its links work, and a move brings it back.
    st = lobby.get(f"/api/tables/{idle['id']}").json()
    assert st["version"] == 1
    move(lobby, idle)
    assert idle["id"] in listed(lobby)


def test_finished_tables_stay_listed_and_zero_keeps_every_table(db: str, clock: Clock) -> None:
    store = Store(db, clock=clock)
    with TestClient(create_app(store=store, abandoned_after=0)) as c:
        t = new_table(c, [PERSON, PERSON])
        clock.now += 1000 * HOUR
        assert t["id"] in listed(c)
        store.finish(t["id"])
    with TestClient(create_app(store=Store(db, clock=clock), abandoned_after=HOUR)) as c:
        row = listed(c)[t["id"]]
        assert row["finished"]
