"""What a game gives the core's shared layers is a protocol its state implements (STYLE.md
principle 11), declared once in its spec (`GameSpec.effects`): each game's state implements what
the layers it hosts ask of it, and hosts exactly the layers its spec declares."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.effects import Effects, Priority, ResponseStack, UseAbility
from cardtable.core.game import Game

from ..core.effects_toy import Duel


def _hosted(game: Game) -> tuple[dict[str, Effects | ResponseStack], object]:
    """The layers whose decisions the game's state lists (its layout), by the spec's names."""
    state = game.new_state(seed=0, record_events=False)
    layers: dict[str, Effects | ResponseStack] = {}
    for d in type(state).layout.decisions:
        if issubclass(d, UseAbility):
            layers["sequence"] = d.engine
        elif issubclass(d, Priority):
            layers["stack"] = d.stack
    return layers, state


@pytest.mark.parametrize("game", [*cardtable.games(), "duel (tests/core/effects_toy.py)"])
def test_the_state_implements_the_layers_its_spec_declares(game: str) -> None:
    made = Duel(Duel.Options()) if game.startswith("duel") else cardtable.make(game)
    layers, state = _hosted(made)
    assert tuple(sorted(layers)) == tuple(sorted(made.spec.effects)), \
        f"{game}: its spec declares {made.spec.effects}, its state hosts {sorted(layers)}"
    for name, layer in layers.items():
        for host in layer.hosts:
            assert isinstance(state, host), f"{game}: its state does not implement {host.__name__} ({name})"


def test_a_state_missing_a_hook_is_caught() -> None:
    """The check can fail: a state without one of the effect layer's hooks is no `EffectHost`."""
    from cardtable.core.effects import EffectHost

    class Partial:
        pending: list[object] = []
        is_over = False

        def abilities(self, event: object) -> list[object]:
            return []

    assert not isinstance(Partial(), EffectHost)
