"""docs/rl.md's observation layouts and list of games are what the encoders say."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.rl import layouts

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_layout_tables_and_the_list_of_games_are_generated_from_the_encoders() -> None:
    text = DOC.read_text()
    assert layouts.render(text) == text, "docs/rl.md is out of date: run python -m cardtable.rl.layouts docs/rl.md"
    assert "<!-- layout ivion -->\n| piece | shape | offset | max | meaning |" in text


def test_a_game_with_an_encoder_and_no_block_is_named() -> None:
    text = DOC.read_text().replace("<!-- layout zun -->", "")
    with pytest.raises(ValueError, match="no layout block for zun"):
        layouts.render(text)
