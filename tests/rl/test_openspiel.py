"""OpenSpiel registration: load_game, random_sim_test, serialization, information states, ISMCTS."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import cardtable
from cardtable.core.registry import games
from cardtable.rl import openspiel as cos
from cardtable.rl.encoders import encoder_for, has_encoder

from .helpers import RL_CONFIGS, config_ids, label

cos.register_all()

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]


def spiel_name(game: str, options: dict[str, Any]) -> str:
    params = ",".join(f"{k}={str(v) if not isinstance(v, bool) else str(v).lower()}" for k, v in options.items())
    return f"cardtable_{game}({params})"


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(seed)
    return state


def chance(state: pyspiel.State, outcome: int = 0) -> pyspiel.State:
    """Past the chance node between a choice and its effect, if there is one."""
    if state.is_chance_node():
        state.apply_action(outcome)
    return state


def test_register_all_registers_every_game_once() -> None:
    names = cos.register_all()
    assert names == [f"cardtable_{g}" for g in games()]
    assert cos.register_all() == names
    assert set(names) <= set(pyspiel.registered_names())


def test_registered_games_default_to_two_players_and_one_round() -> None:
    game = pyspiel.load_game("cardtable_juno")
    assert game.num_players() == 2 and game.cardtable.options.match is False  # JUNO's own default: 4, a match
    assert game.num_distinct_actions() == cardtable.make("juno", players=2).num_actions
    # the longest history whose information-state tensor fits in DEFAULT_TENSOR_SIZE floats
    # (269 + 1,035 x (2 + 7 + 54)); a random game: ~735 decisions, median
    assert game.max_game_length() == cos.default_max_decisions(game.cardtable) == 1035
    assert game.information_state_tensor_shape() == [65474]
    for name in games():
        assert pyspiel.load_game(f"cardtable_{name}").num_players() == 2
    assert pyspiel.load_game("cardtable_juno(players=4,match=true)").cardtable.options.match is True


def test_game_type_and_info_come_from_the_spec() -> None:
    game = pyspiel.load_game("cardtable_juno(players=3,variant=serious,match=false)")
    t = game.get_type()
    spec = cardtable.make("juno").spec
    assert (t.min_num_players, t.max_num_players) == (spec.min_players, spec.max_players)
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-2.0, 1.0, 0.0)
    assert game.max_chance_outcomes() == cos.NUM_SEEDS
    assert game.observation_tensor_size() == encoder_for(cardtable.make("juno", players=3)).size
    assert game.cardtable.options.variant == "serious"


@pytest.mark.slow  # whole random games, with a clone per step kept by the test (JUNO: ~1,000 decisions)
@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_openspiel_random_sim_test(game: str, options: dict[str, Any]) -> None:
    # cut at 600 decisions (a draw), so the information-state tensor asked at every step is small
    spiel = pyspiel.load_game(spiel_name(game, {**options, "max_decisions": 600}))
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)


def test_the_opening_chance_node_is_the_seed_of_the_cardtable_game() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == cos.NUM_SEEDS and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state.apply_action(42)
    assert state.cardtable.to_json() == cardtable.make("juno", players=2, match=False).new_state(42, record_events=False).to_json()
    for player in range(2):  # the seed is in OpenSpiel's history, never in what a player knows
        assert "seed" not in state.information_state_string(player) and "rng" not in state.observation_string(player)


def test_a_clone_made_before_a_draw_does_not_know_what_the_draw_gives() -> None:
    """A chance node lies between each choice and its effect: perfect-information search over
    clones (pyspiel's MCTS) no longer sees future draws; a state and its clone given the same
    outcome stay equal (random_sim_test), and no seat's view changes at the chance node."""
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    draw = game.cardtable.coerce_action("draw").index
    state = dealt(game, 3)
    rng = np.random.default_rng(3)
    while draw not in state.legal_actions():
        state.apply_action(int(rng.choice(state.legal_actions())))
        chance(state, int(rng.integers(cos.NUM_SHUFFLES)))
    me = state.current_player()
    views = [state.observation_string(p) for p in range(2)]
    hands = set()
    for outcome in range(12):
        copy = state.clone()
        copy.apply_action(draw)
        assert copy.is_chance_node() and copy.chance_outcomes() is cos._SHUFFLE_OUTCOMES
        assert [copy.observation_string(p) for p in range(2)] == views  # chosen, not yet done
        twin = copy.clone()
        copy.apply_action(outcome)
        twin.apply_action(outcome)
        assert str(twin) == str(copy)
        hands.add(tuple(sorted(copy.cardtable.hands[me])))
    assert len(hands) > 1, "every chance outcome drew the same card"
    assert state.history()[-1] < cos.NUM_SHUFFLES and state.is_player_node()


def test_without_chance_draws_only_the_deal_is_chance() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false,chance_draws=false)")
    state = play(dealt(game, 6), 50, 6)
    assert len(state.history()) == 1 + len(state.decisions)
    assert not state.is_chance_node()


def test_serialization_round_trips_mid_game() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    state = dealt(game, 7)
    rng = np.random.default_rng(7)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    action = state.legal_actions()[0]
    state.apply_action(action)
    state2.apply_action(action)
    assert str(state2) == str(state)


def test_observations_are_the_encoder_and_the_observation_dict() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    state = dealt(game, 3)
    enc = encoder_for(game.cardtable)
    for seat in range(2):
        expected = enc.encode(state.cardtable.observation(seat))
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), expected)
        assert '"hand"' in state.observation_string(seat)


def test_normalize_divides_the_observation_by_the_largest_value_of_each_piece() -> None:
    """The same option as in PettingZoo and Gymnasium: observation values in [0, 1]."""
    plain = dealt(pyspiel.load_game("cardtable_zun(max_decisions=30)"), 3)
    scaled = dealt(pyspiel.load_game("cardtable_zun(max_decisions=30,normalize=true)"), 3)
    scale = np.maximum(encoder_for(plain.get_game().cardtable).high, 1.0)
    a = np.asarray(plain.observation_tensor(0), np.float32)
    b = np.asarray(scaled.observation_tensor(0), np.float32)
    assert a.max() > 1 and b.max() <= 1 and np.allclose(b, a / scale)
    size = scale.size
    info = np.asarray(scaled.information_state_tensor(0), np.float32)
    assert np.allclose(info[:size], b) and np.array_equal(info[size:], np.asarray(plain.information_state_tensor(0))[size:])


def test_resampling_keeps_what_the_player_knows() -> None:
    """ISMCTS needs resample_from_infostate: other hands change, the information state does not."""
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    state = dealt(game, 11)
    rng = np.random.default_rng(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(60):
        chance(state, int(rng.integers(cos.NUM_SHUFFLES)))
        if state.is_terminal():
            break
        player = state.current_player()
        copy = state.resample_from_infostate(player, sampler)
        assert copy.information_state_string(player) == state.information_state_string(player)
        assert copy.observation_string(player) == state.observation_string(player)
        assert copy.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
    chance(state)
    other = 1 - state.current_player()
    hands = {tuple(state.resample_from_infostate(1 - other, sampler).cardtable.hands[other]) for _ in range(5)}
    assert len(hands) > 1  # the other hand really is resampled


def play(state: pyspiel.State, steps: int, seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_information_state_string_has_perfect_recall() -> None:
    """Same observation now, different past: different strings (the observation string merges them)."""
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    a = dealt(game, 5)
    while len(a.legal_actions()) < 2:
        chance(a).apply_action(a.legal_actions()[0])
        chance(a)
    player = a.current_player()
    b = a.clone()
    a.apply_action(a.legal_actions()[0])
    b.apply_action(b.legal_actions()[-1])
    chance(a), chance(b)
    assert a.information_state_string(player) != b.information_state_string(player)
    assert a.information_state_string(player).startswith(a.observation_string(player))
    # the seat's view of one history is one string, whoever else's hidden cards are resampled
    state = chance(play(dealt(game, 8), 30, 8))
    me = state.current_player()
    copy = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert copy.information_state_string(me) == state.information_state_string(me)
    assert copy.information_state_tensor(me) == state.information_state_tensor(me)


def decoded_action(row: np.ndarray) -> int | None:
    """The action a history row shows (action + 1 in binary digits, most significant first), or None."""
    code = int("".join(str(int(v)) for v in row), 2)
    return code - 1 if code else None


@pytest.mark.parametrize(("game", "options"), [(g, RL_CONFIGS[g][0]) for g in sorted(RL_CONFIGS)])
def test_the_information_state_tensor_is_the_observation_then_the_history(game: str, options: dict[str, Any]) -> None:
    spiel = pyspiel.load_game(spiel_name(game, {**options, "max_decisions": 50}))
    enc = encoder_for(spiel.cardtable)
    players, actions, recalled = spiel.num_players(), spiel.num_distinct_actions(), enc.recalled_index.size
    bits = actions.bit_length()
    assert enc.private, "the encoder names no private piece (its hand)"
    assert spiel.information_state_tensor_shape() == [enc.size + 50 * (players + bits + recalled)]
    assert spiel.max_game_length() == 50
    state = play(dealt(spiel, 2), 24, 2)
    for player in range(players):
        tensor = np.asarray(state.information_state_tensor(player), np.float32)
        assert np.array_equal(tensor[: enc.size], enc.encode(state.cardtable.observation(player)))
        rows = tensor[enc.size :].reshape(50, players + bits + recalled)
        for i, d in enumerate(state.decisions):
            assert rows[i, (d.seat - player) % players] == 1 and rows[i, :players].sum() == 1
            shown = decoded_action(rows[i, players : players + bits])
            assert shown == (d.action if d.seat == player or d.seen[player] else None)
        assert not rows[len(state.decisions) :].any()
        # Perfect recall of what only I see (and what chance showed for a moment): from the tensor
        # alone, those pieces after every decision are the pieces now minus the changes since.
        # Replayed beside it, with the same chance outcomes.
        hand = enc.encode(state.cardtable.observation(player))[enc.recalled_index]
        hands = [hand - rows[i + 1 : len(state.decisions), players + bits :].sum(axis=0)
                 for i in range(len(state.decisions))]
        replay, k = spiel.new_initial_state(), 0
        for action in state.history():
            replay.apply_action(action)
            if replay._last is not None and replay._last.length > k:  # decision k took effect
                assert np.array_equal(enc.encode(replay.cardtable.observation(player))[enc.recalled_index], hands[k])
                k += 1
        assert k == len(state.decisions)
    # Every JUNO action is public (a play, a draw, a color, a call), so every unforced one is seen
    # by all; a forced one by its actor only. Replayed beside the records, with the same chance.
    if game == "juno":
        replay, forced = spiel.new_initial_state(), []
        for action in state.history():
            if replay.is_player_node():
                forced.append(len(replay.legal_actions()) == 1)
            replay.apply_action(action)
        assert len(forced) == len(state.decisions)
        for d, alone in zip(state.decisions, forced, strict=True):
            assert d.seen == tuple(s == d.seat or not alone for s in range(players))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_the_information_state_tensor_is_one_to_one_with_what_the_seat_saw(game: str, options: dict[str, Any]) -> None:
    """Perfect recall, every game: over random histories (a few deals, many ways to go on from
    each), two points a seat tells apart (its information-state string: a digest of every
    observation it had and its own actions) never give one tensor, and one never gives two."""
    spiel = pyspiel.load_game(spiel_name(game, {**options, "max_decisions": 40}))
    rng = np.random.default_rng(3)
    tensor_of: dict[tuple[int, str], bytes] = {}
    string_of: dict[tuple[int, bytes], str] = {}
    for run in range(24):
        state = dealt(spiel, run % 2)  # 2 deals, 12 games from each: histories that share a past
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(cos.NUM_SHUFFLES)))
                continue
            for p in range(spiel.num_players()):
                text = state.information_state_string(p)
                tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                assert tensor_of.setdefault((p, text), tensor) == tensor, "one information state, two tensors"
                other = string_of.setdefault((p, tensor), text)
                assert other == text, f"seat {p}: two different histories give one tensor\n{other[:300]}\n{text[:300]}"
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_choice_the_other_seat_cannot_see_stays_out_of_its_information_state() -> None:
    """IUNU: which Afterlife card a Priest's owner keeps is private (rulebook: the cards drawn are
    secret); the other seat's tensor shows that the owner decided, not what."""
    spiel = pyspiel.load_game("cardtable_iunu(players=2)")
    keep = {a.index for a in spiel.cardtable.actions if a.text.startswith("keep") and a.text != "keep the dice"}
    kept = []
    for seed in range(40):
        state = play(dealt(spiel, seed), 400, seed)
        kept = [d for d in state.decisions if d.action in keep]
        if kept:
            break
    assert kept, "no Priest kept an Afterlife card in these games; pick other seeds"
    assert all(not d.seen[1 - d.seat] and d.seen[d.seat] for d in kept)  # forced keeps included
    d = kept[0]
    other = 1 - d.seat
    enc = encoder_for(spiel.cardtable)
    width = 2 + spiel.num_distinct_actions().bit_length() + enc.recalled_index.size
    row = np.asarray(state.information_state_tensor(other), np.float32)[enc.size:].reshape(-1, width)[d.length - 1]
    assert row[(d.seat - other) % 2] == 1 and not row[2:].any()  # nor a change of what only it sees


def test_the_records_are_the_same_whether_asked_at_every_decision_or_only_at_the_end() -> None:
    game = pyspiel.load_game("cardtable_iunu(players=2,max_decisions=300)")
    eager, lazy = dealt(game, 9), dealt(game, 9)
    rng = np.random.default_rng(9)
    while not eager.is_terminal():
        action = int(rng.choice(eager.legal_actions()))
        for state in (eager, lazy):
            state.apply_action(action)
        for p in range(2):
            eager.information_state_string(p)
    assert all(d._before is None for d in eager.decisions)
    assert all(d._before is not None for d in lazy.decisions)  # nothing asked: nothing worked out
    for p in range(2):
        assert lazy.information_state_string(p) == eager.information_state_string(p)
        assert lazy.information_state_tensor(p) == eager.information_state_tensor(p)
    assert [d.seen for d in lazy.decisions] == [d.seen for d in eager.decisions]


def test_a_game_cut_at_max_decisions_is_a_draw() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false,max_decisions=7)")
    state = play(dealt(game, 1), 100, 1)
    # the seed, then each decision and the chance node between it and its effect
    assert state.is_terminal() and len(state.history()) == 1 + 2 * 7 and state.returns() == [0.0, 0.0]
    assert not state.cardtable.is_over and state.legal_actions() == []


def test_an_information_state_tensor_too_large_is_refused_with_the_reason() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false,max_decisions=100000)")
    state = dealt(game, 1)
    assert state.information_state_string(0)  # the string has no size limit
    with pytest.raises(ValueError, match="load it with max_decisions=N"):
        state.information_state_tensor(0)


@pytest.mark.parametrize("game_name", sorted(RL_CONFIGS))
def test_a_clone_shares_the_history_records_and_the_encoder_instead_of_copying_them(game_name: str) -> None:
    """pyspiel's clone deep-copies a Python state's attributes: the records are immutable and
    shared, and so are the game's bounds and encoder (a rebuilt encoder made a clone cost 0.3-2 ms)."""
    game = pyspiel.load_game(f"cardtable_{game_name}")
    state = chance(play(dealt(game, 4), 30, 4))
    copy = state.clone()
    assert copy._last is state._last and copy.cardtable is not state.cardtable
    assert copy._shared is state._shared and copy._shared.encoder is game.encoder is not None
    assert copy.information_state_tensor(0) == state.information_state_tensor(0)
    assert copy.information_state_string(0) == state.information_state_string(0)
    assert game.new_initial_state().chance_outcomes() is cos._SEED_OUTCOMES


def test_an_illegal_action_is_refused() -> None:
    game = pyspiel.load_game("cardtable_juno(players=2,match=false)")
    state = dealt(game, 0)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(cardtable.IllegalAction):
        state.apply_action(illegal)
    assert str(state) == before


@pytest.mark.parametrize("game", sorted(RL_CONFIGS))
def test_openspiels_ismcts_bot_plays_legal_moves(game: str) -> None:
    # rollouts end at 200 decisions (a draw) at the latest
    spiel = pyspiel.load_game(spiel_name(game, {**RL_CONFIGS[game][0], "max_decisions": 200}))
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        spiel, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), uct_c=2.0, max_simulations=6, random_state=rs
    )
    state = dealt(spiel, 1)
    moves = 0
    while not state.is_terminal() and moves < 4:
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            moves += 1
        else:
            action = int(rs.choice(state.legal_actions()))
        state.apply_action(action)
    assert moves == 4


def test_games_without_an_encoder_offer_no_observation_tensor() -> None:
    for name in games():
        assert cos.game_type(name).provides_observation_tensor == has_encoder(name)


@pytest.mark.parametrize("game", sorted(RL_CONFIGS))
def test_openspiels_mcts_and_ismcts_bots_play_through_evaluate_bots(game: str) -> None:
    spiel = pyspiel.load_game(spiel_name(game, {**RL_CONFIGS[game][0], "max_decisions": 24}))
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    upstream = ismcts.ISMCTSBot(spiel, evaluator, 2.0, max_simulations=3, random_state=rs)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(spiel.new_initial_state(), [upstream] * spiel.num_players(), rs)
    bots = [
        mcts.MCTSBot(spiel, 2.0, 3, evaluator, random_state=rs, solve=False),
        cos.RestartableISMCTSBot(spiel, evaluator, 2.0, max_simulations=3, random_state=rs),
    ]
    bots += bots[:1] * (spiel.num_players() - 2)
    returns = evaluate_bots.evaluate_bots(spiel.new_initial_state(), bots, rs)
    assert len(returns) == spiel.num_players() and abs(sum(returns)) < 1e-9
