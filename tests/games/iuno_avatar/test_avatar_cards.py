"""Every one of the 54 cards in play: each spell cast and its effect carried out, each figure's
effect answering its activity, each gem card paying; plus the card file (its texts, pictograms and
the errors a bad file gets)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core import CardFileError, IllegalAction, OptionError
from cardtable.core.effects import Context
from cardtable.games.iuno_avatar.cards import Card, base_deck, build
from cardtable.games.iuno_avatar.decisions import EFFECTS, Turn
from cardtable.games.iuno_avatar.language import ELEMENTS, VERBS
from cardtable.games.iuno_avatar.state import AvatarState

from .helpers import do, rolled, table, the_deck

DECK = base_deck().cards
SPELLS = [c.name for c in DECK if c.spell]
FIGURES = [c.name for c in DECK if c.figure]
GEM_CARDS = [c.name for c in DECK if c.gem]
EXERCISED = {"spell": SPELLS, "figure": FIGURES, "gem": GEM_CARDS}


def rich_table(subject: str) -> AvatarState:
    """A table where every effect can do something: each player holds dice, gems, two cards of each
    type and an inactive figure on Earth; Hell holds one card of each type."""
    taken = {subject}
    pick: dict[str, list[str]] = {t: [c.name for c in DECK if c.type == t and c.name != subject] for t in ("figure", "spell", "gem")}

    def take(t: str) -> str:
        name = next(n for n in pick[t] if n not in taken)
        taken.add(name)
        return name

    # two of each type: an effect's later steps still find one after an earlier step or the activity took one
    heaven = {p: [take(t) for t in ("figure", "spell", "gem") for _ in range(2)] for p in range(2)}
    earth = {p: {take("figure"): 0} for p in range(2)}
    hell = [take("figure"), take("spell"), take("gem")]
    return table(heaven=heaven, earth=earth, hell=hell, gems=[5, 5], dice=[2, 2], cards=the_deck())


def where(s: AvatarState, area: str, seat: int) -> int:
    return {"heaven": len(s.heaven[seat]), "earth": len(s.figures(seat)), "hell": len(s.hell)}[area]


def expected(s: AvatarState, effects: Any, me: int, opp: int) -> dict[tuple[str, int], int]:
    """What an effect's steps change together: (quantity, seat) -> difference. A spell a step puts
    on Earth comes into effect (declined here) and goes to Hell; a gem moved onto a figure leaves
    its player's gems."""
    out: dict[tuple[str, int], int] = {}
    for effect in effects:
        for key, n in _expected_step(effect, me, opp).items():
            out[key] = out.get(key, 0) + n
    return out


def _expected_step(effect: Any, me: int, opp: int) -> dict[tuple[str, int], int]:
    p = effect.params
    out: dict[tuple[str, int], int] = {}

    def add(key: tuple[str, int], n: int) -> None:
        out[key] = out.get(key, 0) + n

    if effect.verb == "move" and p.what == "gem":
        add(("gems", me), -p.n)
    elif effect.verb == "take":
        pool = {"die": "dice", "gem": "gems"}.get(p.what, "heaven")
        add((pool, me), p.n)
        if p.owner == "black":
            add((pool, opp), -p.n)
    elif effect.verb == "discard":
        pool = {"die": "dice", "gem": "gems"}.get(p.what, "heaven")
        add((pool, me if p.owner == "white" else opp), -p.n)
        if pool == "heaven":
            add(("hell", -1), 1)
    else:
        def seat(owner: str | None) -> int:
            return -1 if owner is None else (me if owner == "white" else opp)
        add((p.from_area, seat(p.from_owner)), -1)
        if p.what == "spell card" and p.to_area == "earth":
            add(("hell", -1), 1)  # it comes into effect, then goes to Hell
        else:
            add((p.to_area, seat(p.to_owner)), 1)
    return out


def measure(s: AvatarState, keys: list[tuple[str, int]]) -> dict[tuple[str, int], int]:
    out = {}
    for q, seat in keys:
        if q in ("dice", "gems"):
            out[(q, seat)] = getattr(s, q)[seat]
        else:
            out[(q, seat)] = where(s, q, max(seat, 0))
    return out


def settle(s: AvatarState, subject: str) -> None:
    """Answer what comes before `subject`'s effect is offered: other effects declined, choices made."""
    for _ in range(20):
        d = s.decision
        if d is None or d.kind == "turn":
            return
        if d.kind == "use_ability":
            if s.card(d.ability.card).name == subject:  # type: ignore[attr-defined]
                return
            s.apply("no")
        elif d.kind == "choose_card":
            legal = [a for a in s.legal_actions() if s.card(a.card).name != subject]  # type: ignore[attr-defined]
            s.apply(legal[0] if legal else s.legal_actions()[0])
        else:
            s.apply(s.legal_actions()[0])


def finish(s: AvatarState) -> None:
    for _ in range(20):
        d = s.decision
        if d is None or d.kind == "turn":
            return
        s.apply("no" if d.kind == "use_ability" else s.legal_actions()[0])


def opponent_of(s: AvatarState, me: int) -> int:
    return 1 - me


@pytest.mark.parametrize("name", SPELLS)
def test_each_spell(name: str) -> None:
    s = rich_table(name)
    s.heaven[0].append(s.game.deck.by_name(name).index)
    s.stack.remove(s.game.deck.by_name(name).index)
    rolled(s, 6)
    do(s, f"cast {name}", "pay the rest with gems")
    card = s.card(s.game.deck.by_name(name).index)
    settle(s, name)
    assert s.decision is not None and s.decision.kind == "use_ability", f"{name}: its effect was not offered"
    want = expected(s, card.effects, 0, 1)
    before = measure(s, list(want))
    s.apply("yes")
    finish(s)
    after = measure(s, list(want))
    if ("hell", -1) in want:
        after[("hell", -1)] -= 1  # the spell itself went to Hell after resolving
    else:
        want[("hell", -1)] = 1
        before[("hell", -1)] = len(s.hell) - 1
        after[("hell", -1)] = len(s.hell)
    assert {k: after[k] - before[k] for k in want} == want, name
    assert isinstance(s.decision, Turn) and name in [s.card(c).name for c in s.hell]


def recolour(effect: Any, doer: int, me: int, opp: int) -> dict[str, Any]:
    """A figure's activity (colours from its controller `me`) as an effect `doer` carries out."""
    p = effect.params.model_dump()

    def colour(owner: str | None) -> str | None:
        if owner is None:
            return None
        seat = me if owner == "white" else opp
        return "white" if seat == doer else "black"

    if effect.verb == "move":
        p["from_owner"], p["to_owner"] = colour(p["from_owner"]), colour(p["to_owner"])
        return {"verb": "move", **{k: v for k, v in p.items() if v is not None}}
    # a card of a type is taken from an opponent's Heaven (the stack is face down: a white take is
    # "a card"), so "you take a gem card" happens as the doer's black take
    p["owner"] = "black" if effect.verb == "take" and p["what"].endswith(" card") else "white"
    return {"verb": effect.verb, **p}


@pytest.mark.parametrize("name", FIGURES)
def test_each_figure(name: str) -> None:
    s = rich_table(name)
    card = s.game.deck.by_name(name)
    s.stack.remove(card.index)
    s.earth[0].append(card.index)
    s.charge[card.index] = 1
    s.purse -= 1
    # someone does what the figure answers: white in its `when` is its controller (seat 0), black seat 1
    when = card.when
    p = when.params
    if when.verb == "move":
        owners = [o for o in (p.from_owner, p.to_owner) if o is not None]
        doer = 0 if "white" in owners else 1
    else:
        doer = 0 if p.owner == "white" else 1
    if when.verb == "move" and p.from_area == "heaven":  # give the doer a card of that type to move
        kind = p.what.split()[0]
        if kind != "card":
            extra = next(c for c in s.stack if s.card(c).type == kind)
            s.stack.remove(extra)
            s.heaven[0 if p.from_owner == "white" else 1].append(extra)  # the Heaven it leaves
    s.pending = []
    s._legal = None
    EFFECTS.start(s, VERBS.parse(recolour(when, doer, 0, 1), "test"), Context(doer))
    settle(s, name)
    assert s.decision is not None and s.decision.kind == "use_ability", f"{name}: its effect was not offered"
    assert s.decision.ability.instead == (card.kind == "exclusive")  # type: ignore[attr-defined]
    want = expected(s, card.effects, 0, 1)
    before = measure(s, list(want))
    s.apply("yes")
    settle(s, "")
    finish(s)
    after = measure(s, list(want))
    if when.verb == "move" and p.what == "spell card" and p.to_area == "earth" and ("hell", -1) in want:
        after[("hell", -1)] -= 1  # the spell whose cast the figure answered went to Hell after resolving
    assert {k: after[k] - before[k] for k in want} == want, name


@pytest.mark.parametrize("name", GEM_CARDS)
def test_each_gem_card_pays(name: str) -> None:
    gem = base_deck().by_name(name)
    # a figure or spell whose cost holds at least as many symbols of its element
    target = next(c for c in DECK if not c.gem and c.cost[ELEMENTS.index(gem.element)] >= gem.symbols)
    s = table(heaven={0: [target.name, name, "Tide" if target.name != "Tide" else "Smite"]}, gems=[4, 3],
              cards=the_deck())
    rolled(s, 6)
    action = f"summon {target.name}" if target.figure else f"cast {target.name}"
    do(s, action)
    assert f"pay with {name}" in [a.text for a in s.legal_actions()]
    do(s, f"pay with {name}")
    assert name in [s.card(c).name for c in s.hell]
    owed = sum(target.cost) - gem.symbols
    assert s.decision is not None
    if owed:
        do(s, "pay the rest with gems")
        assert s.gems[0] == 4 - owed


def test_every_card_of_the_deck_is_exercised() -> None:
    assert len(DECK) == 54
    assert sorted(n for names in EXERCISED.values() for n in names) == sorted(c.name for c in DECK)
    assert {t: len(v) for t, v in EXERCISED.items()} == {"spell": 18, "figure": 18, "gem": 18}
    for element in ELEMENTS:  # 3 figures, 3 spells, 3 gem cards per element (NOTES.md)
        for t in ("figure", "spell", "gem"):
            assert sum(1 for c in DECK if c.element == element and c.type == t) == 3


# -- the card file ------------------------------------------------------------------------------


def test_card_text_and_pictograms_come_from_the_data() -> None:
    sal = base_deck().by_name("Salamander")
    assert sal.text() == ("Inclusive, while it has a gem: whenever you take a gem, you may also take a die from "
                          "the middle.")
    assert [(p["kind"], p["name"]) for p in sal.pictograms()] == [
        ("operator", "take"), ("component", "gem"), ("marker", "circle"), ("operator", "take"), ("component", "die")]
    rockslide = base_deck().by_name("Rockslide")  # its first step: an opponent's figure from their Earth to Hell
    assert [p.get("owner") for p in rockslide.pictograms()[:4]] == ["black", None, None, None]
    assert [p["name"] for p in rockslide.pictograms()[:5]] == ["earth", "figure", "move", "hell", "then"]
    assert base_deck().by_name("Gnome").pictograms()[2] == {"kind": "marker", "name": "rhombus"}  # exclusive
    assert base_deck().by_name("Plunder").pictograms()[-1]["name"] == "discard"


def _deck_with(change: dict[str, Any]) -> list[dict[str, Any]]:
    raw = [{"name": "Spark", "type": "spell", "element": "fire", "cost": ["fire"],
            "effect": {"verb": "take", "what": "gem"}}]
    raw[0].update(change)
    return raw


@pytest.mark.parametrize(("change", "message"), [
    ({"effect": {"verb": "steal", "what": "gem"}}, "card 'Spark': field 'effect': field 'verb' must be one of take, discard, move"),
    ({"effect": {"verb": "take", "what": "coin"}}, "card 'Spark': field 'effect': verb 'take': field 'what'"),
    ({"effect": {"verb": "take", "what": "gem", "n": 9}}, "field 'n'"),
    ({"element": "air"}, "card 'Spark': field 'element' must be one of fire"),
    ({"cost": []}, "card 'Spark': field 'cost'"),
    ({"level": 2}, "card 'Spark': unknown field 'level'"),
    ({"type": "figure", "level": 1, "kind": "inclusive"}, "card 'Spark': field 'when' is missing"),
    ({"effect": {"verb": "move", "what": "figure card", "from_area": "hell", "to_area": "earth", "to_owner": "black"}},
     "\"Whenever a card is played, it is put on Earth\" (the player's own): to_owner must be white"),
    ({"effect": {"verb": "move", "what": "card", "from_area": "hell", "from_owner": "white", "to_area": "earth",
                 "to_owner": "white"}}, "Hell is shared"),
    # "Whenever a card leaves Earth, it is sent to Hell"
    ({"effect": {"verb": "move", "what": "figure card", "from_area": "earth", "from_owner": "black", "to_area": "heaven",
                 "to_owner": "white"}}, "\"Whenever a card leaves Earth, it is sent to Hell\": to_area must be hell"),
])
def test_bad_cards_are_refused_naming_card_and_field(change: dict[str, Any], message: str) -> None:
    with pytest.raises(CardFileError) as err:
        build(_deck_with(change), "card file my.toml")
    assert "card file my.toml" in str(err.value) and message in str(err.value)


def test_a_users_card_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    src = (Path(cardtable.games.iuno_avatar.__file__).with_name("deck.toml")).read_text()
    path.write_text(src.replace('name = "Kindle"', 'name = "Spark"'))
    game = cardtable.make("iuno_avatar", players=2, cards=str(path))
    assert "cast Spark" in [a.text for a in game.actions]
    s = game.new_state(1)
    assert s.invariants()["cards"] == 54
    bad = tmp_path / "bad.toml"
    bad.write_text(src.replace('symbols = 2', 'symbols = 7', 1))
    with pytest.raises(OptionError, match=r"bad.toml: card 'Sunfire Ruby': field 'symbols'"):
        cardtable.make("iuno_avatar", players=2, cards=str(bad))
    with pytest.raises(OptionError, match="cannot read it"):
        cardtable.make("iuno_avatar", players=2, cards=str(tmp_path / "none.toml"))


def test_card_schema_is_the_core_card_schema() -> None:
    from cardtable.core.cards import CardSchema
    assert issubclass(Card, CardSchema)


def test_a_users_deck_leaves_the_base_games_yes_and_no_alone(tmp_path: Path) -> None:
    """Every deck's actions start with the same yes / no / first objects (the effect layer offers
    them): building a second deck must not take them from the first game."""
    base = cardtable.make("iuno_avatar", players=2)
    path = tmp_path / "mine.toml"
    src = (Path(cardtable.games.iuno_avatar.__file__).with_name("deck.toml")).read_text()
    path.write_text(src.replace('name = "Kindle"', 'name = "Spark"'))
    mine = cardtable.make("iuno_avatar", players=2, cards=str(path))
    for game in (base, mine):
        yes = game.actions.parse("yes")
        assert game.action_index(yes) == 0
        state = game.new_state(3)
        with pytest.raises(IllegalAction) as err:  # no effect is offering itself at the start of a turn
            state.apply(yes)
        assert "not an action of this" not in str(err.value)
