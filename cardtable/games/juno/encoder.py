"""JUNO observation encoding (layout in docs/rl.md, "JUNO").

Everything comes from `JunoState.observation(seat)`: the seat's own hand, the public piles
and counts, and the pending decision. Seats are relative to the observer (0 = me, 1 = the
seat to my left, i.e. seat + 1), so one policy can play any seat. Card types are JUNO's 54
types in the order of `cardtable.games.juno.cards.CARD_NAME` (red 0 ... blue draw two,
wild, wild draw four).

Not encoded: `round` and `round_results` (only the scores they produce are), the list of
`legal_actions` (that is the action mask), `variant` and `players` (fixed for one game).

Two paths give the same array. `fill` reads the observation dict (the reference, also used by
any caller holding a dict). `encode_state`, what the environments call at every step, reads
`seat_view(state, seat)` — the same view as numbers, without card names or legal-action texts —
and writes counts and one-hots as small integers into one reused integer buffer, converted to
float32 in one numpy call; the DISCARD pile's counts are carried over from the last call while
the pile only grew (checked by comparing the piles, never assumed). Compiled with the engine
(cardtable/_native.py).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from ...core.state import State
from .cards import CARD_BY_NAME, COLORS, NUM_TYPES, RANK_NAMES
from .observation import LACKING, lacking, seat_view

DECISIONS = ("turn", "after_draw", "stack", "choose_color", "swap", "challenge", "catch")
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_COLOR = {c: i for i, c in enumerate(COLORS)}
_RANK = {r: i for i, r in enumerate(RANK_NAMES)}
RULEBOOK_TARGET = 500  # "Scoring": the first player to reach 500 points wins
SCORE_CAP = 2.0  # only a final score can pass the target; capping keeps the Box bounded


# a plain Python class in the compiled build (cardtable/_native.py), as the core's `Encoder` it
# extends is; its methods are compiled
@mypyc_attr(native_class=False)
class JunoEncoder(Encoder):
    """Seats are relative to the observer: seat s is written at (s - me) % players."""

    private = ("hand",)  # what only I see: the information state records how it changes

    def pieces(self, game: Game[Any]) -> list[Piece]:
        n = game.players
        copies = float(max(game.counts))  # type: ignore[attr-defined]
        deck = float(game.deck_size)  # type: ignore[attr-defined]
        return [
            Piece("hand", (NUM_TYPES,), copies, "my hand: how many of each card type I hold"),
            Piece("top_card", (NUM_TYPES,), 1, "one-hot: the card on top of the DISCARD pile"),
            Piece("color", (len(COLORS),), 1, "one-hot: the color in play (a Wild's chosen color)"),
            Piece("discard", (NUM_TYPES,), copies, "how many of each card type lie in the DISCARD pile"),
            Piece("draw_pile", (1,), 1, "cards left in the DRAW pile / deck size", whole=False),
            Piece("hand_counts", (n,), deck, "cards held by each seat, relative (0 = me)"),
            Piece("direction", (2,), 1, "one-hot: play goes left (seat + 1), right (seat - 1)"),
            Piece("decision", (len(DECISIONS),), 1, "one-hot: the pending decision: " + ", ".join(DECISIONS)),
            Piece("decision_seat", (n,), 1, "one-hot: the relative seat that must decide now"),
            Piece("turn", (n,), 1, "one-hot: the relative seat whose turn it is"),
            Piece("dealer", (n,), 1, "one-hot: the relative seat of the dealer"),
            Piece("drawn", (NUM_TYPES,), 1, "one-hot: the card I just drew (my after_draw decision only)"),
            Piece("decision_target", (n,), 1, "one-hot: relative seat caught (catch) or challenged (challenge)"),
            Piece("stack_value", (len(RANK_NAMES),), 1, "one-hot: the value being stacked (serious stack decision)"),
            Piece("stack_count", (1,), 3, "cards already in this stacked play"),
            Piece("penalty", (1,), deck, "cards the next player must draw (serious: the stacked sum)"),
            Piece("scores", (n,), SCORE_CAP, "match points of each relative seat / target (500 without a match), at most 2",
                  whole=False),
            Piece("lacking", (n, len(LACKING)), deck,
                  "cards of each relative seat the table knows are not " + ", ".join(LACKING)
                  + " (from its draws and Wild Draw Fours: `JunoState.voids`)"),
        ]

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        at = self.at
        self._hand, self._top, self._color, self._discard = at["hand"], at["top_card"], at["color"], at["discard"]
        self._deck = float(game.deck_size)  # type: ignore[attr-defined]
        n = game.players
        # encode_state writes its integers (card counts, hand counts, one-hots, the stack count: at
        # most the deck's size) into the whole-number buffer (`Encoder.cleared_counts`): unsigned
        # bytes for the standard decks, 16-bit integers for a custom deck of more than 255 cards.
        self._pile: tuple[int, ...] = ()  # the DISCARD pile of the last encode_state call
        self._pile_zeros = self.zero_counts(NUM_TYPES)
        self._pile_counts = self.zero_counts(NUM_TYPES)  # its counts per card type
        # positions, per observer, of each seat's one-hot or count in the seat-relative pieces
        self._seat_at = {
            name: [tuple(at[name] + (s - me) % n for s in range(n)) for me in range(n)]
            for name in ("hand_counts", "decision_seat", "decision_target", "turn", "dealer", "scores")
        }
        self._decision_at = {kind: at["decision"] + i for kind, i in _DECISION.items()}
        # where each observer writes each seat's `lacking` row; the last masks seen per seat and
        # their counts (a hand's masks are an immutable tuple replaced on every change, so the same
        # object has the same counts)
        self._lacking_at = [[at["lacking"] + (s - me) % n * len(LACKING) for s in range(n)] for me in range(n)]
        self._lack_masks: list[tuple[int, ...] | None] = [None] * n
        self._lack_counts: list[tuple[int, ...]] = [(0,) * len(LACKING)] * n

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`, built from `seat_view(state, seat)` (module docstring)."""
        (_n, me, hand, top, color, pile, draw_pile, hand_counts, voids, direction, turn, dealer, kind, decider,
         drawn, target, value, count, penalty, scores, target_points) = seat_view(state, seat)  # type: ignore[arg-type]
        at = self.at
        me = me if me is not None else 0
        seat_at = self._seat_at
        buf = self.cleared_counts()
        base = self._hand
        for t in hand:
            buf[base + t] += 1
        # DISCARD pile counts: a play only adds to the top, so usually only the new top cards are
        # counted; a reshuffle, another game or another state starts the count again.
        counts = self._pile_counts
        seen = self._pile
        k = len(seen)
        if len(pile) == k and pile == seen:
            pass
        elif len(pile) > k and pile[:k] == seen:
            for i in range(k, len(pile)):
                counts[pile[i]] += 1
        else:
            counts[:] = self._pile_zeros
            for t in pile:
                counts[t] += 1
        self._pile = pile
        base = self._discard
        buf[base : base + NUM_TYPES] = counts
        if top is not None:
            buf[self._top + top] = 1
        if color is not None:
            buf[self._color + color] = 1
        for i, c in zip(seat_at["hand_counts"][me], hand_counts, strict=True):
            buf[i] = c
        buf[at["direction"] + (0 if direction == 1 else 1)] = 1
        if kind is not None:
            buf[self._decision_at[kind]] = 1
            buf[seat_at["decision_seat"][me][decider]] = 1
            if drawn is not None:
                buf[at["drawn"] + drawn] = 1
            if target is not None:
                buf[seat_at["decision_target"][me][target]] = 1
            if value is not None:
                buf[at["stack_value"] + value] = 1
                buf[at["stack_count"]] = count
        if turn is not None:
            buf[seat_at["turn"][me][turn]] = 1
        buf[seat_at["dealer"][me][dealer]] = 1
        if voids:
            rows = self._lacking_at[me]
            seen_masks, seen_counts = self._lack_masks, self._lack_counts
            for s, masks in enumerate(voids):
                if masks is not seen_masks[s]:
                    seen_masks[s] = masks
                    seen_counts[s] = lacking(masks)
                row = rows[s]
                for i, c in enumerate(seen_counts[s]):
                    if c:
                        buf[row + i] = c
        # One conversion of the integers, straight into `out` when given (no array in between).
        x = self.counts_result(out)
        # The values that are not small integers, written as floats.
        x[at["draw_pile"]] = draw_pile / self._deck
        if penalty:
            x[at["penalty"]] = penalty
        if any(scores):
            points_at = target_points or RULEBOOK_TARGET
            for i, points in zip(seat_at["scores"][me], scores, strict=True):
                x[i] = min(points / points_at, SCORE_CAP)
        return x

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self.at
        n = obs["players"]
        me = obs["seat"] if obs["seat"] is not None else 0
        cards = CARD_BY_NAME
        base = self._hand
        for name in obs.get("hand", ()):
            buf[base + cards[name]] += 1
        if obs["top_card"] is not None:
            buf[self._top + cards[obs["top_card"]]] = 1
        if obs["color"] is not None:
            buf[self._color + _COLOR[obs["color"]]] = 1
        base = self._discard
        for name in obs["discard"]:
            buf[base + cards[name]] += 1
        buf[at["draw_pile"]] = obs["draw_pile"] / self._deck
        base = at["hand_counts"]
        for s, count in enumerate(obs["hand_counts"]):
            buf[base + (s - me) % n] = count
        buf[at["direction"] + (0 if obs["direction"] == "left" else 1)] = 1
        d = obs["decision"]
        if d is not None:
            buf[at["decision"] + _DECISION[d["kind"]]] = 1
            buf[at["decision_seat"] + (d["seat"] - me) % n] = 1
            if "drawn" in d:
                buf[at["drawn"] + cards[d["drawn"]]] = 1
            target = d.get("target", d.get("offender"))
            if target is not None:
                buf[at["decision_target"] + (target - me) % n] = 1
            if "value" in d:
                buf[at["stack_value"] + _RANK[d["value"]]] = 1
                buf[at["stack_count"]] = d["count"]
        if obs["turn"] is not None:
            buf[at["turn"] + (obs["turn"] - me) % n] = 1
        buf[at["dealer"] + (obs["dealer"] - me) % n] = 1
        buf[at["penalty"]] = obs["penalty"]
        target_points = obs["target"] or RULEBOOK_TARGET
        base = at["scores"]
        for s, points in enumerate(obs["scores"]):
            buf[base + (s - me) % n] = min(points / target_points, SCORE_CAP)
        base = at["lacking"]
        for s, counts in enumerate(obs["lacking"]):
            for i, c in enumerate(counts):
                buf[base + (s - me) % n * len(LACKING) + i] = c
