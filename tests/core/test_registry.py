"""One registry finds every part of a game (issue 30): the spec declares them, `game_part` loads
them, and a spec that names a wrong module is refused by name."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import cardtable
from cardtable.core.encoder import Encoder
from cardtable.core.errors import CardtableError
from cardtable.core.registry import game_class, game_part, part_member, part_of
from cardtable.core.spec import OPTIONAL, PARTS
from tests.core.toy import Toy


@pytest.mark.parametrize("name", cardtable.games())
def test_every_part_a_spec_names_loads_and_defines_what_its_part_must(name: str) -> None:
    cls = game_class(name)
    for part, needs in PARTS.items():
        found = game_part(name, part)
        assert (found is None) == (not getattr(cls.spec, part)), (name, part)
        if found is None:
            continue
        assert all(callable(getattr(found, f)) for f in needs)
        if part == "encoder":
            assert issubclass(found, Encoder)


@pytest.mark.parametrize("name", cardtable.games())
def test_a_game_package_holds_no_part_its_spec_does_not_name(name: str) -> None:
    """The parts are found by declaration only: a game's text.py or deck builder that its spec
    forgot would be silently missing from the terminal, the server and the lobby."""
    cls = game_class(name)
    folder = Path(__import__(cls.__module__, fromlist=["_"]).__file__ or "").parent
    for part, needs in PARTS.items():
        module = getattr(cls.spec, part).partition(":")[0]
        for path in folder.glob("*.py"):
            if path.stem == module or not needs:
                continue
            source = path.read_text()
            assert not all(f"\ndef {f}(" in source for f in needs), (
                f"{path} defines {', '.join(needs)}, a {part} part its spec does not name")


def test_a_spec_naming_a_module_without_its_functions_is_refused_by_name() -> None:
    spec = dataclasses.replace(Toy.spec, text="toy")  # tests/core/toy.py has no render or narrate
    wrong = type("WrongToy", (Toy,), {"spec": spec, "__module__": Toy.__module__})
    with pytest.raises(CardtableError, match=r"Tuck's spec names text='toy', but tests\.core\.toy does not define render, narrate"):
        part_of(wrong, "text")
    with pytest.raises(ValueError, match="a game has no part 'txt'"):
        part_of(Toy, "txt")
    assert part_of(Toy, "text") is None


@pytest.mark.parametrize("name", cardtable.games())
def test_a_part_s_optional_functions_are_found_through_the_registry(name: str) -> None:
    """The terminal's move labels, points and the card catalogue are found by the one lookup
    (`part_member`), by the names the spec declares (`spec.OPTIONAL`), never by `hasattr`."""
    cls = game_class(name)
    for part, optional in OPTIONAL.items():
        for f in (*PARTS[part], *optional):
            found = part_member(cls, part, f)
            module = game_part(name, part)
            assert found is (None if module is None or f not in vars(module) else vars(module)[f])
            assert found is None or callable(found)
    assert part_member(cls, "text", "card_catalog") is not None  # every game's cards have their text


def test_an_optional_function_that_is_none_or_undeclared_is_refused_by_name() -> None:
    spec = dataclasses.replace(Toy.spec, text="bad_text")  # tests/core/bad_text.py: `points` is a list
    wrong = type("BadTextToy", (Toy,), {"spec": spec, "__module__": Toy.__module__})
    with pytest.raises(CardtableError, match=r"Tuck's text part tests\.core\.bad_text defines points, which must be functions"):
        part_member(wrong, "text", "points")
    with pytest.raises(ValueError, match="a text part defines no 'rules'; it defines render, narrate, choices"):
        part_member(Toy, "text", "rules")
    assert part_member(Toy, "text", "choices") is None  # the toy has no text part at all
