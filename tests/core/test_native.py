"""The compiled engine (cardtable/_native.py, setup.py) and its pure-Python fallback.

mypyc compiles the same source files, so the fallback gives identical results by construction;
these tests hold it to that on every JUNO rule the equivalence digest exercises, and check that a
build older than its sources is never used.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import cardtable
from cardtable import _native

ROOT = Path(__file__).resolve().parents[2]


def run(code: list[str], pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"}
    if pure:
        env["CARDTABLE_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, *code], cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=600
    )
    return done.stdout.strip()


def test_ci_runs_the_compiled_engine() -> None:
    """scripts/test sets CARDTABLE_EXPECT_COMPILED: there the build must have compiled, or the
    suite would test only the fallback."""
    if os.environ.get("CARDTABLE_EXPECT_COMPILED") != "1":
        pytest.skip("CARDTABLE_EXPECT_COMPILED is not set (a local run may use either engine)")
    assert _native.COMPILED, _native.REASON
    assert cardtable.games  # the package imported with the compiled modules


def test_pure_python_is_forced_by_the_environment() -> None:
    code = "import cardtable, cardtable.games.juno.state as s; print(cardtable._native.COMPILED, s.__file__)"
    compiled, path = run(["-c", code], pure=True).split()
    assert compiled == "False" and path.endswith("state.py")


@pytest.mark.slow
def test_compiled_and_pure_engines_play_identical_games() -> None:
    """The JUNO equivalence digest (legal actions at every step, JSON, clones, determinizations,
    observations, events and refusals over every variant) is the same from both engines."""
    if not _native.COMPILED:
        pytest.skip(f"no compiled build here ({_native.REASON}); scripts/test builds one")
    args = ["-m", "tests.games.juno.equivalence", "--games", "8"]
    assert run(args, pure=False) == run(args, pure=True)


#: every game with compiled modules (cardtable/_native.py)
COMPILED_GAMES = sorted({m.split(".")[2] for m in _native.MODULES if m.startswith("cardtable.games.")})
#: the games the generic digest checks (JUNO has its finer one, above)
DIGEST_GAMES = [g for g in COMPILED_GAMES if g != "juno"]


@pytest.mark.slow
@pytest.mark.parametrize("game", DIGEST_GAMES)
def test_compiled_and_pure_engines_give_the_same_digest_in_every_compiled_game(game: str) -> None:
    """Seeded random games of each compiled game (legal actions at every step; JSON, clones,
    determinizations, observations and refusals now and then: tests/core/native_digest.py) are
    the same from both engines."""
    if not _native.COMPILED:
        pytest.skip(f"no compiled build here ({_native.REASON}); scripts/test builds one")
    args = ["-m", "tests.core.native_digest", game, "--games", "3"]
    assert run(args, pure=False) == run(args, pure=True)


#: the games whose bots' policy (cardtable/games/<game>/heuristic.py: the medium bot and the hard
#: bot's rollouts) is compiled
BOT_GAMES = sorted({m.split(".")[2] for m in _native.MODULES if m.startswith("cardtable.games.") and m.endswith(".heuristic")})


@pytest.mark.slow
@pytest.mark.parametrize("game", BOT_GAMES)
def test_compiled_and_pure_bots_decide_identically(game: str) -> None:
    """Seeded medium-against-medium games and hard searches with a fixed number of iterations
    (tests/core/native_digest.py --bots) are the same from both engines. mypyc checks annotations at
    run time, so an annotation that lies (an int that is a float) fails the compiled run here."""
    if not _native.COMPILED:
        pytest.skip(f"no compiled build here ({_native.REASON}); scripts/test builds one")
    module = f"cardtable.games.{game}.heuristic"
    where = run(["-c", f"import {module} as m; print(m.__file__)"], pure=False)
    assert not where.endswith(".py"), f"{module} ran from {where}, not from its compiled build"
    args = ["-m", "tests.core.native_digest", game, "--bots", "--games", "16", "--searches", "3"]
    assert run(args, pure=False) == run(args, pure=True)


@pytest.mark.slow
def test_compiled_and_pure_engines_replay_the_recorded_games() -> None:
    """The suite replays the recorded games on the engine it runs (tests/replays); this replays
    them on the pure-Python fallback too."""
    if not _native.COMPILED:
        pytest.skip(f"no compiled build here ({_native.REASON}); the suite replays them on pure Python")
    out = run(["-m", "tests.replays.recorded", "check"], pure=True)
    assert all(f"{game}: " in out for game in COMPILED_GAMES), out


# -- the guard against a stale build: a fake package tree with the recorded hashes ----------


def fake_build(tmp_path: Path) -> Path:
    """A tree holding copies of the compiled modules' sources, empty extension files for them and
    the manifest a build would write."""
    for module in _native.MODULES:
        source = _native.source_path(module)
        target = _native.source_path(module, tmp_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
        target.with_name(target.stem + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    group = tmp_path.joinpath(*(_native.GROUP + "__mypyc").split("."))
    Path(f"{group}{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "cardtable" / _native.MANIFEST).write_text(json.dumps(_native.manifest(root=tmp_path)))
    return tmp_path


@pytest.fixture
def no_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTABLE_PURE", raising=False)


def test_a_matching_build_is_used(tmp_path: Path, no_pure: None) -> None:
    assert _native.decide(fake_build(tmp_path)) == (True, "compiled (mypyc)", False)


def test_an_edited_source_turns_the_whole_build_off_with_a_warning(tmp_path: Path, no_pure: None) -> None:
    root = fake_build(tmp_path)
    source = _native.source_path("cardtable.games.juno.state", root)
    source.write_text(source.read_text() + "# a rule changed\n")
    compiled, reason, warn = _native.decide(root)
    assert not compiled and warn
    assert "cardtable/games/juno/state.py changed after the compiled build" in reason


def test_a_missing_extension_turns_the_whole_build_off(tmp_path: Path, no_pure: None) -> None:
    root = fake_build(tmp_path)
    stem = _native.source_path("cardtable.core.state", root).with_suffix("")
    Path(f"{stem}{EXTENSION_SUFFIXES[0]}").unlink()
    compiled, reason, warn = _native.decide(root)
    assert not compiled and warn and "cardtable.core.state is missing" in reason


def test_a_missing_group_library_turns_the_whole_build_off(tmp_path: Path, no_pure: None) -> None:
    root = fake_build(tmp_path)
    group = root.joinpath(*(_native.GROUP + "__mypyc").split("."))
    Path(f"{group}{EXTENSION_SUFFIXES[0]}").unlink()
    compiled, reason, warn = _native.decide(root)
    assert not compiled and warn and "group library is missing" in reason


def test_a_manifest_for_other_modules_is_not_trusted(tmp_path: Path, no_pure: None) -> None:
    root = fake_build(tmp_path)
    (root / "cardtable" / _native.MANIFEST).write_text(json.dumps(_native.manifest(_native.MODULES[:-1], root)))
    compiled, reason, warn = _native.decide(root)
    assert not compiled and warn and "another list of modules" in reason


def test_no_build_is_plain_pure_python_without_a_warning(tmp_path: Path, no_pure: None) -> None:
    root = fake_build(tmp_path)
    (root / "cardtable" / _native.MANIFEST).unlink()
    assert _native.decide(root) == (False, "pure Python (no compiled build installed)", False)


@pytest.mark.parametrize("value,pure", [("1", True), ("yes", True), ("TRUE", True), ("0", False), ("", False), ("no", False)])
def test_the_environment_wins_over_a_good_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, pure: bool
) -> None:
    monkeypatch.setenv("CARDTABLE_PURE", value)
    assert _native.decide(fake_build(tmp_path))[0] is not pure


@pytest.mark.slow
def test_tests_that_patch_the_engine_run_on_the_pure_modules() -> None:
    """Tests that monkeypatch JUNO's methods, or hand the search a stand-in view, skip on a compiled
    build; run them here on the pure-Python modules so that they also run in CI."""
    if not _native.COMPILED:
        pytest.skip("without a compiled build they run in the suite itself")
    env = {**os.environ, "CARDTABLE_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-rs",
         "tests/games/juno/test_fast_path.py::test_digest_notices_a_change",
         "tests/games/iuno_avatar/test_avatar_rules.py::test_setup_before_the_first_take",
         "tests/agents/test_ismcts.py::test_cutoff_needs_a_game_evaluation"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "8 passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-3000:]
