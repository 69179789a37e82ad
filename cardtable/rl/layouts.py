"""docs/rl.md's observation layouts, generated from the encoders.

Each game's table in docs/rl.md sits between `<!-- layout GAME -->` and `<!-- /layout -->`, and
the list of games with an encoder between `<!-- encoders -->` and `<!-- /encoders -->`, and the
sizes of the counts and planes encodings between `<!-- planes -->` and `<!-- /planes -->`;
`python -m cardtable.rl.layouts docs/rl.md` rewrites them from the encoders (the tables show
the research defaults, `cardtable.rl.defaults`: 2 players), and tests/rl/test_docs.py checks
that the file is what this would write. A game with an encoder and no block is an error that
names the block to add.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import cardtable

from ..core.errors import OptionError
from ..core.registry import game_class, games
from .defaults import research_options
from .encoders import Planes, encoder_for, has_encoder
from .encoders.planes import planed

_BLOCK = re.compile(r"(<!-- layout (?P<game>[a-z_0-9]+)(?P<options>(?: [a-z_]+=[^ >]+)*) -->\n)(?P<body>.*?)(?P<end><!-- /layout -->)", re.S)
_ENCODERS = re.compile(r"(<!-- encoders -->)(?P<body>.*?)(<!-- /encoders -->)", re.S)
_PLANES = re.compile(r"(<!-- planes -->\n)(?P<body>.*?)(<!-- /planes -->)", re.S)


def layout(game: str, extra: dict[str, str] | None = None) -> str:
    """The Markdown block of one game: its layout table (research defaults, plus `extra`
    options: `<!-- layout iunu variant=memphis-and-thebes -->` shows the variant's own pieces)
    and its size for every number of players."""
    options: dict[str, object] = {**research_options(game), **(extra or {})}
    table = encoder_for(cardtable.make(game, **options)).describe()
    spec = game_class(game).spec
    counts = []
    for n in range(spec.min_players, spec.max_players + 1):
        try:
            made = cardtable.make(game, **{**options, "players": n})
        except OptionError:
            continue  # a variant for some numbers of players only (IUNU's Memphis and Thebes: 2)
        counts.append(f"{encoder_for(made).size:,} for {n}")
    sizes = ", ".join(counts)
    given = "".join(f", {k}={v}" for k, v in (extra or {}).items())
    return f"{table}\n\nValues, by number of players{given}: {sizes}.\n"


def _options(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split())


def encoders_line() -> str:
    """Every registered game with an encoder: **Title** (`name`), ..."""
    return ", ".join(f"**{game_class(g).spec.title}** (`{g}`)" for g in games() if has_encoder(g))


def planes_table() -> str:
    """Every game with an encoder (research defaults): values as counts and as planes, and the
    pieces that become planes, with their planes' shape."""
    rows = ["| game | counts | planes | pieces as one-hot planes |", "|---|---:|---:|---|"]
    for g in games():
        if not has_encoder(g):
            continue
        planes = Planes(encoder_for(cardtable.make(g, **research_options(g))))
        shapes = {p.name: p.shape for p in planes.layout}
        planed_pieces = ", ".join(f"`{p.name}` {shapes[p.name]}" for p in planes.encoder.layout if planed(p)) or "none"
        rows.append(f"| {game_class(g).spec.title} | {planes.encoder.size:,} | {planes.size:,} | {planed_pieces} |")
    return "\n".join(rows) + "\n"


def render(text: str) -> str:
    """`text` with every layout block and the list of games regenerated."""
    wanted = [g for g in games() if has_encoder(g)]
    present = {m.group("game") for m in _BLOCK.finditer(text)}
    missing = [g for g in wanted if g not in present]
    if missing:
        raise ValueError(
            "docs/rl.md has no layout block for " + ", ".join(missing)
            + ": add a section with '<!-- layout GAME -->' and '<!-- /layout -->' under 'Observation layouts'"
        )
    unknown = present - set(wanted)
    if unknown:
        raise ValueError(f"docs/rl.md has layout blocks for games without an encoder: {', '.join(sorted(unknown))}")
    text = _BLOCK.sub(lambda m: m.group(1) + layout(m.group("game"), _options(m.group("options"))) + m.group("end"), text)
    text = _PLANES.sub(lambda m: m.group(1) + planes_table() + m.group(3), text)
    return _ENCODERS.sub(lambda m: m.group(1) + encoders_line() + m.group(3), text)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cardtable.rl.layouts docs/rl.md  (rewrites its layout tables from the encoders)")
        return 2
    path = Path(argv[0])
    path.write_text(render(path.read_text()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
