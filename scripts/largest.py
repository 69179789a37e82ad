"""The largest files and functions of the package, in lines (issue 30 asks for the ten largest,
before and after).

    python scripts/largest.py [--top N] [ROOT]

Files: every .py and .js file under ROOT (default cardtable/), by line count. Functions: every
Python `def` (methods and nested functions too; a function's lines include those it nests), from
its `def` line (decorators excluded) to its last line.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?", default="cardtable")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    root = Path(args.root)
    files = sorted((p for p in root.rglob("*") if p.suffix in (".py", ".js")), key=str)
    sizes = [(len(p.read_text().splitlines()), str(p)) for p in files]
    print(f"largest files (lines), of {len(sizes)}:")
    for lines, path in sorted(sizes, reverse=True)[: args.top]:
        print(f"  {lines:6d}  {path}")
    functions: list[tuple[int, str]] = []
    for p in files:
        if p.suffix != ".py":
            continue
        tree = ast.parse(p.read_text(), str(p))
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        lines = (child.end_lineno or child.lineno) - child.lineno + 1
                        functions.append((lines, f"{p}:{child.lineno} {name}"))
                    stack.append((child, name + "."))
                else:
                    stack.append((child, prefix))
    print(f"largest functions (lines), of {len(functions)}:")
    for lines, where in sorted(functions, reverse=True)[: args.top]:
        print(f"  {lines:6d}  {where}")


if __name__ == "__main__":
    main()
