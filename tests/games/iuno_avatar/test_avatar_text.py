"""Iuno Avatar in the terminal: what is shown, the also/instead questions, whole games played by
numbers through `cardtable play iuno_avatar`."""

from __future__ import annotations

import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable.cli import _load, app
from cardtable.games.iuno_avatar import text

from .helpers import deck_with, do, start, table

_load()
runner = CliRunner()


def shown(obs: dict) -> str:  # type: ignore[type-arg]
    console = Console(width=200, record=True)
    console.print(text.render(obs))
    return console.export_text()


def test_render_shows_my_heaven_earth_hell_dice_gems_and_card_texts() -> None:
    s = table(heaven={0: ["Tide", "Ember Shard"], 1: ["Smite"]}, earth={1: {"Gnome": 1}}, hell=["Curse"], dice=[1, 0])
    out = shown(s.observation(0))
    assert "Your Heaven" in out and "Tide" in out and "Smite" not in out
    rows = [" ".join(line.replace("│", " ").split()) for line in out.splitlines()]
    # each card with its element, cost and level; on Earth the gems on each figure
    assert any(r.startswith("Tide spell Water Water - On arrival") for r in rows), rows
    assert any(r.startswith("Ember Shard gem Fire - - Pays 1 Fire") for r in rows), rows
    assert any(r.startswith("seat 1 Gnome Earth Earth 1 ◆ 1/1 active") for r in rows), rows
    assert "whenever you take a die" in out
    assert "Hell (face up, top last): Curse" in out and "purse: 23 gems" in out and "middle: 5 dice" in out
    assert "Pays 1 Fire symbol" in out


def test_an_effect_asks_also_or_instead() -> None:
    # Seraph as the exclusive example it was written with (the balanced deck made it inclusive)
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1, "Seraph": 1}}, cards=deck_with(Seraph={"kind": "exclusive"}))
    start(s, 0, {"verb": "take", "what": "card"})
    obs = s.observation(0)
    assert "You: instead take a gem from the purse? (Seraph)" in shown(obs)
    labels = [label for _, label in text.choices(obs, obs["legal_actions"])]
    assert labels == ["yes, instead take a gem from the purse", "no, not Seraph's effect"]
    do(s, "no")
    start(s, 0, {"verb": "take", "what": "die"})
    assert "You: also take a gem from the purse? (Gnome)" in shown(s.observation(0))


def test_narration_keeps_secrets() -> None:
    s = cardtable.make("iuno_avatar", players=2).new_state(5)
    assert s.events is not None
    first = s.order[0]
    other = 1 - first
    mine = [text.narrate(e.to_json(), first) for e in s.events_for(first)]
    theirs = [text.narrate(e.to_json(), other) for e in s.events_for(other)]
    assert any(line and "turn order" in line for line in mine)
    drawn = [e for e in s.events if e.kind == "drew"]
    assert drawn and all(e.data["seat"] == first for e in drawn)
    assert all(not e.visible_to(other) for e in drawn)
    card = drawn[0].data["card"]
    assert any(line and f"got {card}" in line for line in mine)
    assert not any(line and f"got {card}" in line for line in theirs)


def test_catalog_has_every_card_with_text_and_pictograms() -> None:
    catalog = text.card_catalog(cardtable.make("iuno_avatar"))
    assert len(catalog) == 54 and all(c["text"] and c["pictograms"] for c in catalog)


@pytest.mark.parametrize("players", ["2", "3"])
def test_play_a_whole_game_in_the_terminal(tmp_path, monkeypatch, players: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CARDTABLE_SAVES", str(tmp_path / "saves"))
    path = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "iuno_avatar", "-p", players, "--seed", "3", "--bots", "random",
                                 "-o", "turn_limit=30", "--save", str(path)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Your Heaven" in result.output and "Hell (face up" in result.output
    replay = json.loads(path.read_text())
    assert replay["game"] == "iuno_avatar" and replay["actions"]

