"""Resource pools (cardtable/core/resources.py): bounded gains, payments refunded as paid, losses
that are not payments."""

from __future__ import annotations

import json

import pytest

from cardtable.core.resources import CannotPay, Payment, Pools

IVION = Pools(("actions", "power"), bound=5)


def test_gains_stop_at_the_bound() -> None:
    pools = IVION.empty()
    assert IVION.gain(pools, "actions", 3) == 3
    assert IVION.gain(pools, "actions", 4) == 2
    assert pools == {"actions": 5, "power": 0}


def test_a_payment_spends_all_or_nothing_and_is_refunded_as_paid() -> None:
    pools = {"actions": 2, "power": 3}
    with pytest.raises(CannotPay, match="short of 1 actions"):
        IVION.pay(pools, 0, {"actions": 3, "power": 1})
    assert pools == {"actions": 2, "power": 3}  # nothing spent
    paid = IVION.pay(pools, 0, {"actions": 1, "power": 2})
    assert pools == {"actions": 1, "power": 1}
    assert paid.total("power") == 2
    assert Payment.from_json(json.loads(json.dumps(paid.to_json()))) == paid
    assert IVION.refund(pools, paid) == 3
    assert pools == {"actions": 2, "power": 3}


def test_a_refund_respects_the_bound() -> None:
    pools = {"actions": 4, "power": 0}
    paid = IVION.pay(pools, 1, {"actions": 3})
    IVION.gain(pools, "actions", 3)  # back to 4 before the card fails to resolve
    assert IVION.refund(pools, paid) == 1 and pools["actions"] == 5


def test_a_loss_is_not_a_payment() -> None:
    pools = {"actions": 1, "power": 2}
    assert IVION.lose(pools, "actions", 2) == 1
    assert pools == {"actions": 0, "power": 2}
    with pytest.raises(KeyError, match="'gems' is not a resource here"):
        IVION.lose(pools, "gems", 1)
