"""Ivion's own content inline (issue 31, hole 1): `content` takes, per item, a content file's name (the
command line's) or the same table inline (what the web sends). Both go through the one loader, with
the same messages; under `inline_only` (the server) only the inline form is accepted."""

from __future__ import annotations

import io
import json
import random
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

import cardtable
from cardtable.core.cards import inline_only
from cardtable.core.errors import OptionError
from cardtable.games.ivion import text
from cardtable.games.ivion.cards import BASE_FILE, library
from cardtable.ui.text import render

from .helpers import LIO, tide_content


def _shown(renderable: object) -> str:
    console = Console(width=400, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_inline_content_makes_a_game_that_plays_and_equals_the_same_content_from_a_file(tmp_path: Path) -> None:
    inline = cardtable.make("ivion", content=[tide_content()], decks=["Nerei Tide", LIO])
    path = tmp_path / "tide.json"
    path.write_text(json.dumps(tide_content()))
    from_file = cardtable.make("ivion", content=[str(path)], decks=["Nerei Tide", LIO])  # the command line's way
    assert inline.library.cards == from_file.library.cards and inline.library.heroes == from_file.library.heroes
    assert inline.decks == from_file.decks and inline.decks[0].hero == "Nerei Tide" and inline.decks[0].hp == 30
    s, rng = inline.new_state(seed=3), random.Random(3)
    for _ in range(300):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    assert s.history and any(e.kind == "played" and e.data["card"].startswith("Tidecaller Wave") for e in s.events)
    # the game pickles as its options and is made anew from them: the inline content travels with it
    assert cardtable.make("ivion", **inline.options.to_json()).library.cards == inline.library.cards


def test_the_observation_does_not_repeat_the_content_and_the_terminal_reads_it_from_the_game() -> None:
    game = cardtable.make("ivion", content=[tide_content()], decks=["Nerei Tide", LIO])
    s = game.new_state(seed=1)
    obs = s.observation(0)
    assert "content" not in obs and "Pulls the enemy" not in json.dumps(obs)
    assert any(n.startswith("Tidecaller Wave") for n in obs["hand"])
    card = obs["hand"][0]
    line = f"{card} ({game.library.cards[card].header()}) Draw 1 card."
    assert line in _shown(render(game, obs))  # each card of the hand with its text, from the game's content
    # without the game, the base content: a card of the table's own content is shown by its name alone
    base = _shown(text.render(obs))
    assert card in base and line not in base


@pytest.mark.parametrize("item,message", [
    ({"card": [{"name": "Bad Wave", "archetype": "Knight", "power": 9}]},
     "content item 2: card 'Bad Wave': field 'power': Input should be less than or equal to 5"),
    ({"card": [{"name": "Bad Wave", "archetype": "Nowhere"}]}, "content item 2: card 'Bad Wave': field 'archetype'"),
    ({"cards": []}, "content item 2: unknown field 'cards' (allowed: class, specialization, card, hero)"),
    ({"hero": [{"name": "Ann", "mode": "herocrafting", "classes": ["Knight"], "specialization": "Mirage",
                "traits": [], "colour": "red"}]}, "content item 2: hero 'Ann': unknown field 'colour'"),
])
def test_a_bad_inline_item_is_refused_naming_the_item_the_card_and_the_field(item: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError) as info:
        cardtable.make("ivion", content=[tide_content(), item])
    assert message in str(info.value) and "option 'content'" in str(info.value)


def test_under_inline_only_a_file_name_is_refused_and_inline_content_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "tide.json"
    path.write_text(json.dumps(tide_content()))
    with inline_only():
        with pytest.raises(OptionError, match="never as a file name"):
            cardtable.make("ivion", content=[str(path)])
        assert "Nerei Tide" in library([tide_content()]).heroes
        assert cardtable.make("ivion", content=[tide_content()], decks=["Nerei Tide", LIO]).decks[0].hero == "Nerei Tide"


def test_the_cards_option_replaces_the_base_cards_inline_or_from_a_cards_file(tmp_path: Path) -> None:
    """`cards`: content.toml's [[card]] tables replaced (its classes, specializations and heroes kept),
    as the designers' lab sends them; a cards file the lab saves reads the same on the command line."""
    base = cardtable.make("ivion")
    tables = json.loads(json.dumps(tomllib.loads(BASE_FILE.read_text())["card"]))
    same = cardtable.make("ivion", cards=tables)
    assert same.library.cards == base.library.cards and same.decks == base.decks
    edited = [{**t, "power": 3} if t["name"] == "Oathstrike" else t for t in tables]
    game = cardtable.make("ivion", cards=edited)
    assert game.library.cards["Oathstrike"].power == 3 and base.library.cards["Oathstrike"].power == 0
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"card": edited}))
    assert cardtable.make("ivion", cards=str(path)).library.cards == game.library.cards
    # the base's rules hold for the edited cards: an archetype keeps 15 marked cards, names are unique
    unmarked = [{**t, "marked": 0} if t["name"] == "Oathstrike" else t for t in tables]
    with pytest.raises(OptionError, match="archetype 'Knight': 11 Herocrafting-marked cards; every archetype has exactly 15"):
        cardtable.make("ivion", cards=unmarked)
    with pytest.raises(OptionError, match=f"cards: card '{tables[0]['name']}': field 'name': a card of that name exists"):
        cardtable.make("ivion", cards=[*tables, tables[0]])
    # a cards file holds cards only; content still adds to the edited cards
    path.write_text(json.dumps({"card": edited, "hero": []}))
    with pytest.raises(OptionError, match="a cards file holds only \\[\\[card\\]\\] tables"):
        cardtable.make("ivion", cards=str(path))
    both = cardtable.make("ivion", cards=edited, content=[tide_content()], decks=["Nerei Tide", LIO])
    assert both.library.cards["Oathstrike"].power == 3 and both.decks[0].hero == "Nerei Tide"
    with inline_only(), pytest.raises(OptionError, match="never as a file name"):
        cardtable.make("ivion", cards=str(path))
