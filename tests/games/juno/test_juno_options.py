"""Custom decks ("Customize your deck!", NOTES.md), option errors, refusal reasons and event visibility."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable import CardFileError, IllegalAction, OptionError
from cardtable.core.rng import Rng
from cardtable.games.juno.cards import standard_deck
from cardtable.games.juno.decks import DECK_FILE, counts_from_names, load_deck_file

from .scenario import juno, position, snapshot

TOML = """
name = "Big numbers"
[each_color]
"0" = 1
"9" = 4
skip = 2
[cards]
wild = 4
"wild draw four" = 2
"red 5" = 1
"""


def test_a_toml_deck_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(TOML)
    deck = load_deck_file(path)
    assert deck == {"red 0": 1, "red 5": 1, "red 9": 4, "red skip": 2, "yellow 0": 1, "yellow 9": 4,
                    "yellow skip": 2, "green 0": 1, "green 9": 4, "green skip": 2, "blue 0": 1, "blue 9": 4,
                    "blue skip": 2, "wild": 4, "wild draw four": 2}
    game = juno(players=3, deck=str(path))
    state = game.new_state(seed=4)
    assert state.invariants() == {"cards": 35}


def test_a_json_deck_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"each_color": {"1": 3, "draw two": 2}, "cards": {"wild": 2}}))
    game = juno(players=2, deck=str(path))
    assert sum(game.counts) == 4 * 5 + 2
    assert game.new_state(seed=1).invariants() == {"cards": 22}


@pytest.mark.parametrize(
    "text,message",
    [
        ('[cards]\n"purple 3" = 2\n', "card 'purple 3' is not a JUNO card"),
        ('[cards]\n"red 3" = -1\n', "card 'red 3': count must be a whole number from 0 to 200, got -1"),
        ('[cards]\n"red 3" = "two"\n', "card 'red 3': count must be a whole number from 0 to 200, got 'two'"),
        ('[each_color]\n"11" = 2\n', "each_color card '11' is not a colored rank"),
        ('[each_color]\nwild = 2\n', "each_color card 'wild' is not a colored rank"),
        ('colour = 3\n', "unknown field 'colour'"),
        ('cards = 3\n', "field 'cards' must be a table"),
        ('[cards\n', "not valid TOML"),
        ('[[card]]\nname = "purple 3"\ncopies = 2\n', "card 'purple 3': field 'name' must be a JUNO card's name"),
        ('[[card]]\nname = "red 3"\ncopies = -1\n',
         "card 'red 3': field 'copies' must be a whole number from 0 to 200 (got -1)"),
        ('[[card]]\nname = "red 3"\n', "card 'red 3': field 'copies'"),
        ('[[card]]\nname = "red 3"\ncopies = 1\ncolour = "red"\n', "card 'red 3': unknown field 'colour'"),
        ('[[card]]\nname = "red 3"\ncopies = 1\n[[card]]\nname = "Red 3"\ncopies = 1\n',
         "card 'Red 3': field 'name': a card of this name is already defined"),
    ],
)
def test_a_bad_deck_file_names_the_file_the_card_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CardFileError) as err:
        load_deck_file(path)
    assert str(path) in str(err.value) and message in str(err.value)
    with pytest.raises(OptionError) as err2:  # the same message through the options
        juno(deck=str(path))
    assert str(path) in str(err2.value) and message in str(err2.value)


def test_a_bad_json_deck_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"cards": {"red 3": 2.5}}')
    with pytest.raises(CardFileError, match=r"bad.json: card 'red 3': count must be a whole number"):
        load_deck_file(path)
    path.write_text("{nope")
    with pytest.raises(CardFileError, match="not valid JSON"):
        load_deck_file(path)
    with pytest.raises(CardFileError, match="cannot read it"):
        load_deck_file(tmp_path / "missing.toml")


def test_a_deck_too_small_to_deal_is_refused() -> None:
    with pytest.raises(OptionError, match=r"20 cards cannot deal 7 to each of 3 players .*needs at least 22"):
        juno(players=3, deck={"each_color": {"1": 5}})


def test_a_deck_whose_last_cards_could_all_be_wild_draw_fours_is_refused() -> None:
    """The start card is never a Wild Draw Four; a deck must leave another card after the deal."""
    with pytest.raises(OptionError, match="other than a Wild Draw Four .needs at least 16"):
        juno(players=2, deck={"cards": {"red 1": 14, "wild draw four": 1}})
    state = juno(players=2, deck={"cards": {"red 1": 15, "wild draw four": 1}}).new_state(seed=0)
    assert state.discard == [0 * 13 + 1]  # the start card is the red 1 left after the deal


def test_a_deck_needs_two_dealer_values() -> None:
    with pytest.raises(OptionError, match="at least two different values"):
        juno(players=2, deck={"each_color": {"skip": 5}})


@pytest.mark.parametrize(
    "options,message",
    [
        ({"players": 11}, "option 'players': Input should be less than or equal to 10 (got 11)"),
        ({"players": 1}, "option 'players': Input should be greater than or equal to 2 (got 1)"),
        ({"colour": "red"}, "unknown option 'colour' (known options: players, variant"),
        ({"variant": "speed"}, "option 'variant': Input should be 'classic', 'seven-o' or 'serious' (got 'speed')"),
    ],
)
def test_option_errors_say_what_is_allowed(options: dict, message: str) -> None:
    with pytest.raises(OptionError) as err:
        juno(**options)
    assert message in str(err.value) and str(err.value).startswith("juno: ")


def test_refused_actions_leave_the_state_unchanged_and_say_why() -> None:
    state = position(juno(players=3), ["red 1, blue 2, green 3", "blue 1", "blue 2"], discard="red 7")
    before = snapshot(state)
    for action, reason in [
        ("choose red", "'choose red' is not possible now: seat 0 must play a matching card or draw"),
        ("play wild", "seat 0 holds no wild"),
        ("catch", "'catch' is not possible now"),
        ("play blue 2", "blue 2 does not match the red 7"),
        ("flip the table", "'flip the table' is not a JUNO action"),
    ]:
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert reason in str(err.value)
        assert snapshot(state) == before


def test_drawn_cards_are_seen_only_by_the_drawer() -> None:
    state = position(juno(players=3), ["blue 3, green 9", "blue 1", "blue 2"], discard="red 7", draw="yellow 7")
    state.apply("draw")
    assert state.events is not None
    public = [e for e in state.events if e.kind == "drew"]
    private = [e for e in state.events if e.kind == "drew_cards"]
    assert public[0].to is None and public[0].data == {"seat": 0, "count": 1, "wanted": 1}
    assert private[0].to == (0,) and private[0].data["cards"] == ["yellow 7"]
    for seat in (1, 2, None):
        assert "yellow 7" not in json.dumps([e.to_json() for e in state.events_for(seat)])
        assert "yellow 7" not in json.dumps(state.observation(seat))
    assert state.observation(0)["decision"]["drawn"] == "yellow 7"


def test_dealt_hands_are_private_and_determinize_resamples_only_hidden_cards() -> None:
    state = juno(players=3).new_state(seed=11)
    assert state.events is not None
    dealt = [e for e in state.events if e.kind == "dealt"]
    assert [e.to for e in dealt] == [(0,), (1,), (2,)]
    copy = state.determinize(0, Rng(3))
    assert copy.hands[0] == state.hands[0] and copy.discard == state.discard
    assert [len(h) for h in copy.hands] == [len(h) for h in state.hands] and len(copy.draw) == len(state.draw)
    assert copy.events is None  # a view carries no event log (docs/developing.md)
    assert copy.observation(0) == state.observation(0)
    assert sorted(copy.draw + copy.hands[1] + copy.hands[2]) == sorted(state.draw + state.hands[1] + state.hands[2])
    # the hidden cards are really resampled: neither the other hands nor the DRAW pile's order survive
    assert copy.hands[1] != state.hands[1] and copy.draw != state.draw


def test_a_custom_deck_game_replays_from_its_saved_options(tmp_path: Path) -> None:
    """Saved options write the deck as a deck file's `cards` table, so a replay makes the same game."""
    import cardtable
    from cardtable import agents
    from cardtable.core import Replay

    path = tmp_path / "deck.toml"
    path.write_text(TOML)
    game = juno(players=3, deck=str(path), match=False)
    final = cardtable.play(game, [agents.make("random") for _ in range(3)], seed=5)
    saved = tmp_path / "game.json"
    final.replay().save(saved)
    again = Replay.load(saved).run()
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(final.to_json(), sort_keys=True)


def test_a_deck_card_by_card_adds_to_the_other_tables_and_the_base_file_is_the_classic_deck(tmp_path: Path) -> None:
    # deck.toml, the designers' lab's base: the rulebook's 108 cards, card by card
    assert counts_from_names(load_deck_file(DECK_FILE)) == standard_deck("classic")
    assert juno(players=2, deck=str(DECK_FILE)).counts == juno(players=2).counts
    path = tmp_path / "tables.toml"
    path.write_text('[cards]\n"red 5" = 1\n[[card]]\nname = "red 5"\ncopies = 2\n[[card]]\nname = "wild"\ncopies = 14\n')
    assert load_deck_file(path) == {"red 5": 3, "wild": 14}
    # inline, as the lab gives them: only the [[card]] tables, as a list; saved as counts
    game = juno(players=2, deck=[{"name": "blue 7", "copies": 15}, {"name": "green 2", "copies": 1}])
    assert game.options.to_json()["deck"] == {"cards": {"green 2": 1, "blue 7": 15}}
    with pytest.raises(OptionError, match="card 'blue 9': field 'copies' must be a whole number from 0 to 200"):
        juno(players=2, deck=[{"name": "blue 9", "copies": 1000}])
