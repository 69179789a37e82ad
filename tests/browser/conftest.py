"""Browser tests: Debian's chromium (never a downloaded browser) driven by Python Playwright
against `cardtable serve`'s app, started as a real process on a free loopback port."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: set to a directory to keep screenshots of every test (laptop and phone widths)
SHOTS = os.environ.get("CARDTABLE_SCREENSHOTS")

if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
    if os.environ.get("CI"):  # CI installs Debian's chromium (scripts/test): its absence is a failure there
        raise RuntimeError(f"no chromium at {CHROMIUM}: scripts/test installs it with apt-get as root")
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`cardtable serve` in a child process; `restart()` stops it and starts a new one on the same database."""

    def __init__(self, db: Path, bot_delay: float = 0.0, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.extra = extra  # more `cardtable serve` options (the lab's)
        self.bot_delay = bot_delay
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # The real command, as a person starts it (bots without the pause that lets people follow them).
        self.proc = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "serve", "--port", str(self.port),
                                      "--database", str(self.db), "--bot-delay", str(self.bot_delay), "--bot-time", "0.3", *self.extra],
                                     stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the server exited at start") from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "browser.db")
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # bypass_csp: Playwright's wait_for_function evaluates its string with eval, which the server's
    # Content-Security-Policy forbids; test_play.py's CSP test runs the pages with the policy on.
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# Cards move briefly to their new places after each state (issue 21); a person clicks once they land.
CARDS_LANDED = """() => !document.getAnimations().some(a => a.playState === "running" && a.effect && a.effect.target
  && a.effect.target.dataset && a.effect.target.dataset.card !== undefined)"""


def api(server: Server, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A call to the server's HTTP API, as a client script makes it (GET, or POST with a JSON body)."""
    req = urllib.request.Request(server.url + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.wait_for_function(CARDS_LANDED, timeout=20_000)
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def assert_fits(page: Any, selector: str, width: int = 390) -> None:
    """At a phone's `width` the page does not scroll sideways and every `selector` element is on screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    edges = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
    assert min(left for left, _ in edges) >= 0 and max(right for _, right in edges) <= width
