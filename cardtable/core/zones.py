"""Zones: where a game's cards are, who may see them, and everything that follows from that.

A state declares its `Layout` once: its zones (a DRAW pile, hands, a Forum, cards in play) and
its other fields, each with how it is copied. From that declaration the core gives every game
the same `clone`, JSON snapshot, conservation count and `determinize` (DESIGN.md, "Zones"), so a
game writes only what is truly its own.

A zone is held by the state as plain Python lists of card ids (or, for `Form.COUNTS`, a count
per card type, as IUNU's Dynasty), so the rules read and write them at list speed (JUNO's hot
path).

- visibility: everyone (`PUBLIC`), its owner (`OWNER`: a hand), nobody (`HIDDEN`: a deck);
- order: a `PILE` (its order is information: the top is the end of the list) or a `SET` (a hand:
  the order carries nothing a rule reads);
- layout: one zone (`SINGLE`), one per seat (`PER_SEAT`: the attribute is a list of zones, the
  index is the owner), or one per host (`HOSTED`: a dict from a host's key — a hero, a tile, a
  card in play — to the cards attached to it; a typed key is saved as a string through the
  zone's `HostKeys`, since a JSON object's keys are strings);
- form: card ids (`IDS`), one card or -1 per owner (`SLOT`), a count per card type (`COUNTS`), or
  records that carry a card and more (`RECORDS`, always public: a card in play with its owner);
- pool: where `determinize` may deal a hidden card: among every hidden place of its group
  (`GROUP`), or only among its owner's (`OWNER`: Ivion's cards never change owner).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from hashlib import shake_128
from typing import TYPE_CHECKING, Any, Final, cast

if TYPE_CHECKING:
    from .rng import Rng
    from .state import Decision, State


class Visibility(Enum):
    PUBLIC = "everyone"
    OWNER = "its owner"
    HIDDEN = "nobody"


class Order(Enum):
    PILE = "pile"
    SET = "set"


class Layout(Enum):
    SINGLE = "single"
    PER_SEAT = "per seat"
    HOSTED = "per host"


class Form(Enum):
    IDS = "card ids"
    SLOT = "one card or -1"
    COUNTS = "count per card type"
    RECORDS = "records"


class Pool(Enum):
    """Which hidden places a hidden card may be dealt to by `determinize`."""

    GROUP = "any hidden place of its group"
    OWNER = "its owner's hidden places of its group"


# The members the determinization reads for every place, as module globals: reading an enum member
# off its class goes through a descriptor in Python 3.11 (about 100 ns; a global is a tenth of it).
_SINGLE: Final = Layout.SINGLE
_PER_SEAT: Final = Layout.PER_SEAT
_SLOT: Final = Form.SLOT
_COUNTS: Final = Form.COUNTS


@dataclass(frozen=True)
class HostKeys:
    """How a HOSTED zone's typed host keys (Ivion's `Host` records) are saved: a JSON object's keys
    are strings, so the snapshot writes `to_json(key)` and a restore reads `from_json(text)`."""

    to_json: Callable[[Any], str]
    from_json: Callable[[str], Any]


@dataclass(frozen=True)
class Zone:
    """One zone (or a family of them: one per seat, one per host) held by attribute `attr`."""

    attr: str
    visibility: Visibility
    order: Order = Order.PILE
    layout: Layout = Layout.SINGLE
    form: Form = Form.IDS
    #: what the zone holds, for conservation: zones of one group share their cards
    group: str = "cards"
    #: what its cards are attached to, for a HOSTED zone ("hero", "tile", "card")
    host: str | None = None
    #: for a HOSTED zone whose host keys are records, not strings: how they are saved
    keys: HostKeys | None = None
    #: face down during the game, shown to everyone once it is over (IUNU's Scribe cards)
    revealed_when_over: bool = False
    #: `Pool.OWNER`: a card of this zone stays with its owner when hidden cards are dealt anew
    pool: Pool = Pool.GROUP
    #: its owner sees it (precomputed: determinize asks for every owner of every zone)
    owned: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "owned", self.visibility is Visibility.OWNER)
        if self.form is Form.RECORDS and self.visibility is not Visibility.PUBLIC:
            raise ValueError(f"zone {self.attr!r}: a zone of records must be public (only card ids are resampled)")
        if (self.layout is Layout.HOSTED) != (self.host is not None):
            raise ValueError(f"zone {self.attr!r}: a HOSTED zone names its host, and only a HOSTED zone does")
        if self.keys is not None and self.layout is not Layout.HOSTED:
            raise ValueError(f"zone {self.attr!r}: only a HOSTED zone has host keys to save")
        if self.form is Form.SLOT and self.layout is not Layout.SINGLE:
            raise ValueError(f"zone {self.attr!r}: a SLOT zone is one list with a card (or -1) per owner")
        if self.pool is Pool.OWNER and self.layout is not Layout.PER_SEAT and self.form is not Form.SLOT:
            raise ValueError(f"zone {self.attr!r}: a zone pooled per owner has one part per seat (PER_SEAT or SLOT)")

    def parts(self, value: Any) -> Iterable[tuple[Any, Any]]:
        """(owner or host, the cards) of each zone this declaration stands for: a seat, None, or a
        host's key (a string, or a game's record: Ivion's `Host`)."""
        if self.layout is _SINGLE:
            if self.form is _SLOT:
                return enumerate(value)
            return ((None, value),)
        if self.layout is _PER_SEAT:
            return enumerate(value)
        hosted: dict[Any, Any] = value
        return hosted.items()

    def count(self, value: Any) -> int:
        if self.form is Form.SLOT:
            return sum(1 for c in value if c >= 0)
        total = 0
        for _, cards in self.parts(value):
            total += sum(cards) if self.form is Form.COUNTS else len(cards)
        return total


@dataclass(frozen=True)
class Hidden:
    """Cards outside every zone that a seat cannot see: held by a pending decision (IUNU's
    Priest draws Afterlife cards into the decision that asks which to keep)."""

    group: str
    cards: list[int]
    place: Callable[[State, list[int]], None]


@dataclass
class StateLayout:
    """Everything a game state holds besides the core's own fields, declared once.

    - `zones`: where the cards are;
    - `values`: immutable values (numbers, strings, None, tuples), copied by reference;
    - `lists`: flat lists of values; `nested`: lists of flat lists (or of dicts of values);
    - `records`: any JSON structure, deep-copied;
    - `shared`: structures never changed once made (a final score table), copied by reference;
    - `typed`: (name, class) of fields holding a typed record (a class with `to_json()` and a
      `from_json(data)` classmethod, or an object reading it back, `from_json(data)`: the effect
      layer's pending work, `Effects.record`), copied by reference when
      immutable, or by its `copy()` when it has one (the response stack, whose items change in place);
      an immutable one may be None (nothing under way: Ivion's card being played), saved as null;
    - `derived`: cached facts (options read on the hot path), copied by clones and rebuilt by the
      state's `_derive()` after a load; never saved;
    - `decisions`: every Decision class the game pushes, for the JSON round trip.
    """

    zones: tuple[Zone, ...]
    values: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    nested: tuple[str, ...] = ()
    records: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    typed: tuple[tuple[str, Any], ...] = ()
    derived: tuple[str, ...] = ()
    decisions: tuple[type[Decision], ...] = ()

    def __post_init__(self) -> None:
        names = [z.attr for z in self.zones] + [
            *self.values, *self.lists, *self.nested, *self.records, *self.shared, *(n for n, _ in self.typed),
            *self.derived,
        ]
        odd = [n for n in names if not n.isidentifier()]
        if odd:
            raise ValueError(f"state layout names {odd}, which are not attribute names")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"state layout names {twice} more than once")
        self.saved: tuple[str, ...] = tuple(n for n in names if n not in self.derived)
        self._by_kind = {d.kind: d for d in self.decisions}
        if len(self._by_kind) != len(self.decisions):
            raise ValueError("two decisions of a state layout share a kind")
        self._groups = sorted({z.group for z in self.zones})
        self._hideable = tuple(z for z in self.zones if z.form is not Form.RECORDS and z.visibility is not Visibility.PUBLIC)
        # what `_deal` needs of each zone it may deal into: the zone, the key of its group's shared
        # pool, whether it is pooled per owner, whether it is one list of card ids
        self._deal_plan = tuple((z, (-1, z.group), z.pool is Pool.OWNER, z.layout is Layout.SINGLE and z.form is Form.IDS)
                                for z in self._hideable)
        self._copy_fields = self._compile_copy()
        #: the HOSTED zones whose host keys are records, by attribute: how each saves its keys
        self._keyed = {z.attr: z.keys for z in self.zones if z.keys is not None}

    # -- copies -------------------------------------------------------------------------------
    # (copies, snapshots and counts read and write the layout's attributes only, so they take any
    # object holding them: typed `object`, since a compiled build checks a `State` annotation)

    def _compile_copy(self) -> Callable[[Any, Any], None]:
        """One function that copies every field of the layout from a state into a new one.

        Generated once per layout, like a dataclass's `__init__`: a loop over field names with
        `getattr`/`setattr` and a copy rule looked up per field costs several times the copy itself,
        and `clone` runs thousands of times per bot move."""
        lines = []
        for z in self.zones:
            a = z.attr
            if z.layout is Layout.SINGLE and z.form is not Form.RECORDS:
                lines.append(f"new.{a} = old.{a}.copy()")
            elif z.layout is Layout.SINGLE:
                lines.append(f"new.{a} = copy_json(old.{a})")
            elif z.layout is Layout.PER_SEAT and z.form is not Form.RECORDS:
                lines.append(f"new.{a} = [x.copy() for x in old.{a}]")
            elif z.layout is Layout.HOSTED and z.form is not Form.RECORDS:
                lines.append(f"new.{a} = {{k: v.copy() for k, v in old.{a}.items()}}")
            else:
                lines.append(f"new.{a} = copy_json(old.{a})")
        for a, record in self.typed:  # a record that changes in place (the response stack) is copied
            lines.append(f"new.{a} = old.{a}.copy()" if hasattr(record, "copy") else f"new.{a} = old.{a}")
        for a in (*self.values, *self.shared, *self.derived):
            lines.append(f"new.{a} = old.{a}")
        for a in self.lists:
            lines.append(f"new.{a} = old.{a}.copy()")
        for a in self.nested:
            lines.append(f"new.{a} = [x.copy() for x in old.{a}]")
        for a in self.records:
            lines.append(f"new.{a} = copy_json(old.{a})")
        body = "\n    ".join(lines) or "pass"
        namespace: dict[str, Any] = {"copy_json": copy_json}
        exec(f"def copy_fields(old, new):\n    {body}\n", namespace)  # noqa: S102 (built from declared names)
        fn: Callable[[Any, Any], None] = namespace["copy_fields"]
        return fn

    def snapshot(self, state: object) -> dict[str, Any]:
        typed = dict(self.typed)
        out: dict[str, Any] = {}
        for a in self.saved:
            value = getattr(state, a)
            keys = self._keyed.get(a)
            if keys is not None:
                out[a] = {keys.to_json(k): list(v) for k, v in value.items()}
                continue
            out[a] = copy_json(value) if a not in typed else None if value is None else value.to_json()
        return out

    def restore(self, state: object, data: dict[str, Any]) -> None:
        missing = [a for a in self.saved if a not in data]
        if missing:
            raise KeyError(f"the saved state lacks {', '.join(missing)}")
        typed = dict(self.typed)
        for a in self.saved:
            value = data[a]
            keys = self._keyed.get(a)
            if keys is not None:
                setattr(state, a, {keys.from_json(k): list(v) for k, v in value.items()})
                continue
            setattr(state, a, copy_json(value) if a not in typed else None if value is None else typed[a].from_json(value))

    def decision_from_json(self, data: dict[str, Any]) -> Decision:
        cls = self._by_kind.get(data.get("kind", ""))
        if cls is None:
            raise ValueError(f"unknown decision {data.get('kind')!r}; expected one of {sorted(self._by_kind)}")
        return cls.from_json(data)

    # -- conservation ---------------------------------------------------------------------------

    def counts(self, state: object) -> dict[str, int]:
        """Cards per group over every zone (the conformance suite checks they never change)."""
        out = dict.fromkeys(self._groups, 0)
        for z in self.zones:
            out[z.group] += z.count(getattr(state, z.attr))
        return out

    # -- determinization ------------------------------------------------------------------------

    def resample(self, state: State, new: State, seat: int, rng: Rng) -> None:
        """Deal the cards `seat` cannot see at random back into the places they came from.

        Per group (per group and owner for a zone pooled per owner), the hidden cards of every zone
        (and of `state.hidden_outside_zones(seat)`) are pooled, put in a random order and dealt
        back, each place getting as many as it had; what `seat` can see stays where it is, and so
        do the cards at the positions it knows (`state.known_positions(seat)`). Then each pending
        decision is told (`resampled`), since a decision may name a card that just changed (JUNO's
        drawn card)."""
        visible = state.zone_visible
        self._deal(state, new, lambda z, owner: visible(z, owner, seat), state.known_positions(seat),
                   state.hidden_outside_zones(seat), rng)
        new.pending = [d.resampled(new, seat) for d in new.pending]

    def shuffle_unseen(self, state: State, rng: Rng) -> None:
        """Put the cards that no seat can see (a face-down pile) in a new random order, in place.

        The same dealing as `resample`, seen by every seat at once: a card any seat sees, or whose
        position any seat knows, stays where it is, and so does a card a pending decision holds
        (someone is looking at it). Pending decisions name only cards someone sees, so none of
        them changes."""
        visible = state.zone_visible
        seats = range(state.game.players)
        known: dict[tuple[str, int | str | None], set[int]] = {}
        for s in seats:
            for place, at in state.known_positions(s).items():
                known.setdefault(place, set()).update(at)
        self._deal(state, state, lambda z, owner: any(visible(z, owner, s) for s in seats), known, [], rng)

    def _deal(self, state: State, new: State, sees: Callable[[Zone, int | str | None], bool],
              known: Mapping[tuple[str, int | str | None], Collection[int]], extras: list[Hidden],
              rng: Rng) -> None:
        """Pool, per group (and owner, for `Pool.OWNER`), the cards of the places `sees` does not
        see but for the positions in `known` (and `extras`), then deal them back in a random order
        into `new`, each place getting as many as it had. Every place is read before any is
        written, so `new` may be `state`. Pools are dealt in the order of their (owner, group),
        a pool of every owner's cards first."""
        over = state.is_over
        # per pool: its cards, and its places (zone, where, owner, how many, free positions or None)
        pools: dict[tuple[int, str], tuple[list[int], list[tuple[Zone, Any, int | str | None, int, list[int] | None]]]] = {}
        for z, shared, by_owner, single in self._deal_plan:
            if over and z.revealed_when_over:
                continue
            value = getattr(state, z.attr)
            target = getattr(new, z.attr)
            if single:
                if not sees(z, None):
                    pool = pools.get(shared)
                    if pool is None:
                        pool = pools[shared] = ([], [])
                    free = _free(value, known.get((z.attr, None))) if known else None
                    pool[0].extend(value if free is None else [value[i] for i in free])
                    pool[1].append((z, target, None, len(value) if free is None else len(free), free))
                continue
            for owner, cards in z.parts(value):
                if sees(z, owner):
                    continue
                # a zone pooled per owner has one part per seat
                key = (cast(int, owner), z.group) if by_owner else shared
                pool = pools.get(key)
                if pool is None:
                    pool = pools[key] = ([], [])
                if z.form is _SLOT:
                    if cards >= 0:
                        pool[0].append(cards)
                        pool[1].append((z, target, owner, 1, None))
                elif z.form is _COUNTS:
                    pool[0].extend(t for t, k in enumerate(cards) for _ in range(k))
                    pool[1].append((z, target, owner, sum(cards), None))
                else:
                    free = _free(cards, known.get((z.attr, owner))) if known else None
                    pool[0].extend(cards if free is None else [cards[i] for i in free])
                    pool[1].append((z, target, owner, len(cards) if free is None else len(free), free))
        for extra in extras:
            key = (-1, extra.group)
            pool = pools.get(key)
            if pool is None:
                pool = pools[key] = ([], [])
            pool[0].extend(extra.cards)
        for key in sorted(pools) if len(pools) > 1 else pools:
            cards, places = pools[key]
            if not cards and key[0] < 0:  # an owner's pool draws even when empty: no owner's deal
                continue                  # depends on what another owner holds
            dealt = permute(cards, rng.next64())
            i = 0
            for z, target, owner, k, free in places:
                _put(z, target, owner, dealt[i : i + k], free)
                i += k
            if key[0] < 0:
                for extra in extras:
                    if extra.group == key[1]:
                        k = len(extra.cards)
                        extra.place(new, dealt[i : i + k])
                        i += k


def _free(cards: list[int], known: Collection[int] | None) -> list[int] | None:
    """The positions of `cards` not in `known` (None when every position is free)."""
    if not known:
        return None
    return [i for i in range(len(cards)) if i not in known]


def _put(zone: Zone, target: Any, owner: int | str | None, cards: list[int], free: list[int] | None) -> None:
    """Put `cards` in the place of `zone` (its `owner`'s part) in a determinized copy: at its
    `free` positions only, when some of its positions are known."""
    if free is not None:
        place = target if owner is None else target[owner]
        for i, c in zip(free, cards, strict=True):
            place[i] = c
    elif zone.form is _SLOT:
        target[owner] = cards[0]
    elif zone.form is _COUNTS:
        counts = [0] * len(target[owner] if owner is not None else target)
        for t in cards:
            counts[t] += 1
        if owner is None:
            target[:] = counts
        else:
            target[owner] = counts
    elif owner is None:
        target[:] = cards
    else:
        target[owner] = cards


#: pools of at least this many cards are ordered by numpy's stable argsort of their keys, the order
#: `sorted` gives (both keep ties in place), 3-4x faster for a deck; below it numpy's cost per call
#: outweighs the sort it saves
_ARGSORT_MIN = 24


def permute(items: list[int], key: int) -> list[int]:
    """A uniformly random order of `items` drawn from the 64-bit `key`.

    Each item gets a 32-bit sort key from SHAKE-128 of `key`; the sort runs in C, which makes
    this several times faster than a Fisher-Yates loop in Python. Ties (about one in a million
    for a 100-card pool) keep their order."""
    n = len(items)
    digest = shake_128(key.to_bytes(8, "little")).digest(4 * n)
    if n >= _ARGSORT_MIN:
        import numpy as np

        order: list[int] = np.frombuffer(digest, dtype=np.uint32).argsort(kind="stable").tolist()
    else:
        keys = array("I", digest)
        order = sorted(range(n), key=keys.__getitem__)
    return [items[i] for i in order]


#: values `copy_json` keeps as they are: a container's scalars are taken without a call each
_SCALARS = frozenset((int, float, str, bool, type(None)))


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, tuples as lists, scalars).

    Clones copy records with it (Runes of Zun's frames and runes in play: dicts of a dozen
    scalars), so a scalar inside a container costs a type test, not a call."""
    if isinstance(value, list | tuple):
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    return value


