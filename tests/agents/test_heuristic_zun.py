"""The Runes of Zun heuristic targets the weakest opponent, keeps reactions and respects HP
tiers (rulebook runes-of-zun.txt: "Playing cards", "Changing your HP")."""

from __future__ import annotations

import cardtable
from cardtable import agents
from cardtable.games.zun.state import STACK, ZunState


def start(players: int, hp: list[int], hand: list[str]) -> ZunState:
    """Seat 0's Action Phase with exactly `hand` and these HP."""
    state = cardtable.make("zun", players=players).new_state(seed=1)
    assert isinstance(state, ZunState)
    names = {r.name: r.index for r in state.runes}
    state.hp = list(hp)
    state.hands[0] = [names[n] for n in hand]
    state._legal = None
    return state


def move(state: ZunState) -> str:
    seat = state.current_player
    assert seat is not None
    return agents.make("heuristic", seed=0).act(state.determinize(seat, 2)).text


def test_targets_the_weakest_opponent() -> None:
    s = start(3, [12, 9, 3], ["Attack"])
    assert move(s) == "play Attack"
    s.apply("play Attack")
    while move(s).startswith("modify"):
        s.apply(move(s))
    assert move(s) == "target seat 2"


def test_heals_only_with_room_in_its_hp_tier() -> None:
    # 4 HP is the top of the 1-4 tier: a Restore could not move the tracker up.
    assert move(start(2, [4, 12], ["Restore"])) == "end action phase"
    assert move(start(2, [3, 12], ["Restore"])) == "play Restore"


def test_does_not_pay_hp_that_drops_it_into_a_lower_tier() -> None:
    # Punish costs its player 1 HP: from 5 that is the 1-4 tier, for good.
    assert move(start(2, [5, 12], ["Punish"])) == "end action phase"
    assert move(start(2, [7, 12], ["Punish"])) == "play Punish"
    # ... unless it defeats the target.
    assert move(start(2, [5, 2], ["Punish"])) == "play Punish"


def test_keeps_reactions_for_harmful_actions_only() -> None:
    game = cardtable.make("zun", players=2)
    seen = {"used": 0, "kept": 0}
    for seed in range(12):
        state = game.new_state(seed=seed, record_events=False)
        bot = agents.make("heuristic", seed=seed)
        while not state.is_over and state.history.__len__() < 400:
            seat = state.current_player
            assert seat is not None
            action = bot.act(state.determinize(seat, seed))
            d = state.decision
            if isinstance(d, STACK.Priority):  # the reaction window
                f = state.top()
                rune = state.runes[f.copy if f.copy >= 0 else f.rune]
                harmful = f.player != seat and any(e.verb in ("lose_hp", "steal") for e in rune.effects)
                if not harmful and rune.name in ("Channel", "Restore", "Revive", "Defend"):
                    assert action.text == "no reaction"
                    seen["kept"] += 1
                elif harmful and action.text != "no reaction":
                    seen["used"] += 1
            state.apply(action)
    assert seen["used"] > 0 and seen["kept"] > 0


def test_heuristic_beats_random_in_most_games() -> None:
    game = cardtable.make("zun", players=2)
    wins = 0
    for i in range(20):
        bots = [agents.make("heuristic", seed=i), agents.make("random", seed=i)]
        if i % 2:
            bots.reverse()
        final = cardtable.play(game, bots, seed=i, record_events=False)
        wins += (i % 2) in final.winners()
    assert wins >= 15  # measured: see docs/agents.md
