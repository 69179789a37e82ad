"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 2012), for any game that meets the core contract.

Each iteration
1. determinizes the root view for the deciding seat (`view.determinize(seat, rng)`): the
   other seats' hidden cards are resampled, so the search never relies on one guess;
2. descends one tree whose edges are action indices, choosing among the children whose action
   is legal in this determinization by UCB with availability counts
   (mean + c * sqrt(ln(availability) / visits)), from the perspective of whichever seat decides
   at that node (reactions, catches and other out-of-turn decisions are ordinary nodes);
3. expands one untried legal action;
4. rolls out with a random or the game's heuristic policy, optionally cut off after `cutoff`
   decisions and scored with the game's evaluation;
   with `bias` > 0, the heuristic's move at a node is expanded first and gets a progressive bias
   bias / (visits + 1) in its UCB value (Chaslot et al. 2008), so a small budget starts from
   the heuristic's play and search has to find a better move to overturn it;
5. backs up the per-seat returns: every node adds the return of the seat that chose its edge.

Budgets: `iterations` and/or `time_limit` seconds (whichever ends first). `clock="wall"` (the
default) counts real time, what a person waits; `clock="cpu"` counts the CPU time of the searching
thread, so a measurement on a busy, shared machine gives the search the same work per move as an
idle one would (it then takes longer in real time). The move played is the most visited root
child.

Early stop (`early_stop=True`, the default; the budget stays a maximum): every iteration adds one
visit to exactly one root child, so once the most visited child leads the runner-up by more than
the iterations the rest of the budget can buy, no further search can change the move played, and
the search stops there. With an `iterations` budget the remaining count is exact, so the move is
the one the full budget would play; with `time_limit` it is the remaining time times the rate
measured so far in this search. `early_stop=False` always spends the whole budget.

How the root's moves are compared (`root`; by default as the game's heuristic module says in its
`SEARCH`, else "ucb"): where luck swamps the difference between moves, a tree whose every
iteration sees other hidden cards and dice ranks moves by the luck of their determinizations. Two
answers, both with common random numbers (the variance reduction of simulation studies): a round
draws one determinization and one random stream, and every root move is tried on that same world.
- `root="paired"` (Iuno Avatar): one iteration per root move still in the race, the tree below
  the root as above; after `PAIRED_MIN_ROUNDS` rounds a move whose paired mean is behind the
  leader's by more than `PAIRED_Z` standard errors leaves the race. The best mean of the moves
  left is played, but the heuristic's own move is given up only for a lead over it of more than
  `PAIRED_PRIOR` standard errors.
- `root="rollouts"` (Ivion): no tree, every root move rolled out with the rollout policy; the best
  mean over the whole rounds wins, except that the policy's own move (the heuristic's) is given
  up only for a move whose paired lead over it exceeds one standard error: one step of policy
  improvement over the heuristic. With `early_stop` the moves race: after `ROLLOUTS_MIN_ROUNDS`
  rounds a move leaves when the leader's paired lead over it exceeds `ROLLOUTS_Z` standard errors
  or when it has scored exactly what the heuristic's move scored in every round, and the search
  stops when one move is left (the rollouts go to the moves that can still be chosen).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import ClassVar

from mypy_extensions import mypyc_attr

from ..core.actions import Action
from ..core.rng import Rng
from ..core.state import State
from ..core.views import Need
from .base import AgentError
from .heuristics import evaluator_for, policy_for, search_settings
from .heuristics import games as heuristic_games


class _Node:
    __slots__ = ("seat", "children", "visits", "avail", "total")

    def __init__(self, seat: int) -> None:
        self.seat = seat             # the seat that chose the edge into this node
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0             # sum of `seat`'s returns through this node


# Compiled with the engine (cardtable/_native.py); tests and probes subclass it to watch a search.
@mypyc_attr(allow_interpreted_subclasses=True)
class IsmctsAgent:
    name = "ismcts"
    #: the search determinizes its root view again at every iteration and plays on the copies
    needs: ClassVar[Need] = Need.DETERMINIZED

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 0.7,
        rollout: str = "random",
        cutoff: int | None = None,
        bias: float | None = None,
        clock: str = "wall",
        early_stop: bool = True,
        root: str | None = None,
        race: float | None = None,
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and iterations < 1:
            raise AgentError(f"agent 'ismcts': iterations must be at least 1, got {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise AgentError(f"agent 'ismcts': time_limit must be a positive number of seconds, got {time_limit}")
        if c < 0:
            raise AgentError(f"agent 'ismcts': the exploration constant c must be >= 0, got {c}")
        if rollout not in ("random", "heuristic"):
            raise AgentError(f"agent 'ismcts': rollout must be 'random' or 'heuristic', got {rollout!r}")
        if cutoff is not None and cutoff < 0:
            raise AgentError(f"agent 'ismcts': cutoff must be >= 0 decisions, got {cutoff}")
        if clock not in ("wall", "cpu"):
            raise AgentError(f"agent 'ismcts': clock must be 'wall' (real time) or 'cpu' (CPU time), got {clock!r}")
        if bias is not None and bias < 0:
            raise AgentError(f"agent 'ismcts': bias must be >= 0 (0: off), got {bias}")
        if root is not None and root not in ROOT_SEARCHES:
            raise AgentError(f"agent 'ismcts': root must be one of {', '.join(ROOT_SEARCHES)}, got {root!r}")
        if race is not None and race <= 0:
            raise AgentError(f"agent 'ismcts': race must be a positive number of standard errors, got {race}")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.c = c
        self.rollout = rollout
        self.cutoff = cutoff
        self.bias = None if bias is None else float(bias)  # None: as the game's `SEARCH` says (its "bias"), else 0
        self.clock: Callable[[], float] = time.perf_counter if clock == "wall" else time.thread_time
        self.early_stop = bool(early_stop)
        self.root = root  # None: as the game's heuristic module says (`SEARCH`), else "ucb"
        self.race = race  # paired rounds' race: None: as `SEARCH` says (its "race"), else `PAIRED_Z`
        #: statistics of the last decision: iterations run, seconds spent, whether it stopped early
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.last_stopped_early = False

    def act(self, view: State) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations, self.last_seconds, self.last_stopped_early = 0, 0.0, False
            return legal[0]
        game = view.game.spec.name
        settings = search_settings(game)
        root_search = self.root if self.root is not None else settings.get("root", "ucb")
        bias = self.bias if self.bias is not None else float(settings.get("bias", 0.0))
        heuristic = policy_for(game) if self.rollout == "heuristic" or bias > 0 or root_search == "rollouts" else None
        policy = heuristic if self.rollout == "heuristic" else None
        guide = heuristic if bias > 0 else None
        evaluate = evaluator_for(game) if self.cutoff is not None else None
        seat = view.current_player
        assert seat is not None
        rng = self.rng.spawn()
        if root_search == "paired":
            z = self.race if self.race is not None else float(settings.get("race", PAIRED_Z))
            return self._act_paired(view, legal, seat, rng, policy, evaluate, guide, bias, z)
        if root_search == "rollouts":
            assert heuristic is not None
            return self._act_rollouts(view, legal, seat, rng, policy, evaluate, heuristic)
        root = _Node(-1)
        clock = self.clock
        start = clock()
        deadline = None if self.time_limit is None else start + self.time_limit
        limit = self.iterations
        early = self.early_stop
        children = root.children
        done = 0
        stopped = False
        while True:
            if limit is not None and done >= limit:
                break
            now = clock() if deadline is not None else 0.0
            if deadline is not None and done > 0 and now >= deadline:
                break
            if early and done >= 2:
                # Can the runner-up still overtake the leader? Each iteration visits one root child.
                first = second = 0
                for ch in children.values():
                    v = ch.visits
                    if v > first:
                        first, second = v, first
                    elif v > second:
                        second = v
                remaining = math.inf if limit is None else limit - done
                if deadline is not None:
                    elapsed = now - start
                    if elapsed > 0:
                        remaining = min(remaining, (deadline - now) * done / elapsed)
                if first - second > remaining:
                    stopped = True
                    break
            self._iterate(view.determinize(seat, rng.spawn()), root, rng, policy, evaluate, guide, bias)
            done += 1
        self.last_iterations = done
        self.last_seconds = clock() - start
        self.last_stopped_early = stopped
        best = max(
            legal,
            key=lambda a: (root.children[a.index].visits, root.children[a.index].total)
            if a.index in root.children else (-1, 0.0),
        )
        return best

    def _act_paired(
        self,
        view: State,
        legal: list[Action],
        seat: int,
        rng: Rng,
        policy: Callable[[State, Rng], Action] | None,
        evaluate: Callable[[State], list[float]] | None,
        guide: Callable[[State, Rng], Action] | None,
        bias: float,
        z: float,
    ) -> Action:
        """The root searched in paired rounds (`root="paired"`): a round draws one determinization and
        one random stream and runs one iteration through each root move still in the race, every
        move on the same copy of the world (common random numbers: the same hidden cards, stack
        order and, as far as the moves keep them in step, the same dice), so moves are compared on
        the same luck. Below the root the search is the tree above. After `PAIRED_MIN_ROUNDS`
        rounds a move whose paired mean falls behind the leader's by more than `PAIRED_Z` standard
        errors of the paired differences leaves the race; the budget goes to the moves left. The
        move played: of the moves still in the race, the best mean return over the complete rounds
        (ties: the first legal move); an unfinished round is left out, so every move left is
        compared on the same worlds. The game's heuristic's own move, while it is still in the
        race, is given up only for a move whose paired lead over it exceeds `PAIRED_PRIOR`
        standard errors (with fewer than two complete rounds: not at all): the search corrects
        the heuristic where it has the evidence, and does not trade its move for a leader that
        the luck of a few rounds put ahead."""
        clock = self.clock
        start = clock()
        deadline = None if self.time_limit is None else start + self.time_limit
        limit = self.iterations
        game = view.game.spec.name
        own = policy_for(game)(view.clone(), rng.spawn()).index if game in heuristic_games() else -1
        root = _Node(-1)
        alive = list(legal)
        results: dict[int, list[float]] = {a.index: [] for a in legal}  # per move: its return in each round
        done = 0
        rounds = 0
        while len(alive) > 1:
            # the round's world, dealt once: every move starts from a copy of it and of its random stream
            luck = Rng(rng.next64())
            world = view.determinize(seat, luck.spawn())
            complete = True
            for a in alive:
                if (limit is not None and done >= limit) or (deadline is not None and done > 0 and clock() >= deadline):
                    complete = False
                    break
                returns = self._iterate(world.clone(), root, luck.clone(), policy, evaluate, guide, bias, first=a)
                results[a.index].append(returns[seat])
                done += 1
            if not complete:
                for a in alive:  # the unfinished round is no pair: left out of the comparison
                    del results[a.index][rounds:]
                break
            rounds += 1
            if rounds >= PAIRED_MIN_ROUNDS:
                alive = _race(alive, results, z)
        self.last_iterations = done
        self.last_seconds = clock() - start
        self.last_stopped_early = len(alive) == 1 and len(legal) > 1
        return _played(alive, legal, results, rounds, own)

    def _rollout(self, state: State, rng: Rng, policy: Callable[[State, Rng], Action] | None,
                 evaluate: Callable[[State], list[float]] | None) -> list[float]:
        """Play on with the rollout policy (random: None) up to the cutoff; the returns."""
        steps = 0
        cutoff = self.cutoff
        while not state.is_over:
            if cutoff is not None and steps >= cutoff:
                break
            if policy is None:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            else:
                state.apply(policy(state, rng))
            steps += 1
        return state.returns() if state.is_over or evaluate is None else evaluate(state)

    def _act_rollouts(self, view: State, legal: list[Action], seat: int, rng: Rng,
                policy: Callable[[State, Rng], Action] | None, evaluate: Callable[[State], list[float]] | None,
                heuristic: Callable[[State, Rng], Action]) -> Action:
        """Paired rollouts (`root="rollouts"`, see the module's docstring): rounds of one determinization and one
        random stream, every root move still in the race rolled out in each; only whole rounds count.

        The race (with `early_stop`): after `ROLLOUTS_MIN_ROUNDS` rounds a move leaves when the leader's
        paired lead over it exceeds `ROLLOUTS_Z` standard errors, or when it has scored exactly what the
        heuristic's move scored in every round (it cannot be clearly better). The rollouts go to the moves
        left, and the search stops when one is left. Without `early_stop` every move is rolled out in every
        round until the budget ends."""
        clock = self.clock
        start = clock()
        deadline = None if self.time_limit is None else start + self.time_limit
        limit = self.iterations
        own = heuristic(view.clone(), rng.spawn()).index
        at = next(k for k, a in enumerate(legal) if a.index == own)
        alive = list(range(len(legal)))
        values: list[list[float]] = [[] for _ in legal]  # each move's return in each round it took part in
        rounds = done = 0
        while len(alive) > 1:
            if limit is not None and done + len(alive) > limit and rounds > 0:
                break
            world = view.determinize(seat, rng.spawn())
            luck = rng.spawn()
            got: list[float] = []
            for k in alive:
                state = world.clone()
                state.apply(legal[k])
                got.append(self._rollout(state, luck.clone(), policy, evaluate)[seat])
                done += 1
                if deadline is not None and rounds > 0 and clock() >= deadline:
                    break
            if len(got) < len(alive):
                break  # the budget ran out within a round: it does not count
            for k, v in zip(alive, got, strict=True):
                values[k].append(v)
            rounds += 1
            if self.early_stop and rounds >= ROLLOUTS_MIN_ROUNDS:
                alive = _rollout_race(alive, values, at, rounds)
            if limit is None and deadline is not None and clock() >= deadline:
                break
        self.last_iterations = done
        self.last_seconds = clock() - start
        self.last_stopped_early = len(alive) == 1
        if len(alive) == 1:
            return legal[alive[0]]
        if rounds == 0:
            return legal[at]
        best = max(alive, key=lambda k: (sum(values[k]), k == at))  # every move left took part in every round
        if at not in alive:
            return legal[best]
        if rounds == 1 or best == at:
            return legal[at]
        mean, se = _paired(values[best], values[at], rounds)
        return legal[best] if mean > se else legal[at]  # the heuristic's move unless another is clearly better

    def _iterate(
        self,
        state: State,
        root: _Node,
        rng: Rng,
        policy: Callable[[State, Rng], Action] | None,
        evaluate: Callable[[State], list[float]] | None,
        guide: Callable[[State, Rng], Action] | None = None,
        bias: float = 0.0,
        first: Action | None = None,
    ) -> list[float]:
        path = [root]
        node = root
        c = self.c
        if first is not None:  # the root move is given (paired rounds); the tree below it as usual
            child = root.children.get(first.index)
            if child is None:
                child = root.children[first.index] = _Node(state.current_player)  # type: ignore[arg-type]
                state.apply(first)
                path.append(child)
                return self._finish(state, path, rng, policy, evaluate)
            state.apply(first)
            path.append(child)
            node = child
        # selection and expansion
        while not state.is_over:
            legal = state.legal_actions()
            children = node.children
            hint = guide(state, rng).index if guide is not None and len(legal) > 1 else -1
            untried = [a for a in legal if a.index not in children]
            if untried:
                action = next((a for a in untried if a.index == hint), None) or untried[rng.below(len(untried))]
                child = children[action.index] = _Node(state.current_player)  # type: ignore[arg-type]
                for a in legal:
                    ch = children.get(a.index)
                    if ch is not None:
                        ch.avail += 1
                state.apply(action)
                path.append(child)
                break
            best: _Node | None = None
            best_action = legal[0]
            best_value = -math.inf
            for a in legal:
                ch = children[a.index]
                ch.avail += 1
                value = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if a.index == hint:
                    value += bias / (ch.visits + 1)
                if value > best_value:
                    best_value, best, best_action = value, ch, a
            assert best is not None
            state.apply(best_action)
            node = best
            path.append(node)
        return self._finish(state, path, rng, policy, evaluate)

    def _finish(
        self,
        state: State,
        path: list[_Node],
        rng: Rng,
        policy: Callable[[State, Rng], Action] | None,
        evaluate: Callable[[State], list[float]] | None,
    ) -> list[float]:
        """The rollout from a new leaf, then the returns backed up along `path`."""
        returns = self._rollout(state, rng, policy, evaluate)
        # backpropagation
        for nd in path:
            nd.visits += 1
            if nd.seat >= 0:
                nd.total += returns[nd.seat]
        return returns


#: how the root's moves are compared: "ucb" (the tree, as described first), "paired" (paired rounds,
#: the tree below the root) or "rollouts" (paired rollouts of the rollout policy, no tree)
ROOT_SEARCHES = ("ucb", "paired", "rollouts")

#: paired rounds: the rounds before a move can leave the race, and how far behind (in standard
#: errors of the paired differences) it must be (2.5 was a little better and a third dearer:
#: docs/games/iuno_avatar.md, "The race's settings")
PAIRED_MIN_ROUNDS = 8
PAIRED_Z = 2.0
#: paired rounds: how far ahead of the heuristic's own move (in standard errors of the paired
#: differences) the best move must be to be played instead (as Ivion's paired rollouts)
PAIRED_PRIOR = 1.0


def _paired(a: list[float], b: list[float], n: int) -> tuple[float, float]:
    """The mean of the paired differences a - b over their first n rounds (n >= 2), and its standard error."""
    d = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def _played(alive: list[Action], legal: list[Action], results: dict[int, list[float]], rounds: int,
            own: int) -> Action:
    """The move paired rounds play: of the moves still in the race, the best mean over the first
    `rounds` rounds (ties: the first legal move), unless the heuristic's own move (`own`; -1: none)
    is still in the race and the best leads it by no more than `PAIRED_PRIOR` standard errors of
    their paired differences; with fewer than two rounds, the heuristic's move (else the first)."""
    mine = next((a for a in alive if a.index == own), None)
    if rounds <= 1:  # no paired difference to judge by
        return mine if mine is not None else alive[0]
    best = max(alive, key=lambda a: (sum(results[a.index][:rounds]), -legal.index(a)))
    if mine is not None and best is not mine:
        mean, se = _paired(results[best.index], results[own], rounds)
        if mean <= PAIRED_PRIOR * se:
            return mine
    return best


def _race(alive: list[Action], results: dict[int, list[float]], z: float) -> list[Action]:
    """The moves still in the race after a round: those whose paired mean difference to the leader
    (over the rounds so far, in which every move left took part) is within `z` standard errors."""
    n = min(len(results[a.index]) for a in alive)
    means = {a.index: sum(results[a.index][:n]) / n for a in alive}
    leader = max(alive, key=lambda a: means[a.index])
    lead = results[leader.index]
    out = []
    for a in alive:
        if a is leader:
            out.append(a)
            continue
        mean, se = _paired(lead, results[a.index], n)
        if mean <= z * se:
            out.append(a)
    return out


#: paired rollouts' race: the rounds before a move can leave it, and how far behind the leader (in
#: standard errors of the paired differences) a move must be to leave
ROLLOUTS_MIN_ROUNDS = 8
ROLLOUTS_Z = 2.0


def _rollout_race(alive: list[int], values: list[list[float]], at: int, rounds: int) -> list[int]:
    """The moves (indices into the legal moves) still in paired rollouts' race after a round: not behind the
    leader by more than `ROLLOUTS_Z` standard errors, and, other than the heuristic's move `at`, not a
    copy of its results (a move that scored exactly what the heuristic's move did in every round cannot
    beat it clearly). Every move in `alive` took part in all `rounds` rounds."""
    leader = max(alive, key=lambda k: (sum(values[k]), k == at))
    out = []
    for k in alive:
        if k == leader:
            out.append(k)
        elif k != at and values[k] == values[at]:
            continue
        else:
            lead, se = _paired(values[leader], values[k], rounds)
            if lead <= ROLLOUTS_Z * se:
                out.append(k)
    return out
