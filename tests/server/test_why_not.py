"""Issue 30: the server sends each game's why-not the same way: `cards` (the core's
`State.card_status`), to the seat that decides only, of its own cards; every other seat and a
spectator get none."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.server.encoding import encode

SEATS = [{"name": n} for n in ("Ann", "Bo", "Cy")]


@pytest.mark.parametrize(("game_name", "players"), [("juno", 3), ("iunu", 3), ("iuno_avatar", 3), ("ivion", 2)])
def test_only_the_deciding_seat_is_sent_its_cards_why_not(game_name: str, players: int) -> None:
    game = cardtable.make(game_name, players=players) if game_name != "ivion" else cardtable.make("ivion")
    state = game.new_state(1)
    rnd = random.Random(1)
    sent = 0
    while not state.is_over and sent < 5:
        seat = state.current_player
        assert seat is not None
        status = state.card_status(seat)
        if status:
            m = encode("t", game, state, 1, seat, SEATS[:players])
            assert set(m["cards"]) == set(status)
            for name, st in status.items():
                assert m["cards"][name]["move"] == st["move"]
                assert [x["move"] for x in m["cards"][name]["moves"]] == [x["move"] for x in st["moves"]]
                assert (m["cards"][name]["why"] is None) == (st["why"] is None)
            for other in [*range(players), None]:
                if other != seat:
                    assert encode("t", game, state, 1, other, SEATS[:players])["cards"] == {}
            sent += 1
        state.apply(rnd.choice(state.legal_actions()))
    assert sent == 5
