"""Live tables: the true state in memory, rebuilt from the database, and what each seat is sent.

The server only encodes and transports (DESIGN.md: "Adapters only encode and transport"). What a
seat receives is built from `state.observation(seat)`, `state.events_for(seat)` (narrated by the
game's text module) and, when that seat must decide, its legal actions — nothing else of the
state, so a seat is never sent what its observation would not show.

Sending never holds a table up (issue 20, finding 3). Each connection has its own writer task:
it sends the newest state when the table has moved on since the last one it sent, then the
connection's own messages (acks, errors) from a short queue. A move only marks the table's
revision and wakes the writers; the acknowledgement never waits for anyone's socket. A message
is built and serialized once per revision for all the connections that are at the same point of
the log (all the spectators, as a rule). Spectators are woken together by one task per table, at
most as often as `SPECTATOR_SENDS_PER_S` sends per second allow for their number, so a crowd costs
the players a bounded share of the server; a spectator that falls behind simply receives the
newest state (with the log lines it missed, or only the newest `SPECTATOR_TAIL` of them). A socket that does not take a message within
`SEND_TIMEOUT` seconds, or whose queue of own messages overflows, is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import agents
from ..core import CardtableError, State, make
from ..core.game import Game
from ..core.registry import part_of
from ..core.rng import Rng
from ..core.secure_rng import KeyedRng, deal
from ..ui.names import MAX_NAME, question, rename, seat_names, seated, valid_name
from ..ui.text import choices, narrate, standings
from .db import Store, TableRecord, hash_token

#: a socket that has not taken one message after this many seconds is dropped
SEND_TIMEOUT = 10.0
#: a connection's own messages (acks, errors, pongs) waiting to be sent before it is dropped
DIRECT_LIMIT = 64
#: the spectators of one table are sent at most about this many messages per second in all
SPECTATOR_SENDS_PER_S = 1000.0
#: a spectator more events behind than this is sent only the newest this many log lines
SPECTATOR_TAIL = 50
#: a bot's move may wait this long for the bots' worker before a seeded random move replaces it
BOT_QUEUE_TIMEOUT = 60.0
#: seeds of served tables: 128 bits from the operating system's secure source
SEED_BITS = 128
#: a creator-chosen seed is below this
SEED_LIMIT = 1 << 256


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


def narrate_lines(game: Game[Any], events: list[Any], seat: int | None, names: list[str] | None = None) -> list[str]:
    """Log lines for `events` as `seat` sees them: each game's text.py through `cardtable.ui.text`,
    every player called by the name in `names` (`cardtable.ui.names`)."""
    out = []
    mod = _text_module(type(game))
    with seated(names):
        for e in events:
            data = e.to_json()
            line = mod.narrate(data, seat) if mod is not None else narrate(game, data, seat)
            if line:
                out.append(rename(line))
    return out


#: how far back the log is searched for each seat's last play
LAST_PLAY_SCAN = 300
#: events about a seat that are not something it did (a game's text module may add its own: NOT_PLAYS)
NOT_PLAYS = frozenset({"turn", "turn_started", "round_started", "setup", "dealt", "round_over", "game_over"})


def last_plays(game: Game[Any], state: State, seat: int | None, names: list[str]) -> dict[str, str]:
    """Each seat's most recent log line about something it did (events with its `seat`), as `seat` sees them."""
    found: dict[str, str] = {}
    events = state.events or []
    skip = NOT_PLAYS | frozenset(getattr(_text_module(type(game)), "NOT_PLAYS", ()))
    for e in reversed(events[-LAST_PLAY_SCAN:]):
        who = e.data.get("seat")
        # public events only: a line only one seat reads ("you drew red 7") is not a play the others see
        if not isinstance(who, int) or str(who) in found or e.to is not None or e.kind in skip:
            continue
        line = narrate_lines(game, [e], seat, names)
        if line:
            found[str(who)] = line[0]
            if len(found) >= game.players:
                break
    return found


def _text_module(cls: type[Game[Any]]) -> Any:
    """The game's text module as its spec names it (the registry's one lookup), else None."""
    return part_of(cls, "text")


def _named(why: str | None) -> str | None:
    """A rule's reason with the seats called by their names (None: the move is legal)."""
    return None if why is None else rename(why)


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
    names = [str(s.get("name")) for s in seats]
    obs = state.observation(seat)
    legal = state.legal_actions() if decides else []
    pending = obs.get("decision") if isinstance(obs, dict) and not state.is_over else None
    with seated(names):
        labels = dict(choices(game, obs, [a.text for a in legal])) if legal else {}
        # the decision's own question (its `text`), addressed to this viewer, with the seats' names
        asked = (None if not isinstance(pending, dict) or "text" not in pending else
                 {"seat": pending["seat"], "kind": pending["kind"], "text": question(pending["seat"], seat, pending["text"])})
        # each card the deciding seat holds: the move that plays it and, when refused, the rule's reason
        cards = {name: {**status, "why": _named(status["why"]),
                        "moves": [{"move": m["move"], "why": _named(m["why"])} for m in status["moves"]]}
                 for name, status in state.card_status(seat).items()}
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
        "observation": obs,
        "log_from": log_from,
        "log_total": total,
        "log": narrate_lines(game, new, seat, names),
        "legal": [{"index": a.index, "text": a.text, "label": labels.get(k, a.text)} for k, a in enumerate(legal)],
        "prompt": asked,
        "cards": cards,
        "over": state.is_over,
        "last_plays": last_plays(game, state, seat, names),
    }
    if state.is_over:
        out["winners"] = state.winners()
        out["standings"] = standings(game, state, seat)
    return out


def dumps(msg: dict[str, Any]) -> str:
    """JSON text for a socket. Text that is not valid Unicode (a lone surrogate in an old row) is escaped."""
    text = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(msg, separators=(",", ":"))
    return text


def start_state(rec: TableRecord, record_events: bool = True) -> State:
    """The table's first state: dealt by the keyed generator (served tables), or SplitMix64 for tables
    stored before keyed deals."""
    game = make(rec.game, **rec.options)
    if rec.rng == "keyed":
        return deal(game, rec.seed, KeyedRng(rec.seed), record_events)
    state: State = game.new_state(rec.seed, record_events=record_events)
    return state


def replay(rec: TableRecord, actions: list[str] | None = None, every: bool = False) -> list[State]:
    """The table's states after `actions` (default: all its actions): the last one, or `every` one.
    Raises TableError("damaged_table") when the stored log does not replay."""
    actions = rec.actions if actions is None else actions
    try:
        state = start_state(rec)
        out = [state]
        for step, text in enumerate(actions, 1):
            if every:
                state = state.clone()
                out.append(state)
            try:
                state.game.replay_step(state, text)
            except CardtableError as exc:
                raise TableError("damaged_table", f"table {rec.id} cannot be replayed at step {step} ({text!r}): {exc}") from None
    except CardtableError as exc:
        raise TableError("damaged_table", f"table {rec.id} cannot be resumed: {exc}") from None
    return out if every else [state]


@dataclass(eq=False)
class Conn:
    """One websocket (or test double): a seat or a spectator, and how much of the log it has.

    `send` takes JSON text and `close` ends the socket; both are async. The connection's writer
    task (`Lobby.attach`) is the only caller of `send`."""

    seat: int | None
    send: Callable[[str], Awaitable[Any]]
    close: Callable[[], Awaitable[Any]] | None = None
    log_sent: int = 0    # visible events already sent
    events_seen: int = 0  # raw events (state.events) already looked at
    rev_sent: int = -1   # the table revision of the last state sent (-1: none yet)
    direct: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None
    dropped: str | None = None  # why the server dropped it

    def push(self, msg: dict[str, Any]) -> None:
        """Queue one of this connection's own messages (never waits). A connection that does not
        read while it keeps sending overflows its queue: it is told why and dropped."""
        if self.dropped is not None:
            return
        if len(self.direct) >= DIRECT_LIMIT:
            self.direct.clear()
            self.direct.append(dumps({"type": "error", "code": "too_slow",
                                      "message": "this connection reads too slowly; it is closed, reconnect to go on"}))
            self.dropped = "too_slow"
        else:
            self.direct.append(dumps(msg))
        self.wake.set()


@dataclass(eq=False)
class LiveTable:
    rec: TableRecord
    game: Game[Any]
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: list[Conn] = field(default_factory=list)
    seated: list[Conn] = field(default_factory=list)  # the connections of seats: woken on every change
    bot_task: asyncio.Task[None] | None = None
    #: bumped whenever what a connection is sent changes (a move, a person connecting, a rematch)
    rev: int = 0
    spectators: int = 0
    _seat_conns: dict[int, int] = field(default_factory=dict)
    _cache: dict[tuple[Any, ...], tuple[str, int]] = field(default_factory=dict)
    _cache_rev: int = -1
    _spectators_due: asyncio.Event = field(default_factory=asyncio.Event)
    _pump: asyncio.Task[None] | None = None
    _replay: list[State] | None = None
    #: when this process last served the table (time.monotonic): idle tables leave memory first
    touched: float = field(default_factory=time.monotonic)

    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def version(self) -> int:
        return len(self.rec.actions)

    @property
    def has_bots(self) -> bool:
        return any(s.get("kind") == "bot" for s in self.rec.seats)

    def seat_of(self, token: Any) -> int | None:
        """The seat a token opens; raises for a wrong token. No token: a spectator (None)."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 100:
            raise TableError("bad_token", "a token is the text of a join link (at most 100 characters)")
        try:
            h = hash_token(token)
        except UnicodeEncodeError:
            raise TableError("bad_token", "a token is the text of a join link") from None
        for i, s in enumerate(self.rec.seats):
            th = s.get("token_hash")
            if isinstance(th, str) and secrets.compare_digest(th, h):
                return i
        raise TableError("bad_token", "this token opens no seat at this table; check your join link")

    def names(self) -> list[str]:
        """Each seat's name: chosen when the player sat, else "Player 2" / "Bot 3" (`cardtable.ui.names`)."""
        return seat_names(self.rec.seats)

    def public_seats(self) -> list[dict[str, Any]]:
        names = self.names()
        return [
            {"seat": i, "kind": s["kind"], "agent": s.get("agent"), "name": names[i], "named": bool(s.get("name")),
             "open": bool(s.get("open")) and not s.get("token_hash"),
             "connected": s["kind"] == "bot" or self._seat_conns.get(i, 0) > 0}
            for i, s in enumerate(self.rec.seats)
        ]

    def status(self) -> dict[str, Any]:
        """What the lobby lists about a live table: whose turn it is and how far the game is."""
        cp = self.state.current_player
        over = self.state.is_over
        return {"turn": None if over or cp is None else self.names()[cp], "moves": self.version,
                "seats": [{k: v for k, v in p.items() if k != "seat"} for p in self.public_seats()]}

    def message(self, seat: int | None, log_from: int = 0, events_from: int | None = None) -> dict[str, Any]:
        msg = encode(self.id, self.game, self.state, self.version, seat, self.public_seats(), log_from, events_from)
        msg["rematch"] = self.rec.rematch
        msg["finished"] = self.state.is_over
        return msg

    # -- fan-out -------------------------------------------------------------------------

    def changed(self) -> None:
        """What connections are sent has changed: wake the seats' writers now and the spectators'
        through the table's pump. Never waits."""
        self.rev += 1
        for c in self.seated:  # a few; the spectators (maybe a thousand) are woken by the pump
            c.wake.set()
        self._spectators_due.set()

    def state_text(self, conn: Conn) -> str:
        """The state message for `conn` (its log from where it is), serialized once for every
        connection at the same point; moves the connection's cursors."""
        if self._cache_rev != self.rev:
            self._cache.clear()
            self._cache_rev = self.rev
        incremental = conn.log_sent > 0
        behind = len(self.state.events or []) - conn.events_seen
        if conn.seat is None and incremental and behind > SPECTATOR_TAIL:
            # A spectator far behind (a fast table, a crowd paced to a few updates a second) gets the
            # newest lines only, marked `log_reset`: what every spectator is sent stays bounded.
            key: tuple[Any, ...] = (None, "tail")
            hit = self._cache.get(key)
            if hit is None:
                start = max(0, len(self.state.events_for(None)) - SPECTATOR_TAIL)
                msg = self.message(None, start)
                msg["log_reset"] = True
                hit = self._cache[key] = (dumps(msg), msg["log_total"])
        else:
            key = (conn.seat, conn.log_sent, conn.events_seen if incremental else None)
            hit = self._cache.get(key)
            if hit is None:
                msg = self.message(conn.seat, conn.log_sent, conn.events_seen if incremental else None)
                hit = self._cache[key] = (dumps(msg), msg["log_total"])
        conn.log_sent = hit[1]
        conn.events_seen = len(self.state.events or [])
        conn.rev_sent = self.rev
        return hit[0]

    def spectator_interval(self) -> float:
        return self.spectators / SPECTATOR_SENDS_PER_S

    async def pump(self) -> None:
        """Wake every spectator's writer when the table has changed, at most once per interval."""
        while self.spectators:
            await self._spectators_due.wait()
            self._spectators_due.clear()
            for c in self.conns:
                if c.seat is None:
                    c.wake.set()
            await asyncio.sleep(self.spectator_interval())


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
    ) -> None:
        self.store = store
        self.max_live_tables = max_live_tables
        self.bot_time = bot_time
        self.bot_delay = bot_delay
        # Bots think in their own small pool: however many bot tables run, people's moves keep the
        # event loop (and most of the interpreter) to themselves.
        self.executor = executor or ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="cardtable-bot")
        self.max_spectators = max_spectators
        self.max_bot_tables = max_bot_tables
        self.tables: dict[str, LiveTable] = {}
        self._replays: OrderedDict[str, LiveTable] = OrderedDict()  # tables whose replay states are kept

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
                game = make(game_name, **options)
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
        self.schedule_bots(table)
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
        self.schedule_bots(table)
        return table

    async def open(self, table_id: Any) -> LiveTable:
        """`get` with the database read off the event loop, caught up with moves stored by another process."""
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            if not valid_id(table_id):
                raise TableError("unknown_table", "no such table; a table's id is its address after /t/")
            table = await asyncio.to_thread(self.get, table_id)
            self._evict(keep=table)  # here, on the event loop: `get` runs in a thread
            self.schedule_bots(table)
            return table
        table.touched = time.monotonic()
        await self.catch_up(table)
        return table

    async def catch_up(self, table: LiveTable) -> bool:
        """Reload the table when the database holds moves this process has not seen (another process
        sharing the database took them). True when it did."""
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
            self.schedule_bots(table)
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
                if conn.rev_sent != table.rev and conn.dropped is None:
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await conn.send(table.state_text(conn))
                elif conn.direct:
                    async with asyncio.timeout(SEND_TIMEOUT):
                        await conn.send(conn.direct.popleft())
                elif conn.dropped is not None:
                    break
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

    def bot_seed(self, table: LiveTable, seat: int, version: int) -> int:
        """The bot's seed for one move. At a served table it is a keyed hash of the table's secret
        seed, so what bots do tells nothing about the deal."""
        if table.rec.rng == "keyed":
            return KeyedRng(table.rec.seed).derive(f"bot {version} {seat}")
        return (table.rec.seed * 1_000_003 + version * 7919 + seat) % (2**63)

    async def _bot_choice(self, table: LiveTable, state: State, seat: int, version: int) -> str:
        """The bot's action text, chosen on a determinized copy off the event loop, within the time cap."""
        seed = self.bot_seed(table, seat, version)
        name = table.rec.seats[seat]["agent"]
        view = state.determinize(seat, Rng(seed))
        bot = _make_bot(name, seed, self.bot_time)
        loop = asyncio.get_running_loop()
        started = loop.create_future()

        def mark_started() -> None:
            if not started.done():
                started.set_result(None)

        def think() -> Any:
            loop.call_soon_threadsafe(mark_started)
            return bot.act(view)

        job = loop.run_in_executor(self.executor, think)
        try:
            # The time cap runs from when the bot starts thinking: waiting for the bots' worker
            # (other bot tables are thinking) is bounded separately and generously.
            await asyncio.wait_for(asyncio.shield(started), timeout=BOT_QUEUE_TIMEOUT)
            action = await asyncio.wait_for(job, timeout=self.bot_time * 1.5 + 0.5)
            text: str = action.text
            if table.game.parse_action(text) in state.legal_actions():
                return text
        except (TimeoutError, Exception):  # a slow or broken bot must not stall the table
            job.cancel()  # a move still waiting for the worker is never thought about
        legal = state.legal_actions()
        return legal[Rng(seed).below(len(legal))].text


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


def _make_bot(name: str, seed: int, time_cap: float) -> agents.Agent:
    """`agents.make` with a seed and, for bots that think (ISMCTS), the time cap."""
    for params in ({"seed": seed, "time_limit": time_cap}, {"seed": seed}, {}):
        try:
            return agents.make(name, **params)
        except (agents.AgentError, TypeError):
            continue
    return agents.make("random", seed=seed)
