"""The coach: it judges from the seat's information only, and it marks a move that clearly lost."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable import agents
from cardtable.agents.heuristics import policy_for
from cardtable.core import CardtableError, make, play
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.core.views import Turn
from cardtable.sim import coach
from tests.agents.juno_position import juno, position

SMALL = coach.Budget(search_iterations=100, playouts=30, playout_seconds=None)


class ProbeSearch:
    """A search that checks what it is handed: a copy consistent with the seat's view (the same
    observation for that seat), never the true state, and in at least one copy the hidden cards
    dealt otherwise than the truth."""

    def __init__(self, truth: State, seat: int) -> None:
        self.truth, self.seat = truth, seat
        self.inner = agents.make("ismcts", iterations=50, seed=1)
        self.seen: list[State] = []

    def act(self, view: State | Turn) -> Action:
        assert isinstance(view, State)  # a search reads a determinized copy, not only its legal actions
        assert view is not self.truth
        assert view.current_player == self.seat
        assert view.observation(self.seat) == self.truth.observation(self.seat)
        assert view.seed is None and view.history == []  # a determinized copy: no seed, no history
        self.seen.append(view)
        action: Action = self.inner.act(view)
        return action


def hidden_hands(state: State, seat: int) -> list[list[int]]:
    return [sorted(h) for s, h in enumerate(state.hands) if s != seat]  # type: ignore[attr-defined]


def test_the_coach_searches_and_plays_out_only_determinized_copies() -> None:
    game = make("juno", players=3, match=False)
    final = play(game, [agents.make("medium", seed=s) for s in range(3)], seed=11, record_events=False)
    replay = final.replay()
    seat = 1
    heuristic = policy_for("juno")
    truths: list[State] = []
    probes: list[ProbeSearch] = []
    rollout_states: list[State] = []

    def policy(state: State, rng: Rng) -> Action:
        for t in truths:
            assert state is not t
            assert state.hands is not t.hands  # type: ignore[attr-defined]
        rollout_states.append(state)
        return heuristic(state, rng)

    for step, truth, text in coach.decisions(replay.start(False), replay.actions, seat):
        truths.append(truth)
        probe = ProbeSearch(truth, seat)
        probes.append(probe)
        coach.judge(truth, game.parse_action(text), step, coach.Budget(search_iterations=20, playouts=4,
                                                                       playout_seconds=None),
                    search=probe, policy=policy)
        if len(truths) == 5:
            break
    assert len(truths) == 5 and all(len(p.seen) == 1 for p in probes)
    assert rollout_states
    # the copies deal the other seats' cards anew: not one of them is the true deal
    assert all(hidden_hands(p.seen[0], seat) != hidden_hands(t, seat) for p, t in zip(probes, truths, strict=True))


def test_judge_never_hands_the_true_state_to_the_search() -> None:
    s = position(juno(players=2), hands=["red 1, blue 9", "green 1, green 2, green 3"], discard="red 5")
    probe = ProbeSearch(s, 0)
    coach.judge(s, s.legal_actions()[0], 3, SMALL, search=probe)
    assert len(probe.seen) == 1 and probe.seen[0] is not s


def test_a_clearly_bad_move_is_marked_with_the_better_move() -> None:
    # Seat 0 holds one card, red 7 on red 5: playing it wins now. Drawing instead lets seat 1, one
    # card left (red 3), win on its turn unless the draw happens to give seat 0 something.
    s = position(juno(players=2), hands=["red 7", "red 3"], discard="red 5",
                 draw="blue 1, blue 2, blue 3, blue 4, yellow 1, yellow 2")
    draw = next(a for a in s.legal_actions() if a.text == "draw")
    verdict = coach.judge(s, draw, 1, SMALL)
    assert verdict.best.startswith("play red 7")
    assert verdict.best_chance == 1.0
    assert verdict.marked and verdict.checked and verdict.playouts == SMALL.confirm  # the check's figures
    assert verdict.loss_interval[0] > 0.3  # (drawing wins about 55%: seat 1 must also miss)


def test_a_move_is_marked_only_if_the_check_on_copies_dealt_anew_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first estimate says the move made lost every playout that hard's move won; the check, on
    # the copies dealt for it, finds them equal: the verdict is the check's, and nothing is marked.
    s = position(juno(players=2), hands=["red 7, blue 9", "red 3, green 2"], discard="red 5")
    made = next(a for a in s.legal_actions() if a.text == "draw")
    runs: list[list[State]] = []

    def fake(views: list[State], seat: int, made_: Action, best: Action, rng: Rng, budget: coach.Budget,
             policy: Any) -> tuple[list[int], list[int]]:
        runs.append(views)
        n = len(views)
        return ([0] * n, [1] * n) if len(runs) == 1 else ([1, 0] * (n // 2), [0, 1] * (n // 2))

    class Fixed:  # a search whose move is the other one
        def act(self, view: State | Turn) -> Action:
            return next(a for a in view.legal_actions() if a.text == "play red 7 uno")

    monkeypatch.setattr(coach, "_paired_playouts", fake)
    budget = coach.Budget(search_iterations=50, playouts=30, playout_seconds=None, confirm=200)
    verdict = coach.judge(s, made, 1, budget, search=Fixed())
    assert len(runs) == 2 and [len(r) for r in runs] == [30, 200]
    assert not any(v is w for v in runs[1] for w in runs[0])  # the check's copies are new ones
    assert all(v is not s and v.observation(0) == s.observation(0) for v in runs[1])  # dealt from seat 0's view
    assert verdict.checked and not verdict.marked and verdict.playouts == 200 and verdict.loss == 0
    # without the check, the first estimate stands
    runs.clear()
    verdict = coach.judge(s, made, 1, coach.Budget(search_iterations=50, playouts=30, playout_seconds=None, confirm=0),
                          search=Fixed())
    assert len(runs) == 1 and verdict.marked and not verdict.checked and verdict.playouts == 30


def test_the_search_s_own_move_is_not_marked() -> None:
    s = position(juno(players=2), hands=["red 7", "red 3"], discard="red 5")
    win = next(a for a in s.legal_actions() if a.text.startswith("play red 7"))
    verdict = coach.judge(s, win, 1, SMALL)
    assert verdict.best == verdict.made and not verdict.marked and verdict.loss == 0


def test_a_review_covers_every_choice_of_the_seat_and_only_those() -> None:
    game = make("juno", players=2, match=False)
    final = play(game, [agents.make("easy", seed=1), agents.make("medium", seed=2)], seed=5, record_events=False)
    replay = final.replay()
    budget = coach.Budget(search_iterations=20, playouts=4, playout_seconds=None)
    verdicts = coach.review_replay(replay, 0, budget, seed=1)
    states = replay.states(record_events=False)
    choices = [n for n in range(1, len(states)) if states[n - 1].current_player == 0
               and len(states[n - 1].legal_actions()) > 1]
    assert [v.step for v in verdicts] == choices
    assert all(v.made == replay.actions[v.step - 1] for v in verdicts)
    assert coach.review_replay(replay, 0, budget, seed=1) == verdicts  # counted budgets: the same review again


@pytest.mark.parametrize("kwargs", [{"playouts": 1}, {"search_seconds": 0.0}, {"search_iterations": 0},
                                    {"playout_seconds": 0.0}, {"confirm": 1}])
def test_a_budget_that_cannot_judge_is_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(CardtableError):
        coach.Budget(**kwargs)


def test_a_seat_outside_the_game_is_refused() -> None:
    final = play(make("juno", players=2, match=False), [agents.make("medium", seed=1)] * 2, seed=1, record_events=False)
    with pytest.raises(CardtableError, match="seat must be 0 to 1"):
        coach.count_decisions(final.replay().start(False), [], 2)


def test_cardtable_review_prints_every_decision_and_refuses_a_bad_seat(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from cardtable.cli import _load, app

    _load()
    final = play(make("juno", players=2, match=False), [agents.make("easy", seed=1), agents.make("medium", seed=2)],
                 seed=5, record_events=False)
    path = tmp_path / "game.json"
    final.replay().save(path)
    runner = CliRunner()
    out = runner.invoke(app, ["review", str(path), "--seat", "1", "--seconds", "0.01", "--playouts", "4"])
    assert out.exit_code == 0, out.output
    n = coach.count_decisions(final.replay().start(False), final.replay().actions, 0)
    assert f"Player 1's {n} decisions" in out.output
    refused = runner.invoke(app, ["review", str(path), "--seat", "3"])
    assert refused.exit_code == 2 and "--seat must be between 1 and 2" in refused.output
