"""Finding 6 of issue 20: a replay shows each viewer what that viewer's events showed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardtable.server.encoding import narrate_lines
from cardtable.server.live import replay
from cardtable.ui.names import rename, seated

from .conftest import new_table, play_until


def test_replay_moves_are_told_as_each_viewer_saw_them(client: TestClient) -> None:
    t = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], seed=3, game="iunu")
    tid, tok = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        play_until(ws, lambda m: False)
    table = client.app.state.lobby.get(tid)  # type: ignore[attr-defined]
    states = replay(table.rec, every=True)
    hidden_from_others = 0
    for step, action in enumerate(table.rec.actions, 1):
        actor = states[step - 1].current_player
        new = {v: [e for e in (states[step].events or [])[len(states[step - 1].events or []):] if e.visible_to(v)]
               for v in (None, 0)}
        told = {v: client.get(f"/api/tables/{tid}/replay", params={"step": step, **({"token": tok} if v == 0 else {})})
                .json()["last_action"] for v in (None, 0)}
        # a spectator reads only what the public log said of the move
        names = table.names()
        assert told[None] == (" ".join(narrate_lines(table.game, new[None], None, names)) or None)
        # a seat reads its own move in full (seats by name), another seat's as its own log said it
        with seated(names):
            own = rename(action)
        assert told[0] == (own if actor == 0 else " ".join(narrate_lines(table.game, new[0], 0, names)) or None)
        if action.startswith(("keep ", "put ")) and action != "keep the dice":  # a face-down choice
            card = action.split(" ", 1)[1].split(" under ")[0]
            assert card not in (told[None] or "")
            if actor != 0:
                assert card not in (told[0] or "")
                hidden_from_others += 1
    assert hidden_from_others > 0  # the bot made face-down choices, and none was told to seat 0 or a spectator
