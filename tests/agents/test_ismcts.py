"""ISMCTS: legal moves for any game meeting the core contract, budgets, out-of-turn decisions."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import _native, agents
from cardtable.agents.ismcts import PAIRED_Z, ROLLOUTS_MIN_ROUNDS, IsmctsAgent, _played, _race, _rollout_race
from cardtable.games.juno.decisions import Catch

from .juno_position import juno, position


def test_goes_out_when_it_can() -> None:
    # One card left and it matches: playing it wins the round; anything else cannot.
    s = position(juno(players=2), hands=["red 1, blue 9", "green 1, green 2, green 3"], discard="red 5")
    s.hands[0] = [s.hands[0][0]]
    s._legal = None
    bot = agents.make("ismcts", seed=1, iterations=200)
    assert bot.act(s.determinize(0, 3)).text == "play red 1"


def test_catches_a_missed_uno_out_of_turn() -> None:
    # A decision of a seat that is not on turn: the tree must handle whoever decides.
    s = position(juno(players=2), hands=["blue 1, blue 2, blue 3", "green 1"], pending=[Catch(0, 1, ())])
    bot = agents.make("ismcts", seed=2, iterations=300, cutoff=10)
    assert bot.act(s.determinize(0, 3)).text == "catch"


def test_iteration_budget_is_exact_and_search_is_reproducible() -> None:
    state = cardtable.make("juno", players=3, match=False).new_state(seed=9)
    seat = state.current_player
    assert seat is not None
    view = state.determinize(seat, 1)
    a = IsmctsAgent(seed=5, iterations=60, cutoff=10, early_stop=False)
    b = IsmctsAgent(seed=5, iterations=60, cutoff=10, early_stop=False)
    choice = a.act(view)
    if len(view.legal_actions()) > 1:
        assert a.last_iterations == 60
    capped = IsmctsAgent(seed=5, iterations=60, cutoff=10)  # early stop on: the budget is a maximum
    assert capped.act(view) == choice and capped.last_iterations <= 60
    assert choice == b.act(view)
    assert choice in state.legal_actions()


def test_time_budget_runs_at_least_one_iteration() -> None:
    state = cardtable.make("juno", players=2, match=False).new_state(seed=2)
    seat = state.current_player
    assert seat is not None
    bot = IsmctsAgent(seed=1, time_limit=1e-6, cutoff=5)
    bot.act(state.determinize(seat, 0))
    if len(state.legal_actions()) > 1:
        assert bot.last_iterations >= 1


@pytest.mark.parametrize(
    "params",
    [
        {"iterations": 20},
        {"iterations": 20, "rollout": "heuristic", "cutoff": 8},
        {"iterations": 20, "c": 0.0},
        {"iterations": 20, "cutoff": 8, "bias": 1.0},
        {"iterations": 40, "rollout": "heuristic", "cutoff": 8, "root": "paired"},
        {"time_limit": 0.002, "clock": "cpu", "cutoff": 8, "root": "paired"},
        {"iterations": 40, "rollout": "heuristic", "cutoff": 8, "root": "rollouts"},
        {"time_limit": 0.002, "clock": "cpu", "cutoff": 8, "root": "rollouts"},
        {"time_limit": 0.002, "clock": "cpu", "cutoff": 8},
    ],
)
def test_plays_whole_games_with_every_option(params: dict) -> None:
    # 3 players with the challenge rule: reactions (challenge, catch) come from seats off turn.
    game = cardtable.make("juno", players=3, match=False, wild_draw_four="challenge", hand_size=4)
    final = cardtable.play(
        game, [agents.make("ismcts", seed=1, **params), agents.make("random", seed=2), agents.make("heuristic", seed=3)],
        seed=11, record_events=False,
    )
    assert final.is_over and final.winners()


@pytest.mark.skipif(_native.COMPILED, reason="a stand-in view needs the pure-Python search: the compiled one checks "
                    "that it is handed a State (tests/core/test_native.py runs it on the pure modules)")
def test_cutoff_needs_a_game_evaluation() -> None:
    class Spec:
        name = "nogame"

    class FakeGame:
        spec = Spec()

    class View:
        game = FakeGame()
        current_player = 0

        def legal_actions(self) -> list[int]:
            return [1, 2]

    with pytest.raises(agents.AgentError, match="no heuristic bot for 'nogame'"):
        IsmctsAgent(iterations=5, cutoff=3).act(View())  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["iunu", "zun", "iuno_avatar"])
def test_plays_whole_games_of_every_game(name: str) -> None:
    game = cardtable.make(name, players=2)
    final = cardtable.play(
        game, [agents.make("ismcts", seed=1, iterations=4, rollout="heuristic", cutoff=4),
               agents.make("heuristic", seed=2)], seed=5, record_events=False,
    )
    assert final.is_over


def test_early_stop_ends_a_settled_search_and_plays_the_same_move() -> None:
    # Going out wins the round, so the search settles on it long before 2,000 iterations: once
    # its lead over the runner-up exceeds the iterations left, no more search can change the move.
    s = position(juno(players=2), hands=["red 1, blue 9", "green 1, green 2, green 3"], discard="red 5")
    s.hands[0] = [s.hands[0][0]]
    s._legal = None
    view = s.determinize(0, 3)
    early = IsmctsAgent(seed=1, iterations=2000, cutoff=10)
    full = IsmctsAgent(seed=1, iterations=2000, cutoff=10, early_stop=False)
    assert early.act(view).text == full.act(view).text == "play red 1"
    assert early.last_stopped_early and early.last_iterations < 2000
    assert not full.last_stopped_early and full.last_iterations == 2000
    # the same, with a time budget: the remaining iterations are estimated from the rate so far
    timed = IsmctsAgent(seed=1, time_limit=0.2, clock="cpu", cutoff=10)
    assert timed.act(view).text == "play red 1"
    assert timed.last_stopped_early


class _Counting:
    """Counts the decisions on which the wrapped ISMCTS stopped early."""

    def __init__(self, bot: IsmctsAgent) -> None:
        self.bot = bot
        self.stops = 0

    def act(self, view: cardtable.State) -> cardtable.Action:
        action = self.bot.act(view)
        self.stops += self.bot.last_stopped_early
        return action


@pytest.mark.parametrize(("name", "options"), [("juno", {"match": False}), ("zun", {})])
def test_early_stop_leaves_play_unchanged_with_an_iteration_budget(name: str, options: dict) -> None:
    # With an iteration budget the iterations left are known exactly, so stopping early never
    # changes a move: the whole game is the same, decision by decision.
    game = cardtable.make(name, players=2, **options)
    histories = []
    stops = []
    for early in (True, False):
        bot = _Counting(IsmctsAgent(seed=4, iterations=25, rollout="heuristic", cutoff=5, early_stop=early))
        final = cardtable.play(game, [bot, agents.make("heuristic", seed=2)], seed=8, record_events=False)
        histories.append(final.history)
        stops.append(bot.stops)
    assert histories[0] == histories[1]
    assert stops[0] > 0 and stops[1] == 0  # early stops happened, and changed nothing


def test_paired_rounds_find_the_winning_move_and_are_reproducible() -> None:
    # The same position as test_goes_out_when_it_can, searched in paired rounds at the root.
    s = position(juno(players=2), hands=["red 1, blue 9", "green 1, green 2, green 3"], discard="red 5")
    s.hands[0] = [s.hands[0][0]]
    s._legal = None
    view = s.determinize(0, 3)
    bot = IsmctsAgent(seed=1, iterations=200, root="paired")
    assert bot.act(view).text == "play red 1"
    again = IsmctsAgent(seed=1, iterations=200, root="paired")
    assert again.act(view) == bot.act(view)


def test_paired_rounds_drop_a_move_clearly_behind_and_keep_a_close_one() -> None:
    a, b, c = cardtable.make("juno", players=2, match=False).actions.actions[:3]
    # b loses to a by 1 in every paired round (no spread: clearly behind); c is a's equal on average
    results = {a.index: [1.0, 0.0] * 5, b.index: [0.0, -1.0] * 5, c.index: [0.0, 1.0] * 5}
    assert _race([a, b, c], results, PAIRED_Z) == [a, c]


def test_a_wider_race_keeps_a_move_a_narrow_one_drops() -> None:
    a, b = cardtable.make("juno", players=2, match=False).actions.actions[:2]
    # b is behind a by 2.25 standard errors of the paired differences
    results = {a.index: [1.0] * 16, b.index: [0.0] * 4 + [1.0] * 12}
    assert _race([a, b], results, 2.0) == [a]
    assert _race([a, b], results, 2.5) == [a, b]


def test_the_race_width_is_a_positive_number_of_standard_errors() -> None:
    with pytest.raises(agents.AgentError, match="race must be a positive number of standard errors"):
        agents.make("hard", race=0)
    assert agents.make("hard", race=2.5).race == 2.5


def test_paired_rounds_give_up_the_heuristics_move_only_for_a_clear_lead() -> None:
    a, b, c = cardtable.make("juno", players=2, match=False).actions.actions[:3]
    moves = [a, b, c]
    # b (the heuristic's move) is behind a in 2 of 12 rounds: a leads by 1.5 standard errors, enough
    results = {a.index: [1.0] * 12, b.index: [0.0] * 2 + [1.0] * 10, c.index: [0.0] * 12}
    assert _played(moves, moves, results, 12, own=b.index) == a
    # behind by 1 in one round and ahead by 0.2 in another: a leads by 0.77 standard errors; b is played
    results[a.index][11] = 0.8
    results[b.index] = [0.0] + [1.0] * 11
    assert _played(moves, moves, results, 12, own=b.index) == b
    # with no heuristic (own=-1), or its move out of the race, the best mean; one round proves nothing
    assert _played(moves, moves, results, 12, own=-1) == a
    assert _played([a, c], moves, results, 12, own=b.index) == a
    assert _played(moves, moves, results, 1, own=c.index) == c


def test_paired_search_is_the_games_choice_unless_told() -> None:
    from cardtable.agents.heuristics import search_settings

    assert search_settings("iuno_avatar")["root"] == "paired"
    state = cardtable.make("iuno_avatar", players=2).new_state(seed=4)
    seat = state.current_player
    assert seat is not None
    view = state.determinize(seat, 1)
    for root in (None, "paired", "ucb", "rollouts"):
        bot = IsmctsAgent(seed=3, iterations=40, cutoff=10, rollout="heuristic", root=root)
        assert bot.act(view) in view.legal_actions()
    # the game's default is its paired rounds with its heuristic's bias: the same move as asking for them
    assert search_settings("iuno_avatar")["bias"] == 1.0
    default = IsmctsAgent(seed=3, iterations=40, cutoff=10, rollout="heuristic")
    assert default.bias is None  # (as the game says)
    assert default.act(view) == IsmctsAgent(seed=3, iterations=40, cutoff=10, rollout="heuristic", root="paired",
                                            bias=1.0).act(view)


def test_an_unknown_root_search_is_refused() -> None:
    with pytest.raises(agents.AgentError, match="root must be one of ucb, paired, rollouts"):
        IsmctsAgent(root="tree")


def test_paired_rollouts_take_the_heuristics_move_unless_another_clearly_beats_it() -> None:
    # One round cannot tell two moves apart: the heuristic's own move is kept.
    s = position(juno(players=2), hands=["red 1, red 7, blue 9", "green 1, green 2, green 3"], discard="red 5")
    view = s.determinize(0, 3)
    heuristic = agents.make("heuristic", seed=1).act(view.clone())
    bot = IsmctsAgent(seed=1, iterations=len(view.legal_actions()), rollout="heuristic", cutoff=4, root="rollouts")
    assert bot.act(view).index == heuristic.index
    assert bot.last_iterations == len(view.legal_actions())  # one whole round, every move rolled out once


def test_paired_rollouts_race_drops_what_is_behind_or_a_copy_of_the_heuristics_move() -> None:
    # moves 0-3, the heuristic's is 1; 0 leads; 2 is behind 0 by 1 in every round (clearly); 3 scored
    # exactly what 1 did (a copy: it cannot beat it clearly); 1 is 0's equal on average (close)
    values = [[1.0, 0.0] * 5, [0.0, 1.0] * 5, [0.0, -1.0] * 5, [0.0, 1.0] * 5]
    assert _rollout_race([0, 1, 2, 3], values, 1, 10) == [0, 1]
    # the heuristic's move itself leaves when the leader is clearly ahead of it
    assert _rollout_race([0, 1], [[1.0, 0.5] * 5, [0.0, -0.5] * 5], 1, 10) == [0]


def test_paired_rollouts_stop_when_one_move_is_left() -> None:
    # The position of test_goes_out_when_it_can: going out wins, drawing never does. The race drops the
    # draw after its first rounds and the search stops; without early stop it spends the whole budget.
    s = position(juno(players=2), hands=["red 1, blue 9", "green 1, green 2, green 3"], discard="red 5")
    s.hands[0] = [s.hands[0][0]]
    s._legal = None
    view = s.determinize(0, 3)
    racing = IsmctsAgent(seed=1, iterations=400, rollout="heuristic", root="rollouts")
    assert racing.act(view.clone()).text == "play red 1"
    assert racing.last_stopped_early and racing.last_iterations == 2 * ROLLOUTS_MIN_ROUNDS
    full = IsmctsAgent(seed=1, iterations=400, rollout="heuristic", root="rollouts", early_stop=False)
    assert full.act(view.clone()).text == "play red 1"
    assert not full.last_stopped_early and full.last_iterations == 400


def test_a_game_sets_its_own_search_defaults() -> None:
    from cardtable.agents.heuristics import search_settings

    assert search_settings("ivion")["root"] == "rollouts"
    assert "root" not in search_settings("juno")
    game = cardtable.make("ivion")
    state = game.new_state(5, record_events=False)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    view = state.determinize(seat, 1)
    k = len(view.legal_actions())
    own = IsmctsAgent(seed=1, iterations=3 * k, rollout="heuristic", cutoff=4)  # Ivion's default: paired rollouts
    own.act(view.clone())
    assert own.last_iterations == 3 * k  # three rounds of every move (fewer than the race needs to drop one)
    tree = IsmctsAgent(seed=1, iterations=3 * k + 1, rollout="heuristic", cutoff=4, root="ucb", early_stop=False)
    tree.act(view.clone())
    assert tree.last_iterations == 3 * k + 1
