"""Feats, ultimates and HP, second wind, exhaustion, simultaneous effects, copy, relics
(rulebook: Feats; Ultimates; Traits; Second Wind; Exhaustion; Simultaneous Effects; glossary
Copy, Relics)."""

from __future__ import annotations

import pytest

from cardtable.core import IllegalAction
from cardtable.games.ivion.state import Host

from .helpers import EDDA, EDDA_VOW, LIO, LIO_DISPEL, names, play, position, take, texts, tile


def test_a_feat_is_played_once_until_its_controllers_next_turn_and_returns_to_the_feat_zone() -> None:
    s = position(actions=(5, 0))
    play(s, "feat Spellscar", "pass")
    assert s.hp[1] == 31 and names(s, s.feats[0]) == ["Kindle", "Last Stand", "Spellscar"]
    assert s.discard[0] == []
    with pytest.raises(IllegalAction, match="played once until your next turn"):
        s.apply("feat Spellscar")
    play(s, "end turn", "end turn")
    assert "feat Spellscar" in texts(s)


def test_a_countered_feat_still_counts_as_played_and_returns_to_the_feat_zone() -> None:
    s = position(hands=([], ["Dispel"]), decks=(EDDA, LIO_DISPEL), actions=(5, 1), power=(0, 1))
    play(s, "feat Spellscar", "play Dispel")
    feat = s.played[0]
    play(s, f"target Spellscar #{feat}", "pass")
    assert s.hp[1] == 32 and feat in s.feats[0] and feat in s.feats_used[0]


def test_passive_feats_are_never_played() -> None:
    s = position()
    assert "feat Kindle" not in [a.text for a in s.game.actions]
    play(s, "end turn", "end turn")
    assert s.pools[0]["power"] == 1  # Kindle: at the start of your turn, 1 power


def test_the_ultimate_gives_starting_and_maximum_hp_and_healing_stops_there() -> None:
    s = position(hands=(["Rallying Cry"], []))
    assert s.max_hp == [33, 32]  # Last Stand 33, Bewilder 32
    s.hp[0] = 32
    play(s, "play Rallying Cry", "pass")
    assert s.hp[0] == 33


def test_second_wind_on_first_turning_wounded_interrupts_the_turn() -> None:
    s = position(hands=(["Cleave", "Cleave"], []), actions=(3, 0))
    s.hp[1] = 18  # Lio: 32 max, wounded at 16 or less
    deck = s.deck[1]
    top5 = [s.name(c) for c in deck[-5:]]
    play(s, "play Cleave", "pass")
    assert s.wounded[1] and s.hp[1] == 16
    assert s.decision.kind == "second_wind_keep" and s.current_player == 1  # Edda's turn is interrupted
    assert sorted(names(s, s.looking[1])) == sorted(top5) and len(s.deck[1]) == len(deck)
    keep = sorted(set(top5))
    play(s, f"keep {keep[0]}")
    play(s, f"keep {sorted(names(s, s.looking[1]))[0]}")
    assert len(s.hand[1]) == 2 and s.decision.kind == "second_wind_bottom"
    order = []
    while s.decision.kind == "second_wind_bottom":
        name = texts(s)[-1].removeprefix("bottom ")
        order.append(name)
        play(s, f"bottom {name}")
    last = names(s, [c for c in s.deck[1][:1]])  # the one left goes under them all
    assert [s.name(c) for c in s.deck[1][:3]] == last + order[::-1]  # the first chosen goes under first
    assert s.decision.kind == "main" and s.current_player == 0
    play(s, "play Cleave", "pass")  # only the first time
    assert s.hp[1] == 14 and s.decision.kind == "main"


def test_chance_reorders_a_deck_but_not_the_cards_a_second_wind_put_at_its_bottom() -> None:
    # OpenSpiel's chance node between a choice and its effect (State.shuffle_unseen): each deck in
    # a new order of its own; the owner knows the three cards its second wind put at the bottom.
    from cardtable.core.rng import Rng

    s = position(hands=(["Cleave", "Cleave"], []), actions=(3, 0))
    s.hp[1] = 18
    play(s, "play Cleave", "pass")
    while s.decision.kind != "main":
        play(s, texts(s)[0])
    bottom = list(s.deck[1][:3])
    decks = [sorted(d) for d in s.deck]
    orders = set()
    for k in range(8):
        c = s.clone()
        c.shuffle_unseen(Rng(k))
        assert c.deck[1][:3] == bottom and [sorted(d) for d in c.deck] == decks
        assert c.observation(0) == s.observation(0) and c.observation(1) == s.observation(1)
        orders.add((tuple(c.deck[0]), tuple(c.deck[1][3:])))
    assert len(orders) == 8  # the rest really is shuffled, each deck among its own cards
    # a bot's guess (determinize) keeps what its seat knows: its own bottom three, not the enemy's
    assert all(s.determinize(1, k).deck[1][:3] == bottom for k in range(8))
    assert any(s.determinize(0, k).deck[1][:3] != bottom for k in range(8))


def test_exhaustion_five_damage_instead_of_drawing_and_no_healing() -> None:
    s = position(hands=(["Rallying Cry"], []))
    s.discard[0], s.deck[0] = s.deck[0], []
    s.hp[0] = 20
    s.wounded[0] = True
    play(s, "play Rallying Cry", "pass")
    assert s.hp[0] == 20  # exhausted: can't gain HP
    play(s, "initiative draw")
    assert s.hp[0] == 15


def test_copy_plays_an_identical_version_that_neither_attaches_nor_goes_to_a_discard() -> None:
    s = position(hands=(["Burning Brand"], ["Mirror Image"]), power=(2, 1), actions=(3, 1), at=("b2", "b3"))
    play(s, "play Burning Brand", "play Mirror Image")
    brand = s.played[0]
    play(s, f"target Burning Brand #{brand}")
    play(s, "pass")  # Mirror Image resolves: the copy is played and may be answered
    assert [i.card for i in s.chain.items] == [brand, 1000 + brand]
    assert s.decision.kind == "priority" and s.current_player == 0
    play(s, "pass")
    assert Host("hero", 0) not in s.attached  # the copy did not attach
    assert names(s, s.attached[Host("hero", 1)]) == ["Burning Brand"]
    assert names(s, s.discard[1]) == ["Mirror Image"] and s.discard[0] == []


def test_a_copy_the_copier_could_not_play_is_not_played() -> None:
    # COPY: "In all other ways, treat it like playing a normal card": Lio on d4 copies Edda's Emberfield
    # on a2, out of his range 2; the copy is not played (no response window for it, no tile changed by
    # it), and Emberfield itself resolves
    s = position(hands=(["Emberfield"], ["Mirror Image"]), power=(0, 1), actions=(3, 1), at=("a1", "d4"))
    play(s, "play Emberfield", "target a2", "play Mirror Image")
    play(s, f"target Emberfield #{s.played[0]}", "pass")
    assert not s.chain.items and s.decision.kind == "main" and s.current_player == 0
    kinds = [e.kind for e in s.events[-3:]]
    assert kinds == ["resolves", "copy_not_played", "resolves"]
    assert s.events[-2].data["why"] == "no valid target for the copier"
    assert s.terrain.get(tile("a2")) == "enchanted"
    # a disarmed Lio copies Edda's Cleave (banner: disarm): control prevents the copy
    s = position(hands=(["Cleave"], ["Mirror Image"]), power=(0, 1), actions=(3, 1), at=("b2", "b3"))
    s.controls[1]["disarm"] = 2  # paying for Mirror Image removes one
    play(s, "play Cleave", "play Mirror Image")
    play(s, f"target Cleave #{s.played[0]}", "pass")
    assert s.events[-3].kind == "copy_not_played" and s.events[-3].data["why"] == "control prevents it"
    assert s.hp[0] == s.max_hp[0] and not s.chain.items  # no copied Cleave hit Edda


def test_a_copy_of_a_copy_is_a_card_of_its_own() -> None:
    # COPY: "treat it like playing a normal card": a copy of a copy is told apart from the copy it
    # copies (its own id and target), so either can be answered
    s = position(hands=(["Arc Bolt", "Mirror Image", "Dispel"], ["Mirror Image"]), decks=(LIO_DISPEL, LIO), power=(2, 0),
                 actions=(3, 1), at=("b2", "b3"))
    play(s, "play Arc Bolt")
    bolt = s.played[0]
    play(s, "play Mirror Image", f"target Arc Bolt #{bolt}", "pass")  # seat 1 copies the Arc Bolt
    assert [i.card for i in s.chain.items] == [bolt, 1000 + bolt]
    play(s, "play Mirror Image", f"target copy of Arc Bolt #{bolt}", "pass")  # seat 0 copies the copy
    assert [i.card for i in s.chain.items] == [bolt, 1000 + bolt, 2000 + bolt]
    assert [i.controller for i in s.chain.items] == [0, 1, 0]
    dispel = s.card(next(c for c in s.hand[0] if s.name(c) == "Dispel"))
    assert s.targets_for(0, dispel) == [bolt, 1000 + bolt, 2000 + bolt]  # three cards, each its own target
    assert [s.game.space.card[c].text for c in s.targets_for(0, dispel)] == [
        f"target Arc Bolt #{bolt}", f"target copy of Arc Bolt #{bolt}", f"target copy 2 of Arc Bolt #{bolt}"]


def test_a_copied_attack_hits_the_copiers_enemy() -> None:
    s = position(hands=(["Flame Lash"], ["Mirror Image"]), power=(0, 1), actions=(3, 1), at=("b2", "b3"))
    play(s, "play Flame Lash", "play Mirror Image")
    play(s, f"target Flame Lash #{s.played[0]}", "pass", "pass")
    assert s.hp == [s.max_hp[0] - 2, s.max_hp[1] - 2] and s.pools[1]["power"] == 1  # Mirror Image costs no power; the copy is free: no power from it


def test_relics_a_random_relic_at_once_then_out_of_the_game() -> None:
    s = position(hands=(["War Trophy"], []))
    assert len(s.relics[0]) == 3 and s.relics[1] == []  # only a deck that can gain relics has a pile
    top = s.relics[0][-1]
    play(s, "play War Trophy", "pass")
    assert s.removed == [top] and len(s.relics[0]) == 2
    relic = s.name(top)
    if relic == "Ancient Coin":
        assert s.pools[0]["power"] == 2
    elif relic == "Cracked Hourglass":
        assert s.pools[0]["actions"] == 3 and len(s.hand[0]) == 1
    else:
        assert relic == "Bone Charm"


def test_simultaneous_effects_go_in_turn_order_from_the_player_whose_turn_it_is() -> None:
    # Edda's turn begins: her own Kindle and the other player's Burning Brand on her both answer it.
    # The player whose turn it is goes first: power first, then the damage.
    s = position(decks=(EDDA, EDDA), turn=1, actions=(0, 3), power=(0, 2), at=("b2", "b3"))
    take(s, 1, "Burning Brand", s.hand[1])
    play(s, "play Burning Brand", "pass")
    s.events = []
    play(s, "end turn")
    kinds = [(e.kind, e.data.get("seat")) for e in s.events if e.kind in ("gain", "damage")]
    assert kinds == [("gain", 0), ("damage", 0)]
    assert s.hp[0] == s.max_hp[0] - 1 and s.pools[0]["power"] == 1


def test_lio_and_edda_every_keyword_is_reachable() -> None:
    # the two starters between them hold a card of each keyword but chivalry and counter (issue 34's
    # fifth retune took Vow of Honour and Dispel out; Make Your Own Hero reaches them, as here)
    s = position(decks=(EDDA, LIO))
    held = {s.name(c) for seat in range(2) for c in (*s.deck[seat], *s.feats[seat])}
    assert {"War Trophy", "Fireball", "Insight", "Mirror Image", "Seal of Quiet", "Oath of Mending", "Shield Wall",
            "Recall Echo", "Thicket", "Emberfield", "Displace", "Charge"} <= held
    assert not {"Vow of Honour", "Dispel"} & held
    s = position(decks=(EDDA_VOW, LIO_DISPEL))
    held = {s.name(c) for seat in range(2) for c in (*s.deck[seat], *s.feats[seat])}
    assert {"Vow of Honour", "Dispel"} <= held
