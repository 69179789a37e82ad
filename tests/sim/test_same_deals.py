"""scripts/same_deals.py: a ladder pair's games played again with another entrant, on the same deals
(what docs/agents.md's paired comparisons of JUNO's searchers are made with)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from cardtable.sim import ladder

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "same_deals.py"


def test_the_same_entrant_on_the_same_deals_plays_the_ladders_games_again(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    ladder.run("juno", ["easy", "medium"], 6, tmp_path / "l", options={"match": False})
    main = runpy.run_path(str(SCRIPT))["main"]
    main(["juno", "easy", "medium", "--instead", "medium", "-o", "match=false", "--games", "6", "--workers", "1",
          "--out", str(tmp_path / "again"), "--against", str(tmp_path / "l")])
    first = {(r["index"], r["seed"]): (r["seats"], r["winners"], r["decisions"])
             for r in ladder.read_games(tmp_path / "l").to_pylist()}
    again = {(r["index"], r["seed"]): (r["seats"], r["winners"], r["decisions"])
             for r in ladder.read_games(tmp_path / "again").to_pylist()}
    assert again == first  # the same game seeds, seats, bots' seeds: the same games, move for move
    assert "paired, 6 games" in capsys.readouterr().out

    main(["juno", "easy", "medium", "--instead", "random", "-o", "match=false", "--games", "6", "--workers", "1",
          "--out", str(tmp_path / "other")])
    other = {(r["index"], r["seed"]): r["seats"] for r in ladder.read_games(tmp_path / "other").to_pylist()}
    assert set(other) == set(first)  # another entrant, dealt the same games
    assert all(seats == [s if s == "easy" else "random" for s in first[k][0]] for k, seats in other.items())
