"""The checkout after the README's first command (issue 36): `cardtable serve` creates cardtable.db and
SQLite's -wal and -shm files in the current folder; git must not list them as untracked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_database_the_readme_creates_is_ignored() -> None:
    names = ["cardtable.db", "cardtable.db-wal", "cardtable.db-shm"]
    out = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.split() == names
