"""Ivion in the browser: a whole game against a bot by clicking the board, the hand, the stack and
the buttons the view draws, the whole table on one laptop screen at every decision; refused clicks
say the rule, and so does every card you hold while you decide; the board fits a phone's width."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardtable.games.ivion.cards import base_library
from cardtable.games.ivion.decks import build

from .conftest import CARDS_LANDED, SHOTS, Server, assert_fits, shot
from .test_play import WAIT, click, click_move, create_table, version

#: a laptop's screen: the table must be whole on it at every decision (issue 34)
LAPTOP = {"width": 1280, "height": 800}
#: what a player needs at every decision, each on screen without scrolling
ON_SCREEN = ("#board", ".iv-hero-panel[data-hero='0']", ".iv-hero-panel[data-hero='1']", "#stack", "#hand",
             "#moves-panel", "#prompt", "#second-wind")
OFF_SCREEN = """sels => {
  window.scrollTo(0, 0);
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
  for (const sel of sels) {
    const e = document.querySelector(sel);
    if (!e) { if (!["#second-wind", "#prompt"].includes(sel)) out.push(`${sel} is missing`); continue; }
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
      out.push(`${sel} is not all on screen: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return out;
}"""

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


def decision_kind(page: Any) -> str:
    return str(page.evaluate("document.querySelector('#prompt') ? document.querySelector('#prompt').dataset.kind : ''"))


def check_card_status(page: Any) -> None:
    """While the seat decides, every card of its hand says whether it can be played now (the
    server's verdict drawn on the card) and only those that can are moves."""
    cards = page.locator("#hand .iv-card").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.dataset.legal || '', (e.querySelector('[data-status]') || {}).dataset])")
    for name, legal, status in cards:
        assert status, f"{name}: no word on whether it can be played now"
        assert (status["status"] == "legal") == bool(legal), (name, legal, status)


def play_ivion(page: Any, moves: int | None = None, seen: dict[str, bool] | None = None,
               one_screen: Path | None = None) -> int:
    """Click moves until the game ends (or `moves` were made). `one_screen`: after every move, the
    table is all on the laptop's screen (a screenshot of each kind of decision is kept there)."""
    made = 0
    kinds: set[str] = set()
    while moves is None or made < moves:
        page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.decides === 'true'",
                               timeout=WAIT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        kind = decision_kind(page)
        if kind in ("main", "priority", "discard_down"):
            check_card_status(page)
        if seen is not None and kind == "priority" and not seen.get("answer") and page.evaluate(
                "[...document.querySelectorAll('#hand [data-status]')].some(s => !s.innerText.includes('not an instant'))"):
            seen["answer"] = True  # a response window with an instant in hand: its verdict on the card
            shot(page, "ivion-answer")
        if seen is not None:
            for key, sel in (("lit", "#board .iv-tile.lit"), ("stack", "#stack .iv-stack-item"),
                             ("wind", "#second-wind"), ("pass", "#pass")):
                if not seen.get(key) and page.query_selector(sel) is not None:
                    seen[key] = True
                    shot(page, f"ivion-{key}")
        if one_screen is not None:
            page.wait_for_function(CARDS_LANDED, timeout=WAIT)
            off = page.evaluate(OFF_SCREEN, list(ON_SCREEN))
            if kind not in kinds or off or SHOTS:
                kinds.add(kind)
                page.screenshot(path=str(one_screen / f"ivion-1280x800-{made:03d}-{kind}.png"))
            assert not off, f"move {made} ({kind}): {off}"
        click_move(page, next_click)
        made += 1
    return made


def test_a_whole_ivion_game_against_a_bot_by_clicking(browser: Any, server: Server, tmp_path: Path) -> None:
    """At 1280x800, after every move, the board, both heroes, the stack, the hand, the moves and the
    question are on screen without scrolling (screenshots of each kind of decision: $CARDTABLE_SCREENSHOTS
    or the test's directory; every move with $CARDTABLE_SCREENSHOTS)."""
    context = browser.new_context(viewport=LAPTOP, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        whole_game_on_one_screen(page, server, Path(SHOTS) if SHOTS else tmp_path)
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def whole_game_on_one_screen(page: Any, server: Server, shots: Path) -> None:
    shots.mkdir(parents=True, exist_ok=True)

    lib = base_library()  # the server's content: you play a starter whose deck holds instants
    mine = next(h for h in lib.heroes.values() if any(lib.cards[n].instant for n in build(h, lib).cards))
    theirs = next((h for h in lib.heroes.values() if h is not mine), mine)

    def heroes(p: Any) -> None:
        p.wait_for_selector("[data-deck-seat='1']")
        p.select_option("[data-deck-seat='0']", mine.name)
        p.select_option("[data-deck-seat='1']", theirs.name)

    create_table(page, server, "ivion", seed=4, setup=heroes)
    page.wait_for_selector("#board .iv-tile")
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    # the board: 16 tiles, both heroes with HP bars, pools, feats; the hand with full card text
    assert page.locator("#board .iv-tile").count() == 16
    assert page.locator("#board [data-figure]").count() == 2
    assert page.locator(".iv-hero-panel .iv-hp").count() == 2
    assert page.locator("#feats [data-feat]").count() == 3
    # a card's printed parts come from the table's card catalogue, fetched beside the socket: the
    # page is drawn again once it has arrived
    page.wait_for_function("document.body.dataset.cards === 'loaded'", timeout=WAIT)
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
        card = page.locator(f"#hand .iv-card.dim[data-card={json.dumps(dim.get_attribute('data-card'))}]").first
        click(page, card)
        page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
        reason = page.locator("#toast").inner_text()
        assert any(w in reason for w in ("range", "costs", "banner", "no target", "not an instant")), reason
        assert version(page) == v
        # the card said so before it was clicked, in the same words
        assert card.locator("[data-status=refused]").inner_text() == f"✗ {reason}"

    # hovering a card with a range shows it on the board
    ranged = page.locator("#hand .iv-card", has_text="range").first
    if ranged.count():
        page.wait_for_function(CARDS_LANDED, timeout=WAIT)
        ranged.hover()
        assert page.locator("#board .iv-tile.in-range").count() >= 1

    seen: dict[str, bool] = {}
    made = play_ivion(page, seen=seen, one_screen=shots)
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
        for _ in range(12):  # nothing scrolls sideways, and the hand and the moves stay reachable
            page.wait_for_function(CARDS_LANDED, timeout=WAIT)
            assert_fits(page, "#hand .iv-card, #actions button, #stack, .iv-hero-panel")
            if play_ivion(page, 1) == 0:
                break
        shot(page, "ivion-phone-later")
    finally:
        context.close()


def test_build_a_deck_in_the_lobby_and_play_with_it(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.click(".game-pick[data-game=ivion]")
    page.wait_for_selector("[data-deck-seat='0']")
    # every starter hero of the content is offered, each shown with its line (the words the terminal prints)
    info = page.evaluate("fetch('/api/games/ivion/decks').then(r => r.json())")
    offered = page.locator("[data-deck-seat='0'] option").evaluate_all("os => os.map(o => o.value).filter(Boolean)")
    assert offered == [h["name"] for h in info["heroes"]]
    for h in info["heroes"]:
        page.select_option("[data-deck-seat='1']", h["name"])
        assert page.locator("[data-starter-about='1']").inner_text() == f"{h['name']}: {h['line']}"
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
    # each choice says how it plays: the content's description, shown as the data gives it
    said = {x["name"]: x["description"] for x in (*info["classes"], *info["specializations"], *info["traits"])}
    for part, name in (("class1", "Knight"), ("class2", "Ranger"), ("spec", "Mirage"), ("trait1", "Kindle")):
        about = page.locator(f"[data-about-of='0-{part}']")
        assert about.inner_text().startswith(name)
        assert about.locator(f"[data-description='{part}']").inner_text() == said[name]
    # a gold class's pip is drawn in the table's gold (--gold), not CSS's 'gold'; then back to the Knight
    page.select_option("[data-hero='0'][data-part='class1']", "Cleric")
    pip = page.locator("[data-about-of='0-class1'] [data-pip='gold']")
    assert pip.evaluate("p => getComputedStyle(p).backgroundColor") == "rgb(246, 195, 67)"
    page.select_option("[data-hero='0'][data-part='class1']", "Knight")
    page.select_option("[data-hero='0'][data-part='trait2']", "Thornskin")
    assert page.locator("[data-about-of='0-trait2']").inner_text().startswith("Thornskin")
    page.click("[data-check-deck='0']")
    page.wait_for_selector("[data-deck-ok='0']", timeout=WAIT)
    assert "45 cards" in page.locator("[data-deck-ok='0']").inner_text()
    # the cost curve (a bar per cost) and the colours, and the words the terminal prints for this deck
    checked = page.evaluate("""fetch('/api/games/ivion/decks', {method: 'POST', headers: {'content-type': 'application/json'},
      body: JSON.stringify({name: 'Dame Ann Thorne', mode: 'herocrafting', classes: ['Knight', 'Ranger'],
                            specialization: 'Mirage', traits: ['Kindle', 'Thornskin']})}).then(r => r.json())""")
    assert page.locator("[data-deck-curve='0'] .bar").count() == len(checked["curve"])
    assert page.locator("[data-deck-colours='0'] .chip").count() == len(checked["colours"])
    assert page.locator("[data-deck-words='0']").inner_text().splitlines() == checked["lines"]
    listing = page.locator("[data-deck-list='0']").inner_text()
    assert "Knight (15)" in listing and "Ranger (15)" in listing and "Mirage (15)" in listing
    shot(page, "ivion-deck-builder")
    if SHOTS:
        page.locator("#deck-builder").screenshot(path=str(Path(SHOTS) / "ivion-deck-builder-whole.png"))
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
