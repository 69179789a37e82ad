"""A generator for games whose hidden cards must stay hidden from the people playing them.

SplitMix64 (`rng.Rng`) is right for simulation: fast, one integer of state, reproducible. But
each of its outputs is an invertible function of its state, so anyone who sees a few outputs
(a public "drawing for the deal" line, dice) can recover the state and predict every card
dealt after; and a 31-bit seed can simply be searched. A served table therefore deals with
`KeyedRng`: BLAKE2b keyed with the table's secret seed, run in counter mode (output k is
BLAKE2b(key, k)). Seeing any number of outputs tells nothing about the key or the next
output unless BLAKE2b, used as a keyed PRF, is broken; with a seed of at least 128 bits from
`secrets`, the key cannot be searched either.

It has `Rng`'s interface and is a subclass, so a state carries it like any generator: the game's
rules draw from `state.rng` without knowing which generator it is. Replays stay exact: the same
seed and actions give the same game. `state.to_json()` records only the counter, not the key,
so a served state is rebuilt from its seed and actions (as the server does), never from a
saved JSON state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, MutableSequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .rng import Rng

if TYPE_CHECKING:
    from .game import Game
    from .state import State

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
#: BLAKE2b's personalization: these streams can never equal a hash of the same key made elsewhere
_DEAL: Final = b"cardtable.deal"
_SPAWN: Final = b"cardtable.spawn"
#: seeds below 2**512 (64 bytes, BLAKE2b's own key size limit is 64 bytes)
SEED_LIMIT: Final = 1 << 512


def _key_of(seed: int) -> bytes:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError("a keyed generator's seed is a non-negative integer below 2**512")
    raw = seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "little")
    return hashlib.blake2b(raw, digest_size=32, person=_DEAL).digest()


class KeyedRng(Rng):
    """BLAKE2b-256(seed) as a key; output k is the first 8 bytes of BLAKE2b(key, k).

    `state` (Rng's one slot) is the counter k: the number of outputs drawn so far."""

    __slots__ = ("_key",)

    def __init__(self, seed: int = 0) -> None:
        self._key = _key_of(seed)
        self.state = 0

    @classmethod
    def _from_key(cls, key: bytes) -> KeyedRng:
        r = cls.__new__(cls)
        r._key = key
        r.state = 0
        return r

    def next64(self) -> int:
        k = self.state
        self.state = (k + 1) & _MASK
        digest = hashlib.blake2b(k.to_bytes(8, "little"), key=self._key, digest_size=8).digest()
        return int.from_bytes(digest, "little")

    # `below`, `random` and `choice` come from Rng and draw through `next64`.

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: item i swaps with `below(i + 1)`, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled_pops(self, items: list[T]) -> Iterator[T]:
        """What `shuffle(items)` followed by repeated `items.pop()` gives (`items` is consumed).
        The shuffle happens at once, so the generator has advanced as soon as this returns."""
        self.shuffle(items)
        return self._pop_all(items)

    @staticmethod
    def _pop_all(items: list[T]) -> Iterator[T]:
        while items:
            yield items.pop()

    def spawn(self) -> KeyedRng:
        """An independent keyed stream, advancing this one."""
        k = self.next64()
        return KeyedRng._from_key(hashlib.blake2b(k.to_bytes(8, "little"), key=self._key, digest_size=32,
                                                  person=_SPAWN).digest())

    def derive(self, label: str) -> int:
        """A 64-bit number for `label` (e.g. a bot's seed for one move) that depends on the key and
        reveals nothing of it. It does not advance the generator."""
        digest = hashlib.blake2b(label.encode(), key=self._key, digest_size=8, person=_SPAWN).digest()
        return int.from_bytes(digest, "little")

    def clone(self) -> KeyedRng:
        r = KeyedRng.__new__(KeyedRng)
        r._key = self._key
        r.state = self.state
        return r

    def __repr__(self) -> str:  # never the key
        return f"KeyedRng(drawn={self.state})"


def deal(game: Game[Any], seed: int, rng: Rng, record_events: bool = True) -> State:
    """`game.new_state(seed)`, dealt with `rng` instead of `Rng(seed)`.

    It does what each game's `new_state` does (an empty state, the common fields, then the game's
    `_setup`), which tests/server/test_secure_deal.py checks for every registered game by dealing
    with `Rng(seed)` and comparing with `new_state(seed)` byte for byte."""
    state: State = game._empty_state()
    setup = getattr(state, "_setup", None)
    if setup is None:
        raise TypeError(f"{game.spec.title} states have no _setup: they cannot be dealt with another generator")
    state._init_base(game, seed, rng, record_events)
    setup()
    return state
