"""What the deck builder and `cardtable deck ivion` show (issue 34): each class's, specialization's,
trait's and starter hero's description from the content, the deck's cost curve and colours in the same
words in both front ends, and a bad deck refused naming its rule. The base content's descriptions may
be empty: a content file of our own gives them here, and whatever the content adds appears by itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli import _load, app
from cardtable.games.ivion.cards import base_library, library
from cardtable.games.ivion.decks import build, builder_info, check_deck, deck_summary, hero_line

_load()
runner = CliRunner()

CLASS_SAYS = "Pulls the enemy into the deep; wins the long game."
SPEC_SAYS = "Guards the shore: slow, then strike."
ULTIMATE_SAYS = "Passive: the tide turns when it must."
TRAIT_SAYS = "A blue pip's patience."
HERO_SAYS = "Draws, waits, then drowns you in power."


def content(path: Path) -> Path:
    """A class and a specialization of 15 Herocrafting cards each, an ultimate, a trait and a starter
    hero, each with a description (the base content's own descriptions may be empty)."""
    lines = ['[[class]]', 'name = "Tidecaller"', 'colour = "blue"', f'description = "{CLASS_SAYS}"',
             '[[specialization]]', 'name = "Tidewarden"', 'colours = ["blue"]', f'description = "{SPEC_SAYS}"']
    for arch, cost in (("Tidecaller", 1), ("Tidewarden", 2)):
        for k in range(15):
            power = 1 if k % 3 == 0 else -1 if k % 5 == 1 else 0
            lines += ['[[card]]', f'name = "{arch} Wave {k + 1}"', f'archetype = "{arch}"', 'marked = 1',
                      f'actions = {cost if k % 4 else 0}', f'power = {power}',
                      'effects = [{ verb = "draw", n = 1 }]']
    lines += ['[[card]]', 'name = "High Tide"', 'archetype = "Tidewarden"', 'feat = "ultimate"', 'hp = 30',
              'passive = true', f'description = "{ULTIMATE_SAYS}"',
              '[[card]]', 'name = "Undertow"', 'feat = "trait"', 'pips = ["blue"]', 'marked = 1', 'passive = true',
              f'description = "{TRAIT_SAYS}"',
              '[[card]]', 'name = "Riptide"', 'feat = "trait"', 'pips = ["blue"]', 'marked = 1', 'passive = true',
              '[[hero]]', 'name = "Nerei Tide"', 'mode = "herocrafting"', 'classes = ["Tidecaller", "Tidecaller"]',
              'specialization = "Tidewarden"', 'traits = ["Undertow", "Riptide"]', f'description = "{HERO_SAYS}"']
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_builder_offers_every_archetype_trait_and_hero_with_its_description(tmp_path: Path) -> None:
    lib = library([str(content(tmp_path / "tide.toml"))])
    info = builder_info(lib)
    assert [c["name"] for c in info["classes"]] == list(lib.classes)  # all the content, nothing named in code
    assert [h["name"] for h in info["heroes"]] == list(lib.heroes) == info["starters"]
    by = {c["name"]: c for c in (*info["classes"], *info["specializations"], *info["traits"], *info["heroes"])}
    assert by["Tidecaller"]["description"] == CLASS_SAYS and by["Tidewarden"]["description"] == SPEC_SAYS
    assert by["Tidewarden"]["ultimate"] == "High Tide" and by["Tidewarden"]["ultimate_description"] == ULTIMATE_SAYS
    assert by["Undertow"]["description"] == TRAIT_SAYS and by["Undertow"]["pips"] == ["blue"]
    assert by["Nerei Tide"]["line"] == f"Tidecaller twice; Tidewarden (blue). {HERO_SAYS}"
    for name, c in by.items():  # every description shown is the data's own
        if name in lib.descriptions:
            assert c["description"] == lib.descriptions[name]
    assert hero_line(base_library().heroes["Lio Marrow"], base_library()).startswith("Ranger and Arcanist; Mirage (")


def test_a_deck_shows_its_cost_curve_and_colours_and_a_bad_deck_names_its_rule(tmp_path: Path) -> None:
    lib = library([str(content(tmp_path / "tide.toml"))])
    hero = lib.heroes["Nerei Tide"]
    shape = deck_summary(build(hero, lib), lib)
    assert sum(c["count"] for c in shape["curve"]) == 45 == sum(c["count"] for c in shape["colours"])
    assert shape["curve"] == [{"actions": 0, "count": 12}, {"actions": 1, "count": 22}, {"actions": 2, "count": 11}]
    assert shape["power"] == {"gives": 15, "costs": 6}
    assert shape["colours"] == [{"archetype": "Tidecaller", "colours": ["blue"], "count": 30},
                                {"archetype": "Tidewarden", "colours": ["blue"], "count": 15}]
    assert shape["lines"] == ["cost curve: 12 × 0 actions, 22 × 1 action, 11 × 2 actions",
                              "power: 15 cards give power, 6 cost power", "colours: Tidecaller blue × 30, Tidewarden blue × 15"]
    table = hero.model_dump()
    assert check_deck(table, lib)["lines"] == shape["lines"]
    refused = check_deck({**table, "traits": ["Undertow", "Undertow"]}, lib)
    assert refused == {"ok": False, "rule": "hero 'Nerei Tide': a hero has two different traits (got ['Undertow', "
                                            "'Undertow']) (rule: two traits)"}


def test_the_terminal_lists_the_starter_heroes_and_says_what_the_lobby_says(tmp_path: Path) -> None:
    path = str(content(tmp_path / "tide.toml"))
    lib = library([path])
    listed = runner.invoke(app, ["deck", "ivion", "--list", "--content", path], env={"COLUMNS": "400"})
    assert listed.exit_code == 0, listed.output
    info = builder_info(lib)
    # (the words, whatever width the terminal wraps them at: rich's console may be older than COLUMNS)
    out = " ".join(listed.output.split())
    for h in info["heroes"]:  # every starter with its line, in the words the lobby shows
        assert " ".join(f"{h['name']}: {h['line']}".split()) in out
    for said in (CLASS_SAYS, SPEC_SAYS, ULTIMATE_SAYS, TRAIT_SAYS):
        assert " ".join(said.split()) in out
    shown = runner.invoke(app, ["deck", "ivion", "--starter", "Nerei Tide", "--content", path], env={"COLUMNS": "400"})
    assert shown.exit_code == 0, shown.output
    for line in check_deck(lib.heroes["Nerei Tide"].model_dump(), lib)["lines"]:
        assert " ".join(line.split()) in " ".join(shown.output.split())


@pytest.mark.parametrize("name", list(base_library().heroes))
def test_every_starter_of_the_base_content_builds_and_has_a_line(name: str) -> None:
    lib = base_library()
    result = check_deck(lib.heroes[name].model_dump(), lib)
    assert result["ok"] and result["size"] == 45 and result["lines"][0].startswith("cost curve: ")
