"""Issue 31: the server at internet scale. Each test names the hole it covers and fails without its fix."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.core import game_class, games
from cardtable.server import create_app

from .conftest import new_table

PERSON = {"kind": "person"}
TWO = [PERSON, PERSON]


@pytest.fixture
def fast(tmp_path: Path) -> Any:
    """An app on a fresh SQLite file that lets a test create as many tables as it likes."""
    with TestClient(create_app(str(tmp_path / "t.db"), create_per_minute=0)) as c:
        yield c


# -- 1. no web option is ever a file name -----------------------------------------------------


def test_hole1_no_option_of_any_game_reads_a_file(fast: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option of every game, given a file name (bare, with a suffix, absolute, in a list), is
    refused without the file system being asked about it; Ivion's `content` named 'notes' as well."""
    work = tmp_path / "cwd"
    work.mkdir()
    for name in ("notes", "notes.toml", "notes.json", ".env"):
        (work / name).write_text('[[hero]]\nname = "TOP SECRET"\nkey = "VALUE"\n')
    monkeypatch.chdir(work)
    asked: list[str] = []
    real_stat, real_open = Path.stat, Path.open

    def stat(self: Path, *a: Any, **k: Any) -> Any:
        if "notes" in str(self) or ".env" in str(self):
            asked.append(str(self))
        return real_stat(self, *a, **k)

    def open_(self: Path, *a: Any, **k: Any) -> Any:
        if "notes" in str(self) or ".env" in str(self):
            asked.append(str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "stat", stat)
    monkeypatch.setattr(Path, "open", open_)
    tried = 0
    for game in games():
        spec = game_class(game).spec
        seats = [PERSON] * spec.min_players
        for option in game_class(game).Options.model_json_schema().get("properties", {}):
            if option == "players":
                continue
            for value in ("notes", ".env", "notes.toml", str(work / "notes.json"), ["notes"], ["notes.toml", "notes"],
                          [str(work / "notes.toml")] * 2):
                r = fast.post("/api/tables", json={"game": game, "options": {option: value}, "seats": seats})
                tried += 1
                assert r.status_code != 201 or "notes" not in r.text, (game, option, value, r.text)
                assert "TOP SECRET" not in r.text and "VALUE" not in r.text and not re.search(r"line \d", r.text), r.text
    assert tried > 50
    assert asked == []
    r = fast.post("/api/tables", json={"game": "ivion", "options": {"content": ["notes"]}, "seats": TWO})
    assert r.status_code == 400 and r.json()["error"] == "bad_options"
    assert "inline" in r.json()["message"] and "never as a file name" in r.json()["message"], r.text
    # The deck builder's check reads no hero file either.
    r = fast.post("/api/games/ivion/decks", json="notes.toml")
    assert "TOP SECRET" not in r.text and asked == []


# -- 2. every text in options bounded -----------------------------------------------------------


def test_hole2_every_text_in_options_is_bounded(fast: TestClient) -> None:
    from cardtable.games.ivion.cards import base_library

    hero = base_library().heroes["Sir Edda Vane"].model_dump(mode="json")
    ok = new_table(fast, TWO, game="ivion", decks=[dict(hero, name="Edda the Long"), "Lio Marrow"])
    assert ok["id"]
    for long in (dict(hero, name="E" * 5000), dict(hero, description="x" * 5000)):
        r = fast.post("/api/tables", json={"game": "ivion", "options": {"decks": [long, "Lio Marrow"]}, "seats": TWO})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_options" and "at most 400 characters" in r.json()["message"]
    r = fast.post("/api/tables", json={"game": "juno", "options": {"variant": "v" * 1000}, "seats": TWO})
    assert r.status_code == 400 and "at most 400 characters" in r.json()["message"]
    r = fast.post("/api/games/ivion/decks", json=dict(hero, name="E" * 5000))
    assert r.status_code == 400 and "at most 400 characters" in r.json()["message"]
