"""The verb registry (cardtable/core/verbs.py): one entry per verb binds its name, typed
parameters, handler and text; card data is validated against it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from pydantic import Field

from cardtable.core import CardFileError
from cardtable.core.verbs import Kind, NoParams, Params, VerbRegistry


class LoseHp(Params):
    amount: int = Field(1, ge=1, le=12)
    who: Literal["target", "self"] = "target"


@dataclass
class Table:
    hp: list[int] = field(default_factory=lambda: [10, 10])


@dataclass
class Context:
    player: int
    target: int


VERBS = VerbRegistry("Test Game")


@VERBS.effect("lose_hp", LoseHp, text=lambda p, w: f"{'You' if p.who == 'self' else 'Target'} loses {p.amount} HP.",
              slots=("effects",))
def _lose_hp(state: Table, ctx: Context, p: LoseHp) -> None:
    state.hp[ctx.player if p.who == "self" else ctx.target] -= p.amount


VERBS.status("ward", text=lambda p, w: "HP losses to the affected player are prevented.", slots=("while_in_play",))
VERBS.answer("cancel", text=lambda p, w: "The Action has no effect on you.")


def test_an_effect_is_parsed_run_and_worded_from_its_one_entry() -> None:
    effect = VERBS.parse({"verb": "lose_hp", "amount": 3}, "card 'Ember'", "effects")
    assert effect.to_json() == {"verb": "lose_hp", "amount": 3, "who": "target"}
    assert VERBS.from_json(effect.to_json()) == effect
    table = Table()
    VERBS.run(table, Context(player=0, target=1), effect)
    assert table.hp == [10, 7]
    assert VERBS.text(effect) == "Target loses 3 HP."
    assert VERBS.verb("lose_hp").kind is Kind.EFFECT


def test_statuses_and_answers_are_asked_about_not_run() -> None:
    ward = VERBS.parse({"verb": "ward"}, "card 'Shield'", "while_in_play")
    assert VERBS.holds([ward], "ward") and not VERBS.holds([], "ward")
    with pytest.raises(TypeError, match="status verb: it is not run"):
        VERBS.run(Table(), None, ward)
    with pytest.raises(TypeError, match="not a status"):
        VERBS.holds([ward], "cancel")


@pytest.mark.parametrize(
    "raw, slot, message",
    [
        ({"verb": "explode"}, "effects", "field 'verb' must be one of lose_hp, cancel (got 'explode')"),
        ({"verb": "lose_hp", "amount": 0}, "effects", "verb 'lose_hp': field 'amount': Input should be greater than or equal to 1 (got 0)"),
        ({"verb": "lose_hp", "amount": "2"}, "effects", "field 'amount': Input should be a valid integer (got '2')"),
        ({"verb": "lose_hp", "amout": 2}, "effects", "verb 'lose_hp': unknown field 'amout' (its fields: amount, who)"),
        ({"verb": "ward"}, "effects", "verb 'ward' cannot stand in 'effects' (it belongs in while_in_play)"),
        ("lose_hp", "effects", "an effect is a table"),
    ],
)
def test_bad_effect_data_names_the_card_the_verb_and_the_field(raw: Any, slot: str, message: str) -> None:
    with pytest.raises(CardFileError) as err:
        VERBS.parse(raw, "rune file r.toml: rune 'Ember'", slot)
    assert str(err.value).startswith("rune file r.toml: rune 'Ember': ") and message in str(err.value)


def test_a_verb_is_defined_once_and_an_effect_verb_has_a_handler() -> None:
    reg = VerbRegistry("Other")
    reg.status("ward", text=lambda p, w: "")
    with pytest.raises(ValueError, match="defined twice"):
        reg.answer("ward", text=lambda p, w: "")
    with pytest.raises(ValueError, match="needs its text"):
        reg.effect("boom", NoParams)(lambda s, c, p: None)
