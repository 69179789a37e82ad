"""Bots in seats: when a bot must decide, it thinks off the event loop on what it needs (its legal
actions, or a determinized copy: `cardtable.core.views`), never on the true state."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import pickle
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from .. import agents
from ..core import State
from ..core.game import Game
from ..core.rng import Rng
from ..core.secure_rng import KeyedRng
from ..core.views import Need, Turn, need_of, view_for
from .live import LiveTable, TableError, make_game
from .workers import Workers

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("cardtable.server")

#: a bot's move may wait this long for the bots' worker before a seeded random move replaces it
BOT_QUEUE_TIMEOUT = 60.0
#: a bot in a worker process that kept to its time cap (by the worker's clock) is waited for this much
#: longer while its answer comes back to a busy server
RESULT_SLACK = 10.0


class Bots:
    """The lobby's bots: a task per table while a bot is to move, each choice thought in the lobby's pool."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.workers = Workers()
        #: set when the server shuts down: no bot starts another move (see `_turns`)
        self.closed = False

    def schedule(self, table: LiveTable) -> None:
        state = table.state
        if self.closed or state.is_over or state.current_player is None:
            return
        if table.rec.seats[state.current_player]["kind"] != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (created outside a request): the app starts bots on startup
        table.bot_task = loop.create_task(self._turns(table))

    async def _turns(self, table: LiveTable) -> None:
        # `closed` is checked at every move, not only cancellation trusted: a task cancelled just as an
        # awaited move completes can miss its cancellation (asyncio.wait_for on Python 3.11 swallowed it),
        # and then two bots at a game that never ends played on for ever after the server had closed.
        while not self.closed:
            if self.lobby.bot_delay:
                await asyncio.sleep(self.lobby.bot_delay)
            state = table.state
            seat = state.current_player
            if state.is_over or seat is None or table.rec.seats[seat]["kind"] != "bot":
                return
            version = table.version
            text = await self._choice(table, state, seat, version)
            try:
                async with table.lock:
                    if table.version != version:
                        continue
                    await self.lobby._act_locked(table, seat, text, version)
            except TableError:
                await asyncio.sleep(0.05)  # e.g. not saved: try again from the stored state
                continue

    def processes(self) -> ProcessPoolExecutor | None:
        """The bots' worker processes (`bot_processes` of them, started at the first bot move), or None
        when bots think in the lobby's threads. In processes, a bot table's thinking never holds the
        interpreter that serves people's moves."""
        if self.lobby.bot_processes <= 0:
            return None
        return self.workers.pool(self.lobby.bot_processes)

    def close(self) -> None:
        self.closed = True
        self.workers.close()

    def seed(self, table: LiveTable, seat: int, version: int) -> int:
        """The bot's seed for one move. At a served table it is a keyed hash of the table's secret
        seed, so what bots do tells nothing about the deal."""
        if table.rec.rng == "keyed":
            return KeyedRng(table.rec.seed).derive(f"bot {version} {seat}")
        return (table.rec.seed * 1_000_003 + version * 7919 + seat) % (2**63)

    async def _choice(self, table: LiveTable, state: State, seat: int, version: int) -> str:
        """The bot's action text, chosen off the event loop on what the bot needs, within the time cap."""
        seed = self.seed(table, seat, version)
        name = table.rec.seats[seat]["agent"]
        view = view_for(need_of_bot(name), state, seat, lambda: Rng(seed))
        loop = asyncio.get_running_loop()
        processes = self.processes()
        # In a worker process the view is unpickled once the game is made there (its action spaces exist
        # then): pickled here, passed as bytes.
        blob = pickle.dumps(view) if processes is not None else b""
        game, options = table.rec.game, table.rec.options
        started = loop.create_future()
        cap = self.lobby.bot_time * 1.5 + 0.5

        def mark_started() -> None:
            if not started.done():
                started.set_result(None)

        def think() -> str:
            loop.call_soon_threadsafe(mark_started)
            if processes is None:
                return choose(name, seed, self.lobby.bot_time, view)
            # One thread per worker process waits for it, so a thread that starts finds a process free.
            try:
                text, took = processes.submit(choose_in_process, game, options, blob, name, seed,
                                              self.lobby.bot_time).result()
                if took > cap:  # the worker's own clock: the time the bot thought, not the time to hear of it
                    raise TimeoutError
                return text
            except BrokenProcessPool:  # a worker died (killed, out of memory): the next move starts new ones
                self.workers.broken(processes)
                raise

        job = loop.run_in_executor(self.lobby.executor, think)
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns a result that arrives with a
            # cancellation and drops the cancellation, so a server shutting down could not stop this task.
            # The time cap runs from when the bot starts thinking: waiting for the bots' worker
            # (other bot tables are thinking) is bounded separately and generously.
            async with asyncio.timeout(BOT_QUEUE_TIMEOUT):
                await asyncio.shield(started)
            # In a worker the cap is checked by the worker's own clock (in `think`); here only a bot that
            # never answers is bounded, with room for a busy machine to pass the answer back.
            async with asyncio.timeout(cap + (RESULT_SLACK if processes is not None else 0.0)):
                text = await job
            if table.game.parse_action(text) in state.legal_actions():
                return text
        except (TimeoutError, Exception) as exc:  # a slow or broken bot must not stall the table
            job.cancel()  # a move still waiting for the worker is never thought about
            log.warning("cardtable: bot %s at table %s, move %d: %s; a random legal move replaces it", name, table.id,
                        version, "over its time" if isinstance(exc, TimeoutError) else repr(exc))
        legal = state.legal_actions()
        return legal[Rng(seed).below(len(legal))].text


def choose(name: str, seed: int, time_cap: float, view: State | Turn) -> str:
    """The text of the move bot `name` makes on `view` (what it needs): in a bots' thread or process."""
    return _make_bot(name, seed, time_cap).act(view).text


@functools.lru_cache(maxsize=32)
def _worker_game(game: str, options: str) -> Game[Any]:
    return make_game(game, json.loads(options))


def choose_in_process(game: str, options: dict[str, Any], view: bytes, name: str, seed: int,
                      time_cap: float) -> tuple[str, float]:
    """`choose` in a bots' worker process: the table's game is made here first (its action spaces, which
    the pickled view's actions refer to, are registered then), then the view is read. Returns the move and
    how long the bot thought (by this process's clock: the server checks the time cap against it)."""
    _worker_game(game, json.dumps(options, sort_keys=True))
    state = pickle.loads(view)
    began = time.monotonic()
    text = choose(name, seed, time_cap, state)
    return text, time.monotonic() - began


def need_of_bot(name: str) -> Need:
    """What bot `name` reads at its decisions: the server makes its view before the bot that thinks is
    made (in a bots' thread or process); making one here costs less than a determinized copy."""
    return need_of(_make_bot(name, 0, 1.0))


def _make_bot(name: str, seed: int, time_cap: float) -> agents.Agent:
    """`agents.make` with a seed and, for bots that think (ISMCTS), the time cap."""
    for params in ({"seed": seed, "time_limit": time_cap}, {"seed": seed}, {}):
        try:
            return agents.make(name, **params)
        except (agents.AgentError, TypeError):
            continue
    return agents.make("random", seed=seed)
