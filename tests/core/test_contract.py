"""The core contract as a user meets it: make, options, actions, errors, replays."""

import json
import random

import pytest

import cardtable
from cardtable.core import IllegalAction, OptionError, Replay, ReplayError, UnknownGame


def test_games_lists_juno_and_unknown_game_names_the_known_ones() -> None:
    assert "juno" in cardtable.games()
    with pytest.raises(UnknownGame, match="known games: .*juno"):
        cardtable.make("uno-deluxe")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 11}, r"option 'players': Input should be less than or equal to 10 \(got 11\)"),
        ({"colour": "red"}, r"unknown option 'colour' \(known options: players, variant"),
        ({"variant": "speedy"}, r"option 'variant': Input should be 'classic', 'seven-o' or 'serious'"),
        ({"players": "four"}, r"option 'players'"),
    ],
)
def test_bad_options_say_what_is_wrong(options: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        cardtable.make("juno", **options)


def test_actions_have_stable_text_and_index_round_trips() -> None:
    game = cardtable.make("juno", players=3)
    for action in game.actions:
        assert game.parse_action(game.action_text(action)) is action
        assert game.action_from_index(game.action_index(action)) is action
    assert game.num_actions == len(game.actions)
    assert game.parse_action("  PLAY   Red 7 ") is game.parse_action("play red 7")
    with pytest.raises(IllegalAction, match="is not a JUNO action"):
        game.parse_action("play purple 7")
    with pytest.raises(IllegalAction, match="has actions 0"):
        game.action_from_index(10_000)


def test_apply_accepts_text_and_index_and_refuses_garbage_unchanged() -> None:
    game = cardtable.make("juno", players=2, match=False)
    state = game.new_state(5)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction):
        state.apply(3.5)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        state.apply("choose red")
    assert json.dumps(state.to_json()) == before
    first = state.legal_actions()[0]
    other = game.new_state(5)
    other.apply(first.index)
    state.apply(first.text)
    assert json.dumps(state.to_json()) == json.dumps(other.to_json())


@pytest.mark.parametrize("name,other", [("juno", "iunu"), ("iunu", "zun"), ("zun", "juno")])
def test_another_games_action_is_refused_with_a_reason_and_state_unchanged(name: str, other: str) -> None:
    state = cardtable.make(name).new_state(seed=3)
    foreign = cardtable.make(other).new_state(seed=3).legal_actions()[0]
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="is not an action of this"):
        state.apply(foreign)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_replay_save_load_and_run(tmp_path) -> None:
    state = cardtable.play(cardtable.make("juno", players=3, match=False),
                           [cardtable.agents.make("random", seed=s) for s in range(3)], seed=11)
    path = tmp_path / "game.json"
    state.replay().save(path)
    replay = Replay.load(path)
    assert replay.run().to_json() == state.to_json()
    states = replay.states()
    assert len(states) == len(replay.actions) + 1 and states[-1].to_json() == state.to_json()


def test_damaged_replays_are_explained(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ReplayError, match="is not JSON"):
        Replay.load(bad)
    with pytest.raises(ReplayError, match="lacks actions"):
        Replay.from_json({"game": "juno", "options": {}, "seed": 1})
    with pytest.raises(ReplayError, match="cannot read replay"):
        Replay.load(tmp_path / "missing.json")
    broken = Replay("juno", {"players": 2, "match": False}, 1, ["choose red"])
    with pytest.raises(ReplayError, match="replay step 1 .*'choose red'.* cannot be applied"):
        broken.run()


def test_saved_state_from_other_game_or_options_is_refused() -> None:
    a = cardtable.make("juno", players=2).new_state(1)
    b = cardtable.make("juno", players=3)
    with pytest.raises(ReplayError, match="options"):
        b.state_from_json(a.to_json())
    with pytest.raises(ReplayError, match="not a saved JUNO state"):
        b.state_from_json({"game": "chess"})


def test_play_needs_one_agent_per_seat_and_gives_bots_only_views() -> None:
    game = cardtable.make("juno", players=2, match=False)
    with pytest.raises(cardtable.CardtableError, match="needs 2 agents"):
        cardtable.play(game, [cardtable.agents.make("random")])
    seen = []
    rnd = random.Random(0)

    class Spy:
        name = "spy"

        def act(self, view):
            seen.append(view)
            return rnd.choice(view.legal_actions())

    cardtable.play(game, [Spy(), Spy()], seed=2)
    assert seen and all(v.seed is None for v in seen)


def test_returns_and_winners_are_zero_until_over() -> None:
    state = cardtable.make("juno", players=4).new_state(0)
    assert state.returns() == [0.0] * 4 and state.winners() == []


def test_games_stays_callable_after_games_are_imported() -> None:
    cardtable.make("juno")
    assert "juno" in cardtable.games()
