"""The terminal says what the table says (issue 34): while you decide, each card you hold that cannot
be played now is listed under your moves with the rule's reason, the words the browser draws on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli import _load, app

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
    for name, why in refused.items():
        assert f"✗ {why if why.startswith(name) else f'{name}: {why}'}" in result.output
