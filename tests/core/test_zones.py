"""Zones, state layouts, decisions that own their behaviour and `State.check`, on a game written
only against the core (tests/core/toy.py) that uses every zone form."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import field_validator

import cardtable
from cardtable.core import CardFileError, Form, Game, IllegalAction, Layout, Pool, StateLayout, Visibility, Zone
from cardtable.core.cards import CardSchema, read_card_file, validate
from cardtable.core.registry import _GAMES, _LOADED
from cardtable.core.zones import permute

from ..conformance.checks import dumps, play_and_check
from .bury import Bury, BuryState
from .toy import Keep, Toy, ToyState


def _registered(name: str, game: type[Game[Any]]) -> Iterator[None]:
    cardtable.core.register(name, game)
    try:
        yield
    finally:
        _GAMES.pop(name, None)
        _LOADED.pop(name, None)


@pytest.fixture
def toy() -> Iterator[None]:
    yield from _registered("toy", Toy)


def _play(state: ToyState, texts: list[str]) -> ToyState:
    for t in texts:
        state.apply(t)
    return state


def test_the_toy_game_passes_the_conformance_checks(toy: None) -> None:
    counters: Counter[str] = Counter()
    for seed in range(40):
        play_and_check("toy", {"players": 2 + seed % 3}, seed, heavy_every=2, counters=counters)
    assert counters["games"] == 40 and counters["resampled"] > 0


def test_a_layout_refuses_a_name_twice_a_hidden_record_zone_and_a_host_without_hosting() -> None:
    with pytest.raises(ValueError, match=r"names \['deck'\] more than once"):
        StateLayout(zones=(Zone("deck", Visibility.HIDDEN),), values=("deck",))
    with pytest.raises(ValueError, match="a zone of records must be public"):
        Zone("table", Visibility.HIDDEN, form=Form.RECORDS)
    with pytest.raises(ValueError, match="HOSTED zone names its host"):
        Zone("attached", Visibility.PUBLIC, layout=Layout.HOSTED)
    with pytest.raises(ValueError, match="HOSTED zone names its host"):
        Zone("deck", Visibility.PUBLIC, host="hero")


def test_clone_copies_every_zone_form_and_field_independently() -> None:
    state = _play(Toy(Toy.Options(players=2)).new_state(3), [])
    legal = [a.text for a in state.legal_actions()]
    state.apply(next(t for t in legal if t.startswith("play")))
    state.apply(next(a.text for a in state.legal_actions() if a.text.startswith("bank")))
    before = dumps(state)
    c = state.clone()
    assert dumps(c) == before
    c.deck.append(99)
    c.hands[0].append(99)
    next(iter(c.attached.values())).append(99)
    c.attached["new"] = [1]
    c.tucked[0] = 3
    c.vault[1][0] += 5
    c.peeked[0] = True
    c.played[0] += 1
    assert dumps(state) == before


def test_snapshot_round_trips_through_json_and_a_damaged_one_is_refused() -> None:
    game = Toy(Toy.Options(players=3))
    state = game.new_state(11)
    for _ in range(5):
        state.apply(state.legal_actions()[-1])
    data = json.loads(json.dumps(state.to_json()))
    assert dumps(game.state_from_json(data)) == dumps(state)
    del data["state"]["vault"]
    with pytest.raises(cardtable.ReplayError, match="damaged.*vault"):
        game.state_from_json(data)


def test_invariants_count_the_cards_of_every_zone_form() -> None:
    state = Toy(Toy.Options(players=2)).new_state(1)
    assert state.invariants() == {"cards": 12}
    _play(state, ["peek"])  # two cards now sit in the pending decision
    assert isinstance(state.decision, Keep)
    assert state.invariants() == {"cards": 12}


def _zones_seen_by(state: ToyState, seat: int) -> dict[str, Any]:
    return {"hand": sorted(state.hands[seat]), "tucked": state.tucked[seat], "vault": list(state.vault[seat]),
            "attached": state.attached, "deck": len(state.deck), "others": [len(h) for h in state.hands]}


def _unseen(state: ToyState, seat: int) -> Counter[int]:
    other = 1 - seat
    d = state.decision
    cards = [*state.deck, *state.hands[other], *(t for t, n in enumerate(state.vault[other]) for _ in range(n))]
    cards += [state.tucked[other]] if state.tucked[other] >= 0 else []
    cards += list(d.cards) if isinstance(d, Keep) and d.seat == other else []
    return Counter(cards)


def test_determinize_keeps_what_the_seat_sees_and_deals_the_rest_anew() -> None:
    game = Toy(Toy.Options(players=2))
    moved = 0
    for seed in range(30):
        state = game.new_state(seed)
        for k in range(4):  # each seat plays, banks or tucks, so every form holds cards
            state.apply(state.legal_actions()[(seed + k) % len(state.legal_actions())])
        for seat in range(2):
            det = state.determinize(seat, seed)
            assert _zones_seen_by(det, seat) == _zones_seen_by(state, seat)
            assert det.invariants() == state.invariants()
            assert _unseen(det, seat) == _unseen(state, seat)  # the same cards, dealt anew
            moved += dumps(det) != dumps(state)
            assert det.seed is None and det.history == []
    assert moved > 0


def test_a_decision_holding_hidden_cards_is_resampled_for_others_only() -> None:
    game = Toy(Toy.Options(players=2))
    changed = 0
    for seed in range(20):
        state = _play(game.new_state(seed), ["peek"])
        d = state.decision
        assert isinstance(d, Keep) and d.seat == 0
        own = state.determinize(0, seed)
        assert own.decision.to_json() == d.to_json()  # type: ignore[union-attr]
        other = state.determinize(1, seed)
        od = other.decision
        assert isinstance(od, Keep) and len(od.cards) == 2
        assert other.invariants() == state.invariants()
        changed += od.cards != d.cards
        assert other.observation(1) == state.observation(1)
    assert changed > 0


def test_revealed_when_over_zones_stay_put_once_the_game_is_over() -> None:
    game = Toy(Toy.Options(players=2))
    state = game.new_state(4)
    state.apply(next(a for a in state.legal_actions() if a.text.startswith("tuck")))
    while not state.is_over:
        state.apply(next((a for a in state.legal_actions() if a.text == "draw"), state.legal_actions()[0]))
    assert state.tucked[0] >= 0
    for seed in range(10):
        assert state.determinize(1, seed).tucked == state.tucked


@pytest.fixture
def bury() -> Iterator[None]:
    yield from _registered("bury", Bury)


def _buried_and_dealt(seed: int) -> BuryState:
    """A game of Bury where seat 0 has buried two cards and drawn, so its deck's bottom is known."""
    state = Bury(Bury.Options()).new_state(seed)
    for text in ("bury", "draw", "bury", "draw", "draw"):
        state.apply(f"bury {min(state.hand[0])}" if text == "bury" else text)
    assert state.buried == [2, 0]
    return state


def test_owner_pools_keep_each_seats_cards_its_own_and_known_positions_stay(bury: None) -> None:
    moved = 0
    for seed in range(30):
        state = _buried_and_dealt(seed)
        for seat in range(2):
            det = state.determinize(seat, seed)
            other = 1 - seat
            assert det.observation(seat) == state.observation(seat)
            assert det.hand[seat] == state.hand[seat]
            # cards never change owner: the other seat's hand and deck hold its own cards, dealt anew
            assert sorted(det.hand[other] + det.deck[other]) == sorted(state.hand[other] + state.deck[other])
            assert len(det.hand[other]) == len(state.hand[other])
            # seat 0 buried the bottom two cards of its deck: it knows them, so they stay for it
            if seat == 0:
                assert det.deck[0][:2] == state.deck[0][:2]
                assert sorted(det.deck[0][2:]) == sorted(state.deck[0][2:])
            moved += dumps(det) != dumps(state)
        # for seat 1 seat 0's buried cards are hidden like the rest of its deck and hand
        other_view = [state.determinize(1, k) for k in range(20)]
        assert any(v.deck[0][:2] != state.deck[0][:2] for v in other_view)
    assert moved > 0


def test_shuffle_unseen_keeps_what_any_seat_knows(bury: None) -> None:
    state = _buried_and_dealt(3)
    orders = set()
    for k in range(20):
        c = state.clone()
        c.shuffle_unseen(cardtable.Rng(k))
        assert c.deck[0][:2] == state.deck[0][:2] and c.hand == state.hand
        assert sorted(c.deck[1]) == sorted(state.deck[1])
        orders.add((tuple(c.deck[0]), tuple(c.deck[1])))
    assert len(orders) > 1


def test_the_bury_game_passes_the_conformance_checks(bury: None) -> None:
    counters: Counter[str] = Counter()
    for seed in range(20):
        play_and_check("bury", {}, seed, heavy_every=1, counters=counters)
    assert counters["games"] == 20 and counters["resampled"] > 0 and counters["shuffled"] > 0


def test_a_zone_pooled_per_owner_has_a_part_per_seat() -> None:
    with pytest.raises(ValueError, match="pooled per owner has one part per seat"):
        Zone("deck", Visibility.HIDDEN, pool=Pool.OWNER)


def test_check_names_the_legal_action_changes_nothing_and_refuses_with_the_decisions_reason() -> None:
    game = Toy(Toy.Options(players=2))
    state = game.new_state(6)
    before = dumps(state)
    legal = state.legal_actions()
    assert state.check(legal[0].text) is legal[0]
    assert state.check(legal[0].index) is legal[0]
    assert state.check(legal[0]) is legal[0]
    missing = next(t for t in range(4) if t not in state.hands[0])
    with pytest.raises(IllegalAction, match=f"seat 0 holds no {missing}"):
        state.check(f"play {missing}")
    with pytest.raises(IllegalAction, match="seat 0 plays, tucks or draws a card"):
        state.check("keep 0")
    with pytest.raises(IllegalAction, match="an action must be"):
        state.check(2.5)
    assert dumps(state) == before


def test_permute_is_a_permutation_that_depends_on_the_key() -> None:
    items = list(range(50))
    assert sorted(permute(items, 1)) == items
    assert permute(items, 1) == permute(items, 1) != permute(items, 2)


def test_permute_orders_large_and_small_pools_alike() -> None:
    """Large pools are ordered by numpy's stable argsort of the keys: the very order Python's stable
    `sorted` gives them, so determinized copies are the same whichever way a pool is sorted."""
    from array import array
    from hashlib import shake_128

    for n in (1, 2, 23, 24, 25, 80, 108, 300):
        items = [100 + i for i in range(n)]
        for key in (0, 1, 2**63 + 5, 987654321):
            keys = array("I", shake_128(key.to_bytes(8, "little")).digest(4 * n))
            assert permute(items, key) == [items[i] for i in sorted(range(n), key=keys.__getitem__)]


class _Cards(CardSchema):
    CARD_COLLECTIONS = {"hero": "hero"}

    hero: dict[str, _Hero]


class _Hero(CardSchema):
    hp: int
    colour: str

    @field_validator("colour")
    @classmethod
    def _colour(cls, value: str) -> str:
        if value not in ("red", "blue"):
            raise ValueError(f"field 'colour' must be red or blue, got {value!r}")
        return value


_Cards.model_rebuild()


@pytest.mark.parametrize(
    "text, message",
    [
        ('[hero.Ada]\nhp = "ten"\ncolour = "red"\n', "hero 'Ada': field 'hp': Input should be a valid integer (got 'ten')"),
        ('[hero.Ada]\ncolour = "red"\n', "hero 'Ada': field 'hp': Field required"),
        ('[hero.Ada]\nhp = 3\ncolour = "red"\nwings = 2\n', "hero 'Ada': unknown field 'wings'"),
        ('[hero.Ada]\nhp = 3\ncolour = "green"\n', "field 'colour' must be red or blue, got 'green'"),
        ("villain = 1\n", "unknown field 'villain' (allowed: hero)"),
    ],
)
def test_the_card_loader_names_the_file_the_card_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "heroes.toml"
    path.write_text(text)
    with pytest.raises(CardFileError) as err:
        validate(read_card_file(path, "hero file"), _Cards, f"hero file {path}")
    assert str(err.value).startswith(f"hero file {path}: ") and message in str(err.value)


def test_the_card_loader_refuses_what_is_not_a_readable_card_file(tmp_path: Path) -> None:
    with pytest.raises(CardFileError, match="cannot read it .No such file"):
        read_card_file(tmp_path / "missing.toml", "hero file")
    with pytest.raises(CardFileError, match="cannot read it .not a regular file"):
        read_card_file(tmp_path, "hero file")
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(CardFileError, match="bad.json: not valid JSON"):
        read_card_file(bad, "hero file")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    with pytest.raises(CardFileError, match="larger than"):
        read_card_file(big, "hero file")
