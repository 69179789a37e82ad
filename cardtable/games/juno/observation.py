"""What one seat (or a spectator, seat None) sees of a JUNO state: DESIGN.md "observation(seat)".

Public: the discard pile, hand counts, scores, the decision being waited on. Private to `seat`: its
hand, the card it just drew, and its legal actions when the decision is its own.

Two forms of the same view:

- `observe(state, seat)`: the JSON dict `JunoState.observation(seat)` returns (web UI, terminal,
  server, agents, logs).
- `seat_view(state, seat)`: the fields of that dict an observation encoder needs, as numbers
  (card types, color indices) instead of names, for the RL hot path (cardtable/games/juno/encoder.py),
  where building and re-parsing names costs more than the rest of a step. It holds nothing that
  `observe` does not show: each field is named after the dict key it stands for, and
  tests/rl/test_encoders.py checks that encoding either form gives the same array in every state
  of random games, for every seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .cards import CARD_COLOR, CARD_NAME, COLORS, NO_COLOR, NUM_TYPES
from .decisions import COLOR_MASK, AfterDraw, Catch, Challenge, StackMore

if TYPE_CHECKING:
    from .state import JunoState


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[t] for t in sorted(cards)]


#: What `lacking` counts, in its order: the four colors and the Wilds.
LACKING = (*COLORS, "wild")
# The card types of each, as bit masks over card types (the state's `voids`).
_RED: Final = COLOR_MASK[0]
_YELLOW: Final = COLOR_MASK[1]
_GREEN: Final = COLOR_MASK[2]
_BLUE: Final = COLOR_MASK[3]
_WILD: Final = sum(1 << t for t in range(NUM_TYPES) if CARD_COLOR[t] == NO_COLOR)


def lacking(masks: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """How many cards of one hand the table knows are not red, yellow, green, blue, a Wild
    (`LACKING`): a card whose mask in `JunoState.voids` rules out every card type of it.
    Public: only public play shapes the masks (docs/games/juno.md, interpretation 17)."""
    red = yellow = green = blue = wild = 0
    for m in masks:
        if m:
            if m & _RED == _RED:
                red += 1
            if m & _YELLOW == _YELLOW:
                yellow += 1
            if m & _GREEN == _GREEN:
                green += 1
            if m & _BLUE == _BLUE:
                blue += 1
            if m & _WILD == _WILD:
                wild += 1
    return red, yellow, green, blue, wild


def _lacking_by_seat(state: JunoState) -> list[tuple[int, ...]]:
    """`lacking` for every seat; nothing is known when the state keeps no masks (a loaded game,
    a determinized copy that has moved)."""
    voids = state.voids
    if not voids:
        return [(0,) * len(LACKING)] * state.game.players
    return [lacking(masks) for masks in voids]


def observe(state: JunoState, seat: int | None) -> dict[str, Any]:
    n = state.game.players
    d = None if state.is_over or not state.pending else state.pending[-1]
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
        "decision": None if d is None else d.view(state, seat),
        "top_card": CARD_NAME[state.discard[-1]] if state.discard else None,
        "color": COLORS[state.color] if state.color != NO_COLOR else None,
        "discard": [CARD_NAME[t] for t in state.discard],
        "draw_pile": len(state.draw),
        "hand_counts": [len(h) for h in state.hands],
        # per seat: how many of its cards the table knows are not red, yellow, green, blue, a Wild
        "lacking": [list(c) for c in _lacking_by_seat(state)],
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


class SeatView(NamedTuple):
    """Part of `observe(state, seat)` as numbers; each field says which dict entry it stands for.

    Card types index `CARD_NAME`, colors index `COLORS`, ranks index `RANK_NAMES`."""

    players: int                 # "players"
    seat: int | None             # "seat"
    hand: list[int]              # "hand", sorted by type (empty for a spectator)
    top_card: int | None         # "top_card"
    color: int | None            # "color"
    discard: tuple[int, ...]     # "discard", bottom to top
    draw_pile: int               # "draw_pile"
    hand_counts: list[int]       # "hand_counts"
    voids: tuple[tuple[int, ...], ...]  # "lacking": each seat's masks, () when none is kept (`lacking`)
    direction: int               # "direction": +1 left, -1 right
    turn: int | None             # "turn"
    dealer: int                  # "dealer"
    decision: str | None         # "decision"["kind"]
    decision_seat: int           # "decision"["seat"] (-1 without a decision)
    drawn: int | None            # "decision"["drawn"]: only in `seat`'s own after_draw decision
    decision_target: int | None  # "decision"["target"] (catch) or ["offender"] (challenge)
    stack_value: int | None      # "decision"["value"] (a rank)
    stack_count: int             # "decision"["count"] (0 when absent)
    penalty: int                 # "penalty"
    scores: list[int]            # "scores"
    target: int | None           # "target"


def seat_view(state: JunoState, seat: int | None) -> SeatView:
    """`observe(state, seat)`'s numbers, without building names or the legal-action texts."""
    over = state.is_over
    d = None if over or not state.pending else state.pending[-1]
    kind: str | None = None
    decider = -1
    drawn = target = value = None
    count = 0
    if d is not None:
        kind, decider = d.kind, d.seat
        cls = type(d)
        if cls is AfterDraw:
            if decider == seat:  # the drawn card is shown only to the seat that drew it
                drawn = d.card  # type: ignore[attr-defined]
        elif cls is Catch:
            target = d.target  # type: ignore[attr-defined]
        elif cls is Challenge:
            target = d.offender  # type: ignore[attr-defined]
        elif cls is StackMore:
            value, count = d.rank, d.count  # type: ignore[attr-defined]
    discard = state.discard
    color = state.color
    game = state.game
    return SeatView(
        game.players,
        seat,
        sorted(state.hands[seat]) if seat is not None else [],
        discard[-1] if discard else None,
        color if color != NO_COLOR else None,
        tuple(discard),
        len(state.draw),
        [len(h) for h in state.hands],
        state.voids,
        state.direction,
        None if over else state.turn,
        state.dealer,
        kind,
        decider,
        drawn,
        target,
        value,
        count,
        state.penalty,
        list(state.scores),
        game.target if game.match else None,
    )
