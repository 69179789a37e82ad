"""`cardtable deck ivion`, `cardtable play ivion` and `cardtable rules ivion` in the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli import _load, app
from cardtable.ui.cards import catalog

_load()
runner = CliRunner()


@pytest.fixture(autouse=True)
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTABLE_SAVES", str(tmp_path / "saves"))
    return tmp_path / "saves"


def test_deck_builds_checks_and_saves_a_hero_that_a_game_takes(tmp_path: Path) -> None:
    path = tmp_path / "gianna.toml"
    result = runner.invoke(app, ["deck", "ivion", "--name", "Gianna Florre", "--class", "Arcanist", "--class",
                                 "Pyromancer", "--specialization", "Mirage", "--trait", "Timeweaver", "--trait",
                                 "Spellscar", "--save", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "a legal deck" in result.output and "Bewilder, Timeweaver, Spellscar" in result.output
    game = cardtable.make("ivion", decks=[str(path), "Lio Marrow"])
    assert game.decks[0].hero == "Gianna Florre" and len(game.decks[0].cards) == 45
    check = runner.invoke(app, ["deck", "ivion", "--check", str(path)])
    assert check.exit_code == 0 and "a legal deck" in check.output


def test_deck_refuses_a_bad_deck_naming_the_rule() -> None:
    result = runner.invoke(app, ["deck", "ivion", "--class", "Knight", "--class", "Pyromancer", "--specialization",
                                 "Mirage", "--trait", "Kindle", "--trait", "Spellscar"], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "Herocrafting step 2" in result.output
    result = runner.invoke(app, ["deck", "ivion", "--class", "Arcanist", "--class", "Pyromancer", "--specialization",
                                 "Mirage", "--trait", "Timeweaver", "--trait", "Spellscar", "--card", "Arc Bolt=4"],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "Make Your Own Hero" in result.output


def test_play_ivion_in_the_terminal_to_the_end() -> None:
    result = runner.invoke(app, ["play", "ivion", "--seed", "2", "--bots", "random"], input="1\n" * 4000,
                           env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output[-2000:]
    assert "game over" in result.output.lower() and "your hand" in result.output and "heroes" in result.output


def test_a_refusal_names_the_rule() -> None:
    # seed 2: you (Sir Edda Vane, on d1, the board's south-east corner) begin
    result = runner.invoke(app, ["play", "ivion", "--seed", "2", "--bots", "random"],
                           input="move south\nplay Fireball\nq\n", env={"COLUMNS": "160"})
    assert "Not allowed: there is no tile south of you" in result.output
    assert "Not allowed: you have no Fireball to play in hand" in result.output


def test_rules_is_a_players_guide_with_every_card() -> None:
    result = runner.invoke(app, ["rules", "ivion"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "how to play" in result.output and "Setup" in result.output
    for card in catalog(cardtable.make("ivion")):
        assert card["name"] in result.output
    coverage = runner.invoke(app, ["rules", "ivion", "--coverage"], env={"COLUMNS": "200"})
    assert coverage.exit_code == 0 and "tests/games/" in coverage.output


def test_the_log_speaks_to_you_and_of_the_others() -> None:
    from cardtable.games.ivion.text import narrate

    gain = {"kind": "gain", "seat": 1, "n": 2, "resource": "power"}
    assert narrate(gain, 1) == "you gain 2 power" and narrate(gain, 0) == "seat 1 gains 2 power"
    hit = {"kind": "damage", "seat": 0, "amount": 3, "hp": 23}
    assert narrate(hit, 0) == "you take 3 damage (23 HP)" and narrate(hit, None) == "seat 0 takes 3 damage (23 HP)"
