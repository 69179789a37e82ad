"""What every router of the app shares (`AppContext`), and how the server reads what a client sends.

The server trusts no client (issue 20): every request body is bounded, must be
`application/json`, is checked field by field, and a browser request from another site (its
`Origin`) is refused. Card data comes only inline (never a path: no request makes the server
read a file) and is validated off the event loop. Creating tables is rate-limited per client.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import JSONResponse

from ..core import game_class
from .db import Store
from .encoding import dumps
from .live import TableError
from .lobby import Lobby

STATUS = {"unknown_table": 404, "unknown_game": 404, "bad_token": 403, "not_seated": 403, "stale": 409, "not_your_turn": 409,
          "game_over": 409, "not_over": 409, "not_saved": 503, "unavailable": 503, "busy": 503, "table_full": 503,
          "too_large": 413, "unsupported_media_type": 415, "forbidden_origin": 403, "rate_limited": 429,
          "damaged_table": 503, "seat_taken": 409, "unknown_host": 421, "no_hints": 403}

#: request bodies: a table (custom cards included) and everything else
MAX_CREATE_BODY = 256 * 1024
MAX_BODY = 8 * 1024
#: inline card data (a custom deck, card values, a rune set), as JSON
MAX_CARD_DATA = 128 * 1024
UNKNOWN_HOST = ("this server does not answer to that name (its Host); open it by the address it was started with, "
                "or start it with --allowed-host NAME")
#: any text in a table's options: a name, a card's line (the longest in the games' own files is 149)
MAX_OPTION_TEXT = 400
#: a websocket message
MAX_MESSAGE = 8 * 1024
#: nesting of any JSON a client sends
MAX_DEPTH = 16
#: validating a table's options (custom cards included) may take this long
MAKE_TIMEOUT = 10.0
#: an unfinished table without a move for this long (seconds) is abandoned: the lobby no longer lists it
#: (`cardtable serve --abandoned-after HOURS`). A day: long enough for a game paused overnight.
ABANDONED_AFTER = 24 * 3600.0


class SafeJSONResponse(JSONResponse):
    """JSON that is always valid UTF-8 (a lone surrogate from an old row is escaped, never a 500)."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")


def error_response(exc: TableError) -> JSONResponse:
    return SafeJSONResponse({"error": exc.code, "message": exc.message}, status_code=STATUS.get(exc.code, 400))



def check_json(value: Any) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH or holding text that is not valid Unicode."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TableError("bad_request", f"the JSON is nested more than {MAX_DEPTH} levels deep")
        if isinstance(v, str):
            if not _unicode(v):
                raise TableError("bad_request", "the JSON holds text that is not valid Unicode (a lone surrogate)")
        elif isinstance(v, dict):
            for k, x in v.items():
                if not _unicode(k):
                    raise TableError("bad_request", "the JSON holds text that is not valid Unicode (a lone surrogate)")
                stack.append((x, depth + 1))
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes | str) -> Any:
    """A client's JSON, or TableError("bad_request"): never a RecursionError, NaN or a lone surrogate."""
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise TableError("bad_request", "the request body must be JSON (an object)") from None
    check_json(value)
    return value


def card_data_options(game_name: str) -> set[str]:
    """The options of a game whose schema wants data (an object or a list) and whose loader would
    read a file when given text: custom decks, card values, rune sets."""
    try:
        props = game_class(game_name).Options.model_json_schema().get("properties", {})
    except Exception:
        return set()
    out = set()
    for name, prop in props.items():
        kinds = {p.get("type") for p in prop.get("anyOf", [prop])}
        if kinds & {"object", "array"} and "string" not in kinds:
            out.add(name)
    return out


def check_option_text(options: dict[str, Any]) -> None:
    """Every text in a table's options (a hero's or a card's name, a card's line, a key) is at most
    MAX_OPTION_TEXT characters: what a client stores is read by everyone at the table (issue 31, hole 2)."""
    for key, value in options.items():
        stack: list[Any] = [key, value]
        while stack:
            v = stack.pop()
            if isinstance(v, str) and len(v) > MAX_OPTION_TEXT:
                raise TableError("bad_options", f"option {str(key)[:40]!r}: a text of {len(v)} characters; every text in "
                                 f"options (a name, a card's line) is at most {MAX_OPTION_TEXT} characters")
            if isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)


#: what one connection may send, per message kind: (a steady rate a second, a burst at once). A person
#: acts a few times a second at most, and a browser pings every few seconds and syncs on reconnecting.
MESSAGE_LIMITS: dict[str, tuple[float, float]] = {
    "act": (20.0, 40.0), "sync": (2.0, 10.0), "ping": (2.0, 10.0), "name": (0.5, 5.0), "rematch": (0.5, 5.0),
    "other": (2.0, 10.0),  # malformed, unknown or binary messages
}


class MessageLimits:
    """One connection's token buckets, one per message kind (issue 31, hole 3: one socket sending 100,000
    `sync`, `name` or stale `act` messages halved another table's rate and stored thousands of renames)."""

    def __init__(self, limits: dict[str, tuple[float, float]]) -> None:
        self.limits = limits
        self.levels: dict[str, tuple[float, float]] = {}

    def take(self, kind: str) -> bool:
        """True when a message of `kind` may be handled now (it takes a token)."""
        kind = kind if kind in self.limits else "other"
        rate, burst = self.limits[kind]
        now = time.monotonic()
        level, at = self.levels.get(kind, (burst, now))
        level = min(burst, level + (now - at) * rate)
        if level < 1:
            self.levels[kind] = (level, now)
            return False
        self.levels[kind] = (level - 1, now)
        return True

    def refusal(self, kind: str) -> str:
        kind = kind if kind in self.limits else "other"
        rate, burst = self.limits[kind]
        shown = "such" if kind == "other" else repr(kind)
        return (f"this connection sent more than {burst:g} {shown} messages at once ({rate:g} a second at most); "
                "it is closed, reconnect to go on")


class RateLimit:
    """Per-client token buckets: `per_minute` events a minute, up to `per_minute` at once."""

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        if self.per_minute <= 0:
            return True
        now = time.monotonic()
        if len(self.buckets) > 10_000:  # forget clients whose buckets are full again
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        level, at = self.buckets.get(client, (self.per_minute, now))
        level = min(self.per_minute, level + (now - at) * self.per_minute / 60)
        if level < 1:
            self.buckets[client] = (level, now)
            return False
        self.buckets[client] = (level - 1, now)
        return True


@dataclass
class AppContext:
    """The app's one lobby and store, the limits on clients, and the checks every router makes."""

    lobby: Lobby
    store: Store
    creations: RateLimit
    allowed_origins: tuple[str, ...] = ()
    abandoned_after: float = ABANDONED_AFTER
    #: the names this server answers to (None: any); the Host of every request must be one of them
    allowed_hosts: tuple[str, ...] | None = None
    #: what one websocket may send, per message kind (MESSAGE_LIMITS)
    message_limits: dict[str, tuple[float, float]] = field(default_factory=lambda: dict(MESSAGE_LIMITS))

    def host_ok(self, host: str | None) -> bool:
        """A request that names this server as it is known (`--allowed-host`): a page of another name that
        resolves here (DNS rebinding) is refused, so its Origin and Host cannot match by design."""
        if self.allowed_hosts is None:
            return True
        if not host:
            return False
        name = host.strip().lower()
        if name.startswith("["):  # [::1]:8000
            name = name[1:].split("]", 1)[0]
        elif name.count(":") == 1:
            name = name.split(":", 1)[0]
        return name in {h.lower().strip("[]") for h in self.allowed_hosts}

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A request from a page of this server (or of an allowed site), or from no browser at all."""
        if origin is None:
            return True
        if origin in self.allowed_origins:
            return True
        return bool(host) and urlsplit(origin).netloc.lower() == str(host).lower()

    async def read_body(self, request: Request, limit: int) -> Any:
        if not self.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            raise TableError("forbidden_origin", "requests from pages of another site are refused")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise TableError("unsupported_media_type", "send the body as JSON with content-type: application/json")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TableError("too_large", f"the request body is larger than {limit // 1024} KB")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TableError("too_large", f"the request body is larger than {limit // 1024} KB")
            chunks.append(chunk)
        return parse_json(b"".join(chunks))
