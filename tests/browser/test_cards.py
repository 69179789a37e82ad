"""Every card says what it does, in every game's view: the engine's text (the table's card catalogue)
on hover, in the card detail panel opened by a tap; the Rules link opens the player's guide; a
refused click on a rune says why. Screenshots go to $CARDTABLE_SCREENSHOTS when it is set."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from cardtable import make

from .conftest import Server, shot
from .test_play import WAIT, click, create_table, play, version


def catalogue(server: Server, table: str) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}/cards", timeout=10) as r:
        data = json.load(r)
    return {c["name"]: c for c in data["cards"]}


def open_detail(page: Any, node: Any, cards: dict[str, dict[str, Any]]) -> str:
    """Hover shows the card's text; a tap on its ⓘ opens the detail panel with the engine's text."""
    name = node.get_attribute("data-card")
    assert cards[name]["text"] in node.get_attribute("title")
    click(page, node.locator(".info-btn"))
    detail = page.locator("#card-detail")
    detail.wait_for(state="visible", timeout=WAIT)
    assert detail.locator("h3").inner_text() == name
    assert cards[name]["text"] in detail.inner_text()
    return str(name)


def check_guide(page: Any, title: str) -> None:
    page.click("#rules-link")
    guide = page.locator("#guide")
    guide.wait_for(state="visible", timeout=WAIT)
    text = guide.inner_text()
    assert title in text and "Setup" in text and "Every card" in text
    shot(page, f"guide-{title.split()[0].lower()}")
    page.keyboard.press("Escape")
    assert not guide.is_visible()


def start(page: Any, server: Server, game: str, seed: int, **kw: Any) -> tuple[str, dict[str, dict[str, Any]]]:
    make(game)  # a game that does not load fails here at once, not after the lobby's timeouts
    table = create_table(page, server, game, seed=seed, **kw)
    page.wait_for_function("document.body.dataset.cards === 'loaded'", timeout=WAIT)
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    return table, catalogue(server, table)


def test_juno_cards_say_what_they_do(page: Any, server: Server) -> None:
    table, cards = start(page, server, "juno", 5, setup=lambda p: p.uncheck("input[name=match]"))
    assert "wild draw four" in cards and "Worth 50 points" in cards["wild"]["text"]
    name = open_detail(page, page.locator("#hand .card").first, cards)
    shot(page, "cards-juno-detail")
    assert name in page.locator("#card-detail").inner_text()
    # the discard pile's top card has its text too
    top = page.locator("#discard-pile .card.top")
    assert cards[top.get_attribute("data-card")]["text"] in top.get_attribute("title")
    check_guide(page, "JUNO")


def test_iunu_citizens_and_dice_say_what_they_are(page: Any, server: Server) -> None:
    table, cards = start(page, server, "iunu", 3)
    assert {"Merchant", "Farmer", "The Judgment of Osiris"} <= set(cards)
    assert "Debens equal to" in cards["Merchant"]["text"] and cards["The Judgment of Osiris"]["kind"] == "afterlife"
    # A Forum card that is not a move now: a tap on the card itself opens its detail.
    forum = page.locator("#forum .citizen:not([data-legal])").first
    name = forum.get_attribute("data-card")
    click(page, forum)
    page.locator("#card-detail").wait_for(state="visible", timeout=WAIT)
    assert cards[name]["text"] in page.locator("#card-detail").inner_text()
    page.keyboard.press("Escape")
    open_detail(page, page.locator("#hand .citizen").first, cards)
    # every die is named by its position and its face
    caps = page.locator("#dice .die-cap").all_inner_texts()
    assert [c.split(" · ")[0] for c in caps] == ["die 1", "die 2", "die 3"] and all(" · " in c for c in caps)
    shot(page, "cards-iunu-detail")
    check_guide(page, "IUNU")
    page.set_viewport_size({"width": 390, "height": 844})
    open_detail(page, page.locator("#hand .citizen").first, cards)
    shot(page, "cards-iunu-detail-390px")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_zun_runes_say_what_they_do_and_a_refused_click_says_why(page: Any, server: Server) -> None:
    # seed 2: the hand holds Fizzle (a Reaction) in the Action Phase, when only Actions can be played
    table, cards = start(page, server, "zun", 2)
    assert cards["Boost"]["kind"] == "modifier" and "Play it right after" in cards["Boost"]["when"]
    open_detail(page, page.locator("#hand .rune[data-legal]").first, cards)
    page.keyboard.press("Escape")
    refused = page.locator("#hand .rune:not([data-legal])").first
    name = refused.get_attribute("data-card")
    v = version(page)
    click(page, refused)
    page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
    reason = page.locator("#toast").inner_text()
    # the rule of the rune's kind ("Playing cards"), the words drawn on it before the click
    assert reason == refused.get_attribute("data-why") and "a Reaction is played only when" in reason, reason
    assert version(page) == v  # nothing changed
    detail = page.locator("#card-detail")
    assert detail.is_visible() and cards[name]["when"] in detail.inner_text()  # what the rune is, and when
    shot(page, "cards-zun-refused")
    check_guide(page, "Runes of Zun")
    assert play(page, 2) >= 1  # the table still plays after a refusal
