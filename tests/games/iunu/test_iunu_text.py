"""Terminal play (`cardtable play iunu`): the Forum, dice, Dynasties as columns, Debens and Bread,
and the final score table by source."""

from __future__ import annotations

import random

from rich.console import Console

from cardtable.games.iunu import text


def shown(obs) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(text.render(obs))
    return console.export_text()


def test_render_during_and_after_a_game() -> None:
    import cardtable

    game = cardtable.make("iunu", players=2, variant="memphis-and-thebes")
    state = game.new_state(3)
    out = shown(state.observation(0))
    for word in ("Forum", "Dice", "Dynasties", "Heliopolis", "Debens", "Your hand", "Bread left"):
        assert word in out
    rnd = random.Random(1)
    lines = []
    while not state.is_over:
        state.apply(rnd.choice(state.legal_actions()))
    for e in state.events_for(0):
        line = text.narrate(e.to_json(), 0)
        if line:
            lines.append(line)
    assert any("played" in line for line in lines) and any("game over" in line for line in lines)
    out = shown(state.observation(0))
    for word in ("Final scores", "Citizen VP", "Bread VP", "Majority VP", "Afterlife", "Merchant bonus", "total"):
        assert word in out
