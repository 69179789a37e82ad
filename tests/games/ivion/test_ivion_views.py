"""Zones and what each seat sees (rulebook: Zones; Revealing Cards), and saving, cloning and
determinizing in the middle of the response stack."""

from __future__ import annotations

import json

from cardtable.games.ivion.state import Host

from .helpers import EDDA, LIO, LIO_DISPEL, names, play, position, texts


def test_hands_and_decks_are_private_discards_feats_and_the_field_public() -> None:
    s = position(hands=(["Flame Lash", "Cleave"], ["Hush"]))
    mine, theirs, spectator = s.observation(0), s.observation(1), s.observation(None)
    assert mine["hand"] == ["Cleave", "Flame Lash"] and theirs["hand"] == ["Hush"] and "hand" not in spectator
    assert theirs["heroes"][0]["hand_size"] == 2 and "Cleave" not in json.dumps(theirs)
    assert [f["name"] for f in theirs["heroes"][0]["feats"]] == ["Last Stand", "Kindle", "Spellscar"]
    assert "deck" in mine["heroes"][0] and isinstance(mine["heroes"][0]["deck"], int)  # a count only


def test_a_card_back_in_hand_from_a_public_zone_stays_revealed() -> None:
    s = position(hands=(["Burning Brand"], ["Recall Echo"]), power=(2, 0), at=("b2", "b3"))
    play(s, "play Burning Brand", "pass", "end turn")
    brand = s.attached[Host("hero", 1)][0]
    play(s, "play Recall Echo", f"target Burning Brand #{brand}", "pass")
    assert brand in s.shown[0] and s.observation(1)["heroes"][0]["revealed_in_hand"] == ["Burning Brand"]
    assert "Burning Brand" in s.observation(0)["hand"]
    det = s.determinize(1, 5)
    assert brand in det.shown[0]  # a revealed card is not resampled


def test_determinize_deals_each_seats_hidden_cards_among_its_own_places() -> None:
    s = position(hands=(["Flame Lash", "Cleave"], ["Hush"]))
    for seed in range(5):
        d = s.determinize(1, seed)
        assert d.hand[1] == s.hand[1]  # my own hand stays
        assert all(d.owner(c) == 0 for c in (*d.hand[0], *d.deck[0]))  # cards never change owner
        assert sorted(d.hand[0] + d.deck[0]) == sorted(s.hand[0] + s.deck[0])
        assert d.observation(1) == s.observation(1)


def test_hosts_are_records_saved_as_the_recorded_games_keys() -> None:
    # the `attached` zone's hosts are `Host` records; its JSON keys stay "h1", "t5", "c17", "p0"
    s = position(hands=(["Burning Brand"], []), power=(2, 0), at=("b2", "b3"))
    play(s, "play Burning Brand", "pass")
    brand = s.attached[Host("hero", 1)][0]
    data = json.loads(json.dumps(s.to_json()))
    assert data["state"]["attached"] == {"h1": [brand]}
    back = s.game.state_from_json(data)
    assert back.attached == {Host("hero", 1): [brand]} and back.location(brand) == s.pos[1]
    assert Host.from_json("c17") == Host("card", 17) and Host("player", 0).to_json() == "p0"


def test_save_clone_and_determinize_in_the_middle_of_the_stack() -> None:
    s = position(hands=(["Fireball"], ["Hush"]), power=(2, 1), actions=(3, 1))
    play(s, "play Fireball", "unleash", "play Hush")
    assert len(s.chain.items) == 2
    data = json.loads(json.dumps(s.to_json()))
    back = s.game.state_from_json(data)
    assert back.to_json() == s.to_json()
    c = s.clone()
    play(c, "pass")
    assert c.controls[0]["silence"] == 1 and s.controls[0]["silence"] == 0 and len(s.chain.items) == 2
    play(back, "pass")
    assert back.to_json()["state"] == c.to_json()["state"]
    d = s.determinize(0, 3)
    assert [a.text for a in d.legal_actions()] == [a.text for a in s.legal_actions()]


def test_observation_shows_the_stack_board_and_control() -> None:
    s = position(hands=(["Burning Brand"], []), power=(2, 0), decks=("Sir Edda Vane", LIO))
    s.controls[1]["slow"] = 2
    s.terrain[0] = "difficult"
    play(s, "play Burning Brand")
    o = s.observation(1)
    brand = s.played[0]
    assert o["stack"] == [{"card": "Burning Brand", "id": brand, "ref": f"Burning Brand #{brand}", "controller": 0,
                           "copy": False, "targets": [LIO], "countered": False, "unleashed": False}]
    assert o["terrain"] == {"a1": "difficult"} and o["heroes"][1]["control"]["slow"] == 2
    # the tiles next to each hero by the direction a move takes (a corner has two)
    assert o["heroes"][0]["steps"] == {"north": "b3", "south": "b1", "east": "c2", "west": "a2"}
    s.pos[1] = 0
    assert s.observation(None)["heroes"][1]["steps"] == {"north": "a2", "east": "b1"}
    assert o["decision"]["kind"] == "priority" and names(s, s.played) == ["Burning Brand"]


def test_a_revealed_card_stays_face_up_in_the_deck_until_that_deck_is_shuffled() -> None:
    s = position(hands=(["Burning Brand"], ["Fold Into Memory", "Insight"]), power=(2, 0), actions=(3, 0),
                 at=("b2", "b3"))
    play(s, "play Burning Brand", "pass", "end turn")
    brand = s.attached[Host("hero", 1)][0]
    play(s, "play Fold Into Memory", f"target Burning Brand #{brand}", "pass")
    assert s.deck[0][-1] == brand and brand in s.revealed  # on top of Edda's deck, face up
    assert s.observation(1)["heroes"][0]["revealed_in_deck"] == [["Burning Brand", 0]]
    for seed in range(5):  # everyone saw it: determinize leaves it where it is
        d = s.determinize(1, seed)
        assert d.deck[0][-1] == brand and d.observation(1) == s.observation(1)
    play(s, "cantrip Insight", "pass")  # Lio shuffles Lio's deck: Edda's card stays revealed
    assert brand in s.revealed
    play(s, "end turn")  # Edda draws it: face up in her hand
    assert brand in s.shown[0] and brand not in s.revealed
    assert s.observation(1)["heroes"][0]["revealed_in_hand"] == ["Burning Brand"]


def test_shuffling_a_deck_ends_the_revealing_of_its_cards() -> None:
    s = position(hands=([], ["Insight"]), turn=1, actions=(0, 3), initiative=(0, 1))
    top = s.deck[1][-1]
    s.revealed.append(top)
    play(s, "play Insight", "pass")
    assert top in s.deck[1]  # still in the deck (not the card drawn), and no longer face up
    assert top not in s.revealed and s.observation(0)["heroes"][1]["revealed_in_deck"] == []


def test_every_event_of_random_games_has_a_visibility_and_reads_for_each_viewer() -> None:
    import random

    import cardtable
    from cardtable.games.ivion import text

    kinds: set[str] = set()
    for seed in range(12):
        s = cardtable.make("ivion").new_state(seed)
        r = random.Random(seed)
        while not s.is_over:
            s.apply(r.choice(s.legal_actions()))
        for e in s.events or []:
            kinds.add(e.kind)
            for viewer in (None, 0, 1):
                if e.visible_to(viewer):
                    line = text.narrate(e.to_json(), viewer)
                    assert line is None or isinstance(line, str)
            assert e.to is None or all(isinstance(x, int) for x in e.to)
    assert {"played", "resolves", "damage", "recalled", "game_over"} <= kinds


def test_in_a_response_window_each_card_says_whether_it_can_be_played_and_why_not() -> None:
    """What the table shows on each card the responding seat holds (`card_status`, issue 34): the move
    that plays it and the rule that refuses it now, the same words `apply` refuses it with."""
    import pytest

    from cardtable.core.errors import IllegalAction

    s = position(hands=(["Rallying Cry"], ["Hush", "Dispel", "Insight"]), decks=(EDDA, LIO_DISPEL), at=("a1", "d4"),
                 actions=(3, 1), power=(0, 0))
    play(s, "play Rallying Cry")
    assert s.decision is not None and s.decision.kind == "priority" and s.current_player == 1
    status = s.card_status(1)
    why = {name: st["why"] for name, st in status.items()}
    assert why["Dispel"] is None and why["Timeweaver"] is None  # instants it can afford, with a target
    assert why["Hush"] == "Hush costs 1 action and 1 power: you are short of 1 power"
    assert why["Insight"] == "Insight is not an instant: only instants answer a card being played"
    assert status["Timeweaver"]["move"] == "feat Timeweaver" and status["Hush"]["move"] == "play Hush"
    # the tiles each ranged card reaches from the hero's tile (the view lights them on hover)
    assert status["Hush"]["reach"] == ["d1", "c2", "d2", "b3", "c3", "d3", "a4", "b4", "c4", "d4"]
    s.pools[1]["power"] = 1
    s._legal = None
    assert s.card_status(1)["Hush"]["why"] == "Hush has no target in range"  # Edda is 6 tiles away, Hush reaches 3
    s.controls[1]["silence"] = 1
    s._legal = None
    assert s.card_status(1)["Dispel"]["why"] == "silenced: this card's banner includes silence"
    for st in s.card_status(1).values():  # the reason is the one the rules refuse the move with
        if st["why"] is None:
            assert st["move"] in texts(s)
        else:
            with pytest.raises(IllegalAction) as refused:
                s.apply(st["move"])
            assert str(refused.value) == st["why"]
    assert s.card_status(0) == {} and s.card_status(None) == {}  # only the seat that decides is told
