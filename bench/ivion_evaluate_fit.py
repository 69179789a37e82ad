"""Where Ivion's `evaluate` comes from, and how well it predicts the winner (issue 34).

Medium-vs-medium games over the 15 pairings of the starters (game g: pair g mod 15, the seats
swapped on odd g); at the start of every other turn (drawn at random) the state's leads of seat 0
are recorded: HP as a fraction of the maximum, cards in deck, cards in hand (shown ones included),
power, cards attached (its own, anywhere) and whether seat 0 is on turn; each labelled with who
won. A logistic regression (Newton's method) is fitted on three quarters of the games and scored
on the rest (log-loss, natural log): the base rate, `evaluate` as it is ((returns + 1) / 2), and
the fit. Printed: the log-losses and the fitted weights per unit of each lead (what
`EVAL_WEIGHTS` in cardtable/games/ivion/heuristic.py holds; whose turn it is is fitted so that it
does not bias the rest, and left out of the evaluation, which a rollout reaches mid-turn).

    python bench/ivion_evaluate_fit.py GAMES
"""

from __future__ import annotations

import itertools
import sys

import numpy as np

import cardtable
from cardtable import agents
from cardtable.core.rng import Rng
from cardtable.games.ivion.decks import builder_info
from cardtable.games.ivion.heuristic import _hand, evaluate
from cardtable.games.ivion.state import IvionState

NAMES = ("hp", "deck", "hand", "power", "attached", "on turn")


def leads(s: IvionState) -> list[float]:
    attached = [0, 0]
    for cards in s.attached.values():
        for c in cards:
            attached[s.owner(c)] += 1
    return [s.hp[0] / s.max_hp[0] - s.hp[1] / s.max_hp[1], len(s.deck[0]) - len(s.deck[1]),
            len(_hand(s, 0)) - len(_hand(s, 1)), s.pools[0]["power"] - s.pools[1]["power"],
            attached[0] - attached[1], 1.0 if s.turn == 0 else -1.0]


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with an intercept (the last weight), by Newton's method."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    for _ in range(25):
        p = 1 / (1 + np.exp(-xb @ w))
        hessian = xb.T @ (xb * (p * (1 - p))[:, None]) + 1e-6 * np.eye(len(w))
        w -= np.linalg.solve(hessian, xb.T @ (p - y))
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    games = int(sys.argv[1])
    pairs = list(itertools.combinations(builder_info()["starters"], 2))
    rng = Rng(7)
    rows: list[tuple[int, list[float], float, float]] = []  # game, leads, evaluate's return, seat 0's result
    for g in range(games):
        decks = list(pairs[g % len(pairs)])[:: -1 if g % 2 else 1]
        state = cardtable.make("ivion", decks=decks).new_state(70000 + g, record_events=False)
        assert isinstance(state, IvionState)
        bots = [agents.make("medium", seed=2 * g), agents.make("medium", seed=2 * g + 1)]
        seen: list[tuple[list[float], float]] = []
        turn = -1
        while not state.is_over:
            if state.turn_number != turn:
                turn = state.turn_number
                if rng.below(2) == 0:
                    seen.append((leads(state), evaluate(state)[0]))
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state))
        won = 1.0 if state.winners() == [0] else 0.0 if state.winners() == [1] else 0.5
        rows.extend((g, f, e, won) for f, e in seen)
    g_of = np.array([r[0] for r in rows])
    x = np.array([r[1] for r in rows])
    e = np.array([r[2] for r in rows])
    y = np.array([r[3] for r in rows])
    train, test = g_of % 4 != 0, g_of % 4 == 0
    w = fit(x[train], y[train])
    p = 1 / (1 + np.exp(-(np.hstack([x[test], np.ones((int(test.sum()), 1))]) @ w)))
    print(f"{len(rows)} turn starts from {games} games; held out: the games g with g % 4 == 0 ({int(test.sum())} positions)")
    print(f"log-loss: base rate {log_loss(np.full(int(test.sum()), y[train].mean()), y[test]):.4f}, "
          f"evaluate {log_loss((e[test] + 1) / 2, y[test]):.4f}, the fit {log_loss(p, y[test]):.4f}")
    print("weights on the log-odds per unit of seat 0's lead: "
          + ", ".join(f"{n} {v:.3f}" for n, v in zip(NAMES, w[:-1], strict=True)))


if __name__ == "__main__":
    main()
