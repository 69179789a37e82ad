"""Observation encoders: computed from observation(seat) only, documented layout, in bounds."""

from __future__ import annotations

import copy
import pickle
import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.core.rng import Rng
from cardtable.games.juno.cards import CARD_BY_NAME, COLORS
from cardtable.games.juno.encoder import DECISIONS
from cardtable.rl.encoders import NoEncoder, action_mask, encoder_for, relative

from .helpers import config_ids, label, random_states

CONFIGS = config_ids()
IDS = [label(g, o) for g, o in CONFIGS]


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_layout_covers_the_array(game: str, options: dict[str, Any]) -> None:
    enc = encoder_for(cardtable.make(game, **options))
    assert sum(p.size for p in enc.layout) == enc.size == enc.high.shape[0]
    views = enc.views(np.arange(enc.size, dtype=np.float32))
    covered = np.concatenate([v.ravel() for v in views.values()])
    assert np.array_equal(np.sort(covered), np.arange(enc.size, dtype=np.float32))
    table = enc.describe()
    for p in enc.layout:
        assert f"`{p.name}`" in table and p.doc


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_encodings_stay_in_bounds_and_masks_match_legal_actions(game: str, options: dict[str, Any]) -> None:
    g = cardtable.make(game, **options)
    enc = encoder_for(g)
    for state in random_states(game, options, seed=11):
        for seat in range(g.players):
            x = enc.encode(state.observation(seat))
            assert x.dtype == np.float32 and x.shape == (enc.size,)
            assert np.all(x >= 0) and np.all(x <= enc.high), f"seat {seat} out of bounds"
            mask = action_mask(state, seat)
            if seat == state.current_player:
                assert sorted(np.flatnonzero(mask)) == sorted(a.index for a in state.legal_actions())
            else:
                assert not mask.any()


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_encoding_sees_nothing_the_seat_cannot_see(game: str, options: dict[str, Any]) -> None:
    """Resampling everything a seat cannot see (determinize) leaves its encoding unchanged, on
    both paths: the observation dict's and the environments' `encode_state`."""
    g = cardtable.make(game, **options)
    enc = encoder_for(g)
    rng = Rng(5)
    for i, state in enumerate(random_states(game, options, seed=3)):
        if i % 7 or state.is_over:
            continue
        for seat in range(g.players):
            other = state.determinize(seat, rng.spawn())
            mine = enc.encode(state.observation(seat))
            assert np.array_equal(mine, enc.encode(other.observation(seat)))
            assert np.array_equal(enc.encode_state(state, seat), enc.encode_state(other, seat))


def iunu_cards(**counts: int) -> dict[str, Any]:
    """IUNU's card file with other numbers of cards of some Citizen types."""
    with (Path(cardtable.__file__).parent / "games" / "iunu" / "cards.toml").open("rb") as f:
        cards = tomllib.load(f)
    for citizen, n in counts.items():
        cards["citizens"][citizen]["cards"] = n
    return cards


# JUNO's, IUNU's, Zun's, Iuno Avatar's and Ivion's encode_state have their own path (`seat_view`, a
# reused buffer; JUNO's DISCARD counts carried over): every configuration, and also a custom deck of
# more than 255 cards (16-bit counts) for JUNO and IUNU, a JUNO match (scores) and many players;
# long Iuno Avatar and Ivion games (full Hell, exhausted decks) and Ivion's other heroes (their
# cards, terrain and attachments).
FAST_PATH_CONFIGS = [
    *CONFIGS,
    ("iunu", {"players": 3}),
    ("iunu", {"players": 2, "cards": iunu_cards(Farmer=100, Baker=100, Merchant=100)}),
    ("juno", {"players": 2, "match": True, "target": 100}),
    ("juno", {"players": 7, "variant": "seven-o", "match": True, "target": 150}),
    ("juno", {"players": 3, "match": False, "deck": {"each_color": {"1": 40, "skip": 30}, "cards": {"wild": 20}}}),
    ("iuno_avatar", {"players": 2}),
    ("ivion", {"players": 2, "decks": ["Brother Aldous", "Vesk the Quiet"], "board": 3}),
    ("ivion", {"players": 2, "decks": ["Marshal Kaida", "Wren Ashgrove"], "board": 6}),
]


@pytest.mark.parametrize(("game", "options"), FAST_PATH_CONFIGS, ids=[label(g, o)[:120] for g, o in FAST_PATH_CONFIGS])
def test_encode_state_is_the_encoding_of_the_observation_dict(game: str, options: dict[str, Any]) -> None:
    """What the environments compute at every step is exactly the documented encoding of
    `observation(seat)`, for every seat and the spectator, in every state of random games."""
    g = cardtable.make(game, **options)
    enc = encoder_for(g)
    for seed in (1, 2):
        for state in random_states(game, options, seed=seed, limit=2500):
            for seat in [*range(g.players), None]:
                expected = enc.encode(state.observation(seat))
                got = enc.encode_state(state, seat)
                assert got.dtype == np.float32 and np.array_equal(got, expected), (
                    f"seat {seat}: pieces differ: "
                    + ", ".join(k for k, v in enc.views(got != expected).items() if v.any())
                )


def test_juno_encode_state_alternating_between_games_and_clones() -> None:
    """The DISCARD counts carried from one call to the next are checked, never assumed: two games
    (and a clone going its own way) encoded in turn give each one's own encoding."""
    g = cardtable.make("juno", players=2, match=False)
    enc = encoder_for(g)
    a, b = g.new_state(1, record_events=False), g.new_state(2, record_events=False)
    rng = Rng(0)
    for step in range(600):
        for state in (a, b):
            if not state.is_over:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            for seat in (0, 1):
                assert np.array_equal(enc.encode_state(state, seat), enc.encode(state.observation(seat)))
        if step == 300 and not a.is_over:
            b = a.clone()  # the same DISCARD pile, then the two diverge
    assert a.is_over or b.is_over


def test_juno_seat_view_shows_only_what_the_observation_dict_shows() -> None:
    """Each field of `seat_view` is the dict entry it names, as numbers (docs/rl.md, JUNO)."""
    from cardtable.games.juno.cards import CARD_NAME, RANK_NAMES
    from cardtable.games.juno.observation import seat_view

    def names(cards: Iterable[int]) -> list[str]:
        return [CARD_NAME[t] for t in cards]

    options = {"players": 3, "variant": "seven-o", "wild_draw_four": "challenge", "match": True, "target": 200}
    kinds = set()
    for state in random_states("juno", options, seed=8, limit=4000):
        for seat in (0, 1, 2, None):
            obs, v = state.observation(seat), seat_view(state, seat)  # type: ignore[arg-type]
            d = obs["decision"] or {}
            kinds.add(d.get("kind"))
            assert (v.players, v.seat, v.draw_pile, v.hand_counts) == (
                obs["players"], obs["seat"], obs["draw_pile"], obs["hand_counts"]
            )
            assert names(v.hand) == obs.get("hand", [])
            assert (names([v.top_card])[0] if v.top_card is not None else None) == obs["top_card"]
            assert (COLORS[v.color] if v.color is not None else None) == obs["color"]
            assert names(v.discard) == obs["discard"]
            assert ("left" if v.direction == 1 else "right") == obs["direction"]
            assert (v.turn, v.dealer, v.penalty, v.scores, v.target) == (
                obs["turn"], obs["dealer"], obs["penalty"], obs["scores"], obs["target"]
            )
            assert v.decision == d.get("kind") and v.decision_seat == d.get("seat", -1)
            assert (CARD_NAME[v.drawn] if v.drawn is not None else None) == d.get("drawn")
            assert v.decision_target == d.get("target", d.get("offender"))
            assert (RANK_NAMES[v.stack_value] if v.stack_value is not None else None) == d.get("value")
            assert v.stack_count == d.get("count", 0)
    assert {"after_draw", "catch", "challenge", "swap", "choose_color"} <= kinds  # what the test reads


def test_iuno_avatar_seat_view_shows_only_what_the_observation_dict_shows() -> None:
    """Each field of `seat_view` is the dict entry it names, as numbers (docs/rl.md, Iuno Avatar)."""
    from cardtable.games.iuno_avatar.language import ELEMENTS
    from cardtable.games.iuno_avatar.state import AvatarState

    options = {"players": 3, "turn_limit": 60}
    cards = cardtable.make("iuno_avatar", **options).cards  # type: ignore[attr-defined]

    def names(ids: Iterable[int]) -> list[str]:
        return [cards[c].name for c in ids]

    kinds, figures = set(), 0
    for state in random_states("iuno_avatar", options, seed=8, limit=4000):
        assert isinstance(state, AvatarState)
        for seat in (0, 1, 2, None):
            obs, v = state.observation(seat), state.seat_view(seat)
            d, seats = obs["decision"] or {}, obs["seats"]
            kinds.add(d.get("kind"))
            figures += sum(map(len, v.earth))
            assert (v.players, v.seat, v.middle, v.purse, v.stack, v.spells_cast, v.turn) == (
                obs["players"], obs["seat"], obs["middle"], obs["purse"], obs["stack"], obs["spells_cast"], obs["turn"]
            )
            assert sorted(names(v.heaven)) == obs.get("heaven", [])
            assert (names(v.hell), names(v.announced)) == (obs["hell"], obs["announced"])
            assert [names(e) for e in v.earth] == [[f["name"] for f in p["earth"]] for p in seats]
            assert v.earth_gems == [[f["gems"] for f in p["earth"]] for p in seats]
            assert (v.heaven_size, v.dice, v.gems) == tuple([p[k] for p in seats] for k in ("heaven_size", "dice", "gems"))
            assert [ELEMENTS[a] for a in v.avatar] == [p["avatar"] for p in seats]
            assert v.decision == d.get("kind") and v.decision_seat == d.get("seat", -1)
            assert (v.value if v.value >= 0 else None) == d.get("value")
            assert {e: n for e, n in zip(ELEMENTS, v.remaining, strict=False) if n} == d.get("remaining", {})
            assert (cards[v.card].name if v.card >= 0 else None) == d.get("card")
            assert v.instead == d.get("instead", False)
    assert {"use_roll", "pay", "use_ability", "choose_card"} <= kinds and figures  # what the test reads


def test_ivion_seat_view_shows_only_what_the_observation_dict_shows() -> None:
    """Each field of `seat_view` is the dict entry it names, as numbers (docs/rl.md, Ivion)."""
    from cardtable.games.ivion.actions import CONTROLS, tile_name
    from cardtable.games.ivion.state import IvionState

    options = {"players": 2, "board": 5, "turn_limit": 60}
    size, seen = 5, Counter[str]()
    for seed in (4, 9):
        for state in random_states("ivion", options, seed=seed, limit=3000):
            assert isinstance(state, IvionState)
            name = state.name
            for seat in (0, 1, None):
                obs, v = state.observation(seat), state.seat_view(seat)
                d = obs["decision"] or {}
                assert (v.seat, v.turn, v.decision, v.decision_seat) == (obs["seat"], obs["turn"], d.get("kind"), d.get("seat", -1))
                for h, o in zip(v.heroes, obs["heroes"], strict=True):
                    assert (h.hp, h.max_hp, h.actions, h.power, h.initiative, h.chivalrous, h.wounded, h.exhausted, h.deck,
                            h.hand_size, h.relics) == tuple(o[k] for k in ("hp", "max_hp", "actions", "power", "initiative",
                                                                            "chivalrous", "wounded", "exhausted", "deck",
                                                                            "hand_size", "relics"))
                    assert h.control == [o["control"][k] for k in CONTROLS]
                    assert h.feats_used == sum(f["used"] for f in o["feats"])
                    assert tile_name(h.tile, size) == o["tile"]
                    assert [name(c) for c in h.discard] == o["discard"]
                    assert sorted(name(c) for c in h.revealed_in_hand) == o["revealed_in_hand"]
                    seen["revealed"] += bool(h.revealed_in_hand)
                assert sorted((tile_name(t, size), k) for t, k in v.terrain) == sorted(obs["terrain"].items())
                assert sorted((name(c), controller, host, tile_name(key, size) if host == "tile" else
                               state.card_ref(key) if host == "card" else key)
                              for c, controller, host, key in v.attached) == sorted(
                    (a["card"], a["controller"], a["host"], a.get("tile", a.get("seat", a["on"]))) for a in obs["attached"])
                seen.update(host for _, _, host, _ in v.attached)
                assert sorted(map(name, v.hand)) == obs.get("hand", [])
                assert sorted(map(name, v.looking)) == obs.get("looking", [])
                assert [(name(c), controller, copy, countered) for c, controller, copy, countered in v.stack] == [
                    (i["card"], i["controller"], i["copy"], i["countered"]) for i in obs["stack"]]
                seen["stack"] += bool(v.stack)
                seen["terrain"] += bool(v.terrain)
                seen["looking"] += bool(v.looking)
    assert seen.keys() >= {"hero", "tile", "stack", "terrain", "revealed", "looking"}, seen  # what the test reads


# what the games reach in the random games of test_seat_view_is_the_observation_dict_read_back,
# in every configuration (so the test reads these parts of the view)
VIEW_REACHES = {
    "iunu": {"play", "second_card", "place", "take", "artisan", "priest_die", "scribed", "fresh"},
    "zun": {"action_phase", "reaction", "discard", "resolving", "trigger", "ongoing", "exposed"},
}
VIEW_CONFIGS = [(g, o) for g, o in CONFIGS if g in VIEW_REACHES]


@pytest.mark.parametrize(("game", "options"), VIEW_CONFIGS, ids=[label(g, o) for g, o in VIEW_CONFIGS])
def test_seat_view_is_the_observation_dict_read_back(game: str, options: dict[str, Any]) -> None:
    """IUNU's and Zun's `seat_view(seat)`, which encode_state writes, is exactly the observation
    dict's numbers (the encoder's `view_of`): it shows nothing the dict does not (another seat's hand,
    the deck's order), for every seat and the spectator, in every state of random games."""
    g = cardtable.make(game, **options)
    enc = encoder_for(g)
    reached = set()
    for state in random_states(game, options, seed=8, limit=3000):
        for seat in [*range(g.players), None]:
            v = state.seat_view(seat)  # type: ignore[attr-defined]
            assert v == enc.view_of(state.observation(seat)), f"seat {seat}"  # type: ignore[attr-defined]
            reached.add(v.decision)
            if game == "iunu":
                reached |= {"scribed"} if v.scribed else set()
                reached |= {"fresh"} if v.fresh else set()
            else:
                reached |= {"exposed"} if v.exposed else set()
                reached |= {"ongoing"} if v.ongoing else set()
                reached |= {"resolving"} if v.resolving else set()
                reached |= {"trigger"} if any(f.kind == "trigger" for f in v.resolving) else set()
    assert VIEW_REACHES[game] <= reached


def test_iunu_priest_cards_are_seen_by_their_seat_only() -> None:
    """PRIEST: the Afterlife cards drawn are in the drawing seat's view, in no other seat's (nor in a
    spectator's), as in the observation dict."""
    g = cardtable.make("iunu", players=4)
    keeps = 0
    for state in random_states("iunu", {"players": 4}, seed=8, limit=3000):
        d = state.decision
        if d is None or d.kind != "priest_keep":
            continue
        keeps += 1
        for seat in [*range(g.players), None]:
            v = state.seat_view(seat)  # type: ignore[attr-defined]
            assert v.drawn_count == len(d.drawn)  # type: ignore[attr-defined]
            assert v.drawn == (sorted(d.drawn) if seat == d.seat else [])  # type: ignore[attr-defined]
            assert ("drawn" in state.observation(seat)["decision"]) == (seat == d.seat)
    assert keeps


def test_juno_pieces_read_the_observation() -> None:
    g = cardtable.make("juno", players=3, match=False)
    enc = encoder_for(g)
    checked = Counter[str]()
    for state in random_states("juno", {"players": 3, "match": False}, seed=7):
        if state.is_over:
            break
        seat = (state.current_player + 1) % 3  # a seat that is (usually) not deciding
        for me in (seat, state.current_player):
            obs = state.observation(me)
            v = enc.views(enc.encode(obs))
            assert Counter({CARD_BY_NAME[c]: n for c, n in Counter(obs["hand"]).items()}) == Counter(
                {t: int(n) for t, n in enumerate(v["hand"]) if n}
            )
            assert np.flatnonzero(v["top_card"]).tolist() == [CARD_BY_NAME[obs["top_card"]]]
            assert v["color"].sum() == (obs["color"] is not None)
            if obs["color"] is not None:
                assert np.argmax(v["color"]) == COLORS.index(obs["color"])
            assert v["discard"].sum() == len(obs["discard"])
            for s in range(3):
                assert v["hand_counts"][relative(s, me, 3)] == obs["hand_counts"][s]
            d = obs["decision"]
            assert DECISIONS[int(np.argmax(v["decision"]))] == d["kind"]
            assert np.argmax(v["decision_seat"]) == relative(d["seat"], me, 3)
            assert v["drawn"].sum() == ("drawn" in d)
            if "drawn" in d:
                assert np.argmax(v["drawn"]) == CARD_BY_NAME[d["drawn"]]
                checked["drawn"] += 1
            if "target" in d:
                assert np.argmax(v["decision_target"]) == relative(d["target"], me, 3)
                checked["catch"] += 1
            assert v["draw_pile"][0] == pytest.approx(obs["draw_pile"] / g.deck_size)
            assert v["direction"].tolist() == ([1, 0] if obs["direction"] == "left" else [0, 1])
    assert checked["drawn"] > 0  # the game reached the decisions the test reads


def test_the_observer_is_always_seat_zero_of_its_own_encoding() -> None:
    """Relative seats: the same position seen from two seats puts each one's hand count first."""
    g = cardtable.make("juno", players=4, match=False)
    enc = encoder_for(g)
    state = g.new_state(2, record_events=False)
    for seat in range(4):
        v = enc.views(enc.encode(state.observation(seat)))
        assert v["hand_counts"][0] == len(state.observation(seat)["hand"])


def test_a_game_without_an_encoder_is_refused_with_the_way_to_add_one() -> None:
    class Spec:
        name = "no-such-game"
        title = "No Such Game"

    class Fake:
        spec = Spec()

    with pytest.raises(NoEncoder, match="no RL observation encoder yet.*cardtable/games/no-such-game/encoder.py"):
        encoder_for(Fake())  # type: ignore[arg-type]


def test_iunu_pieces_read_the_observation() -> None:
    from cardtable.games.iunu.cards import CITIZENS
    from cardtable.games.iunu.encoder import DECISIONS as IUNU_DECISIONS
    from cardtable.games.iunu.encoder import DIE_FACES

    options = {"players": 3}
    g = cardtable.make("iunu", **options)
    enc = encoder_for(g)
    kinds = set()
    for state in random_states("iunu", options, seed=4):
        if state.is_over:
            break
        for me in range(3):
            obs = state.observation(me)
            v = enc.views(enc.encode(obs))
            assert v["hand"].sum() == len(obs["hand"]) == obs["dynasties"][me]["hand_size"]
            for name in set(obs["hand"]):
                assert v["hand"][CITIZENS.index(name)] == obs["hand"].count(name)
            assert v["forum"].sum() == len(obs["forum"])
            assert np.argmax(v["forum_oldest"]) == CITIZENS.index(obs["forum"][0])
            for die, value in enumerate(obs["dice"]):
                assert v["dice"][die].tolist() == [float(i == (value or 0)) for i in range(DIE_FACES + 1)]
            for s, p in enumerate(obs["dynasties"]):
                r = relative(s, me, 3)
                assert v["dynasty"][r].sum() == sum(p["dynasty"].values())
                assert v["debens"][r] == p["debens"] and v["hand_size"][r] == p["hand_size"]
            d = obs["decision"]
            assert IUNU_DECISIONS[int(np.argmax(v["decision"]))] == d["kind"]
            assert np.argmax(v["decision_seat"]) == relative(d["seat"], me, 3)
            kinds.add(d["kind"])
    assert {"play", "place", "take"} <= kinds  # the game reached the decisions the test reads


def test_zun_pieces_read_the_observation() -> None:
    from cardtable.games.zun.encoder import DECISIONS as ZUN_DECISIONS
    from cardtable.games.zun.encoder import FRAME_KINDS, TIERS

    options = {"players": 4, "teams": 2}
    g = cardtable.make("zun", **options)
    enc = encoder_for(g)
    names = [r.name for r in g.rune_set.runes]
    seen = Counter[str]()
    for state in random_states("zun", options, seed=6):
        if state.is_over:
            break
        for me in range(4):
            obs = state.observation(me)
            v = enc.views(enc.encode(obs))
            for name in set(obs["hand"]):
                assert v["hand"][names.index(name)] == obs["hand"].count(name)
            assert v["hand"].sum() == len(obs["hand"])
            for s in range(4):
                r = relative(s, me, 4)
                assert v["hp"][r] == obs["hp"][s] and v["hand_counts"][r] == obs["hand_counts"][s]
                assert v["tiers"][r].tolist() == [float(t == obs["tiers"][s]) for t in range(TIERS)]
                assert v["allies"][r] == (obs["team_of"][s] == obs["team_of"][me])
                assert v["exposed"][r] == (str(s) in obs["exposed_hands"])
            d = obs["decision"]
            assert ZUN_DECISIONS[int(np.argmax(v["decision"]))] == d["kind"]
            assert v["in_play"].sum() == len(obs["in_play"])
            frames = obs["resolving"]
            assert v["resolving_depth"][0] == len(frames)
            if frames:
                top, row = frames[-1], v["resolving"][0]
                assert FRAME_KINDS[int(np.argmax(row[: len(FRAME_KINDS)]))] == top["kind"]
                assert np.argmax(row[len(FRAME_KINDS) : len(FRAME_KINDS) + len(names)]) == names.index(top["card"])
                seen["resolving"] += 1
            if obs["exposed_hands"]:
                seen["exposed"] += 1
            seen[d["kind"]] += 1
    assert seen["resolving"] and seen["reaction"]  # the game reached what the test reads


@pytest.mark.parametrize("game", ["juno", "iunu", "zun", "iuno_avatar", "ivion"])
def test_a_copied_or_pickled_encoder_uses_its_own_buffers(game: str) -> None:
    """Encoders reuse scratch buffers with numpy views of them; a copy or a pickle must rebuild
    them, or the copy would return a stale array."""
    g = cardtable.make(game, players=2)
    enc = encoder_for(g)
    copies = [copy.deepcopy(enc), pickle.loads(pickle.dumps(enc))]
    for i, state in enumerate(random_states(game, {"players": 2}, seed=2, limit=60)):
        if i % 15:
            continue
        for seat in (0, 1):
            expected = enc.encode(state.observation(seat))
            for other in copies:
                assert np.array_equal(other.encode(state.observation(seat)), expected)
                assert np.array_equal(other.encode_state(state, seat), expected)


def test_a_piece_of_mixed_fields_has_a_bound_per_field_and_normalize_divides_each_by_its_own() -> None:
    """Ivion's hero row holds HP (up to the largest hero's), resources and control (up to 5 by the
    rulebook) and flags: each field is bounded on its own, so under `normalize` a flag is 1 when set
    (not 1/60) and a full pool of 5 actions is 1; every value stays within its field's bound."""
    from cardtable.core.encoder import Piece
    from cardtable.games.ivion.encoder import HERO
    from cardtable.rl.encoders import Encoding

    with pytest.raises(ValueError, match="3 bounds for 2 fields"):
        Piece("p", (4, 2), (1.0, 2.0, 3.0), "three bounds for two fields")
    g = cardtable.make("ivion")
    enc = encoder_for(g)
    heroes = next(p for p in enc.layout if p.name == "heroes")
    bound = dict(zip(HERO, heroes.high, strict=True))  # type: ignore[arg-type]
    assert bound["initiative"] == bound["wounded"] == bound["hp_fraction"] == 1
    assert bound["actions"] == bound["power"] == bound["slow"] == 5
    assert bound["hp"] == max(d.hp for d in g.decks)  # type: ignore[attr-defined]
    scaled = Encoding(enc, "counts", True)
    field = {name: i for i, name in enumerate(HERO)}
    rows = enc.offsets["heroes"]
    flags_seen = 0
    for state in random_states("ivion", {}, seed=5):
        for seat in range(g.players):
            raw = enc.encode_state(state, seat)
            hero = raw[rows].reshape(2, len(HERO))
            assert (hero <= np.asarray(heroes.high)).all()
            normalized = scaled.finish(raw.copy()).reshape(-1)[rows].reshape(2, len(HERO))
            assert (normalized <= 1).all()
            for name in ("initiative", "wounded", "chivalrous"):
                np.testing.assert_array_equal(normalized[:, field[name]], hero[:, field[name]])
                flags_seen += int(hero[:, field[name]].sum())
            np.testing.assert_allclose(normalized[:, field["actions"]], hero[:, field["actions"]] / 5)
    assert flags_seen  # the game set some flag
