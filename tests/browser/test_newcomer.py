"""Issue 36 in the browser: what a new player trips over. A click during a card's slide does what the
player aimed at; JUNO's decision has one label on the table and under "Your moves"; the lobby says
"2 players", "1 move", "waiting for a player", how long since the last move, and leaves abandoned
tables out. Screenshots of that lobby at 1280x800 and 390 px go to $CARDTABLE_SCREENSHOTS."""

from __future__ import annotations

import sqlite3
from typing import Any

from .conftest import Server, api, shot
from .test_play import WAIT, create_table

# Cards slide with the Web Animations API (table.js, animate). Held (paused at their start) once
# `__hold` is set, a slide can be looked at, and moved on, at any point.
HOLD_SLIDES = """
window.__hold = false;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const a = animate.apply(this, args);
  if (window.__hold) a.pause();
  return a;
};
"""
SLIDE_ON = "document.getAnimations().forEach((a) => { a.currentTime = 319; })"  # nearly landed (320 ms)
SLIDE_HALF = "document.getAnimations().forEach((a) => { a.currentTime = 160; })"  # half way

# The rightmost point of a card that is on top there (a fan overlaps cards leftwards).
RIGHT_POINT = """el => {
  const r = el.getBoundingClientRect();
  for (let fx = 0.92; fx > 0.1; fx -= 0.04) {
    const x = r.left + r.width * fx, y = r.top + r.height * 0.5;
    const hit = document.elementFromPoint(x, y);
    if (hit && el.contains(hit) && !hit.closest(".info-btn")) return [x, y];
  }
  return null;
}"""
UNDER = "([x, y]) => { const n = document.elementFromPoint(x, y); const c = n && n.closest('[data-card]'); return c ? c.dataset.card : null; }"
WILD_PLAYED = "document.querySelector('#discard-pile .top') && document.querySelector('#discard-pile .top').dataset.card === 'wild'"


def start(page: Any, server: Server) -> tuple[dict[str, Any], str]:
    """Ann in the browser against Bo, whose moves the test makes (no bot: nothing else moves). Seed 31:
    Ann holds red 5, red 7, yellow 9, green 6, green 9, blue 2 and wild, and plays first."""
    page.add_init_script(HOLD_SLIDES)
    t = table(server, [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}], seed=31)
    page.goto(server.url + t["seats"][0]["link"])
    page.wait_for_function("document.body && document.body.dataset.decides === 'true'", timeout=WAIT)
    return t, t["seats"][1]["token"]


def ann_plays_yellow_9_and_bo_draws(page: Any, server: Server, t: dict[str, Any], bo: str) -> None:
    """Ann's move (sent without the mouse) redraws her fan: every card slides; Bo draws and keeps the
    card. It is Ann's turn again, the slides held where they began."""
    ann_plays_yellow_9(page)
    bo_draws(page, server, t, bo)


def ann_plays_yellow_9(page: Any) -> None:
    """Ann's move, sent without the mouse: her fan is redrawn and every card slides, held where it began."""
    page.evaluate("window.__hold = true")
    page.evaluate("CT.api.act('play yellow 9')")
    page.wait_for_function("document.body.dataset.version === '1'", timeout=WAIT)


def bo_draws(page: Any, server: Server, t: dict[str, Any], bo: str) -> None:
    """Bo draws and keeps the card (each move redraws Ann's view): it is Ann's turn again."""
    api(server, f"/api/tables/{t['id']}/act", {"token": bo, "action": "draw", "version": 1})
    if api(server, f"/api/tables/{t['id']}")["current_player"] == 1:  # a playable card: Bo keeps it
        api(server, f"/api/tables/{t['id']}/act", {"token": bo, "action": "pass", "version": 2})
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)


def test_a_click_during_a_cards_slide_plays_the_card_pressed(page: Any, server: Server) -> None:
    t, bo = start(page, server)
    ann_plays_yellow_9_and_bo_draws(page, server, t, bo)
    wild = page.locator("#hand [data-card='wild']")
    assert wild.get_attribute("data-legal") == "play wild"
    assert wild.evaluate("n => n.getAnimations().length") == 1  # it slides to its new place in the fan
    point = wild.evaluate(RIGHT_POINT)
    page.mouse.move(*point)
    page.mouse.down()  # pressed on the wild, drawn where it was...
    page.evaluate(SLIDE_ON)  # ...it slides away before the button comes up
    assert page.evaluate(UNDER, point) != "wild"
    page.mouse.up()
    page.wait_for_function(WILD_PLAYED, timeout=WAIT)
    assert page.locator("#card-detail:not(.hidden)").count() == 0


def resting_point_on_wild(page: Any) -> list[float]:
    """A point on the wild once it is drawn at rest and on top there: a redraw of the first state (the
    card texts or a seat connecting) may still slide the fan, or cover it, just after the page loads."""
    found = page.wait_for_function(
        f"""() => {{ const w = document.querySelector("#hand [data-card='wild']");
                   return w && !w.getAnimations().length ? ({RIGHT_POINT})(w) : null; }}""", timeout=WAIT)
    point: list[float] = found.json_value()
    return point


def test_a_click_during_a_slide_under_a_resting_pointer_plays_what_it_rested_on(page: Any, server: Server) -> None:
    t, bo = start(page, server)
    point = resting_point_on_wild(page)
    page.mouse.move(*point)  # the player rests the pointer on the wild; the fan is redrawn
    ann_plays_yellow_9(page)
    page.evaluate(SLIDE_HALF)  # the wild slides away from under the still pointer...
    assert page.evaluate(UNDER, point) != "wild"
    bo_draws(page, server, t, bo)  # ...and Bo's moves redraw the view while it is on its way
    assert page.locator("#hand [data-card='wild']").evaluate("n => n.getAnimations().length") == 1
    page.evaluate(SLIDE_ON)
    assert page.evaluate(UNDER, point) != "wild"
    page.mouse.down()
    page.mouse.up()
    page.wait_for_function(WILD_PLAYED, timeout=WAIT)
    assert page.locator("#card-detail:not(.hidden)").count() == 0


def test_juno_keeping_the_drawn_card_has_one_label(page: Any, server: Server) -> None:
    # Seed 12: Ann draws a playable green 6, and may play it or keep it.
    create_table(page, server, "juno", seed=12, setup=lambda p: p.uncheck("input[name=match]"))
    page.click("#actions [data-action='draw']")
    page.wait_for_selector("#pass-btn", timeout=WAIT)
    on_table = page.locator("#pass-btn").inner_text()
    in_moves = page.locator("#actions [data-action='pass']").inner_text()
    assert on_table == in_moves == "keep the card"


def table(server: Server, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    return api(server, "/api/tables", {"game": "juno", "options": {"match": False}, "seats": seats, "seed": seed})


def first_move(server: Server, t: dict[str, Any]) -> None:
    st = api(server, f"/api/tables/{t['id']}")
    token = t["seats"][st["current_player"]]["token"]
    move = api(server, f"/api/tables/{t['id']}?token={token}")["legal"][0]["text"]
    api(server, f"/api/tables/{t['id']}/act", {"token": token, "action": move, "version": 0})


def test_the_lobby_in_words_with_an_open_seat_an_old_table_and_an_abandoned_one(browser: Any, server: Server) -> None:
    ann, bo = {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}
    old = table(server, [ann, bo], seed=1)
    first_move(server, old)
    gone = table(server, [ann, bo], seed=2)
    first_move(server, gone)
    waiting = table(server, [{"kind": "person", "name": "Cy"}, {"kind": "open"}], seed=3)
    # Age the first two tables in the server's database: 5 hours and 3 days since their move.
    with sqlite3.connect(server.db) as db:
        for t, hours in ((old, 5), (gone, 72)):
            db.execute("UPDATE tables SET created = created - ? WHERE id = ?", ((hours + 1) * 3600, t["id"]))
            db.execute("UPDATE actions SET at = at - ? WHERE table_id = ?", (hours * 3600, t["id"]))
    for size, name in (({"width": 1280, "height": 800}, "lobby-issue36-1280"), ({"width": 390, "height": 844}, "lobby-issue36-390px")):
        context = browser.new_context(viewport=size, bypass_csp=True)
        page = context.new_page()
        try:
            page.goto(server.url + "/")
            page.wait_for_selector(f"li[data-table='{waiting['id']}']", timeout=WAIT)
            assert page.locator(".game-pick[data-game=ivion] small").inner_text() == "2 players"
            assert page.locator(".game-pick[data-game=juno] small").inner_text() == "2–10 players"
            open_row = page.locator(f"li[data-table='{waiting['id']}']").inner_text()
            assert "waiting for a player" in open_row and "to play" not in open_row and "no move yet" in open_row
            old_row = page.locator(f"li[data-table='{old['id']}']").inner_text()
            assert "to play" in old_row and "1 move, last move 5 h ago" in old_row and "moves" not in old_row
            assert page.locator(f"li[data-table='{gone['id']}']").count() == 0  # abandoned: not listed
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            page.locator("#tables").scroll_into_view_if_needed()
            shot(page, name)
        finally:
            context.close()
    # the abandoned table is only out of the list: its game is there
    assert api(server, f"/api/tables/{gone['id']}")["version"] == 1
