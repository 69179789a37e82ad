"""The designers' lab (issue 35): a game's cards as data to edit, and a variant of them simulated
against the game's own cards on paired seeds, compared as `cardtable report VARIANT BASE` does.

A game takes part when one of its options holds a list of card tables and says so (the core's
`card_file(..., noun=, base=, schema=)`: Runes of Zun's `runes`, Iuno Avatar's `cards`, JUNO's
`deck`, Ivion's `cards`), or holds a mapping of tables whose cards are keyed by name and declares
each (`card_file(..., base=, tables={"citizens": CardTable(...), ...})`: IUNU's `cards`). The page
sees every card as a row, its `name` in it: one list for a list of `[[noun]]` tables, one list per
table (`{"citizens": [rows], "afterlife": [rows]}`) for a mapping, turned back into the mapping
(each row's name its key) before the option's own loader checks it. Nothing here knows a game: the cards are the tables of the game's own
card file, an edited set is checked by the option's own loader (its messages name the card, the
field and what is allowed), and the games are played by `cardtable.sim.run` into ordinary results
folders:

    RUNS/NAME/lab.json        what was asked (game, options, agents, seeds) and how it ended
    RUNS/NAME/variant.json    the variant as a card file (`cardtable simulate GAME -o OPTION=...`)
    RUNS/NAME/variant/        results of the variant (`cardtable report RUNS/NAME/variant RUNS/NAME/base`)
    RUNS/NAME/base/           results of the game's own cards

Both sides play the same seeds, in blocks (variant then base), so a run stopped early still
compares the seeds both sides finished; with seats rotated by seed, as `cardtable simulate` does.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import polars as pl
from pydantic import BaseModel, TypeAdapter

from ..core.cards import read_card_file
from ..core.errors import CardtableError
from ..core.options import CardFileOption, CardTable
from ..core.registry import game_class, games, make
from ..ui.cards import catalog
from .analysis import analyze
from .compare import Comparison, compare, plots
from .job import SimError
from .runner import run
from .store import read_table

#: a lab run plays at most this many games a side, and stops after this many seconds
MAX_GAMES = 5000
MAX_SECONDS = 600.0
#: each side plays a block of seeds in turn, so both stay level: at least this many seeds a block,
#: and at most BLOCKS blocks (each block starts its side's worker pool)
BLOCK = 50
BLOCKS = 8
#: a run's name and a saved card file's name: words, no path
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
LAB_FILE = "lab.json"
VARIANT_FILE = "variant.json"


class LabError(CardtableError):
    """A lab request that cannot be done as asked; the message says what to change."""


@dataclass(frozen=True)
class CardOption:
    """The option of `game` that holds its cards as `[[noun]]` tables (or as `tables` keyed by
    name), its own card file, the schema of one card and the loader that checks an edited set."""

    game: str
    option: str
    noun: str
    base: Path
    schema: type[BaseModel] | None
    check: Callable[[Any], Any]
    tables: tuple[tuple[str, CardTable], ...] = ()


def card_option(game: str) -> CardOption | None:
    """The game's card option, found in its options' declaration; None when it has none."""
    for name, field in game_class(game).Options.model_fields.items():
        for meta in field.metadata:
            if isinstance(meta, CardFileOption) and (meta.noun or meta.tables) and meta.base is not None:
                return CardOption(game, name, meta.noun or "card", meta.base, meta.schema,
                                  cast(Callable[[Any], Any], meta.func), meta.tables)
    return None


def lab_games() -> list[str]:
    """Every game the lab can edit."""
    out = []
    for g in games():
        try:
            if card_option(g) is not None:
                out.append(g)
        except Exception:  # a game that does not import must not close the lab
            continue
    return out


def option_of(game: str) -> CardOption:
    if game not in games():
        raise LabError(f"unknown game {game[:40]!r}; the lab edits: {', '.join(lab_games())}")
    opt = card_option(game)
    if opt is None:
        raise LabError(f"{game} has no card file the lab can edit; the lab edits: {', '.join(lab_games())}")
    return opt


def base_cards(opt: CardOption) -> Any:
    """The cards of the game's own card file as the page sees them, in its order (plain JSON):
    the list of its `[[noun]]` tables, or each table's rows (`{"afterlife": [{"name": ..., ...}]}`)."""
    raw = json.loads(json.dumps(read_card_file(opt.base, "card file")))
    if not opt.tables:
        return raw[opt.noun]
    return {t: [{"name": name, **fields} for name, fields in raw[t].items()] for t, _ in opt.tables}


def option_value(opt: CardOption, cards: Any) -> Any:
    """The option's value of the page's cards: a list of `[[noun]]` tables as it is; rows per
    table back into the mapping of tables keyed by name (a row's `name` its key). A LabError says
    what shape was expected."""
    if not opt.tables:
        return cards
    names = [t for t, _ in opt.tables]
    if not isinstance(cards, dict) or sorted(cards) != sorted(names):
        raise LabError(f"cards: an object of the tables {', '.join(names)}, each a list of cards")
    out: dict[str, dict[str, Any]] = {}
    for t, table in opt.tables:
        if not isinstance(cards[t], list):
            raise LabError(f"cards: table {t!r} must be a list of {table.noun}s")
        entries: dict[str, Any] = {}
        for i, row in enumerate(cards[t]):
            name = row.get("name") if isinstance(row, dict) else None
            if not isinstance(name, str) or not name.strip():
                raise LabError(f"{t}: {table.noun} #{i + 1}: field 'name' must be the card's name")
            if name in entries:
                raise LabError(f"{t}: {table.noun} {name!r}: field 'name': a {table.noun} of this name is already there")
            entries[name] = {k: v for k, v in row.items() if k != "name"}
        out[t] = entries
    return out


def by_table(opt: CardOption, cards: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """The page's cards, table by table (one table, named "", for a list of `[[noun]]` tables)."""
    if not opt.tables:
        return [("", cards)]
    return [(t, cards[t]) for t, _ in opt.tables]


def check_cards(opt: CardOption, cards: Any, options: dict[str, Any]) -> list[dict[str, Any]]:
    """`cards` checked by the option's own loader, then with the other options (a deck big
    enough to deal); the card catalogue of the result. A LabError names the card and the field."""
    value = option_value(opt, cards)
    try:
        opt.check(value)
    except ValueError as exc:
        raise LabError(str(exc)) from None
    try:
        game = make(opt.game, **{**options, opt.option: value})
    except CardtableError as exc:
        raise LabError(str(exc)) from None
    return catalog(game)


def game_options(opt: CardOption, options: Any) -> dict[str, Any]:
    """The other options as the lab takes them (never the card option itself: the lab's cards go there)."""
    if not isinstance(options, dict):
        raise LabError("options must be an object of option names and values")
    if opt.option in options:
        raise LabError(f"the cards go in the card editor, not in the option {opt.option!r}")
    try:
        make(opt.game, **options)
    except CardtableError as exc:
        raise LabError(str(exc)) from None
    return dict(options)


def _field(name: str, prop: dict[str, Any], values: list[Any], cards: int) -> dict[str, Any]:
    """One field of the form: its kind of input from its schema `prop` (a choice among its allowed
    values, a number, a list of names), else from the `values` the game's own cards give it (a
    nested table or list: `json`); `required` when each of the `cards` it applies to has it."""
    kind: str
    choices: list[Any] = []
    if "enum" in prop:
        kind, choices = "choice", list(prop["enum"])
    elif prop.get("type") == "integer" or (values and all(type(v) is int for v in values)):
        kind = "number"
    elif (prop.get("type") == "array" and prop.get("items", {}).get("type") == "string") or (values and all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in values)):
        kind, choices = "names", list(prop.get("items", {}).get("enum", []))
    elif prop.get("type") == "string" or (values and all(isinstance(v, str) for v in values)):
        kind = "text"
        distinct = sorted({v for v in values if isinstance(v, str)})
        if name != "name" and len(distinct) <= 8 and len(values) > len(distinct):
            kind, choices = "choice", distinct  # the values the game's own cards use
    else:
        kind = "json"
    return {"name": name, "kind": kind, "choices": choices, "required": len(values) == cards}


def form(opt: CardOption, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fields of one card, each with its kind of input (`_field`): from the card schema when it
    has a field of that name, else from the values the game's own cards give it. Fields in the
    order the card file first uses them; `required` when every card of the file has the field."""
    props = opt.schema.model_json_schema().get("properties", {}) if opt.schema is not None else {}
    seen: dict[str, list[Any]] = {}
    for c in cards:
        for k, v in c.items():
            seen.setdefault(k, []).append(v)
    return [_field(name, props.get(name, {}), values, len(cards)) for name, values in seen.items()]


def _members(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The models of a union's JSON schema (each `$ref` resolved), or the one model's."""
    defs = schema.get("$defs", {})
    found = schema.get("oneOf") or schema.get("anyOf") or [schema]
    return [defs[m["$ref"].rsplit("/", 1)[-1]] if "$ref" in m else m for m in found]


def _tag(prop: dict[str, Any]) -> Any:
    """The one value a field allows (a union member's tag), or None."""
    if "const" in prop:
        return prop["const"]
    return prop["enum"][0] if len(prop.get("enum", [])) == 1 else None


def table_form(table: CardTable, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fields of one card of a table keyed by name: its `name`, then its schema's fields. When
    the schema is a union told apart by one field (IUNU's Afterlife cards by `effect`), that field
    is a choice of the members' tags and every other field says `when` it applies (`{"field":
    "effect", "values": [...]}`): the page shows a card the fields of its own member."""
    members = _members(TypeAdapter(table.schema).json_schema())
    props = [m.get("properties", {}) for m in members]
    tags = [f for f in props[0] if len(members) > 1 and all(_tag(p.get(f, {})) is not None for p in props)]
    tag = tags[0] if tags else None
    fields = [_field("name", {"type": "string"}, [r.get("name") for r in rows], len(rows))]
    if tag is not None:
        fields.append({"name": tag, "kind": "choice", "choices": [_tag(p[tag]) for p in props], "required": True})
    order: list[str] = []
    for p in props:
        order += [f for f in p if f != tag and f not in order]
    for name in order:
        owners = [(m, p) for m, p in zip(members, props, strict=True) if name in p]
        values = [r[name] for r in rows if name in r]
        field = _field(name, owners[0][1][name], values, len(values))
        field["required"] = all(name in m.get("required", []) for m, _ in owners)
        if tag is not None:
            field["when"] = {"field": tag, "values": [_tag(p[tag]) for _, p in owners]}
        fields.append(field)
    return fields


def tables_json(opt: CardOption, cards: Any) -> list[dict[str, Any]]:
    """Each table of the page: its name ("" for a list of `[[noun]]` tables), how one card is
    called, why none is added (`fixed`, or "") and its form."""
    if not opt.tables:
        return [{"name": "", "noun": opt.noun, "fixed": "", "form": form(opt, cards)}]
    return [{"name": t, "noun": table.noun, "fixed": table.fixed, "form": table_form(table, cards[t])}
            for t, table in opt.tables]


def card_rows(opt: CardOption, cards: Any, texts: list[dict[str, Any]],
              impact: pl.DataFrame | None) -> list[dict[str, Any]]:
    """Each card: its table ("" for a list of `[[noun]]` tables), name, kind, text (the
    catalogue's), data (its table) and impact per measure (estimate, low, high in win-rate points
    per copy, from the last run's base)."""
    by_name = {c["name"]: c for c in texts}
    rows = []
    for in_table, table in ((t, c) for t, rows_ in by_table(opt, cards) for c in rows_):
        name = str(table.get("name", ""))
        said = by_name.get(name, {})
        measures: dict[str, dict[str, float]] = {}
        if impact is not None:
            for r in impact.filter(pl.col("card") == name).iter_rows(named=True):
                if r["estimated"]:
                    measures[r["measure"]] = {"estimate": r["estimate"], "low": r["low"], "high": r["high"]}
        rows.append({"table": in_table, "name": name, "kind": said.get("kind", ""), "text": said.get("text", ""),
                     "data": table, "impact": measures})
    return rows


# -- runs -------------------------------------------------------------------------------------


def run_folder(runs: Path, name: str) -> Path:
    """The folder of run `name` under `runs`: a name, never a path."""
    if not NAME.match(name):
        raise LabError("a run is named by letters, digits, - and _ (at most 64)")
    folder = runs / name
    if not (folder / LAB_FILE).is_file():
        raise LabError(f"no lab run named {name!r}")
    return folder


def new_name(runs: Path, game: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name, i = f"{game}-{stamp}", 1
    while (runs / name).exists():
        i += 1
        name = f"{game}-{stamp}-{i}"
    return name


@dataclass
class Progress:
    """What a running lab run has done; `stop()` asks it to stop after the games in flight."""

    total: int
    done: int = 0
    stopping: bool = False
    state: Literal["running", "done", "stopped", "failed"] = "running"
    error: str = ""
    reason: str = ""

    def stop(self) -> None:
        self.stopping = True


def start(runs: Path, game: str, options: Any, agents: Any, cards: Any, games_: Any, seed: Any,
          max_games: int = MAX_GAMES) -> tuple[str, dict[str, Any]]:
    """Check a run as a page asks for it and create its folder (lab.json, variant.json): its name
    and record. Nothing is played yet."""
    opt = option_of(game)
    options = game_options(opt, options)
    check_cards(opt, cards, options)
    if not isinstance(games_, int) or isinstance(games_, bool) or not 1 <= games_ <= max_games:
        raise LabError(f"games: a whole number from 1 to {max_games} (each side plays that many)")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 62:
        raise LabError("seed: a whole number from 0")
    if not agents or not all(isinstance(a, str) for a in agents):
        raise LabError("agents: a list of agent names, like [\"heuristic\"]")
    runs.mkdir(parents=True, exist_ok=True)
    name = new_name(runs, game)
    folder = runs / name
    folder.mkdir()
    record = {"name": name, "game": game, "option": opt.option, "options": options, "agents": agents,
              "seed": seed, "games": games_, "created": time.time(), "state": "running"}
    (folder / VARIANT_FILE).write_text(card_file_text(opt, cards))
    (folder / LAB_FILE).write_text(json.dumps(record, indent=2) + "\n")
    return name, record


def card_file_text(opt: CardOption, cards: Any) -> str:
    """A card file (JSON) of `cards`, as the game's loader reads it: `{"rune": [...]}`, or the
    mapping of tables (`{"citizens": {...}, "afterlife": {...}}`)."""
    content = option_value(opt, cards) if opt.tables else {opt.noun: cards}
    return json.dumps(content, indent=2, ensure_ascii=False) + "\n"


def play(runs: Path, name: str, progress: Progress, *, workers: int | None = None,
         backend: Literal["local", "ray"] = "local", address: str | None = None,
         max_seconds: float = MAX_SECONDS) -> None:
    """Play run `name`: the variant and the base on the same seeds, a block at a time, until its
    games are done, `progress.stop()` is asked or `max_seconds` pass. Writes how it ended to lab.json."""
    folder = run_folder(runs, name)
    record = json.loads((folder / LAB_FILE).read_text())
    opt = option_of(record["game"])
    content = json.loads((folder / VARIANT_FILE).read_text())
    cards = content if opt.tables else content[opt.noun]
    sides = (("variant", {**record["options"], opt.option: cards}), ("base", dict(record["options"])))
    deadline = time.monotonic() + max_seconds
    first, end = record["seed"], record["seed"] + record["games"]

    def more(n: int) -> bool:
        progress.done += n
        if time.monotonic() > deadline:
            progress.reason = f"the lab's time limit ({max_seconds:.0f} s) was reached"
            return False
        return not progress.stopping

    size = max(BLOCK, -(-record["games"] // BLOCKS))
    try:
        for block in range(first, end, size):
            for side, options in sides:
                run(record["game"], record["agents"], games=min(size, end - block), seed=block, options=options,
                    workers=workers, backend=backend, address=address, out=folder / side, on_rows=more)
                if progress.stopping or progress.reason:
                    break
            if progress.stopping or progress.reason:
                break
        progress.state = "stopped" if progress.stopping or progress.reason else "done"
        if progress.stopping and not progress.reason:
            progress.reason = "stopped from the page"
    except Exception as exc:  # the page says what went wrong; the server carries on
        progress.state, progress.error = "failed", f"{type(exc).__name__}: {exc}"
    record.update(state=progress.state, reason=progress.reason, error=progress.error, finished=time.time())
    (folder / LAB_FILE).write_text(json.dumps(record, indent=2) + "\n")


def paired(folder: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The results of both sides on the seeds both finished (a stopped run leaves one side a block ahead)."""
    frames = []
    for side in ("variant", "base"):
        if not (folder / side).is_dir():
            raise LabError("no games finished yet")
        frame = pl.from_arrow(read_table(folder / side))
        assert isinstance(frame, pl.DataFrame)
        frames.append(frame)
    common = set(frames[0]["seed"]) & set(frames[1]["seed"])
    if not common:
        raise LabError("no seed finished on both sides yet")
    keep = sorted(common)
    return frames[0].filter(pl.col("seed").is_in(keep)), frames[1].filter(pl.col("seed").is_in(keep))


def comparison(runs: Path, name: str) -> Comparison:
    """The variant against the base of run `name`, as `cardtable report VARIANT BASE` compares them."""
    variant, base = paired(run_folder(runs, name))
    try:
        a, b = analyze(variant), analyze(base)
    except SimError as exc:
        raise LabError(str(exc)) from None
    record = json.loads((runs / name / LAB_FILE).read_text())
    opt = option_of(record["game"])
    a.job = json.loads((runs / name / "variant" / "job.json").read_text())
    b.job = json.loads((runs / name / "base" / "job.json").read_text())
    # the base played the game's own cards (the option left out): named as the option writes
    # them in a job (JUNO's deck as counts), so the comparison says what changed card by card
    named = make(opt.game, **{**record["options"], opt.option: option_value(opt, base_cards(opt))}).options.to_json()[opt.option]
    b.job["options"] = {**b.job["options"], opt.option: named}
    return compare(a, b, ("variant", "base"))


def _num(x: Any) -> Any:
    return None if isinstance(x, float) and (math.isnan(x) or math.isinf(x)) else x


def _records(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return [{k: _num(v) for k, v in r.items()} for r in frame.iter_rows(named=True)]


def comparison_json(c: Comparison, top: int = 40) -> dict[str, Any]:
    """The comparison for the page: the summary, every table with its intervals (rates as
    fractions, lengths in decisions), the largest card changes and the report's plots."""
    return {
        "games": c.a.games, "headline": c.headline, "notes": c.a.notes + c.b.notes,
        "agents": _records(c.agents), "seats": _records(c.seats), "overall": _records(c.overall),
        "cards": _records(c.cards.head(top)), "cards_compared": c.cards.height, "cards_family": c.family,
        "cards_clear": int(c.cards["clear"].sum()) if c.cards.height else 0,
        "plots": [{"title": t, "src": src} for t, src in plots(c)],
    }


def last_impact(runs: Path, game: str) -> tuple[str | None, pl.DataFrame | None]:
    """The card impact of the newest finished lab run of `game` (its base: the game's own cards)."""
    if not runs.is_dir():
        return None, None
    found = []
    for folder in runs.iterdir():
        try:
            record = json.loads((folder / LAB_FILE).read_text())
        except (OSError, ValueError):
            continue
        if record.get("game") == game and record.get("state") in ("done", "stopped") and (folder / "base").is_dir():
            found.append((record.get("created", 0), folder))
    for _, folder in sorted(found, reverse=True):
        frame = pl.from_arrow(read_table(folder / "base"))
        assert isinstance(frame, pl.DataFrame)
        if frame.height:
            return folder.name, analyze(frame).cards
    return None, None


def save(runs: Path, name: str, file_name: str) -> Path:
    """The variant of run `name` saved as a card file `runs/cards/FILE.json` (a name, never a path)."""
    if not NAME.match(file_name):
        raise LabError("a card file is named by letters, digits, - and _ (at most 64), without a folder or suffix")
    source = run_folder(runs, name) / VARIANT_FILE
    target = runs / "cards" / f"{file_name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source.read_text())
    return target
