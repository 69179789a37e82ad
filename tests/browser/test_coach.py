"""The coach in the browser: the hint at a table of one person and bots (and none where several play),
and the review of a finished game shown in its replay."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from .conftest import Server, api, shot

WAIT = 20_000
REVIEW_WAIT = 180_000  # ms: the review thinks about half a second per decision (a bound, not a timing assertion)


def new_table(server: Server, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    return api(server, "/api/tables", {"game": "juno", "options": {"match": False}, "seats": seats, "seed": seed})


def play_out(server: Server, table: str, token: str) -> None:
    """The person's moves through the API (the first legal one each time) until the game is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        m = api(server, f"/api/tables/{table}?token={token}")
        if m["over"]:
            return
        if m["legal"]:
            with contextlib.suppress(OSError):  # a bot moved first (stale): read the table again
                api(server, f"/api/tables/{table}/act", {"token": token, "action": m["legal"][0]["text"],
                                                         "version": m["version"]})
        else:
            time.sleep(0.05)
    raise AssertionError("the game did not end within two minutes")


def test_the_hint_shows_hard_s_move_to_the_one_person_among_bots(page: Any, server: Server) -> None:
    t = new_table(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "agent": "random"}], seed=3)
    page.goto(f"{server.url}{t['seats'][0]['link']}")
    page.wait_for_function("document.body && document.body.dataset.decides === 'true'", timeout=WAIT)
    page.click("#hint-btn")
    page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
    assert page.locator("#toast").inner_text().startswith("hard would play: ")
    hinted = page.locator("#actions button.hinted")
    assert hinted.count() == 1
    assert page.locator("#toast").inner_text().endswith(hinted.inner_text())
    shot(page, "coach-hint")


def test_no_hint_button_where_two_people_play(page: Any, server: Server) -> None:
    t = new_table(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bea"}], seed=3)
    first = api(server, f"/api/tables/{t['id']}")["current_player"]
    page.goto(f"{server.url}{t['seats'][first]['link']}")
    page.wait_for_function("document.body && document.body.dataset.decides === 'true'", timeout=WAIT)
    assert page.locator("#actions button[data-action]").count() > 0
    assert page.locator("#hint-btn").count() == 0


def test_the_review_marks_moves_in_the_replay(page: Any, server: Server) -> None:
    t = new_table(server, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "agent": "medium"}], seed=4)
    token = t["seats"][0]["token"]
    play_out(server, t["id"], token)
    page.goto(f"{server.url}{t['seats'][0]['link']}")
    page.wait_for_selector("#review-btn", timeout=WAIT)
    page.click("#review-btn")
    page.wait_for_selector("#coach-marks", timeout=REVIEW_WAIT)
    review = api(server, f"/api/tables/{t['id']}/review?token={token}")  # kept by the server: no second review
    marked = [v for v in review["verdicts"] if v["marked"]]
    marks = page.locator("#coach-marks").inner_text()
    assert f"{len(marked)} of your {len(review['verdicts'])} decisions" in marks
    assert page.locator(".coach-jump").count() == len(marked)
    # the replay opens at the first marked move (else the deal); stepping to one of Ann's moves shows its verdict
    step = marked[0]["step"] if marked else review["verdicts"][0]["step"]
    if not marked:
        page.locator("#replay input[type=range]").evaluate(f"(e) => {{ e.value = {step}; e.dispatchEvent(new Event('change')); }}")
    page.wait_for_function(f"document.querySelector('#replay-said').innerText.startsWith('Move {step} of')", timeout=WAIT)
    verdict = page.locator("#coach-verdict")
    assert verdict.count() == 1
    v = next(v for v in review["verdicts"] if v["step"] == step)
    assert v["made"] in verdict.inner_text()
    assert ("clearly worse" in verdict.inner_text()) == v["marked"]
    page.locator("#coach-marks").scroll_into_view_if_needed()
    shot(page, "coach-review")
