"""The lobby: every live table of this process, its seats, connections, actions and replays."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from .. import agents
from ..core import CardtableError, State
from ..core.game import Game
from ..core.secure_rng import KeyedRng, deal
from ..ui.names import MAX_NAME, rename, seated, valid_name
from .bots import Bots
from .db import Store, TableRecord, hash_token
from .live import SEND_TIMEOUT, Conn, LiveTable, TableError, make_game, replay

#: seeds of served tables: 128 bits from the operating system's secure source
SEED_BITS = 128
#: a creator-chosen seed is below this
SEED_LIMIT = 1 << 256


def new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def agent_choices() -> list[str]:
    """Every bot a seat may hold: difficulty words first, then agent names (new ones appear here)."""
    out = list(agents.DIFFICULTY)
    out += [n for n in agents.names() if n not in out]
    return out


class Lobby:
    """Every live table of this process, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        bot_time: float = 1.0,
        bot_delay: float = 0.0,
        executor: Executor | None = None,
        max_spectators: int = 1000,
        max_bot_tables: int = 20,
        bot_workers: int = 1,
        max_live_tables: int = 1000,
        bot_processes: int = 0,
    ) -> None:
        self.store = store
        self.max_live_tables = max_live_tables
        self.bot_time = bot_time
        self.bot_delay = bot_delay
        # Bots think in their own small pool: however many bot tables run, people's moves keep the
        # event loop (and most of the interpreter) to themselves.
        # With `bot_processes`, each of those threads waits for one of that many worker processes.
        self.bot_processes = bot_processes
        self.executor = executor or ThreadPoolExecutor(max_workers=max(bot_workers, bot_processes),
                                                       thread_name_prefix="cardtable-bot")
        self.max_spectators = max_spectators
        self.max_bot_tables = max_bot_tables
        self.tables: dict[str, LiveTable] = {}
        self._replays: OrderedDict[str, LiveTable] = OrderedDict()  # tables whose replay states are kept
        self.bots = Bots(self)

    # -- tables --------------------------------------------------------------------------

    def check_seats(self, seats: Any) -> None:
        """Seats as a client may send them: a person, or a bot by name, each with an optional name."""
        if not isinstance(seats, list) or not seats or len(seats) > 16:
            raise TableError("bad_request", "a table needs a list of seats (at most 16), each a person or a bot")
        known = agent_choices()
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("person", "bot", "open"):
                raise TableError("bad_request", f"seat {i}: kind must be 'person', 'open' (anyone may sit from the lobby) or 'bot'")
            extra = sorted(str(k)[:40] for k in s if k not in ("kind", "agent", "name"))
            if extra:
                raise TableError("bad_request", f"seat {i}: unknown field {extra[0]!r}; a seat has kind, agent and name")
            name = s.get("name")
            if name is not None and valid_name(name) is None:
                raise TableError("bad_request", f"seat {i}: {NAME_RULE}")
            agent = s.get("agent")
            if s["kind"] == "bot" and agent is not None and agent not in known:
                shown = agent[:40] if isinstance(agent, str) else type(agent).__name__
                raise TableError("bad_request", f"seat {i}: no bot named {shown!r}; bots: {', '.join(known)}")

    def bot_tables(self) -> int:
        return sum(1 for t in list(self.tables.values()) if t.has_bots and not t.state.is_over)

    def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: Any,
        seed: Any = None,
        rematch_of: str | None = None,
        game: Game[Any] | None = None,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table; returns it and the secret token of each person seat. `seats` may carry a
        person's `token_hash` only from the server itself (a rematch keeps each person's token);
        `game`: the game already made from these options (off the event loop)."""
        if not isinstance(seats, list) or not seats:
            raise TableError("bad_request", "a table needs a list of seats, each a person or a bot")
        options = dict(options or {})
        if "players" in options and options["players"] != len(seats):
            raise TableError("bad_request", f"options say {options['players']} players but {len(seats)} seats were given")
        options["players"] = len(seats)
        if game is None:
            try:
                game = make_game(game_name, options)
            except CardtableError as exc:
                raise TableError("bad_options", str(exc)) from None
        stored: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats):
            name = valid_name(s.get("name"))
            if s["kind"] == "bot":
                stored.append({"kind": "bot", "agent": s.get("agent") or "medium", "name": name})
            elif s["kind"] == "open" or (s.get("open") and not s.get("token_hash")):  # taken from the lobby later
                stored.append({"kind": "person", "open": True, "name": None, "token_hash": None})
            elif "token_hash" in s:  # a rematch keeps each person's token
                stored.append({"kind": "person", "name": name, "token_hash": s["token_hash"]})
            else:
                token = secrets.token_urlsafe(18)
                tokens[i] = token
                stored.append({"kind": "person", "name": name, "token_hash": hash_token(token)})
        if any(s["kind"] == "bot" for s in stored) and self.bot_tables() >= self.max_bot_tables:
            raise TableError("busy", f"this server already runs {self.max_bot_tables} tables with bots; "
                             "try again when one has finished, or seat only people")
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
            raise TableError("bad_request", "the seed must be a non-negative integer below 2**256")
        rec = TableRecord(
            id=new_id(), game=game.spec.name, options=game.options.to_json(), seed=seed, seats=stored,
            created=self.store.clock(), rematch_of=rematch_of, rng="keyed",
        )
        state = deal(game, seed, KeyedRng(seed))
        try:
            self.store.create(rec)
        except Exception as exc:
            raise TableError("unavailable", f"the table could not be saved; try again later ({type(exc).__name__})") from None
        table = LiveTable(rec, game, state)
        self.tables[rec.id] = table
        self._evict(keep=table)
        self.bots.schedule(table)
        return table, tokens

    def _evict(self, keep: LiveTable) -> None:
        """Above `max_live_tables` in memory, tables nobody is using leave it (the store keeps them and
        `get` loads one again): finished ones first, then tables of people only, the longest idle
        first. A table with a connection, a move under way or bots still to play stays, so the cap
        on tables with bots counts every one of them; so does `keep`, the table just made or loaded."""
        over = len(self.tables) - self.max_live_tables
        if over <= 0:
            return
        idle = [t for t in list(self.tables.values())
                if t is not keep and not t.conns and not t.lock.locked() and (t.bot_task is None or t.bot_task.done())
                and (t.state.is_over or not t.has_bots)]
        idle.sort(key=lambda t: (not t.state.is_over, t.touched))
        for t in idle[:over]:
            del self.tables[t.id]
            self._replays.pop(t.id, None)

    def get(self, table_id: Any) -> LiveTable:
        """A live table, loaded from the database when this process has not seen it yet."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is not None:
            table.touched = time.monotonic()
            return table
        if not valid_id(table_id):
            raise TableError("unknown_table", "no such table; a table's id is its address after /t/")
        try:
            rec = self.store.load(table_id)
        except Exception as exc:
            raise TableError("unavailable", f"the database cannot be reached; try again later ({type(exc).__name__})") from None
        if rec is None:
            raise TableError("unknown_table", f"no table {table_id!r}; it may have been created on another server")
        state = replay(rec)[0]
        table = self.tables.get(table_id)  # loaded meanwhile (get may run in a thread)
        if table is not None:
            return table
        table = LiveTable(rec, state.game, state)
        self.tables[table_id] = table
        self.bots.schedule(table)
        return table

    async def open(self, table_id: Any) -> LiveTable:
        """`get` with the database read off the event loop, caught up with moves stored by another process."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            if not valid_id(table_id):
                raise TableError("unknown_table", "no such table; a table's id is its address after /t/")
            table = await asyncio.to_thread(self.get, table_id)
            self._evict(keep=table)  # here, on the event loop: `get` runs in a thread
            self.bots.schedule(table)
            return table
        table.touched = time.monotonic()
        await self.catch_up(table)
        return table

    async def catch_up(self, table: LiveTable, schedule: bool = True) -> bool:
        """Reload the table when the database holds moves this process has not seen (another process
        sharing the database took them). True when it did. `schedule`: start its bots if they are to move
        (not when a process heard of the move: the process that took it starts them)."""
        try:
            stored = await asyncio.to_thread(self.store.count, table.id)
        except Exception:
            return False
        if stored <= table.version:
            return False
        newer = await asyncio.to_thread(self._load_newer, table)
        if newer is None:
            return False
        if len(newer[0].actions) > table.version:  # nobody moved this table on meanwhile
            table.rec, table.state = newer
            table.changed()
            if schedule:
                self.bots.schedule(table)
        return True

    def _load_newer(self, table: LiveTable) -> tuple[TableRecord, State] | None:
        try:
            rec = self.store.load(table.id)
        except Exception:
            return None
        if rec is None or len(rec.actions) <= table.version or rec.actions[: table.version] != table.rec.actions:
            return None
        try:
            return rec, replay(rec)[0]
        except TableError:
            return None

    def resume_all(self) -> int:
        """Load the unfinished tables with bots (newest first, up to the cap) so their bots carry on
        after a restart. Tables of people only are loaded when someone comes back to them."""
        n = 0
        for row in self.store.list(limit=0, unfinished_only=True):
            if n >= self.max_bot_tables:
                break
            if not any(s.get("kind") == "bot" for s in row["seats"]):
                continue
            try:
                self.get(row["id"])
                n += 1
            except TableError:
                pass
        return n

    async def join(self, table: LiveTable, seat: Any, name: Any) -> str:
        """Sit at an open seat (one left for anyone in the lobby) under a chosen name; returns the
        seat's new secret token. The seat is no longer open."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.rec.seats):
            raise TableError("bad_request", f"seat must be a number from 0 to {len(table.rec.seats) - 1}")
        chosen = valid_name(name)
        if chosen is None:
            raise TableError("bad_name", NAME_RULE)
        if table.state.is_over:
            raise TableError("game_over", "the game is over; no seat can be taken")
        async with table.lock:
            s = table.rec.seats[seat]
            if not s.get("open") or s.get("token_hash"):
                raise TableError("seat_taken", "this seat is not open: someone sits there already; choose another or watch")
            self._check_unique(table, seat, chosen)
            token = secrets.token_urlsafe(18)
            seats = [dict(x) for x in table.rec.seats]
            seats[seat] = {"kind": "person", "open": False, "name": chosen, "token_hash": hash_token(token)}
            await self._save_seats(table, seats)
        return token

    async def rename_seat(self, table: LiveTable, seat: int | None, name: Any) -> str:
        """A seated player chooses (or changes) the name the table calls them."""
        if seat is None:
            raise TableError("not_seated", "only a player at the table can choose a name")
        chosen = valid_name(name)
        if chosen is None:
            raise TableError("bad_name", NAME_RULE)
        async with table.lock:
            self._check_unique(table, seat, chosen)
            seats = [dict(x) for x in table.rec.seats]
            seats[seat]["name"] = chosen
            await self._save_seats(table, seats)
        return chosen

    def _check_unique(self, table: LiveTable, seat: int, chosen: str) -> None:
        others = [n for i, n in enumerate(table.names()) if i != seat]
        if chosen.casefold() in (n.casefold() for n in others):
            raise TableError("bad_name", f"{chosen!r} is already the name of another player at this table; choose another")

    async def _save_seats(self, table: LiveTable, seats: list[dict[str, Any]]) -> None:
        try:
            await asyncio.to_thread(self.store.set_seats, table.id, seats)
        except Exception as exc:
            raise TableError("not_saved", f"the seat could not be saved, nothing changed: {type(exc).__name__}") from None
        table.rec.seats = seats
        table.changed()

    async def rematch(self, table: LiveTable, seat: int | None) -> str:
        if seat is None:
            raise TableError("not_seated", "only a player at the table can ask for a rematch")
        if not table.state.is_over:
            raise TableError("not_over", "a rematch can start only when the game is over")
        async with table.lock:
            if table.rec.rematch is None:
                seats = [dict(s) for s in table.rec.seats]
                new, _ = self.create(table.rec.game, dict(table.rec.options), seats, rematch_of=table.id)
                table.rec.rematch = new.id
                with contextlib.suppress(Exception):  # the new table exists; only the link to it is not stored
                    await asyncio.to_thread(self.store.set_rematch, table.id, new.id)
                table.changed()
        return table.rec.rematch

    # -- connections ---------------------------------------------------------------------

    def attach(self, table: LiveTable, conn: Conn) -> None:
        """Add a connection and start its writer (which first sends it the whole state)."""
        if conn.seat is None:
            if table.spectators >= self.max_spectators:
                raise TableError("table_full", f"this table already has {self.max_spectators} spectators; try again later")
            table.spectators += 1
        table.conns.append(conn)
        conn.writer = asyncio.get_running_loop().create_task(self._write(table, conn))
        if conn.seat is not None:
            table.seated.append(conn)
            table._seat_conns[conn.seat] = table._seat_conns.get(conn.seat, 0) + 1
            if table._seat_conns[conn.seat] == 1:
                table.changed()  # the others see this person connected
        elif table._pump is None or table._pump.done():
            table._pump = asyncio.get_running_loop().create_task(table.pump())

    def detach(self, table: LiveTable, conn: Conn) -> None:
        if conn not in table.conns:
            return
        table.conns.remove(conn)
        if conn.dropped is None:
            conn.dropped = "closed"
        conn.wake.set()  # the writer ends at its next turn even if it missed the cancellation
        if conn.writer is not None and conn.writer is not asyncio.current_task():
            conn.writer.cancel()
        if conn.seat is None:
            table.spectators -= 1
            return
        table.seated.remove(conn)
        table._seat_conns[conn.seat] -= 1
        if table._seat_conns[conn.seat] == 0:
            table.changed()  # the others see this person gone

    def resend(self, table: LiveTable, conn: Conn) -> None:
        """Send `conn` the whole state again (a `sync`, or after a stale move)."""
        conn.log_sent = conn.events_seen = 0
        conn.rev_sent = -1
        conn.wake.set()

    async def _write(self, table: LiveTable, conn: Conn) -> None:
        """The connection's writer: the newest state when the table has changed, then its own messages."""
        # asyncio.timeout, not wait_for: it sends in this task (no task per message) and, unlike
        # wait_for on Python 3.11, never loses a cancellation that arrives as a send completes.
        try:
            while conn.dropped != "closed":
                due = conn.rev_sent != table.rev and conn.dropped is None
                paced = conn.byte_wait() if due else 0.0
                if due and paced <= 0:
                    text = table.state_text(conn)
                    conn.spend(len(text))
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await conn.send(text)
                elif conn.direct:
                    text = conn.direct.popleft()
                    conn.spend(len(text))
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await conn.send(text)
                elif conn.dropped is not None:
                    break
                elif due:  # over its byte budget: the newest state once it has refilled (or its own message first)
                    conn.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(paced):
                            await conn.wake.wait()
                else:
                    conn.wake.clear()
                    await conn.wake.wait()
        except asyncio.CancelledError:
            raise
        except Exception:  # TimeoutError: a socket that does not read; anything else: it is closed
            conn.dropped = conn.dropped or "not_reading"
        self.detach(table, conn)
        if conn.close is not None and conn.dropped != "closed":
            with contextlib.suppress(Exception):
                async with asyncio.timeout(SEND_TIMEOUT):
                    await conn.close()

    # -- actions -------------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int | None, action: Any, version: Any) -> str:
        """Apply one action for `seat` at `version`. Raises TableError (nothing changed)
        or returns the action's text once it is committed to the database. It does not wait for
        anyone to be sent the new state."""
        async with table.lock:
            try:
                text = await self._act_locked(table, seat, action, version)
            except TableError as exc:
                # Refused on this process's view: if another process sharing the database is
                # ahead, catch up and judge the move on the stored state.
                if exc.code not in ("stale", "not_your_turn", "game_over", "illegal") or not await self.catch_up(table):
                    raise
                text = await self._act_locked(table, seat, action, version)
        self.bots.schedule(table)
        return text

    async def _act_locked(self, table: LiveTable, seat: int | None, action: Any, version: Any) -> str:
        state = table.state
        if seat is None:
            raise TableError("not_seated", "spectators cannot act; join with a seat's link to play")
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError("bad_request", "every action carries the state version it was chosen at (an integer)")
        if state.is_over:
            raise TableError("game_over", "the game is over; no more actions can be taken")
        if version != table.version:
            raise TableError(
                "stale", f"your view is out of date (you acted on version {version}, the table is at {table.version}); "
                "the current state has been sent to you",
            )
        current = state.current_player
        if current != seat:
            who = "nobody" if current is None else table.names()[current]
            raise TableError("not_your_turn", f"it is not your turn: {who} must decide now")
        if not isinstance(action, (int, str)) or isinstance(action, bool):
            raise TableError("bad_request", "an action is its index (an integer) or its text")
        if isinstance(action, str) and (len(action) > 200 or not printable(action)):
            raise TableError("bad_request", "an action's text is printable text of at most 200 characters")
        try:  # validated once: the legal action it names, or the engine's reason (nothing changes)
            act = state.check(action)
        except CardtableError as exc:
            with seated(table.names()):  # the engine says "seat 2": the player reads the name
                raise TableError("illegal", rename(str(exc))[:300]) from None
        text = act.text
        n = table.version
        # Written and committed before the state changes and before anyone hears of it.
        try:  # off the event loop: other tables go on while the database commits
            await asyncio.to_thread(self.store.append, table.id, n, text, seat)
        except Exception as exc:  # another server took this move, or the database is down
            if await self.catch_up(table):
                raise TableError(
                    "stale", "another server moved this table on; your view is out of date and the current state "
                    "has been sent to you",
                ) from None
            raise TableError("not_saved", f"the move could not be saved, nothing changed: {type(exc).__name__}") from None
        state.apply(act)  # legal (checked above), so it cannot fail
        table.rec.actions.append(text)
        table.changed()
        if state.is_over:
            table.rec.finished = True
            with contextlib.suppress(Exception):  # only a listing flag: the log alone says the game is over
                await asyncio.to_thread(self.store.finish, table.id)
        return text

    # -- replays -------------------------------------------------------------------------

    async def replay_states(self, table: LiveTable) -> list[State]:
        """Every state of a finished game, computed once off the event loop and kept for the few
        tables replayed most recently."""
        if table._replay is None:
            rec = TableRecord(**{**table.rec.__dict__, "actions": list(table.rec.actions)})
            table._replay = await asyncio.to_thread(lambda: replay(rec, every=True))
        self._replays[table.id] = table
        self._replays.move_to_end(table.id)
        while len(self._replays) > 8:
            _, old = self._replays.popitem(last=False)
            old._replay = None
        return table._replay


NAME_RULE = f"a name is 1 to {MAX_NAME} printable characters, neither \"you\" nor a seat number like \"seat 2\""


def printable(text: str) -> bool:
    """Text a person can read: valid Unicode (no lone surrogate), no control characters."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return text.isprintable()


def valid_id(table_id: Any) -> bool:
    return isinstance(table_id, str) and 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isalnum()

