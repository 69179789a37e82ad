"""The Ray backend gives the same rows as the local pool for the same seeds (a local Ray
instance here; docs/simulation.md shows a real cluster)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardtable.sim import load, run

pytest.importorskip("ray")


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_ray_and_local_backends_give_identical_results_for_the_same_seeds(
    small: dict[str, Any], tmp_path: Path
) -> None:
    local = run("juno", ["random"], games=20, seed=500, options=small, rotate=True, workers=2, backend="local")
    on_ray = run("juno", ["random"], games=20, seed=500, options=small, rotate=True, workers=2, backend="ray",
                 out=tmp_path)
    assert on_ray["seed"].to_list() == list(range(500, 520))
    assert on_ray.equals(local)
    assert load(tmp_path).equals(local)
