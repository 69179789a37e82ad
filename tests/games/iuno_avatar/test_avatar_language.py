"""The whole pictogram language (issue 29): effect sequences (a later step needs the one before
it), the turn's actions as activities figures answer (rolling, paying, activating, levelling up,
summoning, casting; inclusive and exclusive), the loop rule over a chain of two figures, the
operators and components the base deck does not use, refusals of what the rules forbid, and the
language table of docs/games/iuno_avatar.md generated from code."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.errors import CardFileError
from cardtable.games.iuno_avatar.cards import base_deck, build
from cardtable.games.iuno_avatar.decisions import ChooseCard, Pay, Turn, UseRoll
from cardtable.games.iuno_avatar.language import language_rows, language_table
from cardtable.games.iuno_avatar.state import AvatarState

from .helpers import cid, deck_with, do, names, rolled, start, table, texts

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "iuno_avatar.md"

TAKE_GEM = {"verb": "take", "what": "gem"}
#: the test spell: costs one Fire, its effect is set by each test
KINDLE = {"cost": ["fire"]}
#: a 1-symbol Fire gem card to pay Kindle with
EMBER = {"element": "fire", "symbols": 1}


def watcher(when: dict[str, Any], kind: str, effect: Any = TAKE_GEM, level: int = 1) -> dict[str, Any]:
    """Gnome rewritten as the figure a test watches: it answers `when` with `effect`."""
    return {"kind": kind, "when": when, "effect": effect, "level": level, "cost": ["earth"]}


def offered(s: AvatarState) -> str:
    d = s.decision
    assert d is not None and d.kind == "use_ability", f"no effect offered: {d}"
    return s.card(d.ability.card).name  # type: ignore[attr-defined, no-any-return]


def kinds(s: AvatarState) -> list[str]:
    assert s.events is not None
    return [e.kind for e in s.events]


# -- effect sequences --------------------------------------------------------------------------------

TWO_STEPS = [{"verb": "discard", "what": "gem"}, {"verb": "take", "what": "die", "n": 2}]


def test_a_two_step_spell_does_both_steps_in_order() -> None:
    s = table(heaven={0: ["Kindle", "Tide"]}, gems=[3, 3], cards=deck_with(Kindle={**KINDLE, "effect": TWO_STEPS}))
    kindle = s.card(cid(s, "Kindle"))
    assert kindle.text() == ("On arrival, you may discard a gem back to the purse, then take two dice from the middle. "
                             "Then it goes to Hell.")
    assert [(p["kind"], p["name"]) for p in kindle.pictograms()] == [
        ("component", "gem"), ("operator", "discard"), ("joiner", "then"), ("operator", "take"), ("component", "die"),
        ("component", "die")]
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "cast Kindle", "pay the rest with gems")
    assert offered(s) == "Kindle"
    assert s.observation(0)["decision"]["effect"] == "discard a gem back to the purse, then take two dice from the middle"
    do(s, "yes")
    assert s.gems[0] == 1 and s.dice[0] == dice + 2  # 3 - 1 paid - 1 discarded; two dice taken
    assert "Kindle" in names(s, s.hell)


def test_a_later_step_needs_the_one_before_it() -> None:
    # discard a gem, then discard a figure card (I have none), then take a die: the third step needs
    # the second, which cannot happen
    steps = [{"verb": "discard", "what": "gem"}, {"verb": "discard", "what": "figure card"},
             {"verb": "take", "what": "die"}]
    s = table(heaven={0: ["Kindle", "Tide"]}, gems=[3, 3], cards=deck_with(Kindle={**KINDLE, "effect": steps}))
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert s.gems[0] == 1 and s.dice[0] == dice


def test_a_card_of_a_type_not_found_in_a_hidden_heaven_does_not_stop_the_sequence() -> None:
    # take a spell card from the opponent (they hold none: only a gem card), then take a die. Whether a
    # step can happen is judged from what the player sees (the number of cards, not their types), so
    # the die still comes: stopping there would tell the player what that Heaven holds.
    steps = [{"verb": "take", "what": "spell card", "owner": "black"}, {"verb": "take", "what": "die"}]
    s = table(heaven={0: ["Kindle", "Tide"], 1: ["Ember Shard"]}, gems=[3, 3],
              cards=deck_with(Kindle={**KINDLE, "effect": steps}))
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert names(s, s.heaven[1]) == ["Ember Shard"] and names(s, s.heaven[0]) == ["Tide"]
    assert s.dice[0] == dice + 1


def test_a_sequence_whose_first_step_cannot_happen_is_not_offered() -> None:
    s = table(heaven={0: ["Kindle", "Tide"]}, gems=[1, 3], cards=deck_with(Kindle={**KINDLE, "effect": TWO_STEPS}))
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "cast Kindle", "pay the rest with gems")  # my last gem paid: nothing to discard
    assert s.decision is None or s.decision.kind != "use_ability"
    assert s.dice[0] == dice


def test_a_replaced_step_counts_as_happened() -> None:
    # Fire Titan (exclusive): instead of my gem being discarded, an opponent's is; the die still comes
    titan = {"kind": "exclusive", "when": {"verb": "discard", "what": "gem", "owner": "white"},
             "effect": {"verb": "discard", "what": "gem", "owner": "black"}, "level": 1}
    steps = [{"verb": "discard", "what": "gem"}, {"verb": "take", "what": "die"}]
    s = table(heaven={0: ["Kindle", "Tide"]}, earth={0: {"Fire Titan": 1}}, gems=[3, 3],
              cards=deck_with(Kindle={**KINDLE, "effect": steps}, **{"Fire Titan": titan}))
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert offered(s) == "Fire Titan"
    do(s, "yes")
    assert s.gems == [2, 2] and s.dice[0] == dice + 1


def test_what_a_step_sets_off_happens_before_the_next_step() -> None:
    steps = [TAKE_GEM, {"verb": "take", "what": "card"}]
    s = table(heaven={0: ["Kindle", "Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3],
              cards=deck_with(Kindle={**KINDLE, "effect": steps},
                              Gnome=watcher({"verb": "take", "what": "gem", "owner": "white"}, "inclusive",
                                            {"verb": "take", "what": "die"})))
    rolled(s, 1)
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert offered(s) == "Gnome"
    do(s, "yes")
    took = [k for k in kinds(s) if k in ("took", "took_card")]
    assert took[-3:] == ["took", "took", "took_card"]  # the gem, Gnome's die, then the card


def test_a_chained_ability_survives_json_in_the_middle() -> None:
    steps = [{"verb": "discard", "what": "card"}, {"verb": "take", "what": "die"}]
    s = table(heaven={0: ["Kindle", "Tide", "Smite"]}, gems=[3, 3], cards=deck_with(Kindle={**KINDLE, "effect": steps}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay the rest with gems", "yes")
    assert isinstance(s.decision, ChooseCard)
    back = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert texts(back) == texts(s)
    back.apply("choose Smite")
    assert back.dice[0] == s.dice[0] + 1 and names(back, back.heaven[0]) == ["Tide"]


# -- the turn's actions as activities --------------------------------------------------------------------

ROLL = {"verb": "discard", "what": "die", "owner": "white"}
GEM_ONTO = {"verb": "move", "what": "gem", "from_owner": "white", "to_area": "earth", "to_owner": "white"}
PAY_GEMS = {"verb": "move", "what": "gem", "from_owner": "white", "to_area": "middle"}
PAY_CARD = {"verb": "move", "what": "gem card", "from_area": "heaven", "from_owner": "white", "to_area": "hell"}
SUMMON = {"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "white", "to_area": "earth",
          "to_owner": "white"}
CAST = {**SUMMON, "what": "spell card"}


def test_rolling_answered_inclusively() -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3], cards=deck_with(Gnome=watcher(ROLL, "inclusive")))
    do(s, "roll a die")
    assert offered(s) == "Gnome"
    do(s, "yes")
    assert s.gems[0] == 4 and isinstance(s.decision, UseRoll) and s.dice[0] == 0
    assert kinds(s)[-1] == "rolled"


def test_rolling_answered_exclusively_spends_the_die() -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3], dice=[2, 0],
              cards=deck_with(Gnome=watcher(ROLL, "exclusive")))
    middle = s.middle
    do(s, "roll a die")
    assert offered(s) == "Gnome"
    do(s, "yes")
    assert s.gems[0] == 4 and s.dice[0] == 1 and s.middle == middle + 1
    assert isinstance(s.decision, Turn) and "rolled" not in kinds(s)


def test_an_opponents_roll_answered() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Smite"]}, earth={1: {"Gnome": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher({**ROLL, "owner": "black"}, "inclusive")))
    do(s, "roll a die")
    assert offered(s) == "Gnome" and s.decision is not None and s.decision.seat == 1
    do(s, "yes")
    assert s.gems == [3, 4] and isinstance(s.decision, UseRoll)


@pytest.mark.parametrize("kind", ["inclusive", "exclusive"])
def test_activation_answered(kind: str) -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1, "Golem": 0}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher(GEM_ONTO, kind)))
    rolled(s, 1)
    dice = s.dice[0]
    do(s, "activate Golem")
    assert offered(s) == "Gnome"
    do(s, "yes")
    golem = cid(s, "Golem")
    if kind == "inclusive":  # the gem went onto Golem, and Gnome gave one
        assert s.charge[golem] == 1 and s.gems[0] == 3
    else:  # instead: Golem stays inactive, the gem taken instead; the die is spent
        assert s.charge[golem] == 0 and s.gems[0] == 4
    assert s.dice[0] == dice


@pytest.mark.parametrize("kind", ["inclusive", "exclusive"])
def test_level_up_answered(kind: str) -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1, "Golem": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher(GEM_ONTO, kind), Golem={"level": 3}))
    rolled(s, 2)
    do(s, "level up Golem")
    assert offered(s) == "Gnome"
    do(s, "yes")
    assert s.charge[cid(s, "Golem")] == (2 if kind == "inclusive" else 1)


@pytest.mark.parametrize("kind", ["inclusive", "exclusive"])
def test_paying_with_gems_answered(kind: str) -> None:
    s = table(heaven={0: ["Kindle", "Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher(PAY_GEMS, kind), Kindle={**KINDLE, "effect": {"verb": "take", "what": "die"}}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay the rest with gems")
    assert offered(s) == "Gnome"
    do(s, "yes")
    if kind == "inclusive":  # paid, a gem back from Gnome, and Kindle arrives
        assert s.gems[0] == 3 and offered(s) == "Kindle"
    else:  # the payment replaced: Kindle is not paid for and goes back to Heaven
        assert s.gems[0] == 4 and "Kindle" in names(s, s.heaven[0]) and isinstance(s.decision, Turn | None)
        assert "not_arrived" in kinds(s)


@pytest.mark.parametrize("kind", ["inclusive", "exclusive"])
def test_paying_with_a_gem_card_answered(kind: str) -> None:
    s = table(heaven={0: ["Kindle", "Ember Shard", "Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher(PAY_CARD, kind), Kindle={**KINDLE, "effect": {"verb": "take", "what": "die"}},
                              **{"Ember Shard": EMBER}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay with Ember Shard")
    assert offered(s) == "Gnome"
    do(s, "yes")
    assert s.gems[0] == 4
    if kind == "inclusive":
        assert "Ember Shard" in names(s, s.hell) and offered(s) == "Kindle"
    else:
        assert names(s, s.heaven[0]) == ["Ember Shard", "Kindle", "Tide"]


def test_a_payment_in_two_parts_answered_each_time() -> None:
    s = table(heaven={0: ["Kindle", "Ember Shard", "Tide"]}, earth={0: {"Gnome": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher(PAY_CARD, "inclusive"), Kindle={"cost": ["fire", "fire"], "effect": TAKE_GEM},
                              **{"Ember Shard": EMBER}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay with Ember Shard", "yes")
    assert isinstance(s.decision, Pay) and s.decision.remaining[0] == 1
    do(s, "pay the rest with gems")
    assert offered(s) == "Kindle"


@pytest.mark.parametrize(("activity", "card", "kind"), [
    (SUMMON, "Golem", "inclusive"), (SUMMON, "Golem", "exclusive"), (CAST, "Kindle", "inclusive"),
    (CAST, "Kindle", "exclusive")])
def test_summoning_and_casting_answered(activity: dict[str, Any], card: str, kind: str) -> None:
    s = table(heaven={0: [card, "Tide"]}, earth={0: {"Gnome": 1}}, gems=[5, 3],
              cards=deck_with(Gnome=watcher(activity, kind), Kindle={**KINDLE, "effect": {"verb": "take", "what": "die"}},
                              Golem={"cost": ["earth"]}))
    rolled(s, 6)
    do(s, f"{'summon' if card == 'Golem' else 'cast'} {card}", "pay the rest with gems")
    if kind == "inclusive" and card == "Kindle":
        do(s, "no")  # the spell's own effect comes first
    assert offered(s) == "Gnome"
    do(s, "yes")
    assert s.gems[0] == 5
    assert (card in names(s, s.heaven[0])) == (kind == "exclusive")


def test_the_loop_rule_over_a_chain_of_two_figures() -> None:
    # Gnome: whenever you take a gem, also put a gem onto a figure; Golem: whenever a gem is put onto
    # your figure, also take a gem. Gnome would answer Golem's gem again: the loop rule stops it.
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1, "Golem": 1}}, gems=[3, 3],
              cards=deck_with(Gnome=watcher({"verb": "take", "what": "gem", "owner": "white"}, "inclusive", GEM_ONTO, 3),
                              Golem=watcher(GEM_ONTO, "inclusive", TAKE_GEM, 3)))
    start(s, 0, TAKE_GEM)
    assert offered(s) == "Gnome"
    do(s, "yes", "choose Golem")
    assert offered(s) == "Golem"
    do(s, "yes")
    assert isinstance(s.decision, Turn)  # neither fires again in this effect sequence
    assert s.gems[0] == 4 and s.charge[cid(s, "Golem")] == 2


# -- operators and components the base deck does not use ----------------------------------------------------


def test_discard_a_die_mine_and_an_opponents() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Smite"]}, dice=[2, 2])
    start(s, 0, {"verb": "discard", "what": "die"})
    start(s, 0, {"verb": "discard", "what": "die", "owner": "black", "n": 2})
    assert s.dice == [1, 0] and s.middle == 5


def test_discard_my_own_gem() -> None:
    s = table(heaven={0: ["Tide"]}, gems=[3, 3])
    start(s, 0, {"verb": "discard", "what": "gem", "n": 2})
    assert s.gems == [1, 3]


def test_take_a_card_as_an_effect_mine_and_an_opponents() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Smite", "Curse"]}, stack_top=["Kindle"])
    start(s, 0, {"verb": "take", "what": "card"})
    start(s, 0, {"verb": "take", "what": "card", "owner": "black"})
    assert len(s.heaven[0]) == 3 and "Kindle" in names(s, s.heaven[0]) and len(s.heaven[1]) == 1


def test_take_a_figure_card_from_an_opponent_at_random_and_privately() -> None:
    s = table(3, heaven={0: ["Tide"], 1: ["Smite", "Golem", "Curse"], 2: ["Kindle"]})
    start(s, 0, {"verb": "take", "what": "figure card", "owner": "black"})
    do(s, "opponent seat 1")  # (both are offered: the types in their Heavens are hidden)
    assert names(s, s.heaven[0]) == ["Golem", "Tide"]
    seen = {viewer: " ".join(str(e.data) for e in s.events_for(viewer)) for viewer in (0, 1, 2, None)}
    assert "Golem" in seen[0] and "Golem" in seen[1] and "Golem" not in seen[2] and "Golem" not in seen[None]
    assert "Golem" not in json.dumps(s.observation(2)) and "Golem" not in json.dumps(s.observation(None))


@pytest.mark.parametrize(("what", "left"), [("figure card", ["Ember Shard", "Tide"]),
                                           ("spell card", ["Ember Shard", "Golem"])])
def test_figure_and_spell_specific_discards(what: str, left: list[str]) -> None:
    s = table(heaven={0: ["Tide", "Golem", "Ember Shard"]})
    start(s, 0, {"verb": "discard", "what": what})  # one card of the type: no question
    assert names(s, s.heaven[0]) == left


def test_an_opponents_random_spell_discarded() -> None:
    s = table(heaven={0: ["Tide"], 1: ["Smite", "Golem"]})
    start(s, 0, {"verb": "discard", "what": "spell card", "owner": "black"})
    assert names(s, s.heaven[1]) == ["Golem"]


def test_a_gem_put_onto_a_figure_by_an_effect_respects_its_level() -> None:
    s = table(heaven={0: ["Tide"]}, earth={0: {"Gnome": 1, "Golem": 0}}, gems=[3, 3],
              cards=deck_with(Gnome={"level": 1}, Golem={"level": 2}))
    start(s, 0, GEM_ONTO)  # Gnome is full (level 1): Golem is the only place, no question
    assert s.charge[cid(s, "Golem")] == 1 and s.gems[0] == 2


@pytest.mark.parametrize("raw", [
    {"verb": "move", "what": "card", "from_area": "heaven", "from_owner": "white", "to_area": "hell"},
    {"verb": "move", "what": "gem card", "from_area": "heaven", "from_owner": "black", "to_area": "heaven",
     "to_owner": "white"},
    {"verb": "move", "what": "spell card", "from_area": "hell", "to_area": "earth", "to_owner": "white"},
    {"verb": "move", "what": "card", "from_area": "earth", "from_owner": "white", "to_area": "hell"},
])
def test_moves_the_base_deck_does_not_use(raw: dict[str, Any]) -> None:
    s = table(heaven={0: ["Tide", "Ember Shard"], 1: ["Leaf Shard"]}, earth={0: {"Gnome": 0}}, hell=["Smite"],
              cards=deck_with(Smite={"effect": {"verb": "take", "what": "die"}}))
    events = len(kinds(s))
    start(s, 0, raw)
    if isinstance(s.decision, ChooseCard):
        do(s, s.legal_actions()[0].text)
    if s.decision is not None and s.decision.kind == "use_ability":
        do(s, "yes")  # Smite arriving on my Earth comes into effect
    assert {"moved", "arrived"} & set(kinds(s)[events:])


# -- refusals ---------------------------------------------------------------------------------------


def _spell(effect: Any) -> list[dict[str, Any]]:
    return [{"name": "Spark", "type": "spell", "element": "fire", "cost": ["fire"], "effect": effect}]


def _figure(when: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": "Spark", "type": "figure", "element": "fire", "cost": ["fire"], "level": 1, "kind": "inclusive",
             "when": when, "effect": TAKE_GEM}]


FORBIDDEN_EFFECTS = [r for r in language_rows() if r.as_effect is not None]
FORBIDDEN_ACTIVITIES = [r for r in language_rows() if r.as_activity is not None]


@pytest.mark.parametrize("row", FORBIDDEN_EFFECTS, ids=lambda r: f"{r.operator}-{r.what}-{r.source}-{r.target}")
def test_every_forbidden_effect_is_refused_naming_the_rule(row: Any) -> None:
    assert row.as_effect is not None
    with pytest.raises(CardFileError) as err:
        build(_spell([TAKE_GEM, row.raw]), "card file my.toml")
    message = str(err.value)
    assert message.startswith("card file my.toml: card 'Spark': field 'effect' step 2")
    assert row.as_effect.split(":")[0] in message


@pytest.mark.parametrize("row", FORBIDDEN_ACTIVITIES, ids=lambda r: f"{r.operator}-{r.what}-{r.source}-{r.target}")
def test_every_activity_that_never_happens_is_refused(row: Any) -> None:
    assert row.as_activity is not None
    with pytest.raises(CardFileError) as err:
        build(_figure(row.raw), "card file my.toml")
    assert "card file my.toml: card 'Spark': field 'when'" in str(err.value)


@pytest.mark.parametrize(("effect", "message"), [
    ([], "field 'effect' must be a table or a list of 1 to 4 tables"),
    ([TAKE_GEM] * 5, "field 'effect' must be a table or a list of 1 to 4 tables"),
    ([TAKE_GEM, {"verb": "steal"}], "field 'effect' step 2: field 'verb' must be one of take, discard, move"),
    ({"verb": "move", "what": "figure card", "from_area": "heaven", "from_owner": "black", "to_area": "earth",
      "to_owner": "white"}, "an opponent's Heaven is hidden"),
    ({"verb": "move", "what": "spell card", "from_area": "hell", "to_area": "earth", "to_owner": "black"},
     "\"Whenever a card is played, it is put on Earth\""),
    ({"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "white", "to_area": "heaven",
      "to_owner": "black"}, "\"Whenever a card leaves Earth, it is sent to Hell\""),
    ({"verb": "take", "what": "spell card"}, "the card stack is face down"),
    ({"verb": "move", "what": "gem", "from_owner": "white", "to_area": "middle"}, "only as payment"),
    ({"verb": "move", "what": "die", "from_owner": "white", "to_area": "middle"}, "never moved between areas"),
])
def test_refusals_name_file_card_field_and_rule(effect: Any, message: str) -> None:
    with pytest.raises(CardFileError) as err:
        build(_spell(effect), "card file my.toml")
    assert str(err.value).startswith("card file my.toml: card 'Spark': field 'effect'") and message in str(err.value)


def test_a_single_table_is_a_one_step_sequence() -> None:
    one = build(_spell(TAKE_GEM)).cards[0]
    listed = build(_spell([TAKE_GEM])).cards[0]
    assert one.effects == listed.effects and len(one.effects) == 1 and one.effect == one.effects[0]
    assert one.text() == listed.text() and one.pictograms() == listed.pictograms()


# -- the language table ---------------------------------------------------------------------------------


def test_the_language_table_in_the_docs_is_generated_from_the_code() -> None:
    text = DOCS.read_text()
    found = re.search(r"<!-- language table: generated -->\n(.*?)\n<!-- /language table -->", text, re.S)
    assert found, "docs/games/iuno_avatar.md lost its language table markers"
    assert found.group(1) == language_table(base_deck().cards), (
        "the language table is stale: print it anew with `python -m cardtable.games.iuno_avatar.docs_table` and paste it "
        "between the markers")


def test_every_row_of_the_table_is_a_combination_of_the_rulebooks_parts() -> None:
    rows = language_rows()
    assert {r.operator for r in rows} == {"take", "discard", "move"}
    assert {r.what for r in rows} == {"die", "gem", "card", "figure card", "spell card", "gem card"}
    allowed = [r for r in rows if r.as_effect is None]
    # each allowed effect reads, draws and parses as a one-step spell
    for r in allowed:
        card = build(_spell(r.raw)).cards[0]
        assert card.text() and card.pictograms()


# -- a deck that uses the new language, through the conformance checks --------------------------------

#: figures and spells rewritten to use sequences, the turn's actions as activities and typed takes
LANGUAGE_DECK = deck_with(
    Kindle={"effect": TWO_STEPS},
    Smite={"effect": [{"verb": "take", "what": "spell card", "owner": "black"},
                      {"verb": "discard", "what": "die", "owner": "black"}]},
    Tide={"effect": [{"verb": "discard", "what": "figure card"}, GEM_ONTO]},
    Siphon={"effect": {"verb": "take", "what": "card", "owner": "black"}},
    Gnome=watcher(ROLL, "inclusive"),
    Undine=watcher(ROLL, "exclusive"),
    Salamander=watcher(PAY_GEMS, "inclusive"),
    Seraph=watcher(PAY_CARD, "exclusive", {"verb": "discard", "what": "card"}),
    Golem=watcher(GEM_ONTO, "inclusive", {"verb": "take", "what": "figure card", "owner": "black"}, 2),
    Unicorn=watcher({**GEM_ONTO, "from_owner": "black", "to_owner": "black"}, "exclusive",
                    [{"verb": "discard", "what": "gem", "owner": "black"}, TAKE_GEM]),
    Kraken=watcher({**CAST, "from_owner": "black", "to_owner": "black"}, "inclusive",
                   {"verb": "move", "what": "gem card", "from_area": "heaven", "from_owner": "black", "to_area": "hell"}),
)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 1), (2, 2), (3, 3), (3, 4)])
def test_a_deck_using_the_new_language_passes_the_conformance_checks(players: int, seed: int) -> None:
    # invariants, clone, JSON, determinize, no hidden card in another seat's observation or log,
    # replay from seed and actions: tests/conformance/checks.py
    from collections import Counter

    from tests.conformance.checks import play_and_check

    counters: Counter[str] = Counter()
    play_and_check("iuno_avatar", {"players": players, "turn_limit": 60, "cards": LANGUAGE_DECK}, seed,
                   heavy_every=5, counters=counters)
    assert counters["games"] == 1


def test_a_payment_whose_rest_can_no_longer_be_paid_sends_the_card_back() -> None:
    # Gnome: whenever you pay with a gem card, also discard two gems: then Kindle's second Fire
    # cannot be paid; the card goes back to Heaven, the gem card paid is spent
    s = table(heaven={0: ["Kindle", "Ember Shard", "Tide"]}, earth={0: {"Gnome": 1}}, gems=[2, 3],
              cards=deck_with(Gnome=watcher(PAY_CARD, "inclusive", {"verb": "discard", "what": "gem", "n": 2}),
                              Kindle={"cost": ["fire", "fire"], "effect": TAKE_GEM}, **{"Ember Shard": EMBER}))
    rolled(s, 1)
    do(s, "cast Kindle", "pay with Ember Shard", "yes")
    assert s.gems[0] == 0 and names(s, s.heaven[0]) == ["Kindle", "Tide"] and "Ember Shard" in names(s, s.hell)
    assert s.decision is None or s.decision.kind != "pay"


def test_a_card_of_a_type_from_an_opponents_heaven_is_offered_by_what_the_player_sees() -> None:
    # seat 1 holds no spell card, seat 2 one: both are offered (their Heavens' types are hidden);
    # seat 1 chosen, nothing happens and nothing answers it
    s = table(3, heaven={0: ["Tide"], 1: ["Golem"], 2: ["Smite", "Regrowth"]}, earth={0: {"Gnome": 1}},
              cards=deck_with(Gnome=watcher({"verb": "take", "what": "card", "owner": "white"}, "inclusive")))
    start(s, 0, {"verb": "take", "what": "spell card", "owner": "black"})
    assert texts(s) == ["opponent seat 1", "opponent seat 2"]
    det = s.determinize(0, 7)
    assert texts(det) == texts(s)
    do(s, "opponent seat 1")
    assert isinstance(s.decision, Turn) and names(s, s.heaven[0]) == ["Tide"] and names(s, s.heaven[1]) == ["Golem"]
    start(s, 0, {"verb": "take", "what": "spell card", "owner": "black"})
    do(s, "opponent seat 2")
    assert offered(s) == "Gnome"  # a card taken: Gnome answers
    assert len(s.heaven[0]) == 2 and len(s.heaven[2]) == 1


def test_the_card_file_example_in_the_docs_is_a_valid_card_file(tmp_path: Path) -> None:
    from cardtable.games.iuno_avatar.cards import read_file

    example = re.search(r"```toml\n(.*?)```", DOCS.read_text(), re.S)
    assert example, "docs/games/iuno_avatar.md lost its card file example"
    path = tmp_path / "example.toml"
    path.write_text(example.group(1))
    spark, imp = build(read_file(path)).cards
    assert len(spark.effects) == 2 and imp.when is not None and imp.kind == "exclusive"
    assert spark.text() == ("On arrival, you may discard a gem back to the purse, then take two dice from the middle. "
                            "Then it goes to Hell.")
