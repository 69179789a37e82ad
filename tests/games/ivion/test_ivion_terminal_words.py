"""The terminal says what the table says (issue 34): while you decide, each card you hold that cannot
be played now is listed under your moves with the rule's reason, the words the browser draws on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli import _load, app
from cardtable.commands import play

_load()
runner = CliRunner()


def test_the_terminal_lists_why_each_card_cannot_be_played_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_SAVES", str(tmp_path))  # leaving with q saves the game there
    state = cardtable.make("ivion").new_state(2)  # `cardtable play ivion --seed 2`: you (seat 0) begin
    assert state.current_player == 0
    refused = {n: st["why"] for n, st in state.card_status(0).items() if st["why"]}
    assert refused  # a card out of range or too dear at the start
    result = runner.invoke(app, ["play", "ivion", "--seed", "2", "--bots", "random"], input="q\n",
                           env={"COLUMNS": "300"})
    lines = [line.strip() for line in result.output.splitlines() if line.strip().startswith("✗")]
    for name, why in refused.items():  # each card with its reason: alone, or named with those that share it
        alone = why if why.startswith(name) else f"{name}: {why}"
        rest = why[len(name):] if why.startswith(name) else f": {why}"
        assert any(line == f"✗ {alone}" or (name in line and line.endswith(rest)) for line in lines), (name, lines)


def test_cards_that_share_a_reason_are_named_together_on_one_line() -> None:
    state = cardtable.make("ivion").new_state(5)  # seat 1 begins: its first card opens a response window
    state.apply(state.legal_actions()[0])
    while state.current_player != 0:
        state.apply(state.legal_actions()[0])
    statuses = state.card_status(0)
    not_instants = [n for n, st in statuses.items() if st["why"] == f"{n} is not an instant: only instants answer a card being played"]
    assert len(not_instants) >= 2
    lines = play.refusals(statuses)
    assert f"{', '.join(not_instants)}: each is not an instant: only instants answer a card being played" in lines
    assert not any(line.startswith(f"{not_instants[0]} is") for line in lines)
    assert play.refusals({"Cleave": {"why": "Cleave has no target in range"}}) == ["Cleave has no target in range"]
    assert play.refusals({"A": {"why": "costs 3 actions"}, "B": {"why": "costs 3 actions"}, "C": {"why": ""}}) == \
        ["A, B: costs 3 actions"]
