"""The second cast's rules (issue 34): cards that ask to choose, cards with two targets, destroy as an
instant, an instant that travels a hero out of range, cantrip with unleash, a card attached to
something with no tile (rulebook: Playing Cards; Meta-counters; Destroy; Attached Cards; glossary
Cantrip, Unleash, Copy)."""

from __future__ import annotations

import pytest
from rich.console import Console

from cardtable.core import IllegalAction
from cardtable.games.ivion import text
from cardtable.games.ivion.state import Host

from .helpers import names, play, position, texts, tile

ALDOUS, VESK, KAIDA, WREN = "Brother Aldous", "Vesk the Quiet", "Marshal Kaida", "Wren Ashgrove"
LIO, EDDA = "Lio Marrow", "Sir Edda Vane"
#: a hero of Make Your Own Hero with Purge (a card no starter takes)
ZEALOT = {"name": "Zealot", "mode": "custom", "classes": ["Templar", "Rogue"], "specialization": "Inquisitor",
          "traits": ["Sunfire", "Wayfinder"],
          "cards": {"Hallowed Blade": 4, "Shatter": 3, "Purge": 2, "Zealous Advance": 3, "Crusade": 2, "Vigil": 1,
                    "Backstab": 4, "Sidestep": 3, "Caltrops": 3, "Throwing Knife": 4, "Pilfer": 1,
                    "Verdict": 3, "Brand of Heresy": 2, "Zeal": 3, "Interrogate": 2, "Pyre": 3, "Condemn": 2}}


def _shown(renderable: object) -> str:
    console = Console(width=200, record=True)
    console.print(renderable)
    return console.export_text()


def test_a_card_that_asks_to_choose_is_decided_when_played_before_its_target() -> None:
    # "If the card requires you to 'choose', decide now." then "If the card requires one or more
    # targets, select them now."
    s = position(hands=(["Verdict"], []), decks=(KAIDA, LIO), at=("b2", "c2"))
    play(s, "play Verdict")
    assert s.decision.kind == "choose_mode" and texts(s) == ["choose 1", "choose 2"]
    # the question and each move name the effect in words, from the card's data
    assert s.decision.describe(s).endswith("must choose what Verdict does: deal 3 damage to the target, or the "
                                           "target receives 1 slow and deal 1 damage to the target?")
    # what the server sends the browser: each move labelled with its effect
    from cardtable.server.encoding import encode

    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    assert [a["label"] for a in encode("t", s.game, s, 0, 0, seats)["legal"]] == [
        "choose 1: deal 3 damage to the target", "choose 2: the target receives 1 slow and deal 1 damage to the target"]
    obs = s.observation(0)
    assert text.choices(obs, texts(s)) == [(0, "choose 1: deal 3 damage to the target"),
                                           (1, "choose 2: the target receives 1 slow and deal 1 damage to the target")]
    play(s, "choose 2")
    assert s.decision.kind == "priority"  # one enemy: its target is set, the card is played
    play(s, "pass")
    assert s.controls[1]["slow"] == 1 and s.hp[1] == 31  # the second effect, not the first
    s = position(hands=(["Verdict"], []), decks=(KAIDA, LIO), at=("b2", "c2"))
    play(s, "play Verdict", "choose 1", "pass")
    assert s.controls[1]["slow"] == 0 and s.hp[1] == 29
    with pytest.raises(IllegalAction):
        position(hands=(["Verdict"], []), decks=(KAIDA, LIO)).apply("choose 1")  # nothing asks to choose


def test_a_copy_of_a_card_that_asked_to_choose_does_what_was_chosen() -> None:
    # Copy: "you play an identical version of it" -- the choice made for it included
    s = position(hands=(["Verdict"], ["Mirror Image"]), decks=(KAIDA, LIO), at=("b2", "c2"), actions=(3, 1))
    play(s, "play Verdict", "choose 2", "play Mirror Image")
    verdict = s.chain.items[0].card
    play(s, f"target Verdict #{verdict}", "pass", "pass")
    assert s.controls[0]["slow"] == 1 and s.hp[0] == s.max_hp[0] - 1  # the copy slowed Kaida, as she chose
    assert s.controls[1]["slow"] == 1 and s.hp[1] == s.max_hp[1] - 1  # and her Verdict did the same


def test_an_ultimate_that_asks_to_choose() -> None:
    s = position(hands=([], []), decks=(KAIDA, LIO), at=("b2", "c2"), power=(4, 0))
    play(s, "feat Judgement", "choose 1", "pass")
    assert s.hp[1] == 32 - 4
    judgement = next(c for c in s.feats[0] if s.name(c) == "Judgement")
    assert "Choose one: Deal 4 damage to the target. Or: " in s.card(judgement).text()


def test_two_targets_are_chosen_each_different_and_each_gets_the_effect() -> None:
    s = position(hands=(["Caltrops"], []), decks=(VESK, LIO), at=("a1", "d4"))
    play(s, "play Caltrops", "target b1")
    assert s.decision.kind == "choose_target" and "target b1" not in texts(s)  # a different one
    assert "must choose the second of the two targets of Caltrops (tile, range 3, not b1)" in s.decision.describe(s)
    play(s, "target a2")
    assert s.observation(1)["stack"][0]["targets"] == ["b1", "a2"]
    played = next(e for e in s.events if e.kind == "played")
    assert text.narrate(played.to_json(), None) == "seat 0 played Caltrops at b1 and a2"
    play(s, "pass")
    assert s.terrain == {tile("b1"): "difficult", tile("a2"): "difficult"}
    assert s.card(s.discard[0][0]).text().startswith("Targets: two different tiles")


def _aldous_attached(s):  # type: ignore[no-untyped-def]
    """Brother Aldous's Candle of Mercy in front of him (no tile) and his Warding Glyph on b3."""
    candle, glyph = (next(c for c in s.deck[1] if s.name(c) == n) for n in ("Candle of Mercy", "Warding Glyph"))
    s.deck[1].remove(candle)
    s.deck[1].remove(glyph)
    s.attached[Host("player", 1)] = [candle]
    s.attached[Host("tile", tile('b3'))] = [glyph]
    return candle, glyph


def test_destroy_as_an_instant_and_a_card_with_two_targets_acts_on_the_one_left() -> None:
    # a Zealot plays Purge at two attached cards; Brother Aldous answers with Shatter, an instant
    # destroy, on one of them: Purge still resolves on the other ("none of your card's targets are
    # valid" is what meta-counters it)
    s = position(hands=(["Purge"], ["Shatter"]), decks=(ZEALOT, ALDOUS), at=("b2", "c2"), actions=(3, 1), power=(0, 1))
    candle, glyph = _aldous_attached(s)
    play(s, "play Purge", f"target Candle of Mercy #{candle}")
    assert f"target Candle of Mercy #{candle}" not in texts(s)  # a different second target
    play(s, f"target Warding Glyph #{glyph}")
    assert s.decision.kind == "priority" and s.current_player == 1
    assert "play Shatter" in texts(s)  # an instant: it answers
    play(s, "play Shatter", f"target Candle of Mercy #{candle}", "pass")  # both resolve, the instant first
    assert s.host_of(candle) is None and names(s, s.discard[1]) == ["Candle of Mercy", "Shatter", "Warding Glyph"]
    assert s.host_of(glyph) is None
    assert s.pools[0]["power"] == 1  # Purge resolved (+1 power): one target was still valid


def test_a_card_with_two_targets_none_of_them_valid_is_meta_countered() -> None:
    s = position(hands=(["Purge"], []), decks=(ZEALOT, ALDOUS), at=("b2", "c2"))
    candle, glyph = _aldous_attached(s)
    play(s, "play Purge", f"target Candle of Mercy #{candle}", f"target Warding Glyph #{glyph}")
    s.destroy(candle)  # both gone before it resolves (by hand here)
    s.destroy(glyph)
    play(s, "pass")
    assert s.pools[0] == {"actions": 3, "power": 0}  # meta-countered: refunded, no power gained
    assert names(s, s.discard[0]) == ["Purge"]


def test_destroy_as_an_instant_during_the_enemys_turn() -> None:
    s = position(hands=(["Burning Brand", "Oathstrike"], ["Shatter"]), decks=(EDDA, ALDOUS), at=("b2", "c2"),
                 power=(2, 1), actions=(3, 1))
    play(s, "play Burning Brand")
    assert s.decision.kind == "priority" and "play Shatter" not in texts(s)  # not yet attached: nothing to destroy
    play(s, "pass")
    brand = s.attached[Host("hero", 1)][0]
    play(s, "play Oathstrike", "play Shatter", f"target Burning Brand #{brand}", "pass")  # on Edda's turn
    assert s.host_of(brand) is None and names(s, s.discard[0]) == ["Burning Brand", "Oathstrike"]
    assert s.hp[1] == s.max_hp[1] - 3  # Oathstrike resolved after it


def test_an_instant_heal_answers_the_finishing_blow_and_resolves_first() -> None:
    # "Instants": played in answer, it resolves before the card it answers (reverse order), so Kaida
    # at 3 HP lives through Fireball's 3: 3 + 3 - 3; with no answer the same blow ends the game
    s = position(hands=(["Fireball"], ["Penance"]), decks=(EDDA, KAIDA), at=("a1", "c1"), power=(1, 2),
                 actions=(3, 1))
    s.hp[1], s.wounded[1] = 3, True  # (second wind already used)
    play(s, "play Fireball", "play Penance")
    assert s.pools[1] == {"actions": 0, "power": 0}  # its cost: an action and 2 power
    play(s, "pass")  # Edda lets it resolve; then Fireball resolves
    assert s.hp[1] == 3 and not s.is_over and names(s, s.discard[1]) == ["Penance"]
    s = position(hands=(["Fireball"], ["Penance"]), decks=(EDDA, KAIDA), at=("a1", "c1"), power=(1, 2),
                 actions=(3, 1))
    s.hp[1], s.wounded[1] = 3, True
    play(s, "play Fireball", "pass")
    assert s.is_over and s.winners() == [0]


def test_an_instant_that_travels_the_target_out_of_range_meta_counters_the_card() -> None:
    # Lio's Longshot (range 3) at Vesk; Vesk answers with Sidestep, travelling one tile further away:
    # when Longshot resolves its target is out of range, so it is meta-countered and refunded
    s = position(hands=(["Longshot"], ["Sidestep"]), decks=(LIO, VESK), at=("a1", "c2"), actions=(3, 1))
    play(s, "play Longshot")
    assert s.pools[0]["actions"] == 2
    play(s, "play Sidestep")
    assert "target c1" in texts(s) and "target d2" in texts(s) and "target c3" in texts(s)
    play(s, "target d2", "pass")  # Sidestep resolves, then Longshot attempts to
    assert s.pos[1] == tile("d2")  # 4 tiles from a1
    assert s.hp[1] == s.max_hp[1] and s.pools[0] == {"actions": 3, "power": 0}  # meta-countered: refunded
    assert names(s, s.discard[0]) == ["Longshot"]
    # had Vesk stayed in range, Longshot would have hit
    s = position(hands=(["Longshot"], ["Sidestep"]), decks=(LIO, VESK), at=("a1", "c2"), actions=(3, 1))
    play(s, "play Longshot", "play Sidestep", "target c1", "pass")
    assert s.pos[1] == tile("c1") and s.hp[1] == s.max_hp[1] - 3


def test_a_cantrip_may_be_unleashed_with_all_remaining_power() -> None:
    s = position(hands=(["Time Spark"], []), decks=(VESK, LIO), at=("b2", "c2"), power=(2, 0), actions=(0, 0))
    play(s, "cantrip Time Spark")
    assert s.decision.kind == "unleash"  # free: any power is extra
    play(s, "unleash")
    assert s.initiative[0] == 0 and s.pools[0] == {"actions": 0, "power": 0}
    play(s, "pass")
    assert s.hp[1] == 32 - 2 - 2


def test_a_card_attached_to_something_with_no_tile_is_in_its_controllers_tile() -> None:
    # Wellspring attaches in front of its player: "attached cards are in ... the tile they are
    # attached to, the tile of the player/card they are attached to, or else in the tile of their
    # controller" -- so destroying it counts range from wherever its controller stands
    s = position(hands=(["Wellspring"], []), decks=(WREN, LIO), at=("a1", "d4"))
    play(s, "play Wellspring", "pass")
    well = s.attached[Host("player", 0)]
    assert names(s, well) == ["Wellspring"] and s.location(well[0]) == tile("a1")
    assert "Attach it in front of you" in s.card(well[0]).text()
    assert s.observation(1)["attached"] == [{"card": "Wellspring", "id": well[0], "controller": 0,
                                            "on": f"in front of {s.game.hero_names[0]}", "host": "player", "seat": 0}]
    # the terminal shows it with Wren's hero, not on a tile nor as "player 0"
    shown = _shown(text.render(s.observation(1)))
    assert "in front: Wellspring" in shown and "player 0" not in shown
    play(s, "end turn")
    s.pos[0] = tile("c3")  # Wren is elsewhere: so is the Wellspring
    assert s.location(well[0]) == tile("c3")
    s.hand[1].append(next(c for c in s.deck[1] if s.name(c) == "Unmake"))
    s.deck[1].remove(s.hand[1][-1])
    s._legal = None
    play(s, "play Unmake")
    assert texts(s) == [f"target Wellspring #{well[0]}"]  # c3 is 2 from d4: in Unmake's range (3)
    play(s, f"target Wellspring #{well[0]}", "pass")
    assert Host("player", 0) not in s.attached and names(s, s.discard[0]) == ["Wellspring"]


def test_a_card_attached_in_front_of_its_player_triggers_at_the_start_of_their_turn() -> None:
    s = position(hands=(["Wellspring"], []), decks=(WREN, LIO), at=("a1", "d4"))
    play(s, "play Wellspring", "pass", "end turn", "end turn")
    assert s.turn == 0 and s.pools[0]["power"] == 1


def test_zeal_is_heroic_so_it_travels_a_slowed_hero() -> None:
    # Kaida's Zeal (issue 34's second retune: her step toward the heroes who keep to range 3): a
    # heroic card has no banner, so control does not prevent it (Playing Cards & Control), and a
    # card's travel is not the move that slow forbids ("while slowed, you can't move")
    s = position(hands=(["Zeal"], []), decks=(KAIDA, LIO), at=("a1", "d4"))
    s.controls[0]["slow"] = 2
    with pytest.raises(IllegalAction, match="slowed"):
        s.apply("move north")
    play(s, "play Zeal")
    assert "target b3" in texts(s) and "target c3" not in texts(s)  # up to 3 tiles away, not 4
    play(s, "target b3", "pass")
    assert s.pos[0] == tile("b3") and s.pools[0] == {"actions": 2, "power": 1}  # +1 power on resolution
    assert s.controls[0]["slow"] == 1  # the action spent removed one slow, as any spending does
