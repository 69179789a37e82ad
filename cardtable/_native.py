"""The compiled engine (mypyc) and its pure-Python fallback.

The hot path of play (the core contract, the effect layer and the games' rules) can be compiled with mypyc when the
package is installed (`setup.py`). mypyc compiles these same source files, so the `.py` files
are the fallback by construction and give identical results (tests/core/test_native.py).

An extension module wins the import over a `.py` of the same name, so a compiled build next to
an edited source would silently run the old rules. The build therefore records a hash of every
compiled source (`native_build.json`), and `activate()`, run first by `import cardtable`, uses
the compiled modules only when every one of them is present and every source still matches its
hash. Otherwise all of them load from source (mixing is impossible: compiled classes cannot
inherit from interpreted ones), with a warning when a build exists but is out of date.
`CARDTABLE_PURE=1` forces the pure-Python modules.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the modules mypyc compiles, as one group (they call each other natively). core/rng.py is left
#: out on purpose: SplitMix64 works on 64-bit values, which mypyc handles as generic big integers,
#: slower than CPython's own (a 108-card shuffle took 40 us compiled against 35 us interpreted).
#: core/effects/records.py is compiled: the records the effect layer makes and reads at every step
#: are native classes, changed by methods of their own (`Sequence.with_work`; bench/README.md, issue
#: 37). core/effects/chain.py, the response stack's `StackItem` and `Chain`, stays interpreted: an
#: item changes in place through its `__dict__`, games extend `StackItem`, and a game's `Chain` is
#: a class made at run time (a compiled plain class refuses a subclass made so). core/effects/hosts.py holds the `runtime_checkable`
#: protocols, which mypyc would compile as traits that `isinstance` refuses. core/verbs.py stays
#: interpreted too: compiled, its generic `Verb(Generic[P])` dataclass fails at import ("attribute
#: '__dict__' of 'type' objects is not writable"), and it is under 1% of a search (cProfile, Ivion).
#: games/iuno_avatar/facts.py is compiled: its card facts and effect steps are the native copies of
#: the pydantic card data that Avatar's rules read at every activity (bench/README.md, issue 37).
#: Ivion's `card.py` is compiled (its `Card`, whose fields the rules read at every decision); the
#: content files' schemas, pydantic models, stay interpreted in its cards.py.
#: Iuno Avatar's and Ivion's observation encoders are compiled (as Python classes with native
#: methods: their base, core/encoder.py, is interpreted): their `encode_state`, at every RL step,
#: reads the compiled `seat_view` natively (per call, the same source interpreted -> compiled: Iuno
#: Avatar 5.5 -> 3.8-4.3 us, Ivion 12.9 -> 9.2 us; issue 33).
#: The games' heuristic modules are compiled: they are the medium bot and the hard bot's rollouts;
#: so is the hard bot's search itself (agents/ismcts.py; a test or probe that watches a search
#: subclasses it, which it allows, instead of patching it).
#: IUNU's and Zun's observation encoders are compiled: their `write` is most of `encode_state` on
#: the RL hot path; their classes stay plain Python classes (`native_class=False`), as the core's
#: `Encoder` they extend is interpreted. core/tally.py, the counts they write, is compiled with them.
#: The batched API's loop (rl/vector.py, `VectorGame`) is not compiled: compiled, it took JUNO's
#: decision from 9.0 to 8.5 us (N = 16), but the build pip runs in its isolated environment fell
#: back to pure Python for the whole engine with it listed (2026-11-29; not yet understood: a build
#: without isolation compiled it). docs/rl.md, "The batched API against `make_vec` and RLCard".
#: JUNO's encoder is compiled the same way (its `encode_state` ~2.4 us a call; `VectorGame` in JUNO
#: 7.17 -> 6.60 us a decision; docs/rl.md, "The batched API against `make_vec` and RLCard").
MODULES: tuple[str, ...] = (
    "cardtable.core.fisher_yates",
    "cardtable.core.tally",
    "cardtable.core.actions",
    "cardtable.core.state",
    "cardtable.core.resources",
    "cardtable.core.zones",
    "cardtable.core.effects.immutable",
    "cardtable.core.effects.records",
    "cardtable.core.effects.sequence",
    "cardtable.core.effects.stack",
    "cardtable.games.juno.cards",
    "cardtable.games.juno.actions",
    "cardtable.games.juno.decisions",
    "cardtable.games.juno.observation",
    "cardtable.games.juno.state",
    "cardtable.games.juno.heuristic",
    "cardtable.games.juno.encoder",
    "cardtable.games.iuno_avatar.facts",
    "cardtable.games.iuno_avatar.actions",
    "cardtable.games.iuno_avatar.decisions",
    "cardtable.games.iuno_avatar.state",
    "cardtable.games.iuno_avatar.heuristic",
    "cardtable.games.iuno_avatar.encoder",
    "cardtable.games.ivion.actions",
    "cardtable.games.ivion.card",
    "cardtable.games.ivion.decisions",
    "cardtable.games.ivion.state",
    "cardtable.games.ivion.heuristic",
    "cardtable.games.ivion.encoder",
    "cardtable.games.zun.actions",
    "cardtable.games.zun.decisions",
    "cardtable.games.zun.state",
    "cardtable.games.zun.heuristic",
    "cardtable.games.zun.encoder",
    "cardtable.games.iunu.actions",
    "cardtable.games.iunu.decisions",
    "cardtable.games.iunu.state",
    "cardtable.games.iunu.heuristic",
    "cardtable.games.iunu.encoder",
    "cardtable.agents.ismcts",
)
#: the group's shared library module (mypyc's runtime for the group)
GROUP = "cardtable.native"
MANIFEST = "native_build.json"

_ROOT = Path(__file__).resolve().parent.parent  # the directory holding the package

#: True when the compiled modules are in use (decided once, by `activate`)
COMPILED = False
#: why the engine is compiled or not (the benchmarks print it)
REASON = "not activated"


def source_path(module: str, root: Path = _ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest(modules: Sequence[str] = MODULES, root: Path = _ROOT) -> dict[str, object]:
    """What the build records: each compiled module's source hash."""
    return {"group": GROUP, "sources": {m: source_hash(source_path(m, root)) for m in modules}}


def _extension_exists(module: str, root: Path) -> bool:
    stem = root.joinpath(*module.split("."))
    return any(Path(f"{stem}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def pure_forced() -> bool:
    """CARDTABLE_PURE=1 (or true, yes, on) asks for the pure-Python modules."""
    return os.environ.get("CARDTABLE_PURE", "").strip().lower() in ("1", "true", "yes", "on")


def decide(root: Path = _ROOT) -> tuple[bool, str, bool]:
    """(use the compiled modules, why, whether a stale build deserves a warning) for the
    package under `root`."""
    if pure_forced():
        return False, "pure Python (CARDTABLE_PURE is set)", False
    path = root / "cardtable" / MANIFEST
    if not path.exists():
        return False, "pure Python (no compiled build installed)", False
    try:
        recorded = json.loads(path.read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"pure Python ({path} is unreadable)", True
    if set(recorded) != set(MODULES):
        return False, "pure Python (the compiled build is for another list of modules)", True
    if not _extension_exists(GROUP + "__mypyc", root):  # the group's runtime, which every module needs
        return False, "pure Python (the compiled group library is missing)", True
    for module in MODULES:
        if not _extension_exists(module, root):
            return False, f"pure Python (the compiled {module} is missing)", True
        if source_hash(source_path(module, root)) != recorded[module]:
            rel = source_path(module, root).relative_to(root)
            return False, f"pure Python ({rel} changed after the compiled build)", True
    return True, "compiled (mypyc)", False


class _SourceFinder:
    """Finds the compiled group's modules as `.py` files, ahead of their extension modules."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in _MODULE_SET:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


_MODULE_SET = frozenset(MODULES)


def activate() -> None:
    """Choose compiled or pure modules, before any of them is imported."""
    global COMPILED, REASON
    if REASON != "not activated":
        return
    COMPILED, REASON, stale = decide()
    if COMPILED:
        return
    if stale:
        warnings.warn(
            f"cardtable runs its engine as {REASON}; rebuild it (`pip install -e .` in a checkout, "
            "or reinstall cardtable), or set CARDTABLE_PURE=1 to silence this",
            RuntimeWarning,
            stacklevel=3,
        )
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())  # type: ignore[arg-type]
