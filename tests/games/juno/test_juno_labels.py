"""One wording for each JUNO decision (issue 36): the labels of text.choices, which the terminal lists
and the web table shows both on the decision's own button and under "Your moves"."""

from __future__ import annotations

from cardtable import make
from cardtable.core.secure_rng import KeyedRng, deal
from cardtable.server.encoding import encode


def test_pass_after_a_draw_is_keeping_the_card_wherever_it_is_offered() -> None:
    game = make("juno", players=2, match=False)
    state = deal(game, 12, KeyedRng(12))  # seat 0 draws a playable green 6
    state.apply("draw")
    assert state.observation(0)["decision"]["kind"] == "after_draw"
    seats = [{"name": "Ann"}, {"name": "Bo"}]
    msg = encode("t", game, state, 1, 0, seats)
    labels = {a["text"]: a["label"] for a in msg["legal"]}
    assert labels == {"play green 6": "play green 6", "pass": "keep the card"}


def test_trade_catch_and_challenge_name_the_player() -> None:
    from cardtable.games.juno.text import choices

    obs = {"decision": {"kind": "swap", "seat": 0}}
    assert choices(obs, ["swap with seat 1", "swap with seat 2"]) == [(0, "trade hands with seat 1"),
                                                                    (1, "trade hands with seat 2")]
    obs = {"decision": {"kind": "catch", "seat": 0, "target": 2}}
    assert choices(obs, ["catch", "pass"]) == [(0, "catch seat 2: 2 cards for not calling UNO"), (1, "let it go")]
    obs = {"decision": {"kind": "challenge", "seat": 1, "offender": 0}}
    assert choices(obs, ["challenge", "pass"]) == [(0, "challenge seat 0's Wild Draw Four"),
                                                   (1, "accept the Wild Draw Four")]
