"""A HOSTED zone whose hosts are records (`HostKeys`, core/zones.py): the state holds the records,
the saved JSON their text (a JSON object's keys are strings), and every copy keeps the two apart.
Ivion's `Host` is the game that uses it; here the zone alone, with a record of its own."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from cardtable.core import HostKeys, Layout, StateLayout, Visibility, Zone


@dataclass(frozen=True)
class Spot:
    """Where a card is attached: a hero ("h0") or a tile ("t5")."""

    kind: str
    n: int

    def to_json(self) -> str:
        return f"{self.kind[0]}{self.n}"

    @classmethod
    def from_json(cls, text: str) -> Spot:
        kinds = {"h": "hero", "t": "tile"}
        if text[:1] not in kinds or not text[1:].isdigit():
            raise ValueError(f"{text!r} is no host: a hero 'h0' or a tile 't5'")
        return cls(kinds[text[0]], int(text[1:]))


LAYOUT = StateLayout(
    zones=(
        Zone("deck", Visibility.HIDDEN),
        Zone("attached", Visibility.PUBLIC, layout=Layout.HOSTED, host="spot", keys=HostKeys(Spot.to_json, Spot.from_json)),
        Zone("named", Visibility.PUBLIC, layout=Layout.HOSTED, host="card"),  # string hosts: saved as they are
    ),
    values=("turn",),
)


class Table:
    """What a state holds of LAYOUT (the zone's methods read and write attributes only)."""

    deck: list[int]
    attached: dict[Any, list[int]]
    named: dict[str, list[int]]
    turn: int


def _table() -> Table:
    t = Table()
    t.deck, t.turn = [5, 6], 2
    t.attached = {Spot("hero", 0): [1, 2], Spot("tile", 5): [3]}
    t.named = {"c17": [4]}
    return t


def test_the_saved_zone_keys_hosts_by_their_text_and_a_restore_reads_the_records_back() -> None:
    t = _table()
    saved = json.loads(json.dumps(LAYOUT.snapshot(t)))  # through JSON, as a save file is
    assert saved["attached"] == {"h0": [1, 2], "t5": [3]}
    assert saved["named"] == {"c17": [4]}
    back = Table()
    LAYOUT.restore(back, saved)
    assert back.attached == t.attached and all(isinstance(k, Spot) for k in back.attached)
    assert back.named == t.named and back.deck == t.deck and back.turn == 2
    assert LAYOUT.counts(back) == LAYOUT.counts(t) == {"cards": 6}  # a hosted card counts as any other


def test_a_saved_key_the_codec_cannot_read_is_refused_with_its_words() -> None:
    saved = LAYOUT.snapshot(_table())
    saved["attached"]["x9"] = [7]
    with pytest.raises(ValueError, match="'x9' is no host"):
        LAYOUT.restore(Table(), saved)


def test_a_copy_shares_the_host_records_and_owns_its_lists() -> None:
    t = _table()
    new = Table()
    LAYOUT._copy_fields(t, new)  # what State.clone runs
    assert new.attached == t.attached
    new.attached[Spot("hero", 0)].append(9)
    new.attached[Spot("tile", 1)] = [8]
    assert t.attached == {Spot("hero", 0): [1, 2], Spot("tile", 5): [3]}


def test_only_a_hosted_zone_has_host_keys() -> None:
    with pytest.raises(ValueError, match="only a HOSTED zone has host keys to save"):
        Zone("deck", Visibility.HIDDEN, keys=HostKeys(Spot.to_json, Spot.from_json))
