"""Ivion in the browser: a whole game against a bot by clicking the board, the hand, the stack and
the buttons the view draws; refused clicks say the rule; the board fits a phone's width."""

from __future__ import annotations

import json
from typing import Any

from .conftest import CARDS_LANDED, Server, assert_fits, shot
from .test_play import WAIT, click, click_move, create_table, version

COLS = "abcdefgh"


def tile_of(page: Any, seat: int) -> tuple[int, int]:
    t = page.locator(f"#board [data-figure='{seat}']").first.evaluate("f => f.closest('.iv-tile').dataset.tile")
    return int(t[1:]) - 1, COLS.index(t[0])


def mine(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.decides === 'true'"))


def next_click(page: Any) -> Any:
    """What a plain player clicks next: second wind's cards, a lit target, a card of the hand, a step
    toward the enemy, end turn, pass, then whatever the view offers as buttons."""
    for sel in ("#second-wind [data-legal]", "#board .iv-tile.lit", "#stack [data-legal]", "#view [data-attached][data-legal]",
                "#hand .iv-card[data-legal]"):
        found = page.query_selector(sel)
        if found is not None:
            return found
    steps = page.query_selector_all("#board .iv-tile.step")
    if steps:
        er, ec = tile_of(page, 1)
        mr, mc = tile_of(page, 0)
        here = abs(mr - er) + abs(mc - ec)
        for s in steps:
            r, c = int(s.get_attribute("data-row")), int(s.get_attribute("data-col"))
            if abs(r - er) + abs(c - ec) < here and (s.get_attribute("data-legal") or "").startswith("move"):
                return s
    for sel in ("#end-turn", "#pass", "#choices [data-legal]", "#view [data-legal]"):
        found = page.query_selector(sel)
        if found is not None:
            return found
    raise AssertionError("the seat must decide but the view highlights no legal move")


def play_ivion(page: Any, moves: int | None = None, seen: dict[str, bool] | None = None) -> int:
    made = 0
    while moves is None or made < moves:
        page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.decides === 'true'",
                               timeout=WAIT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        if seen is not None:
            for key, sel in (("lit", "#board .iv-tile.lit"), ("stack", "#stack .iv-stack-item"),
                             ("wind", "#second-wind"), ("pass", "#pass")):
                if not seen.get(key) and page.query_selector(sel) is not None:
                    seen[key] = True
                    shot(page, f"ivion-{key}")
        click_move(page, next_click)
        made += 1
    return made


def test_a_whole_ivion_game_against_a_bot_by_clicking(page: Any, server: Server) -> None:
    create_table(page, server, "ivion", seed=4)
    page.wait_for_selector("#board .iv-tile")
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    # the board: 16 tiles, both heroes with HP bars, pools, feats; the hand with full card text
    assert page.locator("#board .iv-tile").count() == 16
    assert page.locator("#board [data-figure]").count() == 2
    assert page.locator(".iv-hero-panel .iv-hp").count() == 2
    assert page.locator("#feats [data-feat]").count() == 3
    first = page.locator("#hand .iv-card").first
    assert "action" in first.locator(".iv-chead").inner_text()
    shot(page, "ivion-start")

    # a click on a tile that is not adjacent is refused with the rule, and nothing happens
    mr, mc = tile_of(page, 0)
    far = next(f"{COLS[c]}{r + 1}" for r in range(4) for c in range(4) if abs(r - mr) + abs(c - mc) >= 2)
    v = version(page)
    click(page, page.locator(f"#board [data-tile='{far}']"))
    page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
    assert "not adjacent" in page.locator("#toast").inner_text()
    assert version(page) == v

    # a card of the hand that cannot be played now: the engine's reason is shown
    dim = page.query_selector("#hand .iv-card.dim")
    if dim is not None:
        page.evaluate("document.querySelector('#toast').classList.add('hidden')")
        click(page, page.locator(f"#hand .iv-card.dim[data-card={json.dumps(dim.get_attribute('data-card'))}]").first)
        page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
        reason = page.locator("#toast").inner_text()
        assert any(w in reason for w in ("range", "costs", "banner", "no target", "not an instant")), reason
        assert version(page) == v

    # hovering a card with a range shows it on the board
    ranged = page.locator("#hand .iv-card", has_text="range").first
    if ranged.count():
        page.wait_for_function(CARDS_LANDED, timeout=WAIT)
        ranged.hover()
        assert page.locator("#board .iv-tile.in-range").count() >= 1

    seen: dict[str, bool] = {}
    made = play_ivion(page, seen=seen)
    assert made > 10
    assert seen.get("lit") or seen.get("stack"), seen  # a card asked for a target, or a card waited on the stack
    page.wait_for_selector("#end:not(.hidden)", timeout=WAIT)
    assert page.locator("#status").inner_text() == "Game over"
    assert page.locator("#end tr.win").count() == 1
    shot(page, "ivion-end")


def test_ivion_fits_a_phone(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    try:
        create_table(page, server, "ivion", seed=6)
        page.wait_for_selector("#board .iv-tile")
        page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
        shot(page, "ivion-phone")
        assert_fits(page, "#board .iv-tile")
        assert play_ivion(page, 4) == 4
    finally:
        context.close()


def test_build_a_deck_in_the_lobby_and_play_with_it(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.click(".game-pick[data-game=ivion]")
    page.wait_for_selector("[data-deck-seat='0']")
    page.select_option("[data-deck-seat='0']", "")  # build a hero
    page.wait_for_selector("[data-build='0']")
    page.fill("[data-hero='0'][data-part='name']", "Dame Ann Thorne")
    for part, value in (("class1", "Knight"), ("class2", "Ranger"), ("spec", "Mirage"), ("trait1", "Kindle"),
                        ("trait2", "Kindle")):
        page.select_option(f"[data-hero='0'][data-part='{part}']", value)
    # a bad deck: the rule it breaks
    page.click("[data-check-deck='0']")
    page.wait_for_selector("[data-deck-rule='0']", timeout=WAIT)
    assert "two different traits" in page.locator("[data-deck-rule='0']").inner_text()
    page.select_option("[data-hero='0'][data-part='trait2']", "Thornskin")
    page.click("[data-check-deck='0']")
    page.wait_for_selector("[data-deck-ok='0']", timeout=WAIT)
    assert "45 cards" in page.locator("[data-deck-ok='0']").inner_text()
    listing = page.locator("[data-deck-list='0']").inner_text()
    assert "Knight (15)" in listing and "Ranger (15)" in listing and "Mirage (15)" in listing
    shot(page, "ivion-deck-builder")
    # sit down with that deck against a bot
    page.fill("[data-seat-name='0']", "Ann")
    page.select_option(".seat-agent", "random")
    page.fill("#seed", "8")
    page.click("#create-btn")
    page.click("[data-join='0']")
    page.wait_for_function("document.body && document.body.dataset.version !== undefined", timeout=WAIT)
    page.wait_for_selector("#board .iv-tile")
    assert "Dame Ann Thorne" in page.locator(".iv-hero-panel[data-hero='0']").inner_text()
    assert "Thornskin" in page.locator("#feats").inner_text() and "Bewilder" in page.locator("#feats").inner_text()
    play_ivion(page)
    page.wait_for_selector("#end:not(.hidden)", timeout=WAIT)
    assert page.locator("#status").inner_text() == "Game over"
