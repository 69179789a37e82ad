"""The coach at a table: a review of a finished game for one of its seats, and a hint for a person
playing alone against bots. Both think off the event loop and only ever on the seat's determinized
copies (`cardtable.sim.coach`, `bots.choose`): the true state never reaches a search."""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..core.rng import Rng
from ..core.views import view_for
from ..sim import coach
from ..ui.names import rename, seated
from .bots import choose, need_of_bot
from .context import AppContext, SafeJSONResponse, error_response
from .live import LiveTable, TableError, start_state

#: what a review may spend per decision: hard's search, then the paired playouts (capped in time)
REVIEW_BUDGET = coach.Budget(search_seconds=0.2, playouts=60, playout_seconds=0.4)
#: a review that would take longer than this (decisions times the cost of one) is refused
REVIEW_MAX_SECONDS = 90.0
#: the hint is hard's move with hard's own thinking time
HINT_LEVEL = coach.SEARCH_LEVEL
HINT_SECONDS = 0.5


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


def router(ctx: AppContext) -> APIRouter:
    api = APIRouter()
    reviews: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
    running = asyncio.Semaphore(1)  # one review at a time: the rest of the server keeps its CPU
    hinting: set[str] = set()       # tables whose hint is being thought: one at a time each

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
        rec, names = table.rec, table.names()
        actions = list(rec.actions)
        if running.locked():
            raise TableError("busy", "the coach is reviewing another game; try again in a minute")
        async with running:
            def work() -> list[dict[str, Any]]:
                start = start_state(rec, record_events=False)
                n = coach.count_decisions(start, actions, seat)
                if n > max_decisions():
                    raise TableError("too_large", f"this game has {n} decisions of yours; the coach reviews at most "
                                     f"{max_decisions()} here (review the saved game with: cardtable review FILE)")
                verdicts = coach.review(start, actions, seat, REVIEW_BUDGET, seed=_seed(table, f"review {seat}"))
                with seated(names):
                    return [{**v.to_json(), "made": rename(v.made), "best": rename(v.best)} for v in verdicts]
            return await asyncio.to_thread(work)

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
            version = table.version
            view = view_for(need_of_bot(HINT_LEVEL), state, seat, lambda: Rng(_seed(table, f"hint {version}")))
            hinting.add(table.id)
            try:
                text = await asyncio.to_thread(choose, HINT_LEVEL, _seed(table, f"hint bot {version}"), HINT_SECONDS, view)
            finally:
                hinting.discard(table.id)
        except TableError as exc:
            return error_response(exc)
        with seated(table.names()):
            return SafeJSONResponse({"action": text, "label": rename(text), "level": HINT_LEVEL, "version": version})

    return api
