"""The core effect layer bound to Iuno Avatar (cardtable/core/effects.py): its verbs, its answers
and the four hooks, each a rule of the state (state.py).

- abilities: a figure's effect is in force "when the figure card is active with at least one gem
  on top of it"; inclusive effects are triggers, exclusive ones replacements; a spell's effect is
  a trigger of its own arrival on Earth ("immediately come into effect once the spell card
  arrives on Earth"); every one is optional ("Players can always choose whether they want a
  specific effect to take place or not");
- the loop rule is the core's: a card whose effect fired in an effect sequence fires no more in it;
- a card's effect of several steps is a chained ability: a step that can do nothing (`possible`)
  stops the steps after it.
"""

from __future__ import annotations

from typing import Any

from ...core.effects import Ability, Context, EffectActions, Effects, GameEvent
from ...core.verbs import Effect
from .actions import FIRST, NO, YES
from .language import VERBS


def _abilities(state: Any, event: GameEvent) -> list[Ability]:
    return state.abilities_for(event)  # type: ignore[no-any-return]


def _event_of(state: Any, effect: Effect, context: Context) -> GameEvent:
    return state.event_of(effect, context)  # type: ignore[no-any-return]


def _turn_order(state: Any) -> list[int]:
    return state.turn_order()  # type: ignore[no-any-return]


def _done(state: Any) -> None:
    state.sequence_done()


def _possible(state: Any, effect: Effect, context: Context) -> bool:
    return state.possible(effect, context)  # type: ignore[no-any-return]


EFFECTS = Effects(VERBS, EffectActions(YES, NO, FIRST), _abilities, _event_of, _turn_order, _done,
                  card_name=lambda state, card: state.card(card).name, possible=_possible)
