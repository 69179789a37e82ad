"""The IUNU heuristic plays for majorities, Bread and Debens (rulebook iunu.txt: DYNASTY PHASE,
CITIZEN ABILITIES, GAME END)."""

from __future__ import annotations

import cardtable
from cardtable import agents
from cardtable.core.state import Decision
from cardtable.games.iunu.cards import ARTISAN, FARMER, MERCHANT, NOBLE, PHARAOH, PRIEST
from cardtable.games.iunu.decisions import Bake, PlayCitizen, Tribute, UseAbility
from cardtable.games.iunu.state import IunuState


def position(hands: list[list[int]], dynasty: list[dict[int, int]], pending: Decision,
             debens: list[int] | None = None, dice: list[int] | None = None) -> IunuState:
    state = cardtable.make("iunu", players=2).new_state(seed=3)
    assert isinstance(state, IunuState)
    state.hands = [list(h) for h in hands]
    for seat, cards in enumerate(dynasty):
        state.dynasty[seat] = [cards.get(t, 0) for t in range(9)]
        state.fed[seat] = [0] * 9
    state.debens = list(debens or [3, 3])
    state.dice = list(dice or [2, 2, 2])
    state.pending = [pending]
    state._legal = None
    return state


def move(state: IunuState, seat: int = 0) -> str:
    return agents.make("heuristic", seed=0).act(state.determinize(seat, 1)).text


def test_plays_for_the_majority() -> None:
    # Priest scores more Citizen VP, but the Artisan takes the Artisan majority (5 Majority VP);
    # the other player's two Priests keep that majority out of reach.
    s = position([[PRIEST, ARTISAN], [FARMER]], [{ARTISAN: 1}, {ARTISAN: 1, PRIEST: 2}], PlayCitizen(0))
    assert move(s) == "play artisan"


def test_bakes_on_the_citizen_with_the_most_bread_vp() -> None:
    s = position([[FARMER], [FARMER]], [{PHARAOH: 1, FARMER: 1}, {}], Bake(0, 1, 0))
    assert move(s) == "bread on farmer"


def test_stops_baking_when_bread_costs_more_than_it_is_worth() -> None:
    s = position([[FARMER], [FARMER]], [{PHARAOH: 1}, {}], Bake(0, 4, 0), debens=[9, 3])
    assert move(s) == "stop baking"


def test_takes_the_debens() -> None:
    s = position([[FARMER], [FARMER]], [{NOBLE: 1}, {}], UseAbility(0, NOBLE))
    assert move(s) == "use ability"
    s = position([[FARMER], [FARMER]], [{MERCHANT: 1}, {}], UseAbility(0, MERCHANT))
    assert move(s) == "use ability"


def test_pays_tribute_rather_than_lose_a_farmer() -> None:
    s = position([[FARMER], [FARMER]], [{FARMER: 3}, {}], Tribute(0, 1))
    assert move(s) == "pay tribute"


def test_heuristic_beats_random_in_most_games() -> None:
    game = cardtable.make("iunu", players=2)
    wins = 0
    for i in range(20):
        bots = [agents.make("heuristic", seed=i), agents.make("random", seed=i)]
        if i % 2:
            bots.reverse()
        final = cardtable.play(game, bots, seed=i, record_events=False)
        wins += (i % 2) in final.winners()
    assert wins >= 15  # measured: 100% over 100 games (docs/agents.md has the arena numbers)
