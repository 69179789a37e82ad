"""What one seat (or a spectator, seat None) sees of a JUNO state: DESIGN.md "observation(seat)".

Public: the discard pile, hand counts, scores, the decision being waited on. Private to `seat`: its
hand, the card it just drew, and its legal actions when the decision is its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARD_NAME, COLORS, NO_COLOR, RANK_NAMES
from .decisions import AfterDraw, Catch, Challenge, StackMore

if TYPE_CHECKING:
    from .state import JunoState


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[t] for t in sorted(cards)]


def observe(state: JunoState, seat: int | None) -> dict[str, Any]:
    n = state.game.players
    d = None if state.is_over or not state.pending else state.pending[-1]
    decision: dict[str, Any] | None = None
    if d is not None:
        decision = {"kind": d.kind, "seat": d.seat}
        if isinstance(d, Catch):
            decision["target"] = d.target
        elif isinstance(d, Challenge):
            decision["offender"] = d.offender
        elif isinstance(d, StackMore):
            decision["value"] = RANK_NAMES[d.rank]
            decision["count"] = d.count
        elif isinstance(d, AfterDraw) and d.seat == seat:
            decision["drawn"] = CARD_NAME[d.card]
    obs: dict[str, Any] = {
        "game": "juno",
        "variant": state.game.options.variant,
        "players": n,
        "seat": seat,
        "round": state.round,
        "dealer": state.dealer,
        "direction": "left" if state.direction == 1 else "right",
        "turn": None if state.is_over else state.turn,
        "current_player": state.current_player,
        "decision": decision,
        "top_card": CARD_NAME[state.discard[-1]] if state.discard else None,
        "color": COLORS[state.color] if state.color != NO_COLOR else None,
        "discard": [CARD_NAME[t] for t in state.discard],
        "draw_pile": len(state.draw),
        "hand_counts": [len(h) for h in state.hands],
        "scores": list(state.scores),
        "target": state.game.target if state.game.match else None,
        "penalty": state.penalty,
        "round_results": [dict(r) for r in state.round_results],
        "is_over": state.is_over,
        "winners": state.winners(),
    }
    if seat is not None:
        obs["hand"] = _names(state.hands[seat])
        if d is not None and d.seat == seat:
            obs["legal_actions"] = [a.text for a in state.legal_actions()]
    return obs
