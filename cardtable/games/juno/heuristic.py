"""How a decent person plays JUNO (rulebook juno.txt, sections "Let's play", "Functions of
Action Cards", "Going out", "Seven-o Rules", "Serious rules").

- Save wilds: a colored card is always preferred to a Wild; a drawn Wild is kept unless
  someone is close to going out.
- When someone is close to going out (two cards or fewer), shed high-value cards first (they
  count against you in "Scoring") and hit the next player with Skip / Draw Two / Wild Draw Four.
- Call UNO: the "uno" form of a play is always taken when it is offered ("Going out").
- Choose the color you hold most of; stay in the color you hold most of when matching.
- Always catch a player who did not call UNO; challenge a Wild Draw Four when the player who
  played it still holds enough cards to likely hold the color (three or more).
- Seven-o: trade hands with the player holding the fewest cards.

Reads only the deciding seat's own hand and public facts (hand sizes, the discard pile, scores):
the other hands in a determinized view are guesses.
"""

from __future__ import annotations

import math
from typing import cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from .actions import CATCH, CHALLENGE, CHOOSE, DRAW, PASS, PLAY, JunoAction, Kind
from .cards import (
    CARD_COLOR,
    CARD_POINTS,
    CARD_RANK,
    DRAW_TWO,
    NO_COLOR,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from .decisions import AfterDraw, Catch, Challenge, ChooseColor, StackMore, SwapHands, Turn
from .state import JunoState

CLOSE = 2  # "close to going out": this many cards or fewer


def _color_counts(hand: list[int], without: int | None = None) -> list[int]:
    counts = [0, 0, 0, 0, 0]
    for t in hand:
        counts[CARD_COLOR[t]] += 1
    if without is not None:
        counts[CARD_COLOR[without]] -= 1
    return counts


def _with_call(card: int, legal: list[JunoAction]) -> Action:
    """The play of `card`, calling UNO when that form is legal."""
    call = PLAY[card][1]
    return call if call in legal else PLAY[card][0]


def _card_score(s: JunoState, seat: int, card: int, danger: bool, next_close: bool) -> float:
    hand = s.hands[seat]
    n = s.game.players
    rank = CARD_RANK[card]
    color = CARD_COLOR[card]
    if color == NO_COLOR:
        # Save wilds: worse than any colored play unless the table is dangerous.
        score = -100.0
        if danger:
            score = -10.0 + CARD_POINTS[card] / 2
            if card == WILD_DRAW_FOUR and next_close:
                score += 60
        if len(hand) <= 2:  # the last cards: a wild always matches, go out with it
            score += 80
        return score
    counts = _color_counts(hand, card)
    score = 10.0 * counts[color] + CARD_POINTS[card] / (2 if danger else 20)
    if rank in (SKIP, DRAW_TWO) or (rank == REVERSE and n == 2):
        score += 60 if next_close else 4  # with two players these give another turn
    if s.game.seven_o and rank in (0, 7):
        mine = len(hand) - 1
        fewest = min(len(s.hands[o]) for o in range(n) if o != seat)
        score += 30 if fewest < mine - 1 else -30
    return score


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, JunoState)
    d = s.pending[-1]
    seat = d.seat
    legal = cast(list[JunoAction], s.legal_actions())
    kind = type(d)
    n = s.game.players
    if kind is Catch:
        return CATCH
    if kind is Challenge:
        offender = d.offender  # type: ignore[attr-defined]
        return CHALLENGE if len(s.hands[offender]) >= 3 else PASS
    if kind is ChooseColor:
        counts = [0.0] * 4
        for t in s.hands[seat]:
            c = CARD_COLOR[t]
            if c != NO_COLOR:
                counts[c] += 1 + CARD_POINTS[t] / 100
        best = max(counts)
        if best == 0:
            return CHOOSE[rng.below(4)]
        return CHOOSE[counts.index(best)]
    if kind is SwapHands:
        targets = [a for a in legal if a.kind == Kind.SWAP]
        return min(targets, key=lambda a: (len(s.hands[a.seat]), a.seat))
    nxt = (s.turn + s.direction) % n
    others = [o for o in range(n) if o != seat]
    danger = min(len(s.hands[o]) for o in others) <= CLOSE
    next_close = nxt != seat and len(s.hands[nxt]) <= CLOSE
    if kind is StackMore:
        plays = [a for a in legal if a.kind == Kind.PLAY]
        return _with_call(plays[0].card, legal) if plays else PASS
    if kind is AfterDraw:
        card = d.card  # type: ignore[attr-defined]
        if PLAY[card][0] not in legal:
            return PASS
        if card == WILD and not danger and len(s.hands[seat]) > 2:
            return PASS  # save the Wild
        return _with_call(card, legal)
    assert kind is Turn
    cards = {a.card for a in legal if a.kind == Kind.PLAY}
    if not cards:
        return DRAW if DRAW in legal else legal[0]
    best_card = max(sorted(cards), key=lambda t: _card_score(s, seat, t, danger, next_close))
    return _with_call(best_card, legal)


def _round_win_chances(s: JunoState) -> list[float]:
    """A rough chance of going out first, from hand sizes (fewer cards: likelier)."""
    n = s.game.players
    sizes = [float(len(h)) for h in s.hands]
    if s.penalty and s.current_player is not None:
        sizes[s.current_player] += s.penalty * 0.75  # facing a stacked draw
    weights = [math.exp(-0.45 * h) for h in sizes]
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [1.0 / n] * n


def evaluate(state: State) -> list[float]:
    """Estimated `returns()` (winner +1, losers share -1) for a state that is not over."""
    s = state
    assert isinstance(s, JunoState)
    n = s.game.players
    p = _round_win_chances(s)
    if s.game.match:
        # Project each seat's score by the points it could win this round, then turn the
        # projected lead into a chance of winning the match.
        pts = [sum(CARD_POINTS[t] for t in h) for h in s.hands]
        total = sum(pts)
        projected = [s.scores[i] + p[i] * (total - pts[i]) for i in range(n)]
        scale = max(1.0, s.game.target / 4)
        top = max(projected)
        w = [math.exp((x - top) / scale) for x in projected]
        tw = sum(w)
        p = [x / tw for x in w]
    lose = 1.0 / (n - 1)
    return [pi * (1 + lose) - lose for pi in p]
