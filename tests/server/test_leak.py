"""Hidden information never leaks: every payload a seat receives in full games is what
`observation(seat)`, `events_for(seat)` and its own legal actions give, and nothing of
other seats' hidden cards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.core import Rng, State, games
from cardtable.server.encoding import encode, narrate_lines
from cardtable.server.live import replay

from .conftest import new_table, next_state

BOT = {"kind": "bot", "agent": "easy"}
PERSON = {"kind": "person"}


def hidden_hands(state: State, seat: int | None) -> list[list[str]]:
    """Other seats' hands while hidden, as the JSON lists an accidental leak would carry
    (a Runes of Zun hand exposed by Expose is public, so it is not hidden)."""
    out = []
    public = state.observation(None)
    exposed = public.get("exposed_hands") or {}
    for o in range(state.game.players):
        if o != seat and str(o) not in exposed:
            out.append(_hand(state.observation(o)))
    return out


def _hand(obs: dict[str, Any]) -> Any:
    """A seat's secret cards in its observation: a hand (Iuno Avatar calls it Heaven)."""
    return obs["hand"] if "hand" in obs else obs.get("heaven")


def check_payload(m: dict[str, Any], states: list[State]) -> None:
    seat, v = m["seat"], m["version"]
    state = states[v]
    # 1. exactly the observation, the narrated visible events and (only when deciding) the legal actions
    assert m["observation"] == state.observation(seat)
    visible = state.events_for(seat)
    names = [x["name"] for x in m["seats"]]
    assert m["log"] == narrate_lines(state.game, visible[m["log_from"]:], seat, names)
    decides = seat is not None and state.current_player == seat
    assert [a["text"] for a in m["legal"]] == ([a.text for a in state.legal_actions()] if decides else [])
    # 2. the same message is built from determinized copies, whose hidden cards are resampled:
    #    nothing in it depends on what this seat cannot know
    if seat is not None and not state.is_over:
        keys = ("observation", "log", "legal", "current_player", "version")
        real = encode(m["table"], state.game, state, v, seat, m["seats"], m["log_from"])
        for k in range(2):
            det = state.determinize(seat, Rng(1000 * v + k))
            det.events = state.events_for(seat)  # a view carries no log: give it only what the seat saw
            fake = encode(m["table"], state.game, det, v, seat, m["seats"], m["log_from"])
            assert {key: fake[key] for key in keys} == {key: real[key] for key in keys}
    # 3. a direct scan: no other seat's hand (2+ cards) appears in the payload while it is hidden
    if not state.is_over:
        text = json.dumps(m)
        mine = _hand(state.observation(seat)) if seat is not None else None
        for hand in hidden_hands(state, seat):
            if len(hand) >= 2 and hand != mine:
                assert json.dumps(hand) not in text


CASES = [
    ("juno", [PERSON, BOT], {}, 1),
    ("juno", [PERSON, PERSON, BOT, BOT], {"variant": "seven-o"}, 2),  # seven-o: hands change owners
    ("juno", [PERSON, BOT, PERSON], {"wild_draw_four": "challenge"}, 3),  # a challenge shows a hand to one seat
    ("iunu", [PERSON, PERSON, BOT], {}, 4),  # hands, Scribe cards and Afterlife cards are private
    ("zun", [PERSON, BOT, PERSON, BOT], {"teams": 2}, 5),  # hands are private unless exposed
    ("iuno_avatar", [PERSON, BOT, PERSON], {"turn_limit": 12}, 6),  # each Heaven is its owner's only
    ("ivion", [PERSON, PERSON], {}, 6),  # hands, decks and second-wind looks are private
]


@pytest.mark.parametrize(("game", "seats", "options", "seed"), [c for c in CASES if c[0] in games()])
def test_no_payload_carries_what_the_seat_may_not_see(client: TestClient, game: str, seats: list[dict[str, Any]],
                                                      options: dict[str, Any], seed: int) -> None:
    t = new_table(client, seats, seed=seed, game=game, **options)
    tid = t["id"]
    people = [s["seat"] for s in t["seats"] if "token" in s]
    seen: dict[int | None, list[dict[str, Any]]] = {s: [] for s in people}
    seen[None] = []
    with client.websocket_connect(f"/ws/{tid}") as spectator:
        socks = {s: client.websocket_connect(f"/ws/{tid}?token={t['seats'][s]['token']}") for s in people}
        for ws in socks.values():
            ws.__enter__()
        try:
            # The person whose decision it is plays its first legal move; bots play themselves
            # (then we wait on the spectator's socket, which hears every move).
            table = client.app.state.lobby.get(tid)  # type: ignore[attr-defined]
            while not table.state.is_over:
                seat, version = table.state.current_player, table.version
                if seat in socks:
                    m = next_state(socks[seat], seen[seat])
                    while not (m["legal"] and m["version"] == version):
                        m = next_state(socks[seat], seen[seat])
                    socks[seat].send_json({"type": "act", "action": m["legal"][0]["index"], "version": version})
                while table.version == version and not table.state.is_over:
                    next_state(spectator, seen[None])
            # drain every socket to the end of the game
            for s, ws in [*socks.items(), (None, spectator)]:
                states_seen = [x for x in seen[s] if x["type"] == "state"]
                while not (states_seen and states_seen[-1]["over"]):
                    states_seen.append(next_state(ws, seen[s]))
        finally:
            for ws in socks.values():
                ws.__exit__(None, None, None)
    rec = client.app.state.store.load(tid)  # type: ignore[attr-defined]
    states = replay(rec, every=True)
    assert states[-1].is_over
    payloads = [m for ms in seen.values() for m in ms if m["type"] == "state"]
    assert len(payloads) > len(rec.actions)  # every seat heard of the game as it went
    for m in payloads:
        check_payload(m, states)
    # every seat (and the spectator) received the whole log of what it may see, in order
    for s, ms in seen.items():
        lines: list[str] = []
        for m in (x for x in ms if x["type"] == "state"):
            if m["log_from"] == 0:
                lines = []
            if m.get("log_reset"):  # a spectator far behind: only the newest lines, the log starts again there
                assert s is None
                lines = narrate_lines(states[-1].game, states[m["version"]].events_for(s)[: m["log_from"]], s,
                                      [x["name"] for x in m["seats"]])
            assert m["log_from"] == len([x for x in states[m["version"]].events_for(s)][: m["log_from"]])
            lines += m["log"]
        assert lines == narrate_lines(states[-1].game, states[-1].events_for(s), s, [x["name"] for x in ms[-1]["seats"]])


def test_encoding_a_seat_never_uses_the_true_hands(client: TestClient) -> None:
    """A control for the scan above: the spectator's payload holds no hand at all, and a seat's holds its own."""
    t = new_table(client, [PERSON, PERSON], seed=4)
    table = client.app.state.lobby.get(t["id"])  # type: ignore[attr-defined]
    spectator = table.message(None)
    assert "hand" not in spectator["observation"] and spectator["legal"] == []
    for seat in (0, 1):
        msg = table.message(seat)
        assert msg["observation"]["hand"] == table.state.observation(seat)["hand"]
        assert json.dumps(table.state.observation(1 - seat)["hand"]) not in json.dumps(msg)
