"""`cardtable.sim.run`: results independent of the workers, Parquet rows, reruns that skip
finished seeds, and Ctrl-C that keeps what finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from cardtable.sim import SCHEMA, SimError, backends, load, run
from cardtable.sim.job import Job, play_chunk, play_game


def test_results_do_not_depend_on_the_number_of_workers(small: dict[str, Any]) -> None:
    one = run("juno", ["random"], games=16, seed=40, options=small, rotate=True, workers=1)
    two = run("juno", ["random"], games=16, seed=40, options=small, rotate=True, workers=2)
    assert one["seed"].to_list() == list(range(40, 56))
    assert one.equals(two)
    # and each row is the game of its seed alone, whatever chunk it ran in
    job = Job.build("juno", small, ["random"], rotate=True)
    assert one.row(5, named=True)["winners"] == play_game(job, 45)["winners"]


def test_a_row_holds_the_game_its_options_seats_winners_scores_length_and_cards(small: dict[str, Any]) -> None:
    table = run("juno", "random", games=4, seed=0, options=small)
    assert table.columns == SCHEMA.names
    row = table.row(0, named=True)
    assert row["game"] == "juno" and row["variant"] == "classic" and row["players"] == 2
    assert json.loads(row["options"])["hand_size"] == 3
    assert row["agents"] == ["random", "random"]
    assert len(row["winners"]) == 1 and row["first_player"] in (0, 1)
    assert len(row["scores"]) == 2 and sorted(row["returns"]) == [-1.0, 1.0]
    assert row["length"] > 0
    assert {c["counter"] for c in row["cards"]} == {"played", "dealt", "drawn"}


def test_results_are_written_to_parquet_and_a_rerun_skips_finished_seeds(
    small: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    first = run("juno", ["random"], games=6, seed=0, options=small, out=out, workers=1)
    assert (out / "job.json").exists()
    assert pq.read_table(next(out.glob("part-*.parquet"))).schema.equals(SCHEMA)
    played: list[int] = []

    def counting(job: Job, seeds: list[int]) -> list[dict[str, Any]]:
        played.extend(seeds)
        return play_chunk(job, seeds)

    monkeypatch.setattr(backends, "play_chunk", counting)
    both = run("juno", ["random"], games=10, seed=0, options=small, out=out, workers=1)
    assert played == [6, 7, 8, 9]
    assert both.head(6).equals(first)
    assert both.equals(run("juno", ["random"], games=10, seed=0, options=small, workers=1))
    assert load(out).equals(both)
    assert len(list(out.glob("part-*.parquet"))) == 1  # merged at the end of each run


def test_a_folder_of_another_job_is_refused_with_what_differs(small: dict[str, Any], tmp_path: Path) -> None:
    run("juno", ["random"], games=1, seed=0, options=small, out=tmp_path)
    with pytest.raises(SimError, match="another job: options.hand_size is 3 there, 4 here.*Use another --out folder"):
        run("juno", ["random"], games=1, seed=0, options={**small, "hand_size": 4}, out=tmp_path)
    from cardtable.sim.store import read_job

    with pytest.raises(SimError, match="no job.json"):
        read_job(tmp_path / "elsewhere")
    (tmp_path / "job.json").write_text('{"game": "juno"}')
    with pytest.raises(SimError, match="is not a simulation job file .KeyError: 'options'"):
        read_job(tmp_path)


def test_ctrl_c_stops_cleanly_and_keeps_the_finished_games(
    small: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0

    def interrupted(job: Job, seeds: list[int]) -> list[dict[str, Any]]:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt
        return play_chunk(job, seeds)

    monkeypatch.setattr(backends, "play_chunk", interrupted)
    kept = run("juno", ["random"], games=8, seed=100, options=small, out=tmp_path, workers=1)
    assert kept["seed"].to_list() == [100, 101, 102]  # one game per chunk in one process
    assert load(tmp_path).equals(kept)
    monkeypatch.setattr(backends, "play_chunk", play_chunk)
    finished = run("juno", ["random"], games=8, seed=100, options=small, out=tmp_path, workers=1)
    assert finished.equals(run("juno", ["random"], games=8, seed=100, options=small, workers=1))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_simulate_even_when_started_from_a_background_job(tmp_path: Path, workers: str) -> None:
    """`cardtable simulate` started with SIGINT ignored, as a shell starts its `&` jobs: Ctrl-C (SIGINT) still
    stops it, keeping the finished games. Before, Python kept SIGINT ignored and it played on, in one
    process or with worker processes alike."""
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "simulate", "juno", "-a", "random", "-n", "1000000",
                             "-o", "match=false", "-w", workers, "--no-cards", "--out", str(out)],
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # the first part file is written once games are being played (inside the run's Ctrl-C handling)
        deadline = time.monotonic() + 120  # a bound on a stuck start, not a timing assertion
        while not list(out.glob("part-*.parquet")):
            assert proc.poll() is None, proc.communicate()[0]
            assert time.monotonic() < deadline, "no game was written in two minutes"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        text, _ = proc.communicate(timeout=120)  # a bound: without Ctrl-C it plays a million games
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, text
    kept = load(out)
    assert f"Stopped: {kept.height} new games finished and kept." in " ".join(text.split())
    assert kept.height > 0 and kept["seed"].n_unique() == kept.height


def test_ctrl_c_while_the_workers_start_waits_until_they_are_started() -> None:
    """Ctrl-C pressed while the worker processes start is held (it broke multiprocessing's start halfway:
    tracebacks from its internals) and raised as KeyboardInterrupt once they are started, which the run
    turns into "Stopped"; a start that failed because of it is a KeyboardInterrupt too."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # as in `cardtable simulate`
    started = []
    with pytest.raises(KeyboardInterrupt), backends._ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)  # the terminal's Ctrl-C, mid-start
        time.sleep(0.05)  # a signal is handled between two bytecodes: it had every chance to arrive
        started.append(True)  # not interrupted: the start went on
    assert started == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with pytest.raises(KeyboardInterrupt), backends._ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        raise EOFError("the fork server died of it")
    with pytest.raises(EOFError), backends._ctrl_c_held():  # without Ctrl-C a failed start is its own error
        raise EOFError("no fork server")


def test_bad_arguments_are_refused_with_a_message(small: dict[str, Any]) -> None:
    with pytest.raises(SimError, match="workers must be 1 or more"):
        run("juno", ["random"], games=2, options=small, workers=0)
    with pytest.raises(SimError, match="backend is 'local' or 'ray'"):
        run("juno", ["random"], games=2, options=small, backend="dask")  # type: ignore[arg-type]
    with pytest.raises(SimError, match="0 or more"):
        run("juno", ["random"], games=-1, options=small)
    assert run("juno", ["random"], games=0, options=small).height == 0
    assert isinstance(run("juno", ["random"], games=0, options=small), pl.DataFrame)


def test_seats_rotate_unless_asked_not_to(small: dict[str, Any]) -> None:
    table = run("juno", ["heuristic", "random"], games=4, seed=0, options=small, workers=1)
    assert table["agents"].to_list() == [["heuristic", "random"], ["random", "heuristic"]] * 2
    fixed = run("juno", ["heuristic", "random"], games=4, seed=0, options=small, workers=1, rotate=False)
    assert fixed["agents"].to_list() == [["heuristic", "random"]] * 4


def test_a_folder_says_while_a_run_writes_into_it_and_keeps_one_version(
    small: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.sim import store

    seen: list[dict[str, Any] | None] = []

    def watching(job: Job, seeds: list[int]) -> list[dict[str, Any]]:
        seen.append(store.run_status(tmp_path))
        return play_chunk(job, seeds)

    monkeypatch.setattr(backends, "play_chunk", watching)
    run("juno", ["random"], games=2, seed=0, options=small, out=tmp_path, workers=1)
    assert seen and all(s is not None and s["alive"] and (s["first_seed"], s["end_seed"]) == (0, 2) for s in seen)
    assert store.run_status(tmp_path) is None  # done: the mark is gone
    # a run killed in the middle leaves its mark behind, with a process that no longer exists
    (tmp_path / store.RUN_FILE).write_text(json.dumps({"pid": 2**22 + 12345, "host": __import__("socket").gethostname(),
                                                       "first_seed": 0, "end_seed": 9}))
    status = store.run_status(tmp_path)
    assert status is not None and status["alive"] is False
    # the games of another version of the rules never join this folder
    recorded = json.loads((tmp_path / "job.json").read_text())
    assert recorded["version"]["rules"] and recorded["version"]["cardtable"]
    recorded["version"]["rules"] = "000000000000"
    (tmp_path / "job.json").write_text(json.dumps(recorded))
    with pytest.raises(SimError, match="games played by cardtable .* with rules version 000000000000.*would mix"):
        run("juno", ["random"], games=3, seed=0, options=small, out=tmp_path, workers=1)


def test_a_part_merged_away_while_being_read_is_read_again_from_the_merged_file(
    small: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.sim import store

    run("juno", ["random"], games=3, seed=0, options=small, out=tmp_path, workers=1)
    real = pq.read_table
    vanished: list[Path] = []

    def racing(path: Any, **kw: Any) -> Any:
        if not vanished:  # the first read finds its part gone, as when a run compacts meanwhile
            vanished.append(Path(path))
            raise FileNotFoundError(path)
        return real(path, **kw)

    monkeypatch.setattr(pq, "read_table", racing)
    assert store.read_table(tmp_path).num_rows == 3 and vanished
