"""The board: terrain, travelling, occupied tiles, attaching, destroying, near, chivalry
(rulebook: Attached Cards; Destroy; Terrain; Traveling; Occupied Tiles; glossary Chivalry, Empty
tile, Enchanted terrain, Near)."""

from __future__ import annotations

import pytest
from rich.console import Console

from cardtable.core import IllegalAction
from cardtable.games.ivion.state import Host, IvionState
from cardtable.games.ivion.text import render

from .helpers import EDDA, EDDA_VOW, LIO, names, play, position, texts, tile


def test_near_is_the_same_or_an_adjacent_tile_never_diagonal() -> None:
    s = position()
    assert s.near(tile("b2"), tile("b2")) and s.near(tile("b2"), tile("b3"))
    assert not s.near(tile("b2"), tile("c3"))  # diagonal
    assert s.distance(tile("a1"), tile("c3")) == 4


def test_difficult_terrain_costs_two_actions_and_no_initiative_move() -> None:
    s = position(hands=([], ["Thicket"]), turn=1, actions=(0, 3), at=("a1", "c2"))
    play(s, "play Thicket", "target a2", "pass")
    assert s.terrain == {tile("a2"): "difficult"}
    play(s, "end turn")
    with pytest.raises(IllegalAction, match="difficult terrain"):
        s.apply("initiative move north")
    play(s, "move north")
    assert s.pos[0] == tile("a2") and s.pools[0]["actions"] == 1


def test_new_terrain_replaces_the_old_and_enchanted_terrain_gives_power_once() -> None:
    s = position(hands=(["Emberfield", "Emberfield"], []), at=("a1", "d4"))
    s.terrain[tile("a2")] = "difficult"
    play(s, "play Emberfield", "target a2", "pass")
    assert s.terrain == {tile("a2"): "enchanted"}
    play(s, "move north")  # into enchanted terrain: 1 power, and the terrain is removed
    assert s.pools[0]["power"] == 1 and s.terrain == {}


def test_travelling_is_not_moving_and_cannot_end_on_the_opponent() -> None:
    s = position(hands=([], ["Blink"]), decks=(EDDA, LIO), turn=1, actions=(0, 3), at=("a1", "c1"))
    s.controls[1]["slow"] = 2  # slowed: no moving, but Blink's banner is silence only
    assert not any(t.startswith("move") for t in texts(s))
    play(s, "play Blink")
    assert "target a1" not in texts(s) and "target c1" not in texts(s)  # not onto the opponent, not staying
    s.terrain[tile("b2")] = "enchanted"
    play(s, "target b2", "pass")
    assert s.pos[1] == tile("b2") and s.pools[1]["power"] == 2  # +1 from Blink, +1 entering enchanted terrain


def test_a_card_that_would_travel_a_hero_onto_an_opponent_is_meta_countered() -> None:
    s = position(hands=(["Hunter's Step"], ["Blink"]), decks=(LIO, LIO), at=("a1", "c1"), actions=(3, 1))
    play(s, "play Hunter's Step", "target b1")
    s.pos[1] = tile("b1")  # the opponent is in that tile when it resolves
    play(s, "pass")
    assert s.pos[0] == tile("a1") and s.pools[0]["actions"] == 3  # meta-countered, refunded


def test_displace_travels_the_enemy() -> None:
    s = position(hands=([], ["Displace"]), turn=1, actions=(0, 3), power=(0, 1), at=("a1", "c1"))
    play(s, "play Displace", "target a2", "pass")
    assert s.pos == [tile("a2"), tile("c1")]


def test_attach_to_an_enemy_hero_and_its_trigger_at_the_hosts_turn() -> None:
    s = position(hands=(["Burning Brand"], []), power=(2, 0))
    play(s, "play Burning Brand", "pass")
    brand = s.attached[Host("hero", 1)]
    assert names(s, brand) == ["Burning Brand"] and s.discard[0] == []  # attached, not discarded
    play(s, "end turn")
    assert s.hp[1] == 31  # at the start of the host's turn, 1 damage


def test_attach_only_to_an_empty_tile_and_a_snare_answers_an_enemy_entering() -> None:
    s = position(hands=([], ["Bramble Snare"]), turn=1, actions=(3, 3), at=("a1", "b2"))
    play(s, "play Bramble Snare")
    assert "target a1" not in texts(s) and "target b2" not in texts(s)  # heroes in them: not empty
    play(s, "target a2", "pass", "end turn")
    play(s, "move north")
    assert s.controls[0]["slow"] == 2


def test_attaching_to_an_attached_card_seal_silences_its_abilities() -> None:
    s = position(hands=([], ["Bramble Snare", "Seal of Quiet"]), turn=1, actions=(3, 3), at=("a1", "b2"))
    play(s, "play Bramble Snare", "target a2", "pass")
    snare = s.attached[Host("tile", tile('a2'))][0]
    play(s, "play Seal of Quiet", f"target Bramble Snare #{snare}", "pass")
    assert names(s, s.attached[Host("card", snare)]) == ["Seal of Quiet"]
    play(s, "end turn", "move north")
    assert s.controls[0]["slow"] == 0


def test_a_seal_on_a_seal_frees_the_first_card() -> None:
    # Seal of Quiet: the card it is attached to has no statuses; a sealed seal seals nothing
    s = position(hands=([], ["Bramble Snare", "Seal of Quiet", "Seal of Quiet"]), turn=1, actions=(3, 3),
                 at=("a1", "b2"))
    play(s, "play Bramble Snare", "target a2", "pass")
    snare = s.attached[Host("tile", tile('a2'))][0]
    play(s, "play Seal of Quiet", f"target Bramble Snare #{snare}", "pass")
    seal = s.attached[Host("card", snare)][0]
    assert s.sealed(snare)
    play(s, "play Seal of Quiet", f"target Seal of Quiet #{seal}", "pass")
    assert s.sealed(seal) and not s.sealed(snare)
    play(s, "end turn", "move north")
    assert s.controls[0]["slow"] == 2  # the snare answers again


def test_a_feat_sent_to_the_discard_hand_or_deck_returns_to_the_feat_zone() -> None:
    # "If a feat would be sent to the discard, hand, or deck, it is instead returned to the feat zone"
    # (no feat of our content attaches; a user's content may make one)
    s = position(at=("a1", "a3"))
    for how in ("destroy", "hand", "deck"):
        feat = s.feats[0].pop()
        s.attached[Host("hero", 1)] = [feat]
        if how == "destroy":
            s.destroy(feat)
        else:
            s.recall(feat, how)
        assert feat in s.feats[0] and Host("hero", 1) not in s.attached
        assert feat not in s.discard[0] and feat not in s.shown[0] and feat not in s.deck[0]


def test_destroy_uses_range_from_where_the_attached_card_is() -> None:
    s = position(hands=(["Burning Brand"], ["Unmake"]), power=(2, 0), at=("a1", "a3"))
    play(s, "play Burning Brand", "pass", "end turn")
    brand = s.attached[Host("hero", 1)][0]
    play(s, "play Unmake")
    assert texts(s) == [f"target Burning Brand #{brand}"]  # on Lio's own hero: in Lio's tile, range 0
    play(s, f"target Burning Brand #{brand}", "pass")
    assert Host("hero", 1) not in s.attached and names(s, s.discard[0]) == ["Burning Brand"]


def test_destroying_a_card_discards_what_is_attached_to_it() -> None:
    s = position(hands=(["Cleave"], ["Bramble Snare", "Seal of Quiet"]), turn=1, actions=(3, 3), at=("a1", "b2"))
    play(s, "play Bramble Snare", "target a2", "pass")
    snare = s.attached[Host("tile", tile('a2'))][0]
    play(s, "play Seal of Quiet", f"target Bramble Snare #{snare}", "pass")
    s.destroy(snare)
    assert s.attached == {} and names(s, s.discard[1]) == ["Bramble Snare", "Seal of Quiet"]


def test_ward_reduces_damage_by_one_unless_exhausted() -> None:
    s = position(hands=(["Shield Wall", "Shield Wall"], ["Longshot", "Longshot"]), at=("a1", "a3"), actions=(3, 3))
    play(s, "play Shield Wall", "pass", "play Shield Wall", "pass", "end turn")
    play(s, "play Longshot", "pass")
    assert s.hp[0] == s.max_hp[0] - 2  # 3 damage, reduced by 1 (two wards do not add up)
    s.deck[0], s.discard[0] = [], s.discard[0] + s.deck[0]  # Edda is exhausted
    play(s, "play Longshot", "pass")
    assert s.hp[0] == s.max_hp[0] - 2 - 3


def _kindle_first(s: IvionState) -> None:
    """At the start of Edda's turn her passive Kindle and her fading card both answer: Kindle first."""
    if s.decision.kind == "first_trigger":
        play(s, "first 1")


def test_shield_wall_wards_for_two_enemy_turns_then_fades() -> None:
    # Our shape of a lasting card (issue 34: a ward for the rest of the game stood out on the played
    # measure): `fade` puts a turn token on the card at the start of its controller's turn and
    # destroys it at the second; the ward holds through the two enemy turns in between.
    s = position(hands=(["Shield Wall"], ["Longshot", "Longshot", "Longshot"]), at=("a1", "a3"), actions=(3, 3))
    play(s, "play Shield Wall", "pass")
    wall = s.attached[Host("hero", 0)][0]
    assert s.card(wall).text().endswith(
        "At the start of your turn: Put a turn token on this card; with 2 on it, destroy it.")
    play(s, "end turn")
    s.pools[1] = {"actions": 3, "power": 0}
    play(s, "play Longshot", "pass")
    assert s.hp[0] == s.max_hp[0] - 2  # 3, less the ward's 1
    play(s, "end turn")
    _kindle_first(s)
    assert s.tokens[wall] == 1 and "ward" in s.statuses_on(0)
    assert {"card": "Shield Wall", "tokens": 1}.items() <= s.observation(1)["attached"][0].items()  # public
    console = Console(width=200, record=True)
    console.print(render(s.observation(1), s.game))  # the terminal shows the token to the other seat
    assert "attached: Shield Wall (1 turn token)" in console.export_text()
    play(s, "end turn")
    s.pools[1] = {"actions": 3, "power": 0}
    play(s, "play Longshot", "pass")
    assert s.hp[0] == s.max_hp[0] - 4
    play(s, "end turn")
    _kindle_first(s)
    assert s.host_of(wall) is None and wall in s.discard[0] and wall not in s.tokens
    assert any(e.kind == "destroyed" for e in s.events) and "ward" not in s.statuses_on(0)
    play(s, "end turn", "play Longshot", "pass")
    assert s.hp[0] == s.max_hp[0] - 7  # no ward any more


def test_oath_of_mending_heals_two_at_the_start_of_three_turns_then_fades() -> None:
    # One trigger with two effects (heal, then the turn token): the loop rule lets a card's abilities
    # fire once per effect sequence, so the heal and the fade are one ability, not two.
    s = position(hands=(["Oath of Mending"], []), actions=(3, 0))
    s.hp[0] = 20
    play(s, "play Oath of Mending", "pass")
    oath = s.attached[Host("hero", 0)][0]
    play(s, "end turn", "end turn")
    assert s.decision.kind == "first_trigger" and s.decision.question(s).endswith(
        "2: Oath of Mending, heal 2 HP and put a turn token on this card; with 3 on it, destroy it)")
    play(s, "first 2")
    assert s.hp[0] == 22 and s.tokens[oath] == 1
    play(s, "end turn", "end turn")
    _kindle_first(s)
    assert s.hp[0] == 24 and s.tokens[oath] == 2
    play(s, "end turn", "end turn")
    _kindle_first(s)
    assert s.hp[0] == 26 and s.host_of(oath) is None and oath in s.discard[0]
    play(s, "end turn", "end turn")
    assert s.decision.kind == "main" and s.hp[0] == 26  # gone: Kindle alone answers, and no more healing


def test_a_sealed_fading_card_neither_wards_nor_fades() -> None:
    # Seal: "the card this is attached to has no abilities", its fade among them; unsealed, it goes on
    s = position(hands=(["Shield Wall"], ["Seal of Quiet"]), decks=(EDDA, LIO), at=("a1", "a3"), actions=(3, 3))
    play(s, "play Shield Wall", "pass", "end turn")
    wall = s.attached[Host("hero", 0)][0]
    play(s, "play Seal of Quiet", f"target Shield Wall #{wall}", "pass")
    assert "ward" not in s.statuses_on(0)
    play(s, "end turn")
    assert s.decision.kind == "main" and wall not in s.tokens  # only Kindle answered: no order to choose
    play(s, "end turn", "end turn")
    assert s.host_of(wall) is not None and wall not in s.tokens


def test_chivalry_heals_two_at_the_start_of_the_turn() -> None:
    s = position(hands=(["Vow of Honour"], []), decks=(EDDA_VOW, LIO))
    s.hp[0] = 20
    s.wounded[0] = True
    play(s, "play Vow of Honour", "pass")
    assert s.chivalrous[0]
    play(s, "end turn", "end turn")
    # chivalry and the passive trait Kindle answer the same start of turn: their controller orders them
    assert s.decision.kind == "first_trigger" and s.current_player == 0
    # each named by what it comes from (chivalry is no card)
    assert s.decision.question(s).endswith("(1: chivalry, heal 2 HP; 2: Kindle, gain 1 power)")
    play(s, "first 1")
    assert s.hp[0] == 22 and s.pools[0]["power"] == 1


def test_chivalry_is_dishonoured_by_targeting_a_controlled_enemy() -> None:
    s = position(hands=(["Oathstrike"], []))
    s.chivalrous[0] = True
    s.controls[1]["slow"] = 1
    play(s, "play Oathstrike")
    assert not s.chivalrous[0]


def test_chivalry_is_dishonoured_by_playing_during_the_enemys_turn() -> None:
    s = position(hands=(["Hush"], ["Oathstrike"]), decks=(LIO, EDDA), turn=1, actions=(1, 3), power=(1, 0))
    s.chivalrous[0] = True
    play(s, "play Oathstrike", "play Hush")
    assert not s.chivalrous[0]


def test_chivalry_is_dishonoured_by_leaving_a_tile_near_the_enemy_for_one_that_is_not() -> None:
    s = position(at=("b2", "b3"))
    s.chivalrous[0] = True
    play(s, "move east")  # c2 is not near b3
    assert not s.chivalrous[0]
    s = position(at=("b2", "b3"))
    s.chivalrous[0] = True
    play(s, "move west")  # a2 is near... no: a2 to b3 is diagonal
    assert not s.chivalrous[0]
    s = position(at=("b1", "b3"))
    s.chivalrous[0] = True
    play(s, "move north")  # b2 is near b3: not leaving near for not-near
    assert s.chivalrous[0]


def test_an_empty_tile_may_have_terrain_but_no_hero_and_no_attached_card() -> None:
    s = position(hands=([], ["Bramble Snare"]), turn=1, actions=(0, 3), at=("a1", "b2"))
    s.terrain[tile("a2")] = "difficult"
    assert s.empty_tile(tile("a2")) and not s.empty_tile(tile("a1"))
    play(s, "play Bramble Snare", "target a2", "pass")
    assert not s.empty_tile(tile("a2"))


def test_only_a_resolved_attached_card_can_be_destroyed() -> None:
    s = position(hands=(["Burning Brand"], ["Unmake"]), power=(2, 0), actions=(3, 1), at=("a1", "a2"))
    play(s, "play Burning Brand")
    assert "play Unmake" not in texts(s)  # not an instant, and nothing is attached yet
    assert s.targets_for(1, s.game.library.cards["Unmake"]) == []
