"""The terminal as a person uses it, in a real terminal (tmux): '?' and 'info', Ctrl-C that asks
first and says where the game was saved, Zun's targets (opponents first, you marked), a refused rune
name explained; and the text helpers behind them."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable import make
from cardtable.games.juno.text import narrate
from cardtable.ui.cards import catalog, find
from cardtable.ui.names import seated
from cardtable.ui.text import narrate as narrate_named

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="no tmux (apt-get install tmux)")


class Term:
    """`cardtable ...` in a detached tmux session: type keys, read the screen and its scrollback."""

    def __init__(self, args: list[str], saves: Path) -> None:
        self.name = f"ct-{uuid.uuid4().hex[:8]}"
        # tmux starts the command from its server's environment: pass on what this test runs with
        env = [f"CARDTABLE_SAVES={saves}", "COLUMNS=150"]
        if "PYTHONPATH" in os.environ:
            env.append(f"PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])}")
        command = " ".join([*env, sys.executable, "-m", "cardtable.cli", *(shlex.quote(a) for a in args)])
        # A tmux server of its own per terminal: parallel test workers starting the one shared server
        # at the same moment can make `new-session` fail.
        subprocess.run(["tmux", "-L", self.name, "new-session", "-d", "-s", self.name, "-x", "160", "-y", "50", command], check=True)
        subprocess.run(["tmux", "-L", self.name, "set-option", "-t", self.name, "remain-on-exit", "on"], check=True)

    def screen(self) -> str:
        out = subprocess.run(["tmux", "-L", self.name, "capture-pane", "-p", "-J", "-S", "-3000", "-t", self.name],
                             capture_output=True, text=True, check=True)
        return out.stdout

    def wait(self, text: str, count: int = 1, timeout: float = 20) -> str:
        """Wait until `text` is on the screen `count` times (however lines wrap); return the screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if " ".join(screen.split()).count(text) >= count:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} (x{count}) never appeared; the screen:\n{self.screen()}")

    def type(self, line: str) -> None:
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, "-l", line], check=True)
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, "Enter"], check=True)

    def ended(self, timeout: float = 20) -> bool:
        """Whether the command has exited (its pane stays, remain-on-exit) within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(["tmux", "-L", self.name, "display-message", "-p", "-t", self.name, "#{pane_dead}"],
                                 capture_output=True, text=True)
            if out.stdout.strip() == "1":
                return True
            time.sleep(0.1)
        return False

    def ctrl_c(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, "C-c"], check=True)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[object]:
    opened: list[Term] = []

    def start(*args: str) -> Term:
        t = Term(list(args), tmp_path)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


@needs_tmux
def test_the_welcome_line_is_words_and_ctrl_c_says_what_to_answer(term, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 36: the first line says the game, its variant and who sits where, not a Python call; the
    Ctrl-C question ends with its answers, "[y/N]" (rich took it for a style tag and printed nothing)."""
    t = term("play", "juno", "-p", "3", "--variant", "seven-o", "-o", "match=false", "--seed", "3", "--name", "Ann",
             "--bots", "easy,random")
    screen = t.wait("your move>")
    first = " ".join(screen.split())
    assert ("JUNO, seven-o rules, 3 players, match off. You are Ann. Bots: Bot 2 (easy), Bot 3 (random). Seed 3."
            in first)
    assert "cardtable.make" not in first and "hand_size" not in first
    t.ctrl_c()
    screen = t.wait("Leave the table?")
    assert f"The game will be saved in {tmp_path / 'juno-3.json'}. [y/N]" in " ".join(screen.split())
    t.type("n")
    t.wait("your move>", count=2)


@needs_tmux
def test_help_info_and_ctrl_c_in_juno(term, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t = term("play", "juno", "-p", "2", "-o", "match=false", "--seed", "3", "--bots", "random")
    t.wait("your move>")
    t.type("?")
    screen = t.wait("info NAME")
    assert "info N " in screen and "Ctrl-C asks first" in screen
    t.type("info 1")  # the card of move 1
    t.wait("in a hand at the end of a round")
    t.type("info wild draw four")
    t.wait("no card of the color in play")
    t.type("info purple 3")
    t.wait("No card is called 'purple 3'")
    # Ctrl-C asks; "no" goes back to the same question
    t.ctrl_c()
    t.wait("Leave the table?")
    t.type("n")
    t.wait("your move>", count=2)
    t.ctrl_c()
    t.wait("Leave the table?", count=2)
    t.type("y")
    screen = t.wait("You left the table.")
    saved = tmp_path / "juno-3.json"
    assert str(saved) in "".join(screen.split()) and saved.exists()


@needs_tmux
def test_zun_targets_opponents_first_and_marks_you(term) -> None:  # type: ignore[no-untyped-def]
    # seed 4, 3 players: seat 0 holds Daze, Channel, Channel, Boost, Boost
    t = term("play", "zun", "-p", "3", "--seed", "4", "--bots", "random", "--name", "Ann")
    t.wait("your move>")
    t.type("play Boost")  # a modifier named where an Action is asked: what it is and when it can be played
    screen = t.wait("Play it right after you play a rune that lists it among its Charms")
    flat = " ".join(screen.split())
    assert "'play Boost' is not a move now" in flat and "Boost (modifier" in flat
    assert "seat 5" not in screen
    t.type("info Boost")
    t.wait("It can modify: Attack", count=2)
    t.type("play Daze")
    screen = t.wait("target Ann (you)")
    listed = dict(line.split(None, 1)[::-1] for line in screen.splitlines() if "target " in line and line.strip()[:1].isdigit())
    # every seat by its name (issue 21: one identity per seat), opponents first, you last and marked
    assert list(listed) == ["target Bot 2 (12 HP)", "target Bot 3 (12 HP)", "target Ann (you)"]
    assert "declare the next target of your Daze" in " ".join(screen.split())
    assert "seat 1" not in screen and "seat 2" not in screen
    t.type(listed["target Ann (you)"])  # the number follows the listed order
    t.wait("Ann targets themselves with Daze")


@needs_tmux
def test_a_move_naming_a_player_may_be_typed_with_their_name(term) -> None:  # type: ignore[no-untyped-def]
    t = term("play", "zun", "-p", "3", "--seed", "4", "--bots", "random", "--name", "Ann")
    t.wait("your move>")
    t.type("play Daze")
    t.wait("target Bot 3 (12 HP)")
    t.type("target bot 3")  # "target seat 2" to the engine
    t.wait("Ann targets Bot 3 with Daze")


@needs_tmux
def test_iuno_avatar_heaven_and_earth_show_element_cost_level_and_gems(term) -> None:  # type: ignore[no-untyped-def]
    """Issue 29, item 4: each card of your Heaven and of every Earth with its element, cost and
    level, and the gems on each figure (seed 5: Lantern Sprite, Light, cost Light, level 1; the rows'
    other cells come from the deck's data, which balancing changes)."""
    from cardtable.games.iuno_avatar.cards import base_deck

    star = base_deck().by_name("Star Diamond")
    t = term("play", "iuno_avatar", "-p", "2", "--seed", "5", "--bots", "random", "--name", "Ann")
    t.wait("your move>")
    t.type("roll a die")
    screen = t.wait("summon Lantern Sprite")
    rows = [" ".join(line.replace("│", " ").replace("┃", " ").split()) for line in screen.splitlines()]
    assert "card type element cost level text" in rows
    assert any(r.startswith("Lantern Sprite figure Light Light 1 Inclusive") for r in rows), rows
    assert any(r.startswith(f"Star Diamond gem Light - - Pays {star.symbols} Light") for r in rows), rows
    t.type("summon Lantern Sprite")
    t.wait("pay the rest with gems")
    t.type("pay the rest with gems")
    t.wait("◇ 0/1 inactive")  # on Earth, no gem on it yet
    t.wait("your move>", count=4)  # (the bot's turn, then yours again)
    t.type("roll a die")
    t.wait("activate Lantern Sprite")
    t.type("activate Lantern Sprite")
    screen = t.wait("◆ 1/1 active")
    rows = [" ".join(line.replace("│", " ").replace("┃", " ").split()) for line in screen.splitlines()]
    assert "player card element cost level gems on it text" in rows
    assert any(r.startswith("Ann (you) Lantern Sprite Light Light 1 ◆ 1/1 active Inclusive") for r in rows), rows


@needs_tmux
def test_replay_step_goes_back_and_forward_and_quits_with_q(term, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    saved = tmp_path / "j.json"
    game = make("juno", players=2, match=False)
    state = game.new_state(5)
    actions, actors = [], []
    while not state.is_over and len(actions) < 6:
        a = state.legal_actions()[0]
        actions.append(a.text)
        actors.append(["Ann", "Bo"][state.current_player])
        state.apply(a)
    import json

    saved.write_text(json.dumps({**state.replay().to_json(), "names": ["Ann", "Bo"]}))
    t = term("replay", str(saved), "--step")
    t.wait("the deal (move 0 of 6)")
    t.type("")  # Enter: forward
    t.wait(f"move 1 of 6: {actors[0]}")  # who made each move, by name
    t.type("n")
    t.wait(f"move 2 of 6: {actors[1]}")
    t.type("b")  # back
    t.wait(f"move 1 of 6: {actors[0]}", count=2)
    t.type("b")
    t.wait("the deal (move 0 of 6)", count=2)
    t.type("b")  # nothing before the deal: said, and it stays there
    t.wait("This is the deal, before the first move")
    t.type("6")
    t.wait("move 6 of 6")
    t.type("q")
    assert t.ended()
    screen = t.screen()
    assert "Traceback" not in screen and "seat 0" not in screen and "seat 1" not in screen


def test_the_log_says_who_a_skip_skipped() -> None:
    obs = {"direction": "left", "hand_counts": [3, 4, 5]}
    line = narrate({"kind": "played", "seat": 2, "card": "red skip", "uno": False, "left": 2}, 1, obs)
    assert line == "seat 2 played red skip: seat 0 is skipped"
    line = narrate({"kind": "played", "seat": 2, "card": "red skip", "uno": False, "left": 2}, 1, {**obs, "direction": "right"})
    assert line == "seat 2 played red skip: seat 1 is skipped"  # every player in the third person
    with seated(["Ann", "Bo", "Cyd"]):  # the table's names replace the seat numbers
        assert narrate_named(make("juno", players=3), {"kind": "played", "seat": 2, "card": "red skip", "uno": False,
                                                       "left": 2}, 1, obs) == "Cyd played red skip: Ann is skipped"


def test_a_card_is_found_by_the_words_that_name_it() -> None:
    cards = catalog(make("juno", players=2))
    assert find(cards, "play red draw two uno")["name"] == "red draw two"
    assert find(cards, "WILD draw four")["name"] == "wild draw four"
    assert find(cards, "draw") is None


def test_the_catalogue_sends_each_cards_fields_so_no_view_reads_its_name() -> None:
    juno = {c["name"]: c for c in catalog(make("juno", players=2))}
    assert {k: juno["blue draw two"][k] for k in ("color", "rank", "points")} == {"color": "blue", "rank": "draw two", "points": 20}
    assert (juno["wild draw four"]["color"], juno["wild draw four"]["rank"]) == ("wild", "wild draw four")
    assert (juno["red 7"]["color"], juno["red 7"]["rank"], juno["red 7"]["points"]) == ("red", "7", 7)
    zun = {c["name"]: c for c in catalog(make("zun", players=2))}
    runes = make("zun", players=2).rune_set.runes  # type: ignore[attr-defined]
    for r in runes:
        assert (zun[r.name]["kind"], zun[r.name]["target"], zun[r.name]["charms"]) == (r.kind, r.target, list(r.charms))


def test_iunu_names_dice_by_face_and_the_ability_it_offers() -> None:
    from cardtable.games.iunu.cards import MERCHANT
    from cardtable.games.iunu.decisions import UseAbility
    from cardtable.games.iunu.text import choices
    from cardtable.ui.names import addressed

    obs = {"seat": 0, "dice": [3, None, 4], "dynasties": [{"dynasty": {"Merchant": 2}}],
           "decision": {"kind": "use_ability", "seat": 0, "citizen": "Merchant"}}
    assert [label for _, label in choices(obs, ["reroll die 1", "priest with die 2", "use ability", "skip ability"])] == [
        "reroll die 1 (a 3)", "priest with die 2 (out of play)", "use the Merchant's ability", "skip the Merchant's ability"]
    # the question says what the ability would do now, with this position's numbers
    state = make("iunu", players=2).new_state(1)
    state.dice = [3, 0, 4]
    state.dynasty[0][MERCHANT] = 2
    assert addressed(UseAbility(0, MERCHANT).question(state)) == (
        "use the Merchant's ability: take Debens equal to the highest die (4) +1 per Merchant in your dynasty (2): "
        "6 Debens, then that die goes down by 1; or skip it?")


@pytest.mark.parametrize("game", ["juno", "iunu", "zun", "iuno_avatar"])
def test_rules_is_a_players_guide_with_every_card_from_the_data(game: str) -> None:
    from typer.testing import CliRunner

    from cardtable.cli import _load, app

    _load()
    runner = CliRunner()
    result = runner.invoke(app, ["rules", game], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "how to play" in result.output and "Setup" in result.output and "Every card" in result.output
    for card in catalog(make(game)):
        assert card["name"] in result.output
    coverage = runner.invoke(app, ["rules", game, "--coverage"], env={"COLUMNS": "200"})
    assert coverage.exit_code == 0 and "tests/games/" in coverage.output  # the clause-to-test page
