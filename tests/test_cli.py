"""The terminal: play against bots, bad input explained, replays stepped through."""

import json

import pytest
from typer.testing import CliRunner

from cardtable.cli import _load, app

_load()
runner = CliRunner()


@pytest.fixture(autouse=True)
def saves(tmp_path, monkeypatch):
    """A game left in the middle is saved: here, not in the home directory."""
    monkeypatch.setenv("CARDTABLE_SAVES", str(tmp_path / "saves"))
    return tmp_path / "saves"


def test_games_lists_juno() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and "juno" in result.output and "JUNO · 2–10 players" in result.output


def test_games_in_an_80_column_terminal_keeps_the_description_readable(monkeypatch) -> None:
    """Issue 36: five columns squeezed each description to about 18 characters; Ivion said "2-2"."""
    from rich.console import Console

    from cardtable.commands import play

    monkeypatch.setattr(play, "console", Console(width=80, highlight=False))
    out = runner.invoke(app, ["games"]).output
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Shed your hand by matching number, color or symbol; first to" in out  # one line of 61 characters
    assert "Ivion · 2 players" in out and "2-2" not in out and "2–2" not in out


def test_play_a_whole_game_by_numbers_and_save_the_replay(tmp_path) -> None:
    path = tmp_path / "r.json"
    # Always choose the first listed action: a full single round ends.
    result = runner.invoke(app, ["play", "juno", "-p", "2", "-o", "match=false", "--seed", "3",
                                 "--save", str(path), "--name", "Ann"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert "your move>" in result.output and "Your hand:" in result.output
    # one name per seat everywhere; the result as places and points, never RL returns
    assert "You are Ann." in result.output and "Ann (you)" in result.output and "Bot 2" in result.output
    assert "seat 0" not in result.output and "seat 1" not in result.output
    assert "1st" in result.output and "2nd" in result.output and "points" in result.output
    assert "+1.00" not in result.output and "-1.00" not in result.output
    replay = json.loads(path.read_text())
    assert replay["game"] == "juno" and replay["seed"] == 3 and replay["actions"] and replay["names"] == ["Ann", "Bot 2"]


def test_seats_count_from_1_as_the_names_do(tmp_path) -> None:
    """`--seat 2` is Player 2, the second to play (issue 21: one identity per seat)."""
    path = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "juno", "-p", "2", "-o", "match=false", "--seed", "3", "--seat", "2",
                                 "--save", str(path)], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "You are Player 2." in " ".join(result.output.split()) and "Player 2 (you)" in result.output
    assert json.loads(path.read_text())["names"] == ["Bot 1", "Player 2"]
    for bad in ("0", "3"):
        refused = runner.invoke(app, ["play", "juno", "-p", "2", "--seat", bad])
        assert refused.exit_code != 0 and "--seat must be between 1 and 2" in refused.output


def test_bad_input_is_explained_and_nothing_is_lost() -> None:
    result = runner.invoke(app, ["play", "juno", "-p", "2", "--seed", "3"], input="99\nplay purple 3\nchoose red\nq\n")
    assert "Choose a number from 1 to" in result.output
    assert "is not a JUNO action" in result.output
    assert "Not allowed:" in result.output
    assert "You left the table." in result.output
    assert "-3.json" in result.output.replace("\n", "")  # and where the game was saved


def test_bad_options_are_explained() -> None:
    result = runner.invoke(app, ["play", "juno", "--players", "12"])
    assert result.exit_code == 2 and "less than or equal to 10" in result.output
    result = runner.invoke(app, ["play", "juno", "-o", "nonsense"])
    assert result.exit_code != 0 and "key=value" in result.output


def test_replay_command_shows_the_game(tmp_path) -> None:
    path = tmp_path / "r.json"
    runner.invoke(app, ["play", "juno", "-p", "3", "-o", "match=false", "--seed", "8", "--watch",
                        "--save", str(path)])
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Replay of" in result.output and "went out" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read replay" in result.output


def test_a_name_that_is_also_a_cards_word_does_not_change_a_typed_move() -> None:
    # seed 13: seat 0 may play red 2; a player called "Red" typing it plays the card (not "seat 0 2")
    result = runner.invoke(app, ["play", "juno", "-p", "2", "--seed", "13", "--name", "Red"], input="play red 2\nq\n")
    assert "Red played red 2" in result.output, result.output


def test_ivion_result_has_no_empty_points_column(monkeypatch) -> None:
    """Issue 36: a hero is defeated, nobody scores points: the result lists places and players only."""
    from rich.console import Console

    from cardtable.commands import play

    monkeypatch.setattr(play, "console", Console(width=100, highlight=False))
    out = runner.invoke(app, ["play", "ivion", "--watch", "--seed", "1", "--bots", "random"]).output
    result = out[out.rindex("Result"):]
    assert "place" in result and "player" in result and "1st" in result and "points" not in result


def test_ctrl_c_while_the_commands_load_exits_130_without_a_traceback(monkeypatch, capsys) -> None:
    import importlib

    from cardtable import cli

    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib, "import_module", interrupted)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 130
    assert "Traceback" not in capsys.readouterr().err
