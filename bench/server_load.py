"""How many concurrent bot-only tables one `cardtable serve` process sustains (a benchmark, not a test).

For each N in --tables, the script keeps N JUNO tables busy on one server process on 127.0.0.1
(a fresh SQLite file, so every action is committed to disk before it is acknowledged). Every seat
is a bot driven over its own websocket by this script: when a seat must decide it picks a random
legal action and sends it; the action latency is the time from sending the action to receiving its
`ack` (validation, the database commit, applying it, and the state sent to every seat of the
table). A finished table is replaced by a new one, so N stays constant for --seconds.

    .venv/bin/python bench/server_load.py --tables 1,5,10,20,40 --seconds 8

Prints p50/p99 latency and actions per second for each N, and the largest N whose p99 stays
under --budget-ms (default 50). Everything runs on loopback and stops after the given time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    code = (
        "import uvicorn; from cardtable.server import create_app; "
        f"uvicorn.run(create_app({str(db)!r}, bot_time=0.5, bot_delay=0.0), host='127.0.0.1', port={port}, "
        "log_level='warning', ws='websockets-sansio')"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def create_table(base: str, players: int, rng: random.Random) -> tuple[str, list[str]]:
    body = {"game": "juno", "options": {"match": False}, "seats": [{"kind": "person"}] * players,
            "seed": rng.randrange(2**31)}
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        data = json.loads(r.read())
    return data["id"], [s["token"] for s in data["seats"]]


async def seat_bot(ws_url: str, rng: random.Random, latencies: list[float], stop_at: float, over: asyncio.Event) -> None:
    async with websockets.connect(ws_url, max_size=None) as ws:
        acted = -1
        sent_at = 0.0
        while time.monotonic() < stop_at and not over.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                return
            m = json.loads(raw)
            if m["type"] == "ack":
                latencies.append(time.perf_counter() - sent_at)
            elif m["type"] == "state":
                if m["over"]:
                    over.set()
                    return
                if m["legal"] and m["version"] > acted:
                    acted = m["version"]
                    a = rng.choice(m["legal"])["index"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": a, "version": m["version"]}))
            elif m["type"] == "error" and m.get("code") != "stale":
                raise RuntimeError(m)


async def table_loop(base: str, players: int, rng: random.Random, latencies: list[float], stop_at: float) -> int:
    """Keep one table busy until `stop_at`: play it to the end, then start another. Returns games finished."""
    games = 0
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < stop_at:
        tid, tokens = await asyncio.to_thread(create_table, base, players, rng)
        over = asyncio.Event()
        await asyncio.gather(*(seat_bot(f"{ws_base}/ws/{tid}?token={t}", random.Random(rng.random()), latencies, stop_at, over)
                               for t in tokens))
        games += over.is_set()
    return games


async def level(base: str, n: int, seconds: float, players: int, seed: int) -> dict[str, Any]:
    latencies: list[float] = []
    rng = random.Random(seed)
    start = time.monotonic()
    stop_at = start + seconds
    games = await asyncio.gather(*(table_loop(base, players, random.Random(rng.random()), latencies, stop_at) for _ in range(n)))
    elapsed = time.monotonic() - start
    lat = sorted(latencies)
    if not lat:
        return {"tables": n, "actions": 0}
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [lat[0]] * 99
    return {"tables": n, "actions": len(lat), "games": sum(games), "actions_per_s": len(lat) / elapsed,
            "p50_ms": 1000 * q[49], "p99_ms": 1000 * q[98], "max_ms": 1000 * lat[-1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="1,5,10,20,40", help="comma-separated numbers of concurrent tables")
    ap.add_argument("--seconds", type=float, default=8.0, help="time per level")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--budget-ms", type=float, default=50.0, help="the p99 latency a level must stay under")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    levels = [int(x) for x in args.tables.split(",")]
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "bench.db", port)
        try:
            base = f"http://127.0.0.1:{port}"
            print(f"{'tables':>6} {'actions':>8} {'games':>6} {'act/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
            best = 0
            for n in levels:
                r = asyncio.run(level(base, n, args.seconds, args.players, args.seed))
                if not r["actions"]:
                    print(f"{n:>6} no actions")
                    continue
                print(f"{n:>6} {r['actions']:>8} {r['games']:>6} {r['actions_per_s']:>8.0f} {r['p50_ms']:>8.1f} "
                      f"{r['p99_ms']:>8.1f} {r['max_ms']:>8.1f}", flush=True)
                if r["p99_ms"] < args.budget_ms:
                    best = max(best, n)
            print(f"largest tested N with p99 < {args.budget_ms:g} ms: {best or 'none'}")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
