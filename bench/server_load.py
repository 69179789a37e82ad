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

Spectators (finding 3 of issue 20): with --spectators 0,200,1000 the script instead watches one
2-player JUNO match (several hundred moves) with S spectators connected to it. The spectators
run in a separate process (so reading their messages does not slow the players' client): each
reads and discards what it is sent. It reports how long the S spectators took to join (each
has received its first state) and then the players' action rate and p50/p99 latency while the
spectators watch, against S = 0 on the same server.

    .venv/bin/python bench/server_load.py --spectators 0,200,1000 --seconds 8

Bots (finding 5): with --bot-tables 0,12 the script starts that many 2-bot JUNO matches of "hard"
bots (ISMCTS, 0.5 s a move) and then measures people's moves at a person-only table as above.

    .venv/bin/python bench/server_load.py --bot-tables 0,12 --seconds 10

Several processes (issue 31): with --processes 1,2,4 the script starts a throwaway PostgreSQL server
(as tests/server do) and, for each P, that many server processes on one fresh database. It keeps
--people-tables JUNO tables of simulated people busy (each seat's websocket on another process, so
every move crosses processes through LISTEN/NOTIFY), --bot-tables-shared tables of bots thinking
(in each server's bot worker process) and --watchers spectators (a separate process, spread over
the servers) watching one long match that is played too. It reports the people's actions per
second and their p50/p99 latency (send to ack) for each P.

    .venv/bin/python bench/server_load.py --processes 1,2,4 --people-tables 8 --bot-tables-shared 4 \
        --watchers 100 --seconds 10
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


def start_server(db: Path | str, port: int, bot_processes: int = 0) -> subprocess.Popen[bytes]:
    # The benchmark's client creates tables as fast as games end and its seats act as fast as they
    # are sent a state: no creation rate limit and no per-connection message limit here (an older
    # server without these arguments is started without them, to compare).
    code = (
        "import inspect, uvicorn; from cardtable.server import create_app; "
        "ps = inspect.signature(create_app).parameters; "
        "kw = {'create_per_minute': 0} if 'create_per_minute' in ps else {}; "
        "kw.update({'message_limits': {'act': (1e6, 1e6)}} if 'message_limits' in ps else {}); "
        f"kw.update({{'bot_processes': {bot_processes}}} if 'bot_processes' in ps else {{}}); "
        f"uvicorn.run(create_app({str(db)!r}, bot_time=0.5, bot_delay=0.0, **kw), host='127.0.0.1', port={port}, "
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


def create_table(base: str, players: int, rng: random.Random, match: bool = False) -> tuple[str, list[str]]:
    body = {"game": "juno", "options": {"match": match}, "seats": [{"kind": "person"}] * players,
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


async def table_loop(base: str, players: int, rng: random.Random, latencies: list[float], stop_at: float,
                     seat_bases: list[str] | None = None) -> int:
    """Keep one table busy until `stop_at`: play it to the end, then start another. Returns games finished.
    `seat_bases`: the servers the seats connect to, seat i to the i-th (default: `base`)."""
    games = 0
    ws_bases = [b.replace("http://", "ws://") for b in (seat_bases or [base])]
    while time.monotonic() < stop_at:
        tid, tokens = await asyncio.to_thread(create_table, base, players, rng)
        over = asyncio.Event()
        await asyncio.gather(*(seat_bot(f"{ws_bases[i % len(ws_bases)]}/ws/{tid}?token={t}", random.Random(rng.random()),
                                        latencies, stop_at, over)
                               for i, t in enumerate(tokens)))
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


async def spectate(urls: str, n: int) -> None:
    """The spectator process: open `n` sockets to the comma-separated `urls` (in turn), print the join time
    once each has its first state, then read and discard until killed."""
    targets = urls.split(",")
    start = time.monotonic()
    joined = 0
    handshakes = asyncio.Semaphore(100)  # at most 100 handshakes in flight, as a crowd arriving would be

    async def one(url: str) -> None:
        nonlocal joined
        async with handshakes:
            ws = await websockets.connect(url, max_size=None, open_timeout=300)
        try:
            while json.loads(await ws.recv())["type"] != "state":
                pass
            joined += 1
            if joined == n:
                print(f"joined {time.monotonic() - start:.2f}", flush=True)
            async for _ in ws:
                pass
        except websockets.ConnectionClosed:
            pass

    await asyncio.gather(*(one(targets[i % len(targets)]) for i in range(n)), return_exceptions=True)


async def watched_table(base: str, spectators: int, seconds: float, seed: int) -> dict[str, Any]:
    """One 2-player JUNO match watched by `spectators` (a separate process): join time, then the players' rate."""
    rng = random.Random(seed)
    tid, tokens = await asyncio.to_thread(create_table, base, 2, rng, True)
    ws_base = base.replace("http://", "ws://")
    join_s = 0.0
    proc = None
    if spectators:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--spectator-worker", f"{ws_base}/ws/{tid}", "--spectators", str(spectators),
            stdout=asyncio.subprocess.PIPE)
        assert proc.stdout is not None
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=180)
        except TimeoutError:
            line = b""
        if not line.startswith(b"joined"):
            proc.kill()
            return {"spectators": spectators, "join_s": float("inf"), "actions": 0}
        join_s = float(line.split()[1])
    latencies: list[float] = []
    over = asyncio.Event()
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(*(seat_bot(f"{ws_base}/ws/{tid}?token={t}", random.Random(rng.random()), latencies, stop_at, over)
                           for t in tokens))
    elapsed = time.monotonic() - start
    if proc is not None:
        proc.terminate()
        await proc.wait()
    lat = sorted(latencies)
    if len(lat) < 2:
        return {"spectators": spectators, "join_s": join_s, "actions": len(lat)}
    q = statistics.quantiles(lat, n=100)
    return {"spectators": spectators, "join_s": join_s, "actions": len(lat), "actions_per_s": len(lat) / elapsed,
            "p50_ms": 1000 * q[49], "p99_ms": 1000 * q[98]}


def create_bot_table(base: str, agent: str = "hard") -> None:
    body = {"game": "juno", "options": {"match": True}, "seats": [{"kind": "bot", "agent": agent}] * 2}
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    urllib.request.urlopen(req, timeout=30).read()


def run_bot_tables(args: argparse.Namespace) -> None:
    """People's moves (a fresh server each time) while N tables of hard bots think."""
    print(f"{'bot tables':>10} {'actions':>8} {'act/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for n in (int(x) for x in args.bot_tables.split(",")):
        port = free_port()
        with tempfile.TemporaryDirectory() as tmp:
            proc = start_server(Path(tmp) / "bench.db", port)
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(n):
                    create_bot_table(base)
                r = asyncio.run(level(base, 1, args.seconds, 2, args.seed))
                if not r["actions"]:
                    print(f"{n:>10} no actions", flush=True)
                    continue
                print(f"{n:>10} {r['actions']:>8} {r['actions_per_s']:>8.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}", flush=True)
            finally:
                stop(proc)


def run_spectators(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.spectators.split(",")]
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "bench.db", port)
        try:
            base = f"http://127.0.0.1:{port}"
            print(f"{'spectators':>10} {'join s':>7} {'actions':>8} {'act/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs 0':>6}")
            alone = None
            for n in counts:
                r = asyncio.run(watched_table(base, n, args.seconds, args.seed))
                if not r["actions"] or "actions_per_s" not in r:
                    print(f"{n:>10} {r['join_s']:>7.2f} no actions measured", flush=True)
                    continue
                if n == 0:
                    alone = r["actions_per_s"]
                share = f"{r['actions_per_s'] / alone:>6.0%}" if alone else f"{'-':>6}"
                print(f"{n:>10} {r['join_s']:>7.2f} {r['actions']:>8} {r['actions_per_s']:>8.0f} {r['p50_ms']:>8.1f} "
                      f"{r['p99_ms']:>8.1f} {share}", flush=True)
        finally:
            stop(proc)


async def shared_load(bases: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """People's tables, bot tables and spectators over several processes on one database (see the docstring)."""
    rng = random.Random(args.seed)
    for i in range(args.bot_tables_shared):
        await asyncio.to_thread(create_bot_table, bases[i % len(bases)], args.bot_agent)
    watcher = None
    if args.watchers:
        tid, tokens = await asyncio.to_thread(create_table, bases[0], 2, rng, True)
        urls = ",".join(f"{b.replace('http://', 'ws://')}/ws/{tid}" for b in bases)
        watcher = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--spectator-worker", urls, "--spectators", str(args.watchers),
            stdout=asyncio.subprocess.PIPE)
        assert watcher.stdout is not None
        await asyncio.wait_for(watcher.stdout.readline(), timeout=300)
    latencies: list[float] = []
    start = time.monotonic()
    stop_at = start + args.seconds
    jobs = [table_loop(bases[i % len(bases)], 2, random.Random(rng.random()), latencies, stop_at,
                       [bases[(i + k) % len(bases)] for k in range(2)]) for i in range(args.people_tables)]
    if args.watchers:  # the watched match is played by simulated people too
        ws = [b.replace("http://", "ws://") for b in bases]
        over = asyncio.Event()
        jobs += [seat_bot(f"{ws[k % len(ws)]}/ws/{tid}?token={t}", random.Random(rng.random()), latencies, stop_at, over)
                 for k, t in enumerate(tokens)]
    await asyncio.gather(*jobs)
    elapsed = time.monotonic() - start
    if watcher is not None:
        watcher.terminate()
        await watcher.wait()
    lat = sorted(latencies)
    if len(lat) < 2:
        return {"actions": len(lat)}
    q = statistics.quantiles(lat, n=100)
    return {"actions": len(lat), "actions_per_s": len(lat) / elapsed, "p50_ms": 1000 * q[49], "p99_ms": 1000 * q[98]}


def run_processes(args: argparse.Namespace) -> None:
    """The scaling table: 1, 2, 4... server processes on one PostgreSQL database under the same load."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.server.conftest import PostgreSQL  # the throwaway server the tests start (Unix socket only)

    pg = PostgreSQL()
    try:
        print(f"load: {args.people_tables} people tables, {args.bot_tables_shared} {args.bot_agent}-bot tables, "
              f"{args.watchers} spectators, {args.seconds:g} s per row")
        print(f"{'processes':>9} {'actions':>8} {'act/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
        for n in (int(x) for x in args.processes.split(",")):
            url = pg.new_database()
            ports = [free_port() for _ in range(n)]
            procs = [start_server(url, p, bot_processes=1) for p in ports]
            try:
                r = asyncio.run(shared_load([f"http://127.0.0.1:{p}" for p in ports], args))
                if "actions_per_s" not in r:
                    print(f"{n:>9} no actions measured", flush=True)
                    continue
                print(f"{n:>9} {r['actions']:>8} {r['actions_per_s']:>8.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f}", flush=True)
            finally:
                for p in procs:
                    stop(p)
    finally:
        pg.stop()


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:  # an older server may still be sending to a crowd of closed sockets
        proc.kill()
        proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="1,5,10,20,40", help="comma-separated numbers of concurrent tables")
    ap.add_argument("--seconds", type=float, default=8.0, help="time per level")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--budget-ms", type=float, default=50.0, help="the p99 latency a level must stay under")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spectators", default="", help="comma-separated spectator counts on one table, e.g. 0,200,1000")
    ap.add_argument("--spectator-worker", default="", help=argparse.SUPPRESS)  # the spectators' own process
    ap.add_argument("--bot-tables", default="", help="comma-separated numbers of hard-bot tables running meanwhile")
    ap.add_argument("--processes", default="", help="comma-separated numbers of server processes on one PostgreSQL")
    ap.add_argument("--people-tables", type=int, default=8, help="with --processes: tables of simulated people")
    ap.add_argument("--bot-tables-shared", type=int, default=4, help="with --processes: tables of bots")
    ap.add_argument("--bot-agent", default="hard", help="with --processes: the bots' difficulty or agent")
    ap.add_argument("--watchers", type=int, default=100, help="with --processes: spectators of one match")
    args = ap.parse_args()
    if args.processes:
        run_processes(args)
        return
    if args.spectator_worker:
        asyncio.run(spectate(args.spectator_worker, int(args.spectators)))
        return
    if args.spectators:
        run_spectators(args)
        return
    if args.bot_tables:
        run_bot_tables(args)
        return
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
            stop(proc)


if __name__ == "__main__":
    main()
