"""The coach at a table: a review of a finished game for one of its seats, and a hint for a person
playing alone against bots. Both think in the coach's worker processes, never in the server's own
interpreter (a search holds it while it runs: every other table's websockets, moves and bots would wait),
and only ever on the seat's determinized copies (`cardtable.sim.coach`, `bots.choose`): the true state
never reaches a search."""

from __future__ import annotations

import asyncio
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..core.rng import Rng
from ..core.views import view_for
from ..sim import coach
from ..ui.names import rename, seated
from .bots import choose_in_process, need_of_bot
from .context import AppContext, SafeJSONResponse, error_response
from .live import LiveTable, TableError, first_state
from .workers import Workers

#: what a review may spend per decision: hard's search, then the paired playouts, and the check of a move
#: about to be marked (each capped in time): at most 0.8 s a decision, so 112 decisions in REVIEW_MAX_SECONDS
REVIEW_BUDGET = coach.Budget(search_seconds=0.2, playouts=60, playout_seconds=0.3, confirm=120)
#: a review that would take longer than this (decisions times the cost of one) is refused
REVIEW_MAX_SECONDS = 90.0
#: the hint is hard's move with hard's own thinking time
HINT_LEVEL = coach.SEARCH_LEVEL
HINT_SECONDS = 0.5
#: hints being thought or waiting for a worker, over all tables; past it a hint is refused (503 busy),
#: so a client asking at many tables at once delays other people's hints by a bounded amount
MAX_HINTS = 8
#: The coach's worker processes: its own pool, not the bots'. A review holds a worker up to
#: REVIEW_MAX_SECONDS; in the bots' pool (one process by default) every bot's move would wait behind it,
#: past the bots' queue timeout, and be replaced by a random move; hints asked at many tables would
#: likewise delay the bots. Two workers: one review at a time (`running`) leaves the other for hints,
#: which never wait behind a review.
COACH_PROCESSES = 2

T = TypeVar("T")


def max_decisions() -> int:
    cost = REVIEW_BUDGET.cost()
    assert cost is not None  # the server's budget is bounded in time
    return int(REVIEW_MAX_SECONDS // cost)


def _seed(table: LiveTable, purpose: str) -> int:
    """The coach's stream at a table: derived from the table's (secret) seed, so it says nothing of the deal."""
    digest = hashlib.sha256(f"{table.rec.seed} {purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << 63) - 1)


def only_person(table: LiveTable) -> int | None:
    """The one person's seat at a table where everyone else is a bot; None when several people play."""
    people = [i for i, s in enumerate(table.rec.seats) if s.get("kind") != "bot"]
    return people[0] if len(people) == 1 else None


def review_in_worker(game: str, options: dict[str, Any], deal_seed: int, rng: str, actions: list[str], seat: int,
                     budget: coach.Budget, seed: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """The review of `seat`'s decisions, in a coach's worker process: (how many decisions the seat made,
    the verdicts as JSON; none when there are more decisions than `limit`, which the server refuses).

    What the worker is handed is the recorded game and nothing else of the table: the game's name and
    options, the deal's seed and generator (`TableRecord.seed`, `.rng`) and the moves. It deals the true
    game again from them, because the coach judges each decision from the true state before it
    (`coach.judge` deals that seat's determinized copies from it: what the seat saw kept, every card it
    could not see dealt anew). The true states stay in this function and `coach.judge`: the search and
    the playouts are handed the copies only (tests/server/test_coaching.py checks it in the worker with a
    probe search, as tests/sim/test_coach.py does in-process). No seat's token or name, and no other
    table, is sent. Dealing the copies in the server instead would send only copies but would do the
    review's dealing (up to `playouts` copies per decision) in the server's interpreter, which this
    process exists to spare."""
    start = first_state(game, options, deal_seed, rng, record_events=False)
    n = coach.count_decisions(start, actions, seat)
    if n > limit:
        return n, []
    return n, [v.to_json() for v in coach.review(start, actions, seat, budget, seed=seed)]


def router(ctx: AppContext, workers: Workers) -> APIRouter:
    """The coach's endpoints; they think in `workers` (COACH_PROCESSES processes, started at the first
    review or hint, closed with the app)."""
    api = APIRouter()
    reviews: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
    running = asyncio.Semaphore(1)  # one review at a time: the machine's cores are the bots' and the tables'
    hinting: set[str] = set()       # tables whose hint is being thought: one at a time each

    async def in_worker(doing: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a coach's worker process. A worker that dies (killed, out of memory) fails its
        request with 503: the broken pool is dropped and the next request starts new workers."""
        pool = workers.pool(COACH_PROCESSES)
        try:
            return await asyncio.wrap_future(pool.submit(fn, *args))
        except BrokenProcessPool:
            workers.broken(pool)
            raise TableError("unavailable", f"the coach's worker process stopped while {doing}; ask again, "
                             "a new one is started") from None

    @api.get("/api/tables/{table_id}/review")
    async def api_review(table_id: str, token: str | None = None) -> JSONResponse:
        """The coach's review of a finished game, for the seat of `token`: each of its decisions with the
        win chance of the move made and of hard's move, from that seat's information only."""
        try:
            table = await ctx.lobby.open(table_id)
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("not_seated", "a review is of a seat's own decisions: open it with the seat's link")
            if not table.state.is_over:
                raise TableError("not_over", "a game can be reviewed once it is over")
            key = (table.id, seat)
            verdicts = reviews.get(key)
            if verdicts is None:
                verdicts = await _review(table, seat)
                reviews[key] = verdicts
                while len(reviews) > 32:
                    reviews.popitem(last=False)
        except TableError as exc:
            return error_response(exc)
        return SafeJSONResponse({"seat": seat, "level": coach.SEARCH_LEVEL, "verdicts": verdicts})

    async def _review(table: LiveTable, seat: int) -> list[dict[str, Any]]:
        rec = table.rec
        if running.locked():
            raise TableError("busy", "the coach is reviewing another game; try again in a minute")
        async with running:
            limit = max_decisions()
            # review_in_worker's docstring says what the worker is handed, and why
            n, verdicts = await in_worker("reviewing this game", review_in_worker, rec.game, rec.options, rec.seed,
                                          rec.rng, list(rec.actions), seat, REVIEW_BUDGET,
                                          _seed(table, f"review {seat}"), limit)
        if n > limit:
            raise TableError("too_large", f"this game has {n} decisions of yours; the coach reviews at most "
                             f"{limit} here (review the saved game with: cardtable review FILE)")
        with seated(table.names()):
            return [{**v, "made": rename(v["made"]), "best": rename(v["best"])} for v in verdicts]

    @api.get("/api/tables/{table_id}/hint")
    async def api_hint(table_id: str, token: str | None = None) -> JSONResponse:
        """What hard would play now, for the one person at a table of bots (never where several people play:
        a hint would be a bot playing for one of them)."""
        try:
            table = await ctx.lobby.open(table_id)
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("not_seated", "a hint is for the seat whose turn it is: open the table with your link")
            if only_person(table) != seat:
                raise TableError("no_hints", "hints are only given at a table with one person and bots")
            state = table.state
            if state.is_over or state.current_player != seat:
                raise TableError("not_your_turn", "a hint is given when it is your turn")
            if table.id in hinting:
                raise TableError("busy", "a hint for this table is being thought; it comes in a moment")
            if len(hinting) >= MAX_HINTS:
                raise TableError("busy", "the coach is thinking of hints at other tables; ask again in a moment")
            version = table.version
            # As a bot's move: the worker is handed hard's determinized copy for this seat, pickled (bots.py)
            view = view_for(need_of_bot(HINT_LEVEL), state, seat, lambda: Rng(_seed(table, f"hint {version}")))
            hinting.add(table.id)
            try:
                text, _ = await in_worker("thinking of a hint", choose_in_process, table.rec.game, table.rec.options,
                                          pickle.dumps(view), HINT_LEVEL, _seed(table, f"hint bot {version}"),
                                          HINT_SECONDS)
            finally:
                hinting.discard(table.id)
        except TableError as exc:
            return error_response(exc)
        with seated(table.names()):
            return SafeJSONResponse({"action": text, "label": rename(text), "level": HINT_LEVEL, "version": version})

    return api
