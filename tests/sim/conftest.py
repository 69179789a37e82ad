"""Small, fast JUNO jobs for the simulation tests: 2 players, one round, 3-card hands."""

from __future__ import annotations

from typing import Any

import pytest

SMALL: dict[str, Any] = {"players": 2, "match": False, "hand_size": 3}


@pytest.fixture
def small() -> dict[str, Any]:
    return dict(SMALL)
