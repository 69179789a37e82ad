"""The results store: one row per game in Parquet files under a folder.

Layout of `DIR`:

* `job.json` — the job (game, validated options, agents, rotation, counters); a rerun into
  the same folder must be the same job, and then skips the seeds already there;
* `part-*.parquet` — result rows, written in batches while the run goes (so an interrupted
  run keeps what finished) and merged into one file at the end of a run;
* `run.json` — present while a run writes into the folder (its process, host and seeds), so
  a report made meanwhile says the results are still coming; left behind by a run that was
  killed, which the report tells apart by the process being gone.
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeGuard

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from .job import Job, SimError

SCHEMA = pa.schema([
    ("seed", pa.int64()),
    ("game", pa.string()),
    ("variant", pa.string()),
    ("options", pa.string()),
    ("players", pa.int16()),
    ("agents", pa.list_(pa.string())),
    ("first_player", pa.int16()),
    ("winners", pa.list_(pa.int16())),
    ("scores", pa.list_(pa.float64())),
    ("returns", pa.list_(pa.float64())),
    ("length", pa.int32()),
    ("by_limit", pa.bool_()),
    ("turns", pa.int32()),
    ("cards", pa.list_(pa.struct([
        ("seat", pa.int16()), ("counter", pa.string()), ("card", pa.string()), ("count", pa.int32()),
    ]))),
])

JOB_FILE = "job.json"


def to_table(rows: Iterable[dict[str, Any]]) -> pa.Table:
    rows = sorted(rows, key=lambda r: r["seed"])
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def read_table(folder: Path) -> pa.Table:
    """Every row in `folder`, sorted by seed (a seed found twice is kept once). Safe while a run
    writes: parts appear whole (written, then renamed), and a part merged away between listing
    and reading is read again from the merged file."""
    for _ in range(5):
        parts = _parts(folder)
        if not parts:
            return SCHEMA.empty_table()
        try:
            table = pa.concat_tables([pq.read_table(p, schema=SCHEMA) for p in parts])
            break
        except FileNotFoundError:
            continue
    else:
        raise SimError(f"the results in {folder} kept changing while being read; try again")
    table = table.sort_by("seed")
    seeds = table.column("seed").to_numpy()
    if len(seeds) > 1 and (seeds[1:] == seeds[:-1]).any():
        import numpy as np

        keep = np.concatenate([[True], seeds[1:] != seeds[:-1]])
        table = table.filter(pa.array(keep))
    return table


def finished_seeds(folder: Path) -> set[int]:
    seeds: set[int] = set()
    for p in _parts(folder):
        seeds.update(pq.read_table(p, columns=["seed"]).column("seed").to_pylist())
    return seeds


def open_folder(folder: Path, job: Job) -> None:
    """Create `folder` for `job`, or check that it already holds the same job."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / JOB_FILE
    if path.exists():
        try:
            old = Job.from_json(json.loads(path.read_text()))
        except (ValueError, KeyError, TypeError) as exc:
            raise SimError(f"{path} is not a simulation job file ({exc}); choose another --out folder") from None
        if old.version != job.version and {**old.to_json(), "version": None} == {**job.to_json(), "version": None}:
            raise SimError(
                f"{folder} holds games played by {describe_version(old.version)}; this is "
                f"{describe_version(job.version)}. Games of two versions would mix: use another --out folder "
                "(and `cardtable report OLD NEW` to compare them)."
            )
        if old.to_json() != job.to_json():
            raise SimError(
                f"{folder} holds results of another job: {'; '.join(_differences(old.to_json(), job.to_json()))}. "
                "Use another --out folder, or the same game, options, agents and --rotate to add seeds to it."
            )
    else:
        _atomic_write(path, (json.dumps(job.to_json(), indent=2, sort_keys=True) + "\n").encode())


def _differences(there: dict[str, Any], here: dict[str, Any], prefix: str = "",
                 names: tuple[str, str] = ("there", "here")) -> list[str]:
    out = []
    for key in sorted(set(there) | set(here)):
        a, b = there.get(key), here.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{key}.", names)
        elif _named_tables(a) and _named_tables(b) and a != b:
            # two card lists (a rune set, a deck): what changed card by card, not two whole lists
            ta, tb = {t["name"]: t for t in a}, {t["name"]: t for t in b}
            for name in [*ta, *(n for n in tb if n not in ta)]:
                if name not in tb or name not in ta:
                    out.append(f"{prefix}{key}: card {name!r} only {names[0] if name in ta else names[1]}")
                else:
                    out += _differences(ta[name], tb[name], f"{prefix}{key}: {name}.", names)
        elif a != b:
            out.append(f"{prefix}{key} is {json.dumps(a)} {names[0]}, {json.dumps(b)} {names[1]}")
    return out


def _named_tables(value: Any) -> TypeGuard[list[dict[str, Any]]]:
    """A list of tables that each have a distinct name (a card file's cards)."""
    if not isinstance(value, list) or not all(isinstance(t, dict) and isinstance(t.get("name"), str) for t in value):
        return False
    return len({t["name"] for t in value}) == len(value)


def read_job(folder: Path) -> Job:
    path = folder / JOB_FILE
    if not path.exists():
        raise SimError(f"{folder} holds no simulation results (no {JOB_FILE}); run `cardtable simulate ... --out {folder}`")
    try:
        return Job.from_json(json.loads(path.read_text()))
    except (ValueError, KeyError, TypeError) as exc:
        raise SimError(f"{path} is not a simulation job file ({type(exc).__name__}: {exc})") from None


def concat(tables: list[pa.Table]) -> pa.Table:
    """Chunk tables as one, sorted by seed."""
    return pa.concat_tables(tables).sort_by("seed") if tables else SCHEMA.empty_table()


def write_part(folder: Path, tables: list[pa.Table]) -> None:
    if tables:
        _write_table(folder / f"part-{uuid.uuid4().hex}.parquet", concat(tables))


def compact(folder: Path) -> None:
    """Merge the part files into one (written first, then the old ones removed)."""
    parts = _parts(folder)
    if len(parts) <= 1:
        return
    table = read_table(folder)
    _write_table(folder / f"part-{uuid.uuid4().hex}.parquet", table)
    for p in parts:
        p.unlink()


def _write_table(path: Path, table: pa.Table) -> None:
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def describe_version(version: dict[str, str]) -> str:
    if not version:
        return "an earlier cardtable that recorded no version"
    return f"cardtable {version.get('cardtable', '?')} with rules version {version.get('rules', '?')}"


RUN_FILE = "run.json"


def mark_running(folder: Path, seeds: tuple[int, int]) -> None:
    """Say that this process is writing results for seeds [first, last) into `folder`."""
    data = {"pid": os.getpid(), "host": socket.gethostname(), "first_seed": seeds[0], "end_seed": seeds[1],
            "started": time.time()}
    _atomic_write(folder / RUN_FILE, json.dumps(data).encode())


def mark_done(folder: Path) -> None:
    (folder / RUN_FILE).unlink(missing_ok=True)


def run_status(folder: Path) -> dict[str, Any] | None:
    """None when no run is writing into `folder`; else the run's record, with `alive`: whether
    its process still runs (False: it was killed before it finished; unknown on another host
    counts as alive)."""
    path = folder / RUN_FILE
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    alive = True
    if data.get("host") == socket.gethostname():
        try:
            os.kill(int(data["pid"]), 0)
        except ProcessLookupError:
            alive = False
        except (PermissionError, KeyError, ValueError, TypeError):
            pass
    data["alive"] = alive
    return data
