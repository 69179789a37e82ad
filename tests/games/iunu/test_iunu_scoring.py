"""GAME END scoring, tie-breaks and the AFTERLIFE CARDS (../shared/rules/iunu.txt)."""

from __future__ import annotations

import pytest

from .scenario import AFTERLIFE, iunu, position


def finish(state):
    """Score the position as the game's end (GAME END)."""
    state.pending = []
    state._game_over()
    assert state.is_over
    return state.scores


def test_worked_end_of_game_scoring() -> None:
    """A whole scoring computed by hand from the rulebook's five steps (docs/games/iunu.md shows it).

    seat 0: Pharaoh, Scribe (a Priest under it), 2 Nobles (1 fed), 3 Farmers (2 fed); 7 Debens; Peret
    seat 1: Noble, 2 Priests, 3 Soldiers (1 fed), 3 Farmers; 5 Debens; the Judgment of Osiris
    seat 2: Artisan, 2 Bakers (1 fed), 4 Merchants (2 fed), Farmer; 2 Debens; the Dynasty of Amenhotep I
    """
    state = position(
        iunu(players=3),
        hands=["", "", ""],
        dynasty=[
            {"Pharaoh": 1, "Scribe": 1, "Noble": 2, "Farmer": 3},
            {"Noble": 1, "Priest": 2, "Soldier": 3, "Farmer": 3},
            {"Artisan": 1, "Baker": 2, "Merchant": 4, "Farmer": 1},
        ],
        fed=[{"Noble": 1, "Farmer": 2}, {"Soldier": 1}, {"Baker": 1, "Merchant": 2}],
        debens=[7, 5, 2],
        held=[AFTERLIFE["peret"], AFTERLIFE["osiris"], AFTERLIFE["amenhotep"]],
    )
    state.scribed[0] = [3]  # the Priest under the Scribe joins the Priest column
    rows = finish(state)
    # 1. Citizen VP: 9+8+2*7+6+3*1 = 40 | 7+2*6+3*4+3*1 = 34 | 5+2*3+4*2+1 = 20
    assert [r["citizen"] for r in rows] == [40, 34, 20]
    # 2. Bread VP: Noble 2 + 2 Farmers 2*5 = 12 | Soldier 3 | Baker 4 + 2 Merchants 2*4 = 12
    assert [r["bread"] for r in rows] == [12, 3, 12]
    # 3. Majorities: Pharaoh 1, Scribe 2, Noble 3 (2 against 1) to seat 0; Priest 4 (2 against 1) and
    #    Soldier 6 to seat 1; Artisan 5, Baker 7, Merchant 8 to seat 2; Farmers tied 3-3: nobody.
    assert [r["majority"] for r in rows] == [6, 10, 20]
    # 4. Afterlife: Peret doubles seat 0's best majority (Noble 3) -> +3; Osiris changes the Deben rate;
    #    Amenhotep: one set of Baker, Merchant, Farmer -> 4
    assert [r["afterlife"] for r in rows] == [3, 0, 4]
    # 5. Debens: 7 // 3 = 2 | Osiris 1 per Deben: 5 | 2 // 3 = 0
    assert [r["deben_vp"] for r in rows] == [2, 5, 0]
    assert [r["total"] for r in rows] == [63, 52, 56]
    assert state.winners() == [0] and state.returns() == [1.0, -0.5, -0.5]


def test_majority_ties_score_nothing() -> None:
    """"Players tied for most cards do not receive any such VP"."""
    state = position(iunu(players=3), hands=["", "", ""],
                     dynasty=[{"Farmer": 2, "Baker": 1}, {"Farmer": 2}, {"Baker": 1, "Noble": 1}])
    rows = finish(state)
    assert [r["majority"] for r in rows] == [0, 0, 3]


def test_debens_three_per_vp() -> None:
    """"Every 3 Debens are worth one VP"."""
    state = position(iunu(), hands=["", ""], debens=[8, 9])
    rows = finish(state)
    assert [r["deben_vp"] for r in rows] == [2, 3]


def test_tie_broken_by_debens() -> None:
    """"In case of a tie, the tied player with the most Debens wins"."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Noble": 1}, {"Noble": 1}], debens=[4, 5])
    rows = finish(state)
    assert rows[0]["total"] == rows[1]["total"]
    assert state.winners() == [1] and state.returns() == [-1.0, 1.0]


def test_further_tie_is_a_shared_victory() -> None:
    """"In case of a further tie, all tied players share the victory"."""
    state = position(iunu(players=3), hands=["", "", ""], dynasty=[{"Noble": 1}, {"Noble": 1}, {}],
                     debens=[4, 4, 4])
    finish(state)
    assert state.winners() == [0, 1]
    assert state.returns() == [1.0, 1.0, -2.0]


@pytest.mark.parametrize("card", ["peret", "akhet", "shemu"])
def test_season_cards_double_one_majority(card: str) -> None:
    """Peret, Akhet, Shemu: "Receive 2x the Majority VP of one of the Citizen types of which you have
    more cards than any other players" — the best one is taken."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Farmer": 2, "Priest": 1}, {"Farmer": 1}],
                     held=[AFTERLIFE[card], -1])
    rows = finish(state)
    assert rows[0]["majority"] == 9 + 4 and rows[0]["afterlife"] == 9
    state = position(iunu(), hands=["", ""], dynasty=[{"Farmer": 1}, {"Farmer": 1}], held=[AFTERLIFE[card], -1])
    assert finish(state)[0]["afterlife"] == 0  # no majority, nothing to double


def test_hatshepsut_sets() -> None:
    """"For each set of 1 Scribe, 1 Noble, and 1 Priest in your Dynasty, gain 6 VP"."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Scribe": 2, "Noble": 2, "Priest": 3}, {}],
                     held=[AFTERLIFE["hatshepsut"], -1])
    assert finish(state)[0]["afterlife"] == 12


def test_amenhotep_sets() -> None:
    """"For each set of 1 Baker, 1 Merchant, and 1 Farmer in your Dynasty, gain 4 VP"."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Baker": 3, "Merchant": 1, "Farmer": 5}, {}],
                     held=[AFTERLIFE["amenhotep"], -1])
    assert finish(state)[0]["afterlife"] == 4


def test_guardians_of_anubis() -> None:
    """"If you have at least 1 Soldier for each Farmer in your Dynasty, score Citizen VP a second time
    for every one of your Soldiers"."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Soldier": 3, "Farmer": 3}, {}],
                     held=[AFTERLIFE["anubis"], -1])
    assert finish(state)[0]["afterlife"] == 3 * 4
    state = position(iunu(), hands=["", ""], dynasty=[{"Soldier": 2, "Farmer": 3}, {}],
                     held=[AFTERLIFE["anubis"], -1])
    assert finish(state)[0]["afterlife"] == 0


def test_judgment_of_osiris() -> None:
    """"You receive 1VP for each 1 Deben instead of 1 for each 3"."""
    state = position(iunu(), hands=["", ""], debens=[8, 8], held=[AFTERLIFE["osiris"], -1])
    rows = finish(state)
    assert rows[0]["deben_vp"] == 8 and rows[1]["deben_vp"] == 2


def test_birth_of_nephthys() -> None:
    """"Gain 5 VP if you have fed more Citizens with Bread than any other player"."""
    dyn = [{"Farmer": 3}, {"Farmer": 3}]
    state = position(iunu(), hands=["", ""], dynasty=dyn, fed=[{"Farmer": 2}, {"Farmer": 1}],
                     held=[AFTERLIFE["nephthys"], -1])
    assert finish(state)[0]["afterlife"] == 5
    state = position(iunu(), hands=["", ""], dynasty=dyn, fed=[{"Farmer": 2}, {"Farmer": 2}],
                     held=[AFTERLIFE["nephthys"], -1])
    assert finish(state)[0]["afterlife"] == 0  # a tie is not "more than any other player"


def test_glory_of_khufu() -> None:
    """"Gain 7 VP if you have more different types of Citizens than any other player"."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Farmer": 1, "Noble": 1, "Baker": 1}, {"Farmer": 5, "Noble": 1}],
                     held=[AFTERLIFE["khufu"], -1])
    assert finish(state)[0]["afterlife"] == 7
    state = position(iunu(), hands=["", ""], dynasty=[{"Farmer": 1, "Noble": 1}, {"Farmer": 5, "Noble": 1}],
                     held=[AFTERLIFE["khufu"], -1])
    assert finish(state)[0]["afterlife"] == 0


def test_final_observation_reveals_scribes_and_afterlife() -> None:
    """At the end the Scribe cards are revealed, and Afterlife cards are shown for scoring."""
    state = position(iunu(), hands=["", ""], dynasty=[{"Scribe": 1}, {}], held=[AFTERLIFE["khufu"], -1])
    state.scribed[0] = [0]
    finish(state)
    obs = state.observation(1)
    assert obs["dynasties"][0]["scribed"] == ["Pharaoh"]
    assert obs["dynasties"][0]["afterlife"] == "The Glory of Khufu"
    assert obs["scores"][0]["total"] == state.scores[0]["total"]
