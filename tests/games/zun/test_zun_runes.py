"""Rune data: the base file, user rune files, validation errors, text generated from data,
and the rules that only user runes reach ((immune) against (immune), unforced Reactions)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import cardtable
from cardtable import OptionError
from cardtable.games.zun.runes import BASE_FILE, base_set, build

from .helpers import play, position


def test_card_text_is_generated_from_the_data() -> None:
    runes = base_set()
    assert runes.by_name("Attack").text() == "Target loses 1 HP (+1 per Boost). Charms: Boost, Share, Blame, Reserve."
    assert runes.by_name("Trap").text().startswith("(forced) Target: the Action's player. Target loses 2 HP")
    assert runes.by_name("Banish").text().startswith("All Players: Discard every (ongoing) rune in play.")
    assert "(immune)" in runes.by_name("Punish").text() and "You lose 1 HP." in runes.by_name("Punish").text()
    assert all(r.text() for r in runes.runes)


def _custom(extra: str) -> str:
    return BASE_FILE.read_text() + "\n" + extra


AEGIS = """
[[rune]]
name = "Aegis"
kind = "action"
copies = 1
target = "one"
keywords = ["ongoing", "immune"]
while_in_play = [{ verb = "ward" }]

[[rune]]
name = "Smite"
kind = "action"
copies = 1
target = "one"
keywords = ["immune"]
effects = [{ verb = "lose_hp", amount = 3 }]

[[rune]]
name = "Bulwark"
kind = "reaction"
copies = 1
target = "action"
keywords = ["immune"]
effects = [{ verb = "absorb" }]

[[rune]]
name = "Backlash"
kind = "reaction"
copies = 1
target = "actor"
effects = [{ verb = "lose_hp", amount = 1 }]
"""


@pytest.fixture
def rune_file(tmp_path: Path) -> Path:
    p = tmp_path / "my_runes.toml"
    p.write_text(_custom(AEGIS))
    return p


def test_users_load_their_own_rune_file(rune_file: Path) -> None:
    g = cardtable.make("zun", players=2, runes=str(rune_file))
    assert g.rune_set.by_name("Aegis").immune and sum(g.counts) == 64
    assert "play Aegis" in [a.text for a in g.actions]


def test_newer_immune_card_wins_over_an_older_immune_one(rune_file: Path) -> None:
    """Glossary (immune)/[Ignore]: newer cards always win out over previously played (immune) cards.
    An (immune) Smite ignores Absorb; an (immune) Bulwark, played after it, wins over it."""
    runes = tomllib.loads(rune_file.read_text())["rune"]
    s = position(2, runes=runes, hands={0: ["Smite", "Attack"], 1: ["Absorb", "Bulwark"]}, hp={1: 6})
    play(s, "play Smite", "target seat 1", "react with Absorb")
    assert s.hp[1] == 3
    s = position(2, runes=runes, hands={0: ["Smite", "Attack"], 1: ["Absorb", "Bulwark"]}, hp={1: 6})
    play(s, "play Smite", "target seat 1", "react with Bulwark")
    assert s.hp[1] == 8  # absorbed: +3, capped at the top of the 5-8 tier


def test_immune_rules_between_two_immune_cards(rune_file: Path) -> None:
    """An (immune) ward played after an (immune) attack's play prevents it; an older one does not."""
    runes = tomllib.loads(rune_file.read_text())["rune"]
    # Older immune ward, newer immune attack: the attack (newer) wins.
    s = position(2, runes=runes, hands={0: ["Aegis"], 1: ["Smite"]})
    play(s, "play Aegis", "target seat 0", "no reaction", "end action phase")
    play(s, "play Smite", "target seat 0", "no reaction")
    assert s.hp[0] == 9
    # A plain ward (Defend) never stops an immune attack; it does stop a plain Attack.
    s = position(2, runes=runes, hands={0: ["Defend"], 1: ["Smite", "Attack"]})
    play(s, "play Defend", "target seat 0", "no reaction", "end action phase")
    play(s, "play Attack", "target seat 0", "no reaction", "play Smite", "target seat 0", "no reaction")
    assert s.hp[0] == 9


def test_an_unforced_reaction_can_be_reacted_to(rune_file: Path) -> None:
    """NOTES.md: a Reaction can be reacted to unless it is forced."""
    runes = tomllib.loads(rune_file.read_text())["rune"]
    s = position(2, runes=runes, hands={0: ["Attack", "Fizzle"], 1: ["Backlash"]})
    play(s, "play Attack", "target seat 1", "react with Backlash")
    assert s.decision.kind == "reaction" and s.decision.seat == 0
    play(s, "react with Fizzle", "done modifying")
    assert s.hp == [12, 11]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[[rune]]\nname = "Zap"\nkind = "action"\ntarget = "one"\neffects = [{ verb = "explode" }]', "rune 'Zap': field 'effects': field 'verb' must be one of lose_hp"),
        ('[[rune]]\nname = "Zap"\nkind = "action"\ntarget = "one"\neffects = [{ verb = "lose_hp", amount = "2" }]', "rune 'Zap': field 'effects': verb 'lose_hp': field 'amount': Input should be a valid integer (got '2')"),
        ('[[rune]]\nname = "Zap"\nkind = "spell"', "rune 'Zap': field 'kind' must be one of"),
        ('[[rune]]\nname = "Zap"\nkind = "action"\ntarget = "one"\ncharms = ["Boost"]\neffects = [{ verb = "lose_hp" }]', "(boost) needs an effect with per_boost"),
        ('[[rune]]\nname = "Attack"\nkind = "action"\ntarget = "one"\neffects = [{ verb = "lose_hp" }]', "already defined"),
        ('[[rune]]\nname = "Zap"\nkind = "action"\ntarget = "one"\nwhile_in_play = [{ verb = "ward" }]', "need the (ongoing) keyword"),
    ],
)
def test_bad_rune_files_name_file_rune_and_field(tmp_path: Path, extra: str, message: str) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(_custom(extra))
    with pytest.raises(OptionError) as err:
        cardtable.make("zun", players=2, runes=str(p))
    assert message in str(err.value) and "bad.toml" in str(err.value)


def test_missing_rune_file() -> None:
    with pytest.raises(OptionError, match="cannot read it"):
        cardtable.make("zun", runes="/no/such/runes.toml")


def test_build_rejects_an_empty_set() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        build([])
