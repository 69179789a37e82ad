"""Build hook: compile the engine's hot path with mypyc when possible (bench/README.md).

Everything else is declared in pyproject.toml. The compiled modules are the same source files
(cardtable/_native.py lists them); when mypyc or a C compiler is missing, or CARDTABLE_COMPILE=0,
the package installs as pure Python, which gives identical results, only slower.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
NATIVE = runpy.run_path(str(HERE / "cardtable" / "_native.py"))  # MODULES, GROUP, manifest() without importing cardtable


def log(message: str) -> None:
    print(f"cardtable build: {message}", file=sys.stderr)


def pure(reason: str) -> list[object]:
    """No extensions. A manifest left in the tree by an earlier build would make `import cardtable`
    trust that build's extensions, so it goes (without it the sources are always used)."""
    (HERE / "cardtable" / NATIVE["MANIFEST"]).unlink(missing_ok=True)
    log(f"{reason}: installing the pure-Python engine")
    return []


def extensions() -> list[object]:
    if os.environ.get("CARDTABLE_COMPILE", "1") == "0":
        return pure("CARDTABLE_COMPILE=0")
    try:
        from mypyc.build import mypycify
    except ImportError:
        return pure("mypyc is not available")
    paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in NATIVE["MODULES"]]
    # The build runs before the package's dependencies are installed (pydantic, numpy), and the
    # strict settings of pyproject.toml are for `mypy` in CI: mypyc gets its own plain settings and
    # treats what it cannot import as Any (only the listed modules are compiled).
    flags = ["--config-file=", "--ignore-missing-imports", "--python-version=3.11"]
    try:
        exts = mypycify(flags + paths, opt_level="3", group_name=NATIVE["GROUP"], verbose=False)
    except (Exception, SystemExit) as error:  # a mypy error stops mypyc; the package still installs
        return pure(f"mypyc could not compile the engine ({error})")
    for ext in exts:
        ext.optional = True  # a compiler failure skips the extension instead of failing the install
    return exts


class BuildExt(build_ext):
    """Records the compiled sources' hashes once every extension is built (cardtable/_native.py)."""

    def _into_tree(self) -> bool:
        """An editable install builds into the source tree; otherwise into build_lib."""
        return bool(self.inplace or getattr(self, "editable_mode", False))

    def _root(self, into_tree: bool) -> Path:
        return HERE if into_tree else Path(self.build_lib)

    def run(self) -> None:
        into_tree = self._into_tree()
        record = self._root(into_tree) / "cardtable" / NATIVE["MANIFEST"]
        # An extension that fails to compile is skipped (optional), and setuptools would then keep
        # (or copy into the tree) the previous build's file: the manifest would vouch for old code.
        # So every earlier output goes first, and only what this run builds can count.
        record.unlink(missing_ok=True)
        for ext in self.extensions:
            for root in {self._root(False), self._root(into_tree)}:
                (root / self.get_ext_filename(ext.name)).unlink(missing_ok=True)
        if into_tree:  # a module compiled before and no longer listed would still win its import
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                for stale in (HERE / "cardtable").rglob(f"*{suffix}"):
                    stale.unlink()
        super().run()
        root = self._root(into_tree)
        missing = [ext.name for ext in self.extensions if not (root / self.get_ext_filename(ext.name)).exists()]
        if missing or not self.extensions:
            if missing:
                log(f"not compiled: {', '.join(missing)}; the pure-Python engine will run")
            return
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(NATIVE["manifest"](), indent=1) + "\n")
        log(f"compiled {len(NATIVE['MODULES'])} modules with mypyc")

    def get_outputs(self) -> list[str]:
        outputs = list(super().get_outputs())
        if self.extensions and not self._into_tree():
            outputs.append(str(self._root(False) / "cardtable" / NATIVE["MANIFEST"]))
        return outputs


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
