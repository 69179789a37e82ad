"""The floors of the house (STYLE.md principle 14; issue 30): rules code sits on the core.

Every module under cardtable/games/ imports only the core and its own game's package; a game's
`text.py` (terminal rendering, a floor above the rules) may also import `cardtable.ui`. Nothing
there imports the adapters or the front ends: `cardtable.rl`, `.sim`, `.server`, `.agents`,
`.commands`, `.cli`, or another game. Read from the source, imports inside functions included,
so an import that runs late cannot hide.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardtable

GAMES = Path(cardtable.__file__).parent / "games"

#: Modules not yet on their floor, each with the work that moves it. Nothing may join: every game
#: is on its floor (Iuno Avatar's balance script now sits beside the lab, cardtable/sim/).
MOVING: set[str] = set()


def imports(path: Path, source: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in `source`, the text of the module at `path`,
    relative ones resolved."""
    package = ["cardtable", *path.relative_to(GAMES.parent).parent.parts]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from . import x` may name a module: judge `package.x`
            names = [f"{module}.{a.name}" for a in node.names] if not node.module else [module]
            found.extend((node.lineno, name) for name in names)
    return found


def allowed(path: Path, module: str) -> bool:
    if not module.startswith("cardtable.") and module != "cardtable":
        return True  # the standard library and the project's dependencies
    parts = path.relative_to(GAMES).parts
    own = "cardtable.games" if len(parts) == 1 else f"cardtable.games.{parts[0]}"
    floors = ["cardtable.core", own]
    if path.name == "text.py":
        floors.append("cardtable.ui")
    return any(module == f or module.startswith(f + ".") for f in floors)


MODULES = sorted(GAMES.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(GAMES)) for p in MODULES])
def test_rules_code_imports_only_the_core(path: Path) -> None:
    name = path.relative_to(GAMES).as_posix()
    if name in MOVING:
        pytest.skip(f"{name} is being moved out of the game (issue 30)")
    wrong = [f"line {line}: {module}" for line, module in imports(path, path.read_text()) if not allowed(path, module)]
    assert not wrong, (
        f"cardtable/games/{name} imports above its floor: {', '.join(wrong)}. Games import only "
        "cardtable.core and their own package (text.py also cardtable.ui); move what they need "
        "into the core, or the code that needs the adapter out of the game."
    )


@pytest.mark.parametrize(("source", "module"), [
    ("def f() -> None:\n    from ...rl import encoders\n", "cardtable.rl"),
    ("from ... import sim\n", "cardtable.sim"),
    ("import cardtable.server.app\n", "cardtable.server.app"),
    ("from ..zun.state import ZunState\n", "cardtable.games.zun.state"),
    ("from ...ui.names import player\n", "cardtable.ui.names"),
], ids=["rl, late", "sim", "server", "another game", "ui outside text.py"])
def test_the_walk_sees_an_import_from_above(source: str, module: str) -> None:
    """The check itself can fail: each of these, in JUNO's rules, is refused."""
    where = GAMES / "juno" / "state.py"
    assert [(m, allowed(where, m)) for _, m in imports(where, source)] == [(module, False)]
    assert all(allowed(where, m) for _, m in imports(where, "from ...core.state import State\nfrom .cards import X\n"))
