"""The `encoding` option ("counts" or "planes") in every interface, and the planes themselves:
one-to-one with the counts, every value in [0, 1], binary planes where a piece is planed."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test  # type: ignore[import-untyped]

import cardtable
import cardtable.rl as rl
from cardtable.rl import openspiel as cos
from cardtable.rl.defaults import research_options
from cardtable.rl.encoders import PLANES_CAP, Encoding, Planes, encoder_for, normalize_scale
from cardtable.rl.encoders.planes import planed
from cardtable.rl.registration import env_id
from cardtable.rl.vector import VectorGame

from . import test_openspiel
from .helpers import RL_CONFIGS, config_ids, label, random_states
from .test_openspiel import dealt, play, spiel_name
from .test_pettingzoo import DICT_OBSERVATION_WARNINGS

cos.register_all()

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]
GAMES = sorted(RL_CONFIGS)


def planes_of(game: str, **options: Any) -> Planes:
    return Planes(encoder_for(cardtable.make(game, **{**research_options(game), **options})))


@pytest.mark.parametrize("game", GAMES)
def test_every_interface_takes_encoding_planes_and_hands_out_the_planes(game: str) -> None:
    planes = planes_of(game)
    size = planes.size
    # PettingZoo AEC: the planes of what the counts environment shows, seed for seed
    env, plain = rl.pettingzoo_env(game, encoding="planes"), rl.pettingzoo_env(game)
    env.reset(seed=4), plain.reset(seed=4)
    agent = env.agent_selection
    assert env.observation_space(agent)["observation"].shape == (size,)
    obs = env.observe(agent)["observation"]
    assert np.array_equal(obs, planes.from_counts(plain.observe(agent)["observation"]))
    assert env.observation_space(agent).contains(env.observe(agent))
    # ParallelEnv
    observations, _ = rl.parallel_env(game, encoding="planes").reset(seed=4)
    assert np.array_equal(observations[agent]["observation"], obs)
    # Gymnasium, by id and by function (the checker: observations inside the [0, 1] space)
    gym = gymnasium.make(env_id(game), encoding="planes")
    first, _ = gym.reset(seed=4)
    assert first["observation"].shape == (size,) and gym.observation_space["observation"].shape == (size,)
    assert np.array_equal(gym.observation_space["observation"].high, planes.high)
    check_env(rl.gym_env(game, encoding="planes").unwrapped, skip_render_check=True)
    # the batched games
    vector = VectorGame(game, 3, encoding="planes")
    batch, _ = vector.reset(seed=4)
    counts, _ = VectorGame(game, 3).reset(seed=4)
    assert batch["observation"].shape == (3, size)
    assert np.array_equal(batch["observation"], planes.from_counts(counts["observation"]))
    # OpenSpiel: the observation tensor and the information state's observation part
    spiel = pyspiel.load_game(f"cardtable_{game}(encoding=planes,max_decisions=30)")
    assert spiel.observation_tensor_shape() == [size]
    state = dealt(spiel, 4)
    counted = dealt(pyspiel.load_game(f"cardtable_{game}(max_decisions=30)"), 4)
    tensor = np.asarray(state.observation_tensor(0), np.float32)
    assert np.array_equal(tensor, planes.from_counts(np.asarray(counted.observation_tensor(0), np.float32)))


def test_pettingzoo_api_test_passes_with_planes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.pettingzoo_env("juno", encoding="planes"), num_cycles=200)
    others = {str(w.message) for w in caught} - set(DICT_OBSERVATION_WARNINGS)
    assert not others, f"api_test warned: {others}"


def test_an_unknown_encoding_is_refused_naming_the_allowed_values() -> None:
    message = "encoding must be 'counts' or 'planes', got 'bits'"
    makers = [
        lambda: rl.pettingzoo_env("juno", encoding="bits"),
        lambda: rl.parallel_env("juno", encoding="bits"),
        lambda: rl.gym_env("juno", encoding="bits"),
        lambda: gymnasium.make("cardtable/Juno-v0", encoding="bits"),
        lambda: VectorGame("juno", 2, encoding="bits"),
        lambda: pyspiel.load_game("cardtable_juno(encoding=bits)"),
    ]
    for make in makers:
        with pytest.raises(ValueError, match=message):
            make()


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_planes_are_one_to_one_with_the_counts_and_in_zero_one(game: str, options: dict[str, Any]) -> None:
    """Over every state of random games, every seat: the planes give the counts back (exactly for
    planed pieces), no two counts share planes, every value lies in [0, 1], each planed element
    has exactly one plane set, and every other piece is its counts divided as normalize divides."""
    encoder = encoder_for(cardtable.make(game, **options))
    planes = Planes(encoder)
    scale = normalize_scale(encoder)
    counts_of: dict[bytes, bytes] = {}
    rows: list[np.ndarray] = []
    for seed in (1, 2):
        for state in random_states(game, options, seed, limit=1500):
            for seat in range(state.game.players):
                counts = encoder.encode_state(state, seat)
                encoded = planes.from_counts(counts)
                assert encoded.min() >= 0 and encoded.max() <= 1
                back = planes.to_counts(encoded)
                assert np.allclose(back, counts, rtol=1e-6, atol=0)
                assert counts_of.setdefault(encoded.tobytes(), counts.tobytes()) == counts.tobytes(), "two counts, one planes"
                views, counted = planes.views(encoded), encoder.views(counts)
                for piece in encoder.layout:
                    if planed(piece):
                        plane = views[piece.name]
                        assert set(np.unique(plane)) <= {0.0, 1.0} and (plane.sum(axis=-1) == 1).all()
                        assert np.array_equal(plane.argmax(axis=-1), counted[piece.name])
                        assert np.array_equal(back[encoder.offsets[piece.name]], counts[encoder.offsets[piece.name]])
                    else:
                        kept = counts[encoder.offsets[piece.name]] / scale[encoder.offsets[piece.name]]
                        assert np.array_equal(views[piece.name].ravel(), kept)
                if len(rows) < 64:
                    rows.append(counts)
    assert len(counts_of) > 10
    batch = np.stack(rows)  # a batch, as the vector API converts it: row for row the same
    assert np.array_equal(planes.from_counts(batch), np.stack([planes.from_counts(r) for r in rows]))
    assert np.array_equal(planes.to_counts(planes.from_counts(batch)), planes.to_counts(np.stack([planes.from_counts(r) for r in rows])))


def test_the_planes_layout_is_described_like_the_counts_layout() -> None:
    planes = planes_of("juno")
    shapes = {p.name: p.shape for p in planes.layout}
    # JUNO's hand and DISCARD pile (0..4 copies of a card type) and the cards stacked (0..3):
    # one-hot planes; the fractions (scores / target), the one-hots and the large counts are not
    assert shapes["hand"] == (54, 5) and shapes["discard"] == (54, 5) and shapes["stack_count"] == (1, 4)
    assert shapes["scores"] == (2,) and shapes["top_card"] == (54,) and shapes["hand_counts"] == (2,)
    assert planes.size == 269 + 2 * 54 * 4 + 3 == 704
    at = 0
    for p in planes.layout:
        assert planes.offsets[p.name] == slice(at, at + p.size)
        at += p.size
    assert at == planes.size == planes.high.size and (planes.high <= 1).all()
    table = planes.describe()
    assert "| `hand` | (54, 5) | 0 | 1 | my hand: how many of each card type I hold; one-hot over 0..4 |" in table
    assert "| `hand_counts` | (2,) | 599 | 1 | cards held by each seat, relative (0 = me); divided by 108 |" in table
    assert all(isinstance(p.high, tuple) or p.top <= 1 or not p.whole or p.top > PLANES_CAP
               for p in planes.encoder.layout if not planed(p))


def test_planes_change_only_pieces_of_small_whole_counts() -> None:
    """Where every piece is a flag, a ratio or a count above PLANES_CAP, planes are what
    normalize=True gives; JUNO and Iuno Avatar gain planes (2 players)."""
    sizes = {game: (planes_of(game).encoder.size, planes_of(game).size) for game in GAMES}
    assert sizes == {
        "iuno_avatar": (479, 827), "iunu": (174, 174), "ivion": (587, 587), "juno": (269, 704), "zun": (443, 443),
    }


def test_normalize_changes_nothing_in_planes() -> None:
    encoder = encoder_for(cardtable.make("iuno_avatar", players=2))
    state = cardtable.make("iuno_avatar", players=2).new_state(3)
    plain, normalized = Encoding(encoder, "planes"), Encoding(encoder, "planes", normalize=True)
    assert np.array_equal(plain.encode_state(state, 0), normalized.encode_state(state, 0))
    assert np.array_equal(plain.high, normalized.high)


def test_the_vector_api_hands_planes_in_final_observations() -> None:
    games = VectorGame("juno", 4, encoding="planes", max_decisions=5)
    obs, _ = games.reset(seed=1)
    planes = planes_of("juno")
    rng = np.random.default_rng(1)
    for _ in range(5):
        mask = obs["action_mask"]
        obs, _, terminated, truncated, info = games.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
    assert truncated.all() and not terminated.any()
    final = info["final_obs"]["observation"]
    assert final.shape == (4, planes.size)
    for row in (*final, *obs["observation"]):
        assert np.array_equal(planes.from_counts(planes.to_counts(row)), row)  # a real planes encoding


@pytest.mark.parametrize("game", GAMES)
def test_the_information_state_tensor_with_planes_is_the_planes_then_the_same_history(game: str) -> None:
    """Perfect recall with planes: the tensor is the planes of the observation (one to one with its
    counts) followed by the history rows of the counts tensor, value for value, whose recall
    test_openspiel checks; so the planes tensor recalls exactly what the counts tensor recalls."""
    options = {**RL_CONFIGS[game][0], "max_decisions": 50}
    with_planes = pyspiel.load_game(spiel_name(game, {**options, "encoding": "planes"}))
    with_counts = pyspiel.load_game(spiel_name(game, options))
    planes = Planes(encoder_for(with_counts.cardtable))
    counts_size = planes.encoder.size
    history = with_counts.information_state_tensor_shape()[0] - counts_size
    assert with_planes.information_state_tensor_shape() == [planes.size + history]
    a, b = play(dealt(with_planes, 2), 30, 2), play(dealt(with_counts, 2), 30, 2)
    for player in range(with_planes.num_players()):
        tensor = np.asarray(a.information_state_tensor(player), np.float32)
        counted = np.asarray(b.information_state_tensor(player), np.float32)
        assert np.array_equal(tensor[: planes.size], planes.from_counts(counted[:counts_size]))
        assert np.allclose(planes.to_counts(tensor[: planes.size]), counted[:counts_size], rtol=1e-6, atol=0)
        assert np.array_equal(tensor[planes.size :], counted[counts_size:])


def test_the_default_history_of_planes_fits_the_same_tensor_size() -> None:
    game = pyspiel.load_game("cardtable_juno(encoding=planes)")
    assert game.max_game_length() == cos.default_max_decisions(game.cardtable, "planes") == 1029
    assert game.information_state_tensor_shape()[0] <= cos.DEFAULT_TENSOR_SIZE


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_the_information_state_tensor_with_planes_is_one_to_one_with_what_the_seat_saw(
    game: str, options: dict[str, Any]
) -> None:
    """test_openspiel's perfect-recall test, run with encoding=planes."""
    test_openspiel.test_the_information_state_tensor_is_one_to_one_with_what_the_seat_saw(
        game, {**options, "encoding": "planes"}
    )


def test_a_batch_past_float32s_exact_whole_numbers_is_converted_exactly() -> None:
    """Positions in a batch of planes are computed in float32 below 2^24 values, float64 past."""
    planes = planes_of("juno")
    state = cardtable.make("juno", players=2, match=False).new_state(5)
    row = planes.encoder.encode_state(state, 0)
    rows = (1 << 24) // planes.size + 2
    batch = planes.from_counts(np.broadcast_to(row, (rows, row.size)))
    # every row, the last ones past 2^24 values included, is the row converted alone (a float32
    # sum of the batch is no test of that: its rounding depends on the row's fractions)
    assert (batch == planes.from_counts(row)).all()
