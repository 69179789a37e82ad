"""Live tables: the true state in memory, rebuilt from the database, and what each seat is sent.

The server only encodes and transports (DESIGN.md: "Adapters only encode and transport"). What a
seat receives is built from `state.observation(seat)`, `state.events_for(seat)` (narrated by the
game's text module) and, when that seat must decide, its legal actions — nothing else of the
state, so a seat is never sent what its observation would not show.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from .. import agents
from ..core import CardtableError, IllegalAction, Replay, State, make
from ..core.game import Game
from ..core.rng import Rng
from ..ui.text import narrate
from .db import Store, TableRecord, hash_token


class TableError(Exception):
    """A request the server refuses; nothing changed. `code` is stable for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def agent_choices() -> list[str]:
    """Every bot a seat may hold: difficulty words first, then agent names (new ones appear here)."""
    out = list(agents.DIFFICULTY)
    out += [n for n in agents.names() if n not in out]
    return out


def seat_label(seat: dict[str, Any], index: int) -> str:
    if seat.get("name"):
        return str(seat["name"])
    if seat["kind"] == "bot":
        return f"Bot {index} ({seat.get('agent')})"
    return f"Player {index}"


def narrate_lines(game: Game[Any], events: list[Any], seat: int | None) -> list[str]:
    """Log lines for `events` as `seat` sees them: each game's text.py through `cardtable.ui.text`."""
    out = []
    mod = _text_module(type(game))
    for e in events:
        data = e.to_json()
        line = mod.narrate(data, seat) if mod is not None else narrate(game, data, seat)
        if line:
            out.append(line)
    return out


_TEXT: dict[type, Any] = {}


def _text_module(cls: type) -> Any:
    """The game's text module when it has `narrate` (looked up once per game class), else None."""
    if cls not in _TEXT:
        mod = None
        with contextlib.suppress(Exception):
            package = cls.__module__.rsplit(".", 1)[0]
            mod = importlib.import_module(f"{package}.text")
        _TEXT[cls] = mod if mod is not None and hasattr(mod, "narrate") else None
    return _TEXT[cls]


def encode(
    table_id: str,
    game: Game[Any],
    state: State,
    version: int,
    seat: int | None,
    seats: list[dict[str, Any]],
    log_from: int = 0,
    events_from: int | None = None,
) -> dict[str, Any]:
    """The message a seat (None: a spectator) receives at `version`.

    Built only from observation(seat), events_for(seat) and, for the seat that must decide,
    legal_actions(): the leak test checks this by comparing it with the same message built from
    `state.determinize(seat)`, whose hidden cards are resampled."""
    if events_from is None:  # the whole log from visible event `log_from`
        visible = state.events_for(seat)
        new, total = visible[log_from:], len(visible)
    else:  # only events recorded since raw index `events_from` (a connection's cursor), `log_from` seen before
        new = [e for e in (state.events or [])[events_from:] if e.visible_to(seat)]
        total = log_from + len(new)
    decides = seat is not None and state.current_player == seat
    out: dict[str, Any] = {
        "type": "state",
        "table": table_id,
        "game": game.spec.name,
        "title": game.spec.title,
        "options": game.options.to_json(),
        "version": version,
        "seat": seat,
        "seats": seats,
        "current_player": state.current_player,
        "observation": state.observation(seat),
        "log_from": log_from,
        "log_total": total,
        "log": narrate_lines(game, new, seat),
        "legal": [{"index": a.index, "text": a.text} for a in state.legal_actions()] if decides else [],
        "over": state.is_over,
    }
    if state.is_over:
        out["winners"] = state.winners()
        out["returns"] = state.returns()
    return out


@dataclass
class Conn:
    """One websocket (or test double): a seat or a spectator, and how much of the log it has."""

    seat: int | None
    send: Callable[[dict[str, Any]], Any]  # an async function taking a JSON-able dict
    log_sent: int = 0    # visible events already sent
    events_seen: int = 0  # raw events (state.events) already looked at


@dataclass
class LiveTable:
    rec: TableRecord
    game: Game[Any]
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: list[Conn] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def version(self) -> int:
        return len(self.rec.actions)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens; raises for a wrong token. No token: a spectator (None)."""
        if token is None or token == "":
            return None
        h = hash_token(token)
        for i, s in enumerate(self.rec.seats):
            if s.get("token_hash") and secrets.compare_digest(s["token_hash"], h):
                return i
        raise TableError("bad_token", "this token opens no seat at this table; check your join link")

    def public_seats(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.conns}
        return [
            {"seat": i, "kind": s["kind"], "agent": s.get("agent"), "name": seat_label(s, i),
             "connected": s["kind"] == "bot" or i in connected}
            for i, s in enumerate(self.rec.seats)
        ]

    def message(self, seat: int | None, log_from: int = 0, events_from: int | None = None) -> dict[str, Any]:
        msg = encode(self.id, self.game, self.state, self.version, seat, self.public_seats(), log_from, events_from)
        msg["rematch"] = self.rec.rematch
        msg["finished"] = self.state.is_over
        return msg


class Lobby:
    """Every live table of this process, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        bot_time: float = 1.0,
        bot_delay: float = 0.0,
        executor: Executor | None = None,
    ) -> None:
        self.store = store
        self.bot_time = bot_time
        self.bot_delay = bot_delay
        self.executor = executor
        self.tables: dict[str, LiveTable] = {}

    # -- tables --------------------------------------------------------------------------

    def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: Any,
        seed: Any = None,
        rematch_of: str | None = None,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table; returns it and the secret token of each person seat."""
        if not isinstance(seats, list) or not seats:
            raise TableError("bad_request", "a table needs a list of seats, each a person or a bot")
        options = dict(options or {})
        if "players" in options and options["players"] != len(seats):
            raise TableError("bad_request", f"options say {options['players']} players but {len(seats)} seats were given")
        options["players"] = len(seats)
        try:
            game = make(game_name, **options)
        except CardtableError as exc:
            raise TableError("bad_options", str(exc)) from None
        stored: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        known = agent_choices()
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("person", "bot"):
                raise TableError("bad_request", f"seat {i}: kind must be 'person' or 'bot'")
            name = s.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > 40):
                raise TableError("bad_request", f"seat {i}: a name is text of at most 40 characters")
            if s["kind"] == "bot":
                agent = s.get("agent") or "easy"
                if agent not in known:
                    raise TableError("bad_request", f"seat {i}: no bot named {agent!r}; bots: {', '.join(known)}")
                stored.append({"kind": "bot", "agent": agent, "name": name})
            elif "token_hash" in s:  # a rematch keeps each person's token
                stored.append({"kind": "person", "name": name, "token_hash": s["token_hash"]})
            else:
                token = secrets.token_urlsafe(18)
                tokens[i] = token
                stored.append({"kind": "person", "name": name, "token_hash": hash_token(token)})
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise TableError("bad_request", "the seed must be a non-negative integer")
        rec = TableRecord(
            id=new_id(), game=game.spec.name, options=game.options.to_json(), seed=seed, seats=stored,
            created=time.time(), rematch_of=rematch_of,
        )
        state = game.new_state(seed)
        self.store.create(rec)
        table = LiveTable(rec, game, state)
        self.tables[rec.id] = table
        self.schedule_bots(table)
        return table, tokens

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not table_id or len(table_id) > 32:
            raise TableError("unknown_table", f"no table {table_id!r}")
        rec = self.store.load(table_id)
        if rec is None:
            raise TableError("unknown_table", f"no table {table_id!r}; it may have been created on another server")
        try:
            state = Replay(rec.game, rec.options, rec.seed, rec.actions).run()
        except CardtableError as exc:
            raise TableError("damaged_table", f"table {table_id} cannot be resumed: {exc}") from None
        table = LiveTable(rec, state.game, state)
        self.tables[table_id] = table
        self.schedule_bots(table)
        return table

    def resume_all(self) -> int:
        """Load every unfinished table so its bots carry on after a restart."""
        n = 0
        for row in self.store.list(limit=0, unfinished_only=True):
            try:
                self.get(row["id"])
                n += 1
            except TableError:
                pass
        return n

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
                self.store.set_rematch(table.id, new.id)
        await self.broadcast(table)
        return table.rec.rematch

    # -- actions -------------------------------------------------------------------------

    async def act(self, table: LiveTable, seat: int | None, action: Any, version: Any) -> str:
        """Apply one action for `seat` at `version`. Raises TableError (nothing changed)
        or returns the action's text once it is committed to the database."""
        async with table.lock:
            text = await self._act_locked(table, seat, action, version)
        await self.broadcast(table)
        self.schedule_bots(table)
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
            who = "nobody" if current is None else seat_label(table.rec.seats[current], current)
            raise TableError("not_your_turn", f"it is not your turn: {who} must decide now")
        if not isinstance(action, (int, str)) or isinstance(action, bool):
            raise TableError("bad_request", "an action is its index (an integer) or its text")
        try:
            act = table.game.coerce_action(action)
        except CardtableError as exc:
            raise TableError("illegal", str(exc)) from None
        if act not in state.legal_actions():
            try:
                state.apply(act)  # refuses with the engine's reason and leaves the state unchanged
            except IllegalAction as exc:
                raise TableError("illegal", str(exc)) from None
            raise AssertionError("an action outside legal_actions() was applied")  # pragma: no cover
        text = act.text
        n = table.version
        # Written and committed before the state changes and before anyone hears of it.
        try:  # off the event loop: other tables go on while the database commits
            await asyncio.to_thread(self.store.append, table.id, n, text, seat)
        except Exception as exc:  # another server took this move, or the database is down
            if await asyncio.to_thread(self._reload, table):
                raise TableError(
                    "stale", "another server moved this table on; your view is out of date and the current state "
                    "has been sent to you",
                ) from None
            raise TableError("not_saved", f"the move could not be saved, nothing changed: {type(exc).__name__}") from None
        state.apply(act)  # legal (checked above), so it cannot fail
        table.rec.actions.append(text)
        if state.is_over:
            table.rec.finished = True
            await asyncio.to_thread(self.store.finish, table.id)  # only a listing flag: the log alone says the game is over
        return text

    def _reload(self, table: LiveTable) -> bool:
        """Catch up with moves another process sharing the database stored. True if there were any."""
        try:
            rec = self.store.load(table.id)
        except Exception:
            return False
        if rec is None or len(rec.actions) <= table.version or rec.actions[: table.version] != table.rec.actions:
            return False
        state = Replay(rec.game, rec.options, rec.seed, rec.actions).run()
        table.rec, table.state = rec, state
        return True

    # -- bots ----------------------------------------------------------------------------

    def schedule_bots(self, table: LiveTable) -> None:
        state = table.state
        if state.is_over or state.current_player is None:
            return
        if table.rec.seats[state.current_player]["kind"] != "bot":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (created outside a request): the app starts bots on startup
        table.bot_task = loop.create_task(self._bot_turns(table))

    async def _bot_turns(self, table: LiveTable) -> None:
        while True:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            state = table.state
            seat = state.current_player
            if state.is_over or seat is None or table.rec.seats[seat]["kind"] != "bot":
                return
            version = table.version
            text = await self._bot_choice(table, state, seat, version)
            try:
                async with table.lock:
                    if table.version != version:
                        continue
                    await self._act_locked(table, seat, text, version)
            except TableError:
                await asyncio.sleep(0.05)  # e.g. not saved: try again from the stored state
                continue
            await self.broadcast(table)

    async def _bot_choice(self, table: LiveTable, state: State, seat: int, version: int) -> str:
        """The bot's action text, chosen on a determinized copy off the event loop, within the time cap."""
        seed = (table.rec.seed * 1_000_003 + version * 7919 + seat) % (2**63)
        name = table.rec.seats[seat]["agent"]
        view = state.determinize(seat, Rng(seed))
        bot = _make_bot(name, seed, self.bot_time)
        loop = asyncio.get_running_loop()
        try:
            action = await asyncio.wait_for(loop.run_in_executor(self.executor, bot.act, view), timeout=self.bot_time * 1.5 + 0.5)
            text = action.text
            if table.game.parse_action(text) in state.legal_actions():
                return text
        except (TimeoutError, Exception):  # a slow or broken bot must not stall the table
            pass
        legal = state.legal_actions()
        return legal[Rng(seed).below(len(legal))].text

    # -- sending -------------------------------------------------------------------------

    async def send_state(self, table: LiveTable, conn: Conn) -> None:
        msg = table.message(conn.seat, conn.log_sent, conn.events_seen if conn.log_sent else None)
        conn.log_sent = msg["log_total"]
        conn.events_seen = len(table.state.events or [])
        with contextlib.suppress(Exception):  # a closed socket: the disconnect handler removes it
            await conn.send(msg)

    async def broadcast(self, table: LiveTable) -> None:
        for conn in list(table.conns):
            await self.send_state(table, conn)


def _make_bot(name: str, seed: int, time_cap: float) -> agents.Agent:
    """`agents.make` with a seed and, for bots that think (ISMCTS), the time cap."""
    for params in ({"seed": seed, "time_limit": time_cap}, {"seed": seed}, {}):
        try:
            return agents.make(name, **params)
        except (agents.AgentError, TypeError):
            continue
    return agents.make("random", seed=seed)
