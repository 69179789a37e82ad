"""Rulebook "Setup", "Player Count" (deck size and game types), turn order and victory."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import OptionError
from cardtable.games.zun.runes import base_set

from .helpers import legal, play, position, start_turn


def test_base_set_has_60_runes_of_the_three_kinds_with_the_public_names() -> None:
    runes = base_set().runes
    assert sum(r.copies for r in runes) == 60
    kinds = {r.name: r.kind for r in runes}
    for name in ("Attack", "Banish", "Defend", "Expose", "Steal", "Daze", "Channel", "Restore", "Revive", "Punish", "Mimic"):
        assert kinds[name] == "action"
    for name in ("Redirect", "Trap", "Fizzle", "Absorb"):
        assert kinds[name] == "reaction"
    for name in ("Boost", "Share", "Blame", "Reserve"):
        assert kinds[name] == "modifier"


@pytest.mark.parametrize("players", range(2, 9))
def test_setup_12_hp_and_5_cards_each(players: int) -> None:
    """Setup 5 and 6: trackers at 12, each player draws 5; Setup 7: the first player starts."""
    s = cardtable.make("zun", players=players).new_state(3)
    assert s.hp == [12] * players
    assert [len(h) for h in s.hands] == [5] * players
    assert s.turn == 0 and s.current_player == 0


@pytest.mark.parametrize(("players", "size"), [(2, 60), (3, 60), (4, 60), (5, 120), (6, 120), (7, 120), (8, 120)])
def test_deck_size_follows_the_player_count_table(players: int, size: int) -> None:
    """Player Count: 60-80 runes for 2-4 players, 90-120 for 5-8 (two base sets)."""
    s = cardtable.make("zun", players=players).new_state(0)
    assert s.invariants()["cards"] == size
    assert cardtable.make("zun", players=players, sets=3).new_state(0).invariants()["cards"] == 180


def test_turn_order_goes_seat_by_seat_and_skips_the_defeated() -> None:
    """On Your Turn: each player takes their turn in the chosen order (seat 0, 1, 2, ...)."""
    s = position(3, hands={0: ["Attack"], 1: ["Attack"], 2: ["Attack"]}, hp={1: 0})
    play(s, "end action phase", "done discarding")
    assert s.turn == 2  # seat 1 is Defeated


def test_game_types_table_teams() -> None:
    """Teams of 2 or 3 with 6 players, teams of 2 with 4, teams of 4 with 8; teams sit alternately."""
    g = cardtable.make("zun", players=6, teams=3)
    assert g.team_of == [0, 1, 2, 0, 1, 2]
    assert cardtable.make("zun", players=6, teams=2).team_of == [0, 1, 0, 1, 0, 1]
    assert cardtable.make("zun", players=8, teams=2).team_of == [0, 1] * 4
    assert cardtable.make("zun", players=4).team_of == [0, 1, 2, 3]  # no teams: free-for-all
    with pytest.raises(OptionError, match="game types table"):
        cardtable.make("zun", players=5, teams=2)
    with pytest.raises(OptionError, match="game types table"):
        cardtable.make("zun", players=8, teams=4)


def test_free_for_all_last_player_standing_wins() -> None:
    """Free-for-all: defeat all other players to win."""
    s = position(3, hands={0: ["Attack"]}, hp={1: 0, 2: 1})
    play(s, "play Attack", "target seat 2", "no reaction")
    assert s.is_over and s.winners() == [0]
    assert s.returns() == [1.0, -0.5, -0.5]


def test_team_is_defeated_when_all_its_players_are() -> None:
    """Teams: a team is defeated when all its players are; a team's win is a win for all its seats."""
    s = position(4, teams=2, hands={0: ["Attack", "Attack"]}, hp={1: 1, 3: 1})
    play(s, "play Attack", "target seat 1", "no reaction")
    assert not s.is_over  # seat 3 still stands for team 1
    play(s, "play Attack", "target seat 3", "no reaction")
    assert s.is_over and s.winners() == [0, 2]
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]


def test_turn_limit_ends_the_game_with_the_most_hp() -> None:
    """Our bound (the rulebook has none): at the turn limit the side with the most HP wins."""
    s = position(2, turn_limit=1, hands={0: ["Attack"]}, hp={0: 5, 1: 7})
    play(s, "end action phase", "done discarding")
    assert s.is_over and s.by_limit and s.winners() == [1]


def test_start_of_turn_without_ongoing_goes_to_action_phase() -> None:
    s = position(2, hands={1: ["Attack"]})
    start_turn(s, 1)
    assert s.decision is not None and s.decision.kind == "action_phase"
    assert "play Attack" in legal(s)
