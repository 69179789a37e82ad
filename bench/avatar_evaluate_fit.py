"""What in an Iuno Avatar position predicts the winner, beyond what `evaluate` reads (issue 29).

Two-player medium-vs-medium games (seeds 50000 + g, the sampling of `bench/search_probe.py
calibration`): at one decision in three (drawn at random) seat 0's leads over seat 1 are recorded:
cards in Heaven, their cost in symbols, gem cards and figures among them, gems, active figures,
levels of the figures on Earth, gems on those figures, dice held; each labelled with who won.
Logistic regressions (Newton's method, a small ridge) on nested sets of these leads are fitted on
three quarters of the games and scored on the rest (log-loss, natural log), beside the base rate
and `evaluate` as it is ((returns + 1) / 2); a last fit adds whose turn it is. Printed: each
model's held-out log-loss and its weights.

    python bench/avatar_evaluate_fit.py GAMES
"""

from __future__ import annotations

import sys
from typing import cast

import numpy as np
from ivion_evaluate_fit import log_loss  # (bench/: the same scoring as Ivion's fit)

import cardtable
from cardtable import agents
from cardtable.core.rng import Rng
from cardtable.games.iuno_avatar.heuristic import evaluate
from cardtable.games.iuno_avatar.state import AvatarState

NAMES = ("heaven", "heaven cost", "gem cards in heaven", "figures in heaven", "gems", "active figures",
         "earth levels", "gems on figures", "dice")
#: the models compared: nested sets of the leads above (by index)
MODELS = ((0,), (0, 4, 5), (0, 1), (0, 1, 4, 5), (0, 1, 2, 4, 5), (0, 1, 2, 3, 4, 5, 6, 7), tuple(range(9)))


def leads(s: AvatarState, seat: int) -> list[float]:
    cards = [s.card(c) for c in s.heaven[seat]]
    figures = s.figures(seat)
    return [len(cards), sum(sum(c.cost) for c in cards), sum(1 for c in cards if c.type == "gem"),
            sum(1 for c in cards if c.type == "figure"), s.gems[seat], sum(1 for c in figures if s.charge[c]),
            sum(s.card(c).level for c in figures), sum(s.charge[c] for c in figures), s.dice[seat]]


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, x.T @ (p - y) + ridge * w)
    return w


def main() -> None:
    games = int(sys.argv[1])
    game = cardtable.make("iuno_avatar", players=2)
    rng = Rng(31)
    rows: list[tuple[int, list[float], float, float, int]] = []  # game, leads, on turn, evaluate, seat 0 won
    for g in range(games):
        state = cast(AvatarState, game.new_state(50000 + g, record_events=False))
        bots = [agents.make("medium", seed=2 * g), agents.make("medium", seed=2 * g + 1)]
        seen: list[tuple[list[float], float, float]] = []
        while not state.is_over:
            if rng.below(3) == 0:
                lead = [a - b for a, b in zip(leads(state, 0), leads(state, 1), strict=True)]
                seen.append((lead, 1.0 if state.turn == 0 else -1.0, evaluate(state)[0]))
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state.determinize(seat, rng.spawn())))
        winners = state.winners()
        if len(winners) == 1:
            rows += [(g, lead, turn, e, int(winners[0] == 0)) for lead, turn, e in seen]
    g_of = np.array([r[0] for r in rows])
    x = np.array([r[1] for r in rows], dtype=float)
    turn = np.array([r[2] for r in rows])
    ev = np.array([r[3] for r in rows])
    y = np.array([r[4] for r in rows], dtype=float)
    train, test = g_of % 4 != 0, g_of % 4 == 0
    print(f"{len(rows):,} positions of {games} games ({int(test.sum()):,} held out)")
    print(f"base rate {log_loss(np.full(int(test.sum()), y[train].mean()), y[test]):.4f}")
    print(f"evaluate  {log_loss((ev[test] + 1) / 2, y[test]):.4f}")
    for cols in MODELS:
        w = fit(x[train][:, cols], y[train])
        loss = log_loss(1 / (1 + np.exp(-x[test][:, cols] @ w)), y[test])
        print(f"{loss:.4f}  " + ", ".join(f"{NAMES[c]} {v:+.3f}" for c, v in zip(cols, w, strict=True)))
    xt = np.column_stack([x, turn])
    w = fit(xt[train], y[train])
    loss = log_loss(1 / (1 + np.exp(-xt[test] @ w)), y[test])
    print(f"{loss:.4f}  every lead and whose turn: " + ", ".join(f"{n} {v:+.3f}" for n, v in
                                                             zip((*NAMES, "on turn"), w, strict=True)))


if __name__ == "__main__":
    main()
