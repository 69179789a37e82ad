"""The coach: a review of one seat's decisions in a finished game, from that seat's information only.

For each decision of the seat (a choice among more than one legal action) the coach
1. deals `playouts` determinized copies of the state for that seat (`state.determinize(seat, rng)`:
   the cards it could not see dealt anew, as every bot is handed them). Nothing after this step is
   given the true state: the search and the playouts read these copies only;
2. asks the strongest searching level (`SEARCH_LEVEL`, ISMCTS) what it would play, on a fresh
   determinized copy, with the time the budget gives it;
3. plays the game out from every copy twice, once after the move made and once after the search's
   move, with the game's heuristic (the policy hard's rollouts use) in every seat: the share of
   playouts the seat wins estimates each move's win chance (Wilson interval), and the paired
   differences (same copy, same rollout stream) estimate how much the move made gave away, with a
   95% normal interval of the mean difference;
4. marks the move when that interval lies wholly above zero: it lost clearly, beyond the
   estimate's own uncertainty. A move that is the search's own choice, or whose difference cannot
   be told from zero, is not marked;
5. checks each move step 4 would mark on `confirm` fresh copies, dealt anew: the verdict is that
   second, independent estimate, and the move stays marked only if its interval too lies above
   zero. Over a review of a hundred decisions a one-sided 2.5% test marks two or three moves by
   chance alone; both tests together mark one in about 1,600. And a move picked out because its
   first estimate looked bad is reported by an estimate that did not pick it (the first
   overstates: measured in docs/agents.md, "Reviews of one game per game").

The work is bounded by `Budget`: per decision, the search's time and the playouts (with an optional
wall-clock cap); the server multiplies it by the decisions before it starts (`Budget.cost`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .. import agents
from ..agents.heuristics import policy_for
from ..core.actions import Action
from ..core.errors import CardtableError
from ..core.replay import Replay
from ..core.rng import Rng
from ..core.state import State
from ..core.views import Turn, need_of, view_for
from .stats import Z95, wilson

#: the level whose search judges a move: the strongest that searches (`agents.DIFFICULTY`)
SEARCH_LEVEL = "hard"


class Search(Protocol):
    def act(self, view: State | Turn) -> Action: ...


Policy = Callable[[State, Rng], Action]


@dataclass(frozen=True)
class Budget:
    """What the coach may spend on one decision: the search's seconds (or iterations, for a
    reproducible review), the paired playouts, a wall-clock cap on those playouts, and the paired
    playouts that check a move about to be marked (0: no check), under the same cap."""

    search_seconds: float = 0.5
    search_iterations: int | None = None
    playouts: int = 100
    playout_seconds: float | None = 2.0
    confirm: int = 300

    def __post_init__(self) -> None:
        if self.search_seconds <= 0 and self.search_iterations is None:
            raise CardtableError("the coach's search needs seconds above 0 or a number of iterations")
        if self.search_iterations is not None and self.search_iterations < 1:
            raise CardtableError(f"the coach's search iterations must be at least 1, got {self.search_iterations}")
        if self.playouts < 2:
            raise CardtableError(f"the coach needs at least 2 playouts a move to give an interval, got {self.playouts}")
        if self.playout_seconds is not None and self.playout_seconds <= 0:
            raise CardtableError(f"the playouts' time cap is a number of seconds above 0, got {self.playout_seconds}")
        if self.confirm != 0 and self.confirm < 2:
            raise CardtableError(f"the check of a marked move needs at least 2 playouts (or 0: no check), got {self.confirm}")

    def cost(self) -> float | None:
        """Seconds one decision may take at most (None: bounded by counts only, not by time)."""
        if self.playout_seconds is None or self.search_iterations is not None:
            return None
        return self.search_seconds + self.playout_seconds * (2 if self.confirm else 1)


@dataclass(frozen=True)
class Verdict:
    """One decision of the reviewed seat. `step` is the move's number in the game (1 = the first move)."""

    step: int
    seat: int
    made: str
    best: str
    made_chance: float
    made_interval: tuple[float, float]
    best_chance: float
    best_interval: tuple[float, float]
    loss: float                      # best's win chance minus the made move's (paired)
    loss_interval: tuple[float, float]
    playouts: int
    marked: bool
    checked: bool = False            # step 5 ran: the figures are the check's, on copies dealt anew

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}


def default_search(seed: int, budget: Budget) -> Search:
    name, params = agents.DIFFICULTY[SEARCH_LEVEL]
    params = dict(params)
    if budget.search_iterations is not None:
        params.pop("time_limit", None)
        params["iterations"] = budget.search_iterations
    else:
        params["time_limit"] = budget.search_seconds
    agent: Search = agents.make(name, **params, seed=seed)
    return agent


def decisions(start: State, actions: list[str], seat: int) -> Iterator[tuple[int, State, str]]:
    """(move number, the state before it, the move's text) for every choice `seat` made in the game
    from `start` (a replay's, or a served table's first state) through `actions`."""
    if not 0 <= seat < start.game.players:
        raise CardtableError(f"seat must be 0 to {start.game.players - 1} in this {start.game.spec.title} game, got {seat}")
    state = start.clone()
    for step, text in enumerate(actions, 1):
        if state.current_player == seat and len(state.legal_actions()) > 1:
            yield step, state.clone(), text
        Replay._apply(state, step, text)


def judge(
    state: State,
    made: Action,
    seed: int,
    budget: Budget,
    search: Search | None = None,
    policy: Policy | None = None,
) -> Verdict:
    """The verdict on `made`, chosen by the seat to move in `state` (the true state: it is only
    determinized here, and the copies are all the search and the playouts see)."""
    seat = state.current_player
    if seat is None:
        raise CardtableError("the coach judges a decision: nobody decides in this state")
    rng = Rng(seed)
    views = [state.determinize(seat, rng.spawn()) for _ in range(budget.playouts)]  # the playouts play whole games
    search = search or default_search(seed, budget)
    lookout = view_for(need_of(search), state, seat, rng.spawn)  # what the search says it reads (core.views)
    return _judge(views, lookout, seat, made, rng, budget, search, policy or policy_for(state.game.spec.name),
                  lambda n: [state.determinize(seat, rng.spawn()) for _ in range(n)])


def _judge(views: list[State], lookout: State | Turn, seat: int, made: Action, rng: Rng, budget: Budget,
           search: Search, policy: Policy, deal: Callable[[int], list[State]] | None = None) -> Verdict:
    best = search.act(lookout)
    verdict = _verdict(_paired_playouts(views, seat, made, best, rng, budget, policy), seat, made, best)
    if verdict.marked and budget.confirm and deal is not None:
        # step 5: the check on copies dealt anew, which alone gives the verdict
        check = _verdict(_paired_playouts(deal(budget.confirm), seat, made, best, rng, budget, policy), seat, made, best)
        verdict = Verdict(**{**asdict(check), "checked": True})
    return verdict


def _paired_playouts(views: list[State], seat: int, made: Action, best: Action, rng: Rng, budget: Budget,
                     policy: Policy) -> tuple[list[int], list[int]]:
    """Each copy played out after the move made and after `best` (1: the seat won), until the copies
    or the budget's time cap run out (at least two copies)."""
    made_wins: list[int] = []
    best_wins: list[int] = []
    deadline = None if budget.playout_seconds is None else time.perf_counter() + budget.playout_seconds
    for view in views:
        stream = rng.spawn()
        made_wins.append(_playout(view.clone(), made, seat, policy, stream.spawn()))
        best_wins.append(made_wins[-1] if best == made else _playout(view, best, seat, policy, stream.spawn()))
        if deadline is not None and len(made_wins) >= 2 and time.perf_counter() >= deadline:
            break
    return made_wins, best_wins


def _verdict(wins: tuple[list[int], list[int]], seat: int, made: Action, best: Action) -> Verdict:
    made_wins, best_wins = wins
    n = len(made_wins)
    diffs = [b - m for b, m in zip(best_wins, made_wins, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    low, high = mean - half, mean + half
    return Verdict(
        step=0,  # the caller (`review`) knows the move's number
        seat=seat, made=made.text, best=best.text,
        made_chance=sum(made_wins) / n, made_interval=wilson(sum(made_wins), n),
        best_chance=sum(best_wins) / n, best_interval=wilson(sum(best_wins), n),
        loss=mean, loss_interval=(low, high), playouts=n, marked=best != made and low > 0,
    )


def _playout(state: State, first: Action, seat: int, policy: Policy, rng: Rng) -> int:
    """1 if `seat` wins the game played out from `state` after `first`, every seat playing `policy`."""
    state.apply(first)
    while not state.is_over:
        state.apply(policy(state, rng))
    return int(seat in state.winners())


def review(
    start: State,
    actions: list[str],
    seat: int,
    budget: Budget = Budget(),
    seed: int = 0,
    search: Callable[[int], Search] | None = None,
    policy: Policy | None = None,
    on_verdict: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """The verdict on each of `seat`'s decisions in the game from `start` through `actions`.
    `search(seed)` makes the judging search (default: `SEARCH_LEVEL` with the budget's time);
    `on_verdict` hears each verdict as it is made."""
    out: list[Verdict] = []
    for step, state, text in decisions(start, actions, seat):
        made = state.game.parse_action(text)
        s = (seed * 1_000_003 + step) & ((1 << 63) - 1)
        verdict = judge(state, made, s, budget, None if search is None else search(s), policy)
        verdict = Verdict(**{**asdict(verdict), "step": step})
        out.append(verdict)
        if on_verdict is not None:
            on_verdict(verdict)
    return out


def review_replay(replay: Replay, seat: int, budget: Budget = Budget(), seed: int = 0,
                  on_verdict: Callable[[Verdict], None] | None = None) -> list[Verdict]:
    """`review` of a saved game."""
    return review(replay.start(record_events=False), replay.actions, seat, budget, seed, on_verdict=on_verdict)


def count_decisions(start: State, actions: list[str], seat: int) -> int:
    return sum(1 for _ in decisions(start, actions, seat))
