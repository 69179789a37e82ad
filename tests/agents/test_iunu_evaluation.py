"""The IUNU cut-off evaluation used by ISMCTS (cardtable/games/iunu/heuristic.py, `evaluate`):
who is ahead by GAME END scoring (rulebook iunu.txt, GAME END) plus what is still to come,
as a chance of finishing first in the range of `returns()`, read from the given state only."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.core.rng import Rng
from cardtable.games.iunu.cards import ARTISAN, FARMER, MERCHANT, NOBLE, PHARAOH, PRIEST, SCRIBE, SOLDIER
from cardtable.games.iunu.decisions import PlayCitizen
from cardtable.games.iunu.heuristic import evaluate, expected_vp
from cardtable.games.iunu.state import IunuState


def position(dynasty: list[dict[int, int]], hands: list[list[int]] | None = None,
             debens: list[int] | None = None, deck: int | None = None, players: int = 2) -> IunuState:
    """A two-player position with the given Dynasties (cards per type, nobody fed)."""
    state = cardtable.make("iunu", players=players).new_state(seed=3)
    assert isinstance(state, IunuState)
    for seat, cards in enumerate(dynasty):
        state.dynasty[seat] = [cards.get(t, 0) for t in range(9)]
        state.fed[seat] = [0] * 9
    state.hands = [list(h) for h in hands] if hands is not None else [[ARTISAN] for _ in range(players)]
    state.debens = list(debens or [3] * players)
    if deck is not None:
        state.deck = state.deck[:deck]
    state.pending = [PlayCitizen(0)]
    state._legal = None
    return state


def test_a_seat_clearly_ahead_evaluates_higher() -> None:
    # Seat 0 has Pharaoh, Scribe and two Nobles (9 + 8 + 14 Citizen VP and three Majorities); seat 1 a Farmer.
    s = position([{PHARAOH: 1, SCRIBE: 1, NOBLE: 2}, {FARMER: 1}])
    v = evaluate(s)
    assert v[0] > 0 > v[1]
    mirrored = position([{FARMER: 1}, {PHARAOH: 1, SCRIBE: 1, NOBLE: 2}])
    assert evaluate(mirrored) == pytest.approx(v[::-1])


def test_equal_positions_evaluate_level() -> None:
    s = position([{PRIEST: 1, SOLDIER: 1}, {PRIEST: 1, SOLDIER: 1}], hands=[[FARMER], [FARMER]])
    assert evaluate(s) == pytest.approx([0.0, 0.0])


def test_a_better_hand_is_worth_something_while_there_are_turns_to_play_it() -> None:
    strong, weak = [PHARAOH, SCRIBE, NOBLE, NOBLE], [FARMER, FARMER, FARMER, FARMER]
    mid = position([{}, {}], hands=[strong, weak], deck=20)
    assert evaluate(mid)[0] > 0
    # In the final turns only one more card can be played: the rest of the hand scores nothing,
    # so the better hand counts for less.
    last = position([{}, {}], hands=[strong, weak], deck=0)
    last.ending = True
    lead_mid, lead_last = expected_vp(mid), expected_vp(last)
    assert 0 < lead_last[0] - lead_last[1] < lead_mid[0] - lead_mid[1]


def test_debens_count_at_their_exact_rate() -> None:
    # GAME END gives 0 VP for 2 Debens, but 2 Debens buy Bread or a second card: worth more than none.
    richer = position([{ARTISAN: 1}, {ARTISAN: 1}], debens=[2, 0])
    assert evaluate(richer)[0] > 0


def test_a_majority_lead_is_less_certain_early() -> None:
    # Seat 0 leads the Merchants 2 to 1: 2 more Citizen VP, and the 8 Majority VP if it holds on.
    # With 30 cards to come the lead may still be lost; with 2 it is nearly safe.
    dyn = [{MERCHANT: 2}, {MERCHANT: 1}]
    early, late = expected_vp(position(dyn, deck=30)), expected_vp(position(dyn, deck=2))
    assert 2 < early[0] - early[1] < late[0] - late[1] <= 2 + 8 + 1e-9


def test_the_same_lead_counts_more_near_the_end() -> None:
    dyn = [{NOBLE: 1, PRIEST: 1}, {NOBLE: 1}]
    early = position(dyn, deck=28)
    late = position(dyn, deck=2)
    assert evaluate(late)[0] > evaluate(early)[0] > 0


def _positions(players: int, variant: str | None = None, games: int = 3) -> list[IunuState]:
    opts = {"variant": variant} if variant else {}
    game = cardtable.make("iunu", players=players, **opts)
    out = []
    rng = Rng(11)
    for seed in range(games):
        s = game.new_state(seed=seed, record_events=False)
        while not s.is_over:
            seat = s.current_player
            assert seat is not None
            out.append(s.determinize(seat, rng.spawn()))
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert isinstance(out[0], IunuState)
    return out  # type: ignore[return-value]


@pytest.mark.parametrize("players,variant", [(2, None), (3, None), (4, None), (2, "memphis-and-thebes"),
                                             (2, "rise-of-aten")])
def test_values_are_in_the_range_of_returns_and_sum_to_zero(players: int, variant: str | None) -> None:
    # returns(): 1 for a sole winner, -1/(n-1) for each loser; the estimate stays inside that range.
    for s in _positions(players, variant):
        v = evaluate(s)
        assert len(v) == players
        assert all(-1.0 / (players - 1) - 1e-9 <= x <= 1.0 + 1e-9 for x in v)
        assert sum(v) == pytest.approx(0.0, abs=1e-9)


def test_evaluation_does_not_change_the_state() -> None:
    for s in _positions(2, games=1)[::10]:
        before = json.dumps(s.to_json(), sort_keys=True)
        evaluate(s)
        assert json.dumps(s.to_json(), sort_keys=True) == before


def test_reads_only_the_view_not_the_hidden_cards() -> None:
    # ISMCTS evaluates determinized views. A view shares nothing with the true state: changing the
    # true hidden cards (seat 1's hand, the deck) after determinizing does not change the view's
    # evaluation; what counts is the view's guess of seat 1's hand.
    truth = position([{PRIEST: 1}, {PRIEST: 1}], hands=[[SOLDIER, ARTISAN], [PHARAOH, SCRIBE, NOBLE, NOBLE]])
    for k in range(5):
        view = truth.determinize(0, k)
        before = evaluate(view)
        truth.hands[1] = [FARMER] * 4 if k % 2 else [PHARAOH, SCRIBE, NOBLE, NOBLE]
        truth.deck.reverse()
        assert evaluate(view) == before
        guess = view.clone()
        guess.hands[1] = [PHARAOH, SCRIBE, NOBLE, NOBLE]
        weak = view.clone()
        weak.hands[1] = [FARMER] * 4
        assert evaluate(guess)[1] > evaluate(weak)[1]
