"""The one validator of a card file's list of named cards (core.cards.card_list)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationInfo, model_validator

from cardtable.core.cards import CardSchema, card_list


class Gem(CardSchema):
    index: int
    name: str
    value: int

    @model_validator(mode="before")
    @classmethod
    def _index(cls, raw: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        return {**raw, "index": (info.context or {})["index"]}


def test_each_card_is_validated_in_order_with_its_index() -> None:
    gems = card_list([{"name": "Ruby", "value": 3}, {"name": "Opal", "value": 1}], Gem, "gem")
    assert [(g.index, g.name, g.value) for g in gems] == [(0, "Ruby", 3), (1, "Opal", 1)]


@pytest.mark.parametrize(("raw", "message"), [
    ([], "expected a non-empty list of gems ([[gem]] tables)"),
    ({"name": "Ruby"}, "expected a non-empty list of gems ([[gem]] tables)"),
    ([{"name": "Ruby", "value": 3}, 7], "gem #2 must be a table"),
    ([{"name": "Ruby!", "value": 3}], "gem 'Ruby!': field 'name' must be a word or words"),
    ([{"value": 3}], "gem #1: field 'name' must be a word or words"),
    ([{"name": "Ruby", "value": 3}, {"name": "ruby", "value": 1}],
     "gem 'ruby': field 'name': a gem of this name is already defined"),
    ([{"name": "Ruby", "value": "3"}], "gem 'Ruby': field 'value': Input should be a valid integer (got '3')"),
])
def test_a_wrong_list_is_refused_naming_the_card_and_the_field(raw: Any, message: str) -> None:
    with pytest.raises(ValueError) as exc:
        card_list(raw, Gem, "gem")
    assert str(exc.value).startswith(message)
