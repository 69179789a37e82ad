"""scripts/agreement.py: how often two levels pick the same move in the same positions (what
docs/agents.md reports beside the expert pairs)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "agreement.py"


def test_a_deterministic_level_agrees_with_itself_and_a_blundering_one_does_not(capsys: pytest.CaptureFixture[str]) -> None:
    main = runpy.run_path(str(SCRIPT))["main"]
    main(["iunu", "--games", "1", "--every", "4", "--levels", "medium,easy"])
    out = capsys.readouterr().out
    rows = dict(re.findall(r"^\| ([a-z ,]+) \| (\d+) of \d+ \|", out, re.M))
    positions = int(re.search(r"(\d+) positions", out).group(1))  # type: ignore[union-attr]
    assert positions >= 20
    assert int(rows["medium, another seed"]) == positions  # the heuristic is a function of the position
    assert int(rows["easy, another seed"]) < positions  # easy plays at random half the time, on its own seed each time
    assert int(rows["medium and easy"]) < positions


def test_the_positions_are_medium_games_and_the_seat_to_move_has_a_choice() -> None:
    positions = runpy.run_path(str(SCRIPT))["positions"]
    kept = positions("juno", {"players": 2, "match": False}, 2, 3)
    assert kept and all(state.current_player == seat and len(state.legal_actions()) > 1 for state, seat in kept)
