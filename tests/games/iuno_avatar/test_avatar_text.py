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

from .helpers import deck_with, do, rolled, start, table, texts

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


def test_the_seat_is_told_which_cards_a_roll_or_a_payment_can_use_and_why_not() -> None:
    """The observation says, for the deciding seat's own cards, whether each can be played now and
    why (not): the views draw it and work out no rule (issue 30)."""
    s = table(heaven={0: ["Tide", "Gnome", "Ember Shard"]}, earth={0: {"Salamander": 1}}, gems=[0, 3])
    rolled(s, 1)
    plays = {p["action"]: p for p in s.observation(0)["plays"]}
    assert "summon Gnome" in plays and "cast Tide" in plays and "pay with Ember Shard" not in plays
    assert not plays["level up Salamander"]["can"] and plays["level up Salamander"]["why"] == "you have no gem to put on it"
    for p in plays.values():  # a card that cannot be played says which rule stops it
        assert p["can"] == (p["action"] in texts(s)) and p["why"], p
    assert "plays" not in s.observation(1) and "plays" not in s.observation(None)  # the seat's own cards only


def test_plays_agree_with_the_legal_moves_in_whole_games() -> None:
    import random

    game = cardtable.make("iuno_avatar", players=3)
    checked = 0
    for seed in range(6):
        s = game.new_state(seed)
        rnd = random.Random(seed)
        while not s.is_over and s.turns < 40:
            legal = texts(s)
            if s.decision.kind in ("use_roll", "pay"):
                plays = s.observation(s.current_player)["plays"]
                for p in plays:
                    assert p["can"] == (p["action"] in legal), (p, legal)
                    assert p["why"]
                # every card move the decision allows is among them (all but "discard the die")
                assert {a for a in legal if a != "discard the die"} <= {p["action"] for p in plays}
                checked += 1
            s.apply(rnd.choice(legal))
    assert checked > 100


def test_every_pictogram_has_a_name_and_the_legend_holds_every_one() -> None:
    """The legend (Rules panel) is generated from the language and the deck: every pictogram of
    every card is in it, with the name the card's own pictogram says; every operator is there."""
    from cardtable.games.iuno_avatar.language import VERBS
    from cardtable.ui.cards import legend

    game = cardtable.make("iuno_avatar")
    entries = legend(game)

    def key(p: dict) -> tuple:  # type: ignore[type-arg]
        return (p["kind"], p["name"], p.get("owner"), "element" in p)

    assert len({key(p) for p in entries}) == len(entries) and all(p["label"] for p in entries)
    by_key = {key(p): p for p in entries}
    for card in text.card_catalog(game):
        for p in card["pictograms"]:
            assert key(p) in by_key, (card["name"], p)
            if "element" not in p:
                assert p["label"] == by_key[key(p)]["label"]
    assert {p["name"] for p in entries if p["kind"] == "operator"} == set(VERBS.names())
    # white and black of each component, both markers; names a person reads
    assert text.pictogram_name({"kind": "area", "name": "heaven", "owner": "black"}) == "Heaven (an opponent's, of your choice)"
    assert text.pictogram_name({"kind": "marker", "name": "rhombus"}) == "exclusive: instead do"
    assert text.pictogram_name({"kind": "joiner", "name": "then"}) == "then"  # a kind not known here: its name
    assert legend(cardtable.make("juno")) == []
