"""Card values as data (NOTES.md, IUNU): the default file, a user's file, and errors naming the
file, the card and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable import OptionError
from cardtable.games.iunu.cards import AFTERLIFE_EFFECTS, DEFAULT_FILE, CardFileError, read_card_file

from .scenario import iunu, position

TABLE = DEFAULT_FILE.read_text()


def test_default_values_match_notes() -> None:
    """NOTES.md's table: cards (= Majority VP), Citizen VP and Bread VP for each type."""
    cs = iunu().cards
    assert [(c.name, c.cards, c.citizen_vp, c.bread_vp) for c in cs.citizens] == [
        ("Pharaoh", 1, 9, 1), ("Scribe", 2, 8, 1), ("Noble", 3, 7, 2), ("Priest", 4, 6, 2), ("Artisan", 5, 5, 3),
        ("Soldier", 6, 4, 3), ("Baker", 7, 3, 4), ("Merchant", 8, 2, 4), ("Farmer", 9, 1, 5),
    ]
    assert cs.deck_size == 45 and len(cs.afterlife) == 9


def test_user_card_file(tmp_path: Path) -> None:
    """A user's file replaces the values (here the Pharaoh is worth 20)."""
    path = tmp_path / "mine.toml"
    path.write_text(TABLE.replace("cards = 1\ncitizen_vp = 9", "cards = 1\ncitizen_vp = 20"))
    game = iunu(cards=str(path))
    assert game.cards.citizens[0].citizen_vp == 20
    state = position(game, hands=["", ""], dynasty=[{"Pharaoh": 1}, {}])
    state.pending = []
    state._game_over()
    assert state.scores[0]["citizen"] == 20
    # the option keeps the content, so replays do not depend on the file
    assert game.options.to_json()["cards"]["citizens"]["Pharaoh"]["citizen_vp"] == 20


def test_user_card_file_as_json(tmp_path: Path) -> None:
    raw = read_card_file(DEFAULT_FILE)
    raw["citizens"]["Farmer"]["bread_vp"] = 7
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(raw))
    assert iunu(cards=str(path)).cards.citizens[8].bread_vp == 7


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda t: t.replace("[citizens.Noble]", "[citizens.Nobel]"), "citizen 'Nobel' is not an IUNU Citizen type"),
        (lambda t: t.replace("citizen_vp = 7", "citizen_vp = -7"), "citizen 'Noble': field 'citizen_vp': Input should be greater than or equal to 0 (got -7)"),
        (lambda t: t.replace("bread_vp = 5", "bread_vp = \"five\""), "citizen 'Farmer': field 'bread_vp': Input should be a valid integer (got 'five')"),
        (lambda t: t.replace('effect = "guardians"', 'effect = "guards"'),
         "afterlife card 'The Guardians of Anubis': field 'effect' must be one of"),
        (lambda t: t.replace('effect = "guardians"', 'effect = ["guardians"]'),
         "afterlife card 'The Guardians of Anubis': field 'effect' must be one of"),
        (lambda t: t.replace('types = ["Scribe", "Noble", "Priest"]', 'types = ["Scribe", "Knight"]'),
         "afterlife card 'The Dynasty of Hatshepsut': field 'types.1': Input should be 'Pharaoh', 'Scribe', "),
        # an Afterlife card's fields are its effect's: the Guardians take no `vp`
        (lambda t: t.replace('effect = "guardians"', 'effect = "guardians"\nvp = 3'),
         "afterlife card 'The Guardians of Anubis': unknown field 'vp'"),
        (lambda t: t.replace('types = ["Scribe", "Noble", "Priest"]', 'types = []'),
         "afterlife card 'The Dynasty of Hatshepsut': field 'types': List should have at least 1 item"),
        (lambda t: t.replace('effect = "most_types"\nvp = 7', 'effect = "most_types"'), "afterlife card 'The Glory of Khufu': field 'vp': Field required"),
        (lambda t: t.replace("[citizens.Scribe]\ncards = 2\n", "[citizens.Scribe]\n"), "citizen 'Scribe': field 'cards': Field required"),
        (lambda t: t + "\n[extra]\nx = 1\n", "unknown field 'extra'"),
        (lambda t: t.replace("citizen_vp = 9", "citizen_vp = 9\ncolour = 3"), "citizen 'Pharaoh': unknown field 'colour'"),
        (lambda t: t.replace("[citizens.Pharaoh]", "[citizens"), "not valid TOML"),
    ],
)
def test_bad_card_files_are_refused_naming_file_card_and_field(tmp_path: Path, edit, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(edit(TABLE))
    with pytest.raises(CardFileError) as err:
        read_card_file(path)
    assert message in str(err.value) and str(path) in str(err.value)
    with pytest.raises(OptionError) as err2:  # the same message through cardtable.make
        iunu(cards=str(path))
    assert message in str(err2.value)


def test_too_few_afterlife_cards(tmp_path: Path) -> None:
    raw = read_card_file(DEFAULT_FILE)
    raw["afterlife"] = dict(list(raw["afterlife"].items())[:4])
    with pytest.raises(OptionError, match="at least 5 cards"):
        iunu(cards=raw)


def test_deck_too_small_for_the_table() -> None:
    raw = read_card_file(DEFAULT_FILE)
    for c in raw["citizens"].values():
        c["cards"] = 2
    with pytest.raises(OptionError, match="the Citizen deck has 18 cards"):
        iunu(players=4, cards=raw)


def test_missing_file() -> None:
    with pytest.raises(OptionError, match="cannot read it"):
        iunu(cards="/no/such/iunu.toml")


def test_custom_afterlife_names_shape_the_action_space(tmp_path: Path) -> None:
    raw = read_card_file(DEFAULT_FILE)
    raw["afterlife"]["Ma'at's Feather"] = {"effect": "most_fed", "vp": 3}
    game = iunu(cards=raw)
    assert "keep ma'at's feather" in [a.text for a in game.actions]
    assert game.actions.key != iunu().actions.key
    state = game.new_state(2)
    assert len(state.afterlife_deck) == 5 and len(state.afterlife_box) == 5


def test_each_afterlife_effect_is_its_models_tag() -> None:
    """The closed list of effects is the union's: each model allows its own verb and no other."""
    for verb, model in AFTERLIFE_EFFECTS.items():
        assert model.model_json_schema()["properties"]["effect"]["const"] == verb
