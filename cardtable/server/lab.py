"""The designers' lab over HTTP (issue 35): `/lab` and `/api/lab/...`, mounted only when the server
is started with `cardtable serve --lab` and the lab's own password (simulations cost CPU).

The page logs in with the password and gets a token (kept in this process's memory); every
other request carries it (`Authorization: Bearer TOKEN`). Requests are JSON of at most 256 KB
from a page of this server; no request names a file: runs and saved card files are named by
words and live under the lab's runs folder. One run plays at a time, bounded in games and time;
the games run in a pool of worker processes (`--workers`), or on the Ray cluster at `--ray-address`.
All the work is `cardtable.sim.lab`'s; this module only encodes and transports.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ..core import game_class
from ..sim import lab
from .context import parse_json
from .live import TableError

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 256 * 1024
#: wrong passwords a minute before the login is refused for the rest of that minute
LOGINS_PER_MINUTE = 10


def _answer(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


class Lab:
    """The lab's state in one server process: its sessions and the run in progress."""

    def __init__(self, password: str, runs: Path, *, workers: int | None, address: str | None,
                 max_games: int, max_seconds: float) -> None:
        if not password:
            raise ValueError("the lab needs a password of its own (--lab-password or CARDTABLE_LAB_PASSWORD)")
        self.password = password
        self.runs = runs
        self.workers = workers
        self.address = address
        self.max_games = max_games
        self.max_seconds = max_seconds
        self.tokens: set[str] = set()
        self.failures: list[float] = []
        self.current: tuple[str, lab.Progress] | None = None
        self.compared: dict[str, dict[str, Any]] = {}  # finished runs' comparisons (with plots: a second to make)
        self.lock = threading.Lock()

    def login(self, password: Any) -> str | None:
        now = time.monotonic()
        self.failures = [t for t in self.failures if now - t < 60]
        if len(self.failures) >= LOGINS_PER_MINUTE:
            return None
        if isinstance(password, str) and hmac.compare_digest(password.encode(), self.password.encode()):
            token = secrets.token_urlsafe(24)
            self.tokens.add(token)
            return token
        self.failures.append(now)
        return None

    def allowed(self, request: Request) -> bool:
        auth = request.headers.get("authorization", "")
        token = auth.removeprefix("Bearer ").strip()
        return any(hmac.compare_digest(token.encode(), t.encode()) for t in self.tokens)

    def backend(self) -> Literal["local", "ray"]:
        return "ray" if self.address else "local"

    def play(self, name: str, progress: lab.Progress) -> None:
        if self.address:
            import ray  # the cluster is joined once; each block's tasks go to it

            if not ray.is_initialized():
                ray.init(address=self.address, log_to_driver=False)
        lab.play(self.runs, name, progress, workers=self.workers, backend=self.backend(), address=self.address,
                 max_seconds=self.max_seconds)


def router(the_lab: Lab) -> APIRouter:
    """The lab's page and API; `app.include_router(router(Lab(...)))`."""
    api = APIRouter()

    async def body(request: Request) -> Any:
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc.lower() != str(request.headers.get("host", "")).lower():
            raise lab.LabError("requests from pages of another site are refused")
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise lab.LabError("send the body as JSON with content-type: application/json")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise lab.LabError(f"the request body is larger than {MAX_BODY // 1024} KB")
        try:
            value = parse_json(raw or b"{}")  # the server's one reading of a client's JSON
        except TableError as exc:
            raise lab.LabError(exc.message) from None
        if not isinstance(value, dict):
            raise lab.LabError("the request body must be a JSON object")
        return value

    async def guarded(request: Request, work: Callable[[dict[str, Any]], dict[str, Any]]) -> Response:
        """Run `work(body)` off the event loop for a logged-in page; a LabError is a 400 that says why."""
        if not the_lab.allowed(request):
            return _answer(403, "lab_login", "log in to the lab with its password")
        try:
            data = await body(request) if request.method == "POST" else {}
            return JSONResponse(await asyncio.to_thread(work, data))
        except lab.LabError as exc:
            return _answer(400, "lab_refused", str(exc))

    @api.get("/lab", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(WEB / "lab.html")

    @api.post("/api/lab/login")
    async def login(request: Request) -> Response:
        try:
            data = await body(request)
        except lab.LabError as exc:
            return _answer(400, "lab_refused", str(exc))
        token = the_lab.login(data.get("password"))
        if token is None:
            return _answer(403, "lab_login", "wrong password (the lab's own, given to `cardtable serve --lab`)")
        return JSONResponse({"token": token})

    def games(_: dict[str, Any]) -> dict[str, Any]:
        out = []
        for name in lab.lab_games():
            opt = lab.option_of(name)
            cls = game_class(name)
            schema = cls.Options.model_json_schema()
            props = {k: v for k, v in schema.get("properties", {}).items() if k != opt.option}
            out.append({"name": name, "title": cls.spec.title, "option": opt.option, "noun": opt.noun,
                        "options": props})
        return {"games": out, "max_games": the_lab.max_games, "max_seconds": the_lab.max_seconds,
                "backend": the_lab.backend(), "agents": ["heuristic", "random"]}

    @api.get("/api/lab/games")
    async def api_games(request: Request) -> Response:
        return await guarded(request, games)

    def cards(data: dict[str, Any]) -> dict[str, Any]:
        opt = lab.option_of(str(data.get("game", "")))
        options = lab.game_options(opt, data.get("options", {}))
        base = lab.base_cards(opt)
        texts = lab.check_cards(opt, base, options)
        run, impact = lab.last_impact(the_lab.runs, opt.game)
        tables = lab.tables_json(opt, base)
        # `form`: the one table's, for a list of `[[noun]]` tables; a game of several has `tables`
        return {"cards": lab.card_rows(opt, base, texts, impact), "tables": tables,
                "form": tables[0]["form"] if len(tables) == 1 else [], "impact_from": run,
                "file": opt.base.name}

    @api.post("/api/lab/cards")
    async def api_cards(request: Request) -> Response:
        return await guarded(request, cards)

    def check(data: dict[str, Any]) -> dict[str, Any]:
        opt = lab.option_of(str(data.get("game", "")))
        options = lab.game_options(opt, data.get("options", {}))
        try:
            texts = lab.check_cards(opt, data.get("cards"), options)
        except lab.LabError as exc:
            return {"ok": False, "message": str(exc)}
        return {"ok": True, "texts": {c["name"]: c["text"] for c in texts}}

    @api.post("/api/lab/check")
    async def api_check(request: Request) -> Response:
        return await guarded(request, check)

    def start(data: dict[str, Any]) -> dict[str, Any]:
        with the_lab.lock:
            if the_lab.current is not None and the_lab.current[1].state == "running":
                raise lab.LabError(f"run {the_lab.current[0]} is still playing: stop it or wait for it")
            name, record = lab.start(the_lab.runs, str(data.get("game", "")), data.get("options", {}),
                                     data.get("agents", ["heuristic"]), data.get("cards"), data.get("games", 0),
                                     data.get("seed", 0), the_lab.max_games)
            progress = lab.Progress(total=2 * record["games"])
            the_lab.current = (name, progress)
        threading.Thread(target=the_lab.play, args=(name, progress), daemon=True, name=f"lab {name}").start()
        return {"name": name, "total": progress.total}

    @api.post("/api/lab/runs")
    async def api_start(request: Request) -> Response:
        return await guarded(request, start)

    def status(name: str) -> dict[str, Any]:
        folder = lab.run_folder(the_lab.runs, name)
        record = json.loads((folder / lab.LAB_FILE).read_text())
        out: dict[str, Any] = {"name": name, "game": record["game"], "games": record["games"], "seed": record["seed"]}
        if the_lab.current is not None and the_lab.current[0] == name:
            p = the_lab.current[1]
            out.update(state=p.state, done=p.done, total=p.total, reason=p.reason, error=p.error)
        else:
            out.update(state=record.get("state", "stopped"), reason=record.get("reason", ""),
                       error=record.get("error", ""), done=None, total=2 * record["games"])
        if out["state"] in ("done", "stopped"):
            try:
                if name not in the_lab.compared:
                    the_lab.compared[name] = lab.comparison_json(lab.comparison(the_lab.runs, name))
                out["comparison"] = the_lab.compared[name]
            except lab.LabError as exc:
                out["comparison"] = None
                out["reason"] = f"{out['reason']}; {exc}".strip("; ")
            out["card_file"] = f"{name}/{lab.VARIANT_FILE}"
            out["report"] = (f"cardtable report {the_lab.runs / name / 'variant'} {the_lab.runs / name / 'base'}")
        return out

    @api.get("/api/lab/runs/{name}")
    async def api_status(name: str, request: Request) -> Response:
        return await guarded(request, lambda _: status(name))

    def stop(name: str) -> dict[str, Any]:
        lab.run_folder(the_lab.runs, name)
        if the_lab.current is None or the_lab.current[0] != name or the_lab.current[1].state != "running":
            raise lab.LabError(f"run {name} is not playing")
        the_lab.current[1].stop()
        return {"stopping": True}

    @api.post("/api/lab/runs/{name}/stop")
    async def api_stop(name: str, request: Request) -> Response:
        return await guarded(request, lambda _: stop(name))

    def save(name: str, data: dict[str, Any]) -> dict[str, Any]:
        path = lab.save(the_lab.runs, name, str(data.get("file", "")))
        game = json.loads((lab.run_folder(the_lab.runs, name) / lab.LAB_FILE).read_text())["game"]
        opt = lab.option_of(game)
        return {"saved": path.name, "command": f"cardtable simulate {game} -o {opt.option}={path} ..."}

    @api.post("/api/lab/runs/{name}/save")
    async def api_save(name: str, request: Request) -> Response:
        return await guarded(request, lambda data: save(name, data))

    return api
