"""Finding 1 of issue 20: a served table's deal cannot be predicted from what a client sees."""

from __future__ import annotations

import hashlib

import pytest

import cardtable
from cardtable.core import Rng, game_class, games
from cardtable.core.secure_rng import KeyedRng, deal


@pytest.mark.parametrize("name", games())
def test_deal_with_splitmix_is_exactly_new_state(name: str) -> None:
    """`deal` does what each game's new_state does: with Rng(seed) it gives the same state, byte for byte."""
    game = cardtable.make(name, players=min(3, game_class(name).spec.max_players))
    for seed in (0, 7, 2**40 + 3):
        assert deal(game, seed, Rng(seed)).to_json() == game.new_state(seed).to_json()


@pytest.mark.parametrize("name", games())
def test_keyed_deal_is_reproducible_and_depends_on_every_bit_of_the_seed(name: str) -> None:
    game = cardtable.make(name, players=min(3, game_class(name).spec.max_players))
    seed = 0x1F2E3D4C5B6A79880123456789ABCDEF  # 128 bits
    a, b = deal(game, seed, KeyedRng(seed)), deal(game, seed, KeyedRng(seed))
    assert a.to_json() == b.to_json()
    # Seeds that SplitMix64 would confuse (equal low 64 bits) deal differently.
    other = seed ^ (1 << 100)
    assert deal(game, other, KeyedRng(other)).to_json()["state"] != a.to_json()["state"]
    # The keyed generator's outputs are not SplitMix64's for the same seed.
    assert deal(game, 7, KeyedRng(7)).to_json()["state"] != game.new_state(7).to_json()["state"]


def test_keyed_outputs_are_a_keyed_hash_of_the_counter() -> None:
    """Output k is BLAKE2b(key, k): nothing of the key is in it, unlike SplitMix64 whose output gives its state."""
    seed = 12345678901234567890123456789
    r = KeyedRng(seed)
    key = hashlib.blake2b(seed.to_bytes(12, "little"), digest_size=32, person=b"cardtable.deal").digest()
    for k in range(5):
        want = int.from_bytes(hashlib.blake2b(k.to_bytes(8, "little"), key=key, digest_size=8).digest(), "little")
        assert r.next64() == want
    assert r.state == 5 and "key" not in repr(r) and str(seed) not in repr(r)


def test_keyed_clone_spawn_and_shuffle_behave_like_rng() -> None:
    r = KeyedRng(99)
    c = r.clone()
    assert [r.next64() for _ in range(3)] == [c.next64() for _ in range(3)]
    items = list(range(52))
    r.shuffle(items)
    assert sorted(items) == list(range(52)) and items != list(range(52))
    pops = list(c.clone().shuffled_pops(list(range(52))))
    check = c.clone()
    deck = list(range(52))
    check.shuffle(deck)
    assert pops == deck[::-1]
    child = r.spawn()
    assert isinstance(child, KeyedRng) and child.next64() != r.clone().next64()
    assert all(0 <= r.below(6) < 6 for _ in range(100)) and 0.0 <= r.random() < 1.0
    with pytest.raises(ValueError):
        KeyedRng(-1)
    with pytest.raises(TypeError):
        KeyedRng(True)
