"""Rulebook "Deck composition", "Setup" and the start-card rules (NOTES.md: the text is cut off)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.core.rng import Rng
from cardtable.games.juno.cards import CARD_BY_NAME, CARD_NAME, COLORS, DEALER_VALUE, expand
from cardtable.games.juno.decisions import ChooseColor, Turn

from .scenario import juno


def composition(variant: str) -> Counter[str]:
    game = juno(variant=variant)
    return Counter({CARD_NAME[t]: n for t, n in enumerate(game.counts) if n})


def test_classic_deck_has_108_cards() -> None:
    deck = composition("classic")
    assert sum(deck.values()) == 108
    for color in COLORS:
        assert deck[f"{color} 0"] == 1  # "19 Blue cards - 0 to 9": one 0, two of 1-9
        for n in range(1, 10):
            assert deck[f"{color} {n}"] == 2
        for symbol in ("draw two", "reverse", "skip"):  # "2 each in blue, green, red and yellow"
            assert deck[f"{color} {symbol}"] == 2
        assert sum(v for k, v in deck.items() if k.startswith(color)) == 25
    assert deck["wild"] == 4 and deck["wild draw four"] == 4


def test_seven_o_deck_adds_a_0_and_a_7_per_color() -> None:
    deck, classic = composition("seven-o"), composition("classic")
    assert sum(deck.values()) == 116
    assert deck - classic == Counter({f"{c} {n}": 1 for c in COLORS for n in (0, 7)})


def test_serious_deck_adds_symbols_and_wilds() -> None:
    deck, classic = composition("serious"), composition("classic")
    assert sum(deck.values()) == 140
    extra = Counter({f"{c} {s}": 2 for c in COLORS for s in ("skip", "reverse", "draw two")})
    extra.update({"wild": 4, "wild draw four": 4})
    assert deck - classic == extra


@pytest.mark.parametrize("variant,size", [("classic", 108), ("seven-o", 116), ("serious", 140)])
def test_a_new_state_holds_the_whole_deck(variant: str, size: int) -> None:
    state = juno(variant=variant, players=4).new_state(seed=3)
    assert state.invariants() == {"cards": size}


def dealer_draws(seed: int, players: int) -> tuple[list[list[list]], int]:
    state = juno(players=players).new_state(seed=seed)
    assert state.events is not None
    rounds = [e.data["draws"] for e in state.events if e.kind == "dealer_draw"]
    return rounds, state.dealer


def test_dealer_is_the_player_who_draws_the_highest_number_symbols_count_zero() -> None:
    """Setup 1: "the player that draws the highest number deals (count any card with a symbol as zero)"."""
    saw_symbol = False
    for seed in range(40):
        rounds, dealer = dealer_draws(seed, 4)
        last = rounds[-1]
        values = {seat: DEALER_VALUE[CARD_BY_NAME[name]] for seat, name in last}
        assert dealer == max(values, key=values.__getitem__)
        assert sorted(values.values()).count(values[dealer]) == 1
        for _, name in (d for r in rounds for d in r):
            if not name.split()[-1].isdigit():
                saw_symbol = True
                assert DEALER_VALUE[CARD_BY_NAME[name]] == 0
    assert saw_symbol


def test_tied_players_draw_again_and_only_they() -> None:
    """NOTES.md: a tie for the highest card is broken by the tied players drawing again."""
    ties = 0
    for seed in range(200):
        rounds, dealer = dealer_draws(seed, 6)
        for first, second in zip(rounds, rounds[1:], strict=False):
            values = {seat: DEALER_VALUE[CARD_BY_NAME[name]] for seat, name in first}
            best = max(values.values())
            assert sorted(seat for seat, _ in second) == sorted(s for s, v in values.items() if v == best)
            ties += 1
        assert dealer in [seat for seat, _ in rounds[-1]]
    assert ties > 0


@pytest.mark.parametrize("variant,dealt", [("classic", 7), ("seven-o", 7), ("serious", 11)])
def test_deal_one_card_at_a_time_from_the_dealers_left(variant: str, dealt: int) -> None:
    """Setup 2: "The dealer shuffles and deals each player 7 cards" (serious: "starts with 11 cards").
    The deal goes round the table one card at a time, starting at the dealer's left."""
    game = juno(players=5, variant=variant)
    state = game.new_state(seed=0)
    state.rng = Rng(99)
    deck = expand(game.counts)
    Rng(99).shuffle(deck)  # the same shuffle the dealer makes; the top of the pile is the end
    state._start_round(dealer=2)
    for seat in range(5):
        k0 = (seat - 3) % 5  # seat 3 gets the 1st card, seat 4 the 2nd, ...
        expected = [deck[-1 - k] for k in range(k0, 5 * dealt, 5)]
        # (a Draw Two turned up to start adds 2 cards to seat 3's hand after the deal)
        assert state.hands[seat][:dealt] == expected


def start_with(kind: str, players: int = 4) -> tuple:
    """The first seed whose start card (turned up from the DRAW pile) is of `kind`."""
    game = juno(players=players)
    for seed in range(2000):
        state = game.new_state(seed=seed)
        assert state.events is not None
        start = next(e.data["card"] for e in state.events if e.kind == "start_card")
        returned = [e for e in state.events if e.kind == "start_card_returned"]
        if (kind == "returned" and returned) or (kind != "returned" and start.endswith(kind) and not returned):
            if kind == "wild" and start != "wild":
                continue
            return state, start
    raise AssertionError(f"no seed starts with {kind}")


def test_start_card_number_left_of_dealer_starts() -> None:
    state, start = start_with("5")
    assert state.pending == [] or isinstance(state.pending[-1], Turn)
    assert state.current_player == (state.dealer + 1) % 4 and state.direction == 1
    assert state.color == COLORS.index(start.split()[0])
    assert [len(h) for h in state.hands] == [7] * 4


def test_start_card_draw_two_first_player_draws_two_and_is_skipped() -> None:
    state, _ = start_with("draw two")
    first = (state.dealer + 1) % 4
    assert len(state.hands[first]) == 9
    assert state.current_player == (state.dealer + 2) % 4


def test_start_card_reverse_dealer_goes_first_then_play_moves_right() -> None:
    state, _ = start_with("reverse")
    assert state.current_player == state.dealer and state.direction == -1
    state.apply("draw")
    if state.decision.kind == "after_draw":  # a playable drawn card is asked about: keep it
        state.apply("pass")
    assert state.current_player == (state.dealer - 1) % 4


def test_start_card_skip_left_of_dealer_is_skipped() -> None:
    state, _ = start_with("skip")
    assert state.current_player == (state.dealer + 2) % 4
    assert [len(h) for h in state.hands] == [7] * 4


def test_start_card_wild_left_of_dealer_chooses_the_color_then_plays() -> None:
    state, start = start_with("wild")
    first = (state.dealer + 1) % 4
    assert start == "wild" and isinstance(state.pending[-1], ChooseColor) and state.current_player == first
    assert [a.text for a in state.legal_actions()] == [f"choose {c}" for c in COLORS]
    state.apply("choose green")
    assert state.color == COLORS.index("green")
    assert isinstance(state.pending[-1], Turn) and state.current_player == first


def test_start_card_wild_draw_four_is_returned_and_another_turned() -> None:
    """"If turned up at the beginning of play, return this card to the deck and pick another card.\""""
    state, start = start_with("returned")
    assert start != "wild draw four"
    assert state.discard != [CARD_BY_NAME["wild draw four"]] and len(state.discard) == 1
    assert state.invariants() == {"cards": 108}
