"""One identity per seat: the name a player chose when they sat, used in every text a person reads.

The engine and the games' text modules speak of players as "seat N" (the engine's action texts do
too: "target seat 2", "swap with seat 1"). Whoever shows text to a person (the server, the
terminal) runs it inside `seated(names)`; there every "seat N" becomes that seat's name through
`rename`, and a text module may call `name(N)` for a table cell. So a game gets its players'
names in its log, its prompts, its moves and its refusals without doing anything: it only says
"seat N", never "you", in what it narrates about a player (second person stays for lines that only
the viewer receives, like "(you drew red 7)"). Outside `seated` nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_NAMES: ContextVar[tuple[str, ...] | None] = ContextVar("cardtable_seat_names", default=None)
_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")
#: a chosen name: printable, at most this many characters
MAX_NAME = 24


def default_name(index: int, kind: str = "person") -> str:
    """The name of a seat nobody named: "Player 1" for seat 0 (people count from 1), "Bot 2" for a bot."""
    return f"{'Bot' if kind == 'bot' else 'Player'} {index + 1}"


def seat_names(seats: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat's name: the one chosen, else its default; two seats never share a name."""
    out: list[str] = []
    for i, s in enumerate(seats):
        n = str(s.get("name") or "").strip() or default_name(i, str(s.get("kind", "person")))
        if n.casefold() in (o.casefold() for o in out):
            n = f"{n} ({i + 1})"
        out.append(n)
    return out


@contextmanager
def seated(names: Sequence[str] | None) -> Iterator[None]:
    """Within this block, "seat N" in the texts of `rename` and `name(N)` are the seats' names."""
    token = _NAMES.set(tuple(names) if names is not None else None)
    try:
        yield
    finally:
        _NAMES.reset(token)


def current() -> tuple[str, ...] | None:
    return _NAMES.get()


def name(seat: int) -> str:
    """Seat `seat`'s name at this table ("seat N" outside `seated`)."""
    names = _NAMES.get()
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def player(seat: int, viewer: int | None) -> str:
    """A seat on a board the viewer reads: its name, marked "(you)" for the viewer."""
    return name(seat) + (" (you)" if seat == viewer else "")


_THEIR = re.compile(r"\btheir\b")


def addressed(question: str) -> str:
    """A decision's question put to its own seat: "must discard cards of their choice" ->
    "discard cards of your choice"; what they may do is asked ("may also take a gem (Gnome)" ->
    "also take a gem? (Gnome)"). A question (`Decision.question`) begins with "must" or "may" and
    says "their" only of the seat that decides."""
    if question.startswith("must "):
        question = question[len("must "):]
    elif question.startswith("may "):
        question = question[len("may "):]
        aside = question.rfind(" (")
        if question.endswith(")") and aside > 0:  # the question mark before a closing aside
            question = f"{question[:aside]}?{question[aside:]}"
        else:
            question += "?"
    return _THEIR.sub("your", question)


def question(seat: int, viewer: int | None, text: str) -> str:
    """The pending decision as `viewer` reads it, without who decides: "roll a die or end the
    turn" for the seat that decides, "may roll a die or end the turn" for everyone else (`text`:
    the decision's description, "seat N may ...", as observations give it)."""
    if text.startswith(f"seat {seat} "):
        text = text[len(f"seat {seat} "):]
    return rename(addressed(text) if seat == viewer else text)


def prompt(seat: int, viewer: int | None, text: str) -> str:
    """The pending decision on a board: "You: roll a die or end the turn", "Bot 2 may roll a die or
    end the turn"."""
    said = question(seat, viewer, text)
    return f"You: {said}" if seat == viewer else f"{name(seat)} {said}"


def rename(text: str) -> str:
    """`text` with every "seat N" of a seat at this table written as that seat's name."""
    names = _NAMES.get()
    if not names or "eat " not in text:
        return text

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if 0 <= k < len(names) else m.group(0)

    return _SEAT.sub(sub, text)


def unname(text: str) -> str:
    """What a person typed with seats' names written back as "seat N" (the engine's words)."""
    names = _NAMES.get()
    if not names:
        return text
    out = text
    for k in sorted(range(len(names)), key=lambda i: -len(names[i])):  # longest first: "Ann B" before "Ann"
        out = re.sub(rf"(?<!\w){re.escape(names[k])}(?!\w)", f"seat {k}", out, flags=re.IGNORECASE)
    return out


def valid_name(value: Any) -> str | None:
    """A name a person may choose (trimmed), or None when it is not one."""
    if not isinstance(value, str) or not value.replace(" ", "").isprintable():
        return None
    name: str = " ".join(value.split())
    if not name or len(name) > MAX_NAME:
        return None
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return None
    if (not name.isprintable() or _SEAT.search(name) or name.casefold() in ("you", "nobody")
            or any(c in name for c in "[]{}<>\\")):  # no markup in a name, in the terminal or the browser
        return None
    return name
