"""Zones and what each seat sees (rulebook: Zones; Revealing Cards), and saving, cloning and
determinizing in the middle of the response stack."""

from __future__ import annotations

import json

from .helpers import LIO, names, play, position


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
    brand = s.attached["h1"][0]
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


def test_save_clone_and_determinize_in_the_middle_of_the_stack() -> None:
    s = position(hands=(["Fireball"], ["Hush"]), power=(2, 1), actions=(3, 1))
    play(s, "play Fireball", "unleash", "play Hush")
    assert len(s.chain.items) == 2
    data = json.loads(json.dumps(s.to_json()))
    back = s.game.state_from_json(data)
    assert back.to_json() == s.to_json()
    c = s.clone()
    play(c, "pass")
    assert c.controls[0]["silence"] == 2 and s.controls[0]["silence"] == 0 and len(s.chain.items) == 2
    play(back, "pass")
    assert back.to_json()["state"] == c.to_json()["state"]
    d = s.determinize(0, 3)
    assert [a.text for a in d.legal_actions()] == [a.text for a in s.legal_actions()]


def test_observation_shows_the_stack_board_and_control() -> None:
    s = position(hands=(["Burning Brand"], []), power=(2, 0), decks=("Sir Edda Vane", LIO))
    s.controls[1]["slow"] = 2
    s.terrain["0"] = "difficult"
    play(s, "play Burning Brand")
    o = s.observation(1)
    brand = s.played[0]
    assert o["stack"] == [{"card": "Burning Brand", "id": brand, "ref": f"Burning Brand #{brand}", "controller": 0,
                           "copy": False, "targets": [LIO], "countered": False, "unleashed": False}]
    assert o["terrain"] == {"a1": "difficult"} and o["heroes"][1]["control"]["slow"] == 2
    assert o["decision"]["kind"] == "priority" and names(s, s.played) == ["Burning Brand"]


def test_a_revealed_card_stays_face_up_in_the_deck_until_that_deck_is_shuffled() -> None:
    s = position(hands=(["Burning Brand"], ["Fold Into Memory", "Insight"]), power=(2, 0), actions=(3, 0),
                 at=("b2", "b3"))
    play(s, "play Burning Brand", "pass", "end turn")
    brand = s.attached["h1"][0]
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
