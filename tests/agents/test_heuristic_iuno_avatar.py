"""The Iuno Avatar heuristic sheds cards: it plays what a roll allows, pays with gem cards first,
uses effects that help it and declines those that fill its Heaven (rulebook iuno-avatar.txt)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import agents
from cardtable.games.iuno_avatar.state import AvatarState
from tests.games.iuno_avatar.helpers import rolled, start, table


def move(state: AvatarState) -> str:
    seat = state.current_player
    assert seat is not None
    return agents.make("heuristic", seed=0).act(state.determinize(seat, 2)).text


def test_plays_what_the_roll_allows_and_pays_with_gem_cards() -> None:
    s = table(heaven={0: ["Kindle", "Ember Shard", "Tide"]}, gems=[3, 3])
    rolled(s, 6)
    assert move(s) in ("cast Kindle", "cast Tide")
    s.apply("cast Kindle")
    assert move(s) == "pay with Ember Shard"


def test_uses_a_good_effect_and_declines_a_bad_one() -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1}})
    start(s, 0, {"verb": "take", "what": "die"})
    assert move(s) == "yes"  # a gem more
    s = table(heaven={0: ["Tide"], 1: ["Smite"]}, earth={0: {"Seraph": 1}})
    start(s, 0, {"verb": "take", "what": "card"})
    assert move(s) == "yes"  # a gem instead of a card in Heaven


def test_beats_random_players() -> None:
    game = cardtable.make("iuno_avatar", players=2, turn_limit=80)
    wins = 0
    for seed in range(8):
        final = cardtable.play(game, [agents.make("heuristic", seed=seed), agents.make("random", seed=seed)], seed=seed)
        wins += final.winners() == [0]
    assert wins >= 6


def test_ismcts_plays_with_the_evaluation() -> None:
    s = cardtable.make("iuno_avatar", players=2).new_state(3)
    bot = agents.make("ismcts", iterations=20, seed=1, rollout="heuristic", cutoff=10)
    seat = s.current_player
    assert seat is not None
    action = bot.act(s.determinize(seat, 5))
    assert action in s.legal_actions()


def test_evaluation_counts_a_card_out_of_heaven_above_gems_and_is_not_overconfident() -> None:
    # What a cut rollout is scored by (fitted on medium games, heuristic.py's EVAL_*): cards in
    # Heaven decide the game; gems only pay for them, so five gems are worth less than one card.
    from cardtable.games.iuno_avatar.heuristic import evaluate

    s = table(heaven={0: ["Kindle"], 1: ["Smite", "Plunder"]}, gems=[0, 5])
    assert evaluate(s)[0] > 0 > evaluate(s)[1]
    # A one-card lead: an edge, not a likely win (this game's luck), whoever is to move.
    for turn in (0, 1):
        s = table(heaven={0: ["Kindle"], 1: ["Smite", "Plunder"]}, gems=[2, 2], turn=turn)
        chance = (evaluate(s)[0] + 1) / 2
        assert 0.5 < chance < 0.6


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_difficulty_word_plays_a_whole_game_of_iuno_avatar(level: str) -> None:
    game = cardtable.make("iuno_avatar", players=2, turn_limit=12)
    bot = agents.make(level, seed=1, **({"time_limit": 0.005} if level == "hard" else {}))
    final = cardtable.play(game, [bot, agents.make("random", seed=2)], seed=6, record_events=False)
    assert final.is_over and final.winners()


def test_a_high_roll_summons_the_figure_and_keeps_the_spell_for_any_roll() -> None:
    s = table(heaven={0: ["Gnome", "Smite", "Fireball"]}, gems=[4, 3])
    rolled(s, 6)
    assert move(s) == "summon Gnome"  # a spell needs only a roll above the spells cast this turn


def test_pays_with_the_gem_cards_that_send_the_most_cards_out() -> None:
    s = table(heaven={0: ["Whirlpool", "Ocean Sapphire", "Rain Shard", "River Stone", "Smite"]}, gems=[0, 3])
    rolled(s, 1)
    assert move(s) == "cast Whirlpool"
    s.apply("cast Whirlpool")
    assert move(s) in ("pay with Rain Shard", "pay with River Stone")  # two 1-symbol cards, not one 2-symbol
    s.apply(move(s))
    assert move(s) in ("pay with Rain Shard", "pay with River Stone")


def test_never_levels_up_a_figure_with_gems_it_will_need() -> None:
    s = table(heaven={0: ["Demon", "Clay Shard"]}, earth={0: {"Mole": 1}}, gems=[2, 3])  # Demon costs 3
    rolled(s, 5)
    assert "level up Mole" in [a.text for a in s.legal_actions()]
    assert move(s) == "discard the die"  # a level does nothing but hold more gems


def test_lets_go_first_of_a_gem_card_no_card_of_its_can_use() -> None:
    from cardtable.games.iuno_avatar.decisions import DiscardDown

    s = table(heaven={0: ["Tide", "Kindle", "Ember Shard", "Clay Shard", "Smite", "Wildfire", "Harvest"]})
    s.pending = [DiscardDown(0)]
    s._legal = None
    assert move(s) == "discard Clay Shard"  # no card of its costs Earth
