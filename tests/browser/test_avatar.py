"""Iuno Avatar in the browser (issue 19): a whole game against the heuristic bot played by clicking,
with an effect's "also do …?" / "instead do …?" question answered and a cost paid through the
payment chooser; a roll shows what it allows and why the rest is not possible; an overpayment is
refused with its reason; cards are drawn with their element and pictograms. Screenshots at laptop
and phone widths with CARDTABLE_SCREENSHOTS set."""

from __future__ import annotations

from typing import Any

from .conftest import CARDS_LANDED, SHOTS, Server, shot
from .test_play import WAIT, check_the_end, click, click_move, create_table, version

SEED = 11  # a seed whose game (with the clicking policy below) asks an effect question and a payment


def phone_shot(page: Any, name: str, focus: str | None = None) -> None:
    """The same moment at a phone's width (390 px), then back to the laptop's."""
    if not SHOTS:
        return
    page.set_viewport_size({"width": 390, "height": 844})
    if focus:
        page.eval_on_selector(focus, "n => n.scrollIntoView({block: 'center'})")
    shot(page, f"{name}-390")
    page.set_viewport_size({"width": 1366, "height": 768})


def focused_shot(page: Any, name: str, focus: str) -> None:
    if SHOTS:
        page.eval_on_selector(focus, "n => n.scrollIntoView({block: 'center'})")
        shot(page, name)


def decision(page: Any) -> dict[str, Any]:
    return page.evaluate("document.querySelector('#prompt') ? document.querySelector('#prompt').dataset.kind : null")


def pick(page: Any) -> Any:
    """What a keen player clicks: answer an effect with yes, pay with a gem card, play a card of the
    Heaven, activate a figure, roll; end the turn or discard the die only when nothing else is legal."""
    for sel in ("#choices [data-legal=yes]", "#hand [data-legal^='pay with']", "#choices [data-legal='pay the rest with gems']",
                "#hand [data-legal]", "#earths [data-legal]", "#roll[data-legal]", "#hell [data-legal]", "#view .seat [data-legal]",
                "#choices [data-legal]:not([data-legal='end turn']):not([data-legal='discard the die'])", "#choices [data-legal]"):
        node = page.query_selector(sel)
        if node is not None:
            return node
    return None


def test_a_full_iuno_avatar_game_by_clicking(page: Any, server: Server) -> None:
    create_table(page, server, "iuno_avatar", seed=SEED, setup=lambda p: p.select_option(".seat-agent", "medium"))
    page.wait_for_function("document.body.dataset.cards === 'loaded'", timeout=WAIT)
    page.wait_for_selector("#hand .av-card")
    # cards carry their element colour and the pictograms generated from the card data
    first = page.query_selector("#hand .av-card")
    assert first.get_attribute("data-element") in ("fire", "earth", "light", "life", "water", "dark")
    assert page.query_selector_all("#hell .av-card svg.picto"), "Hell's cards show their pictograms"
    assert first.get_attribute("title").startswith(first.get_attribute("data-card"))  # the generated text on hover
    assert page.locator("#dice .av-die").count() == 6  # the six dice, all in the middle at the start
    shot(page, "avatar-start")
    phone_shot(page, "avatar-start")

    seen: dict[str, int] = {"use_ability": 0, "pay": 0, "why_roll": 0, "refused_pay": 0}
    moves = 0
    while True:
        page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.decides === 'true'", timeout=WAIT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        page.wait_for_function(CARDS_LANDED, timeout=WAIT)
        kind = decision(page)
        if kind == "use_ability":
            text = page.locator("#prompt").inner_text()
            # "also do ...?" / "instead do ...?", naming the card
            assert text.startswith("You: also ") or text.startswith("You: instead "), text
            assert "? (" in text and text.endswith(")"), text
            yes = page.locator("#choices [data-legal=yes]").inner_text()
            assert yes.startswith("Yes: also ") or yes.startswith("Yes: instead "), yes
            if not seen["use_ability"]:
                focused_shot(page, "avatar-trigger", "#prompt")
                phone_shot(page, "avatar-trigger", "#prompt")
            seen["use_ability"] += 1
        if kind == "use_roll":
            assert page.locator("#dice .av-die").count() == 6  # the rolled die among the six
            assert page.locator("#dice .av-die.rolled").count() == 1
        if kind == "use_roll" and page.query_selector("#hand [data-because]"):
            ok = page.query_selector("#hand [data-because]")
            assert ok.inner_text().startswith("roll ") and "you can pay" in ok.inner_text()
            seen["because"] = seen.get("because", 0) + 1
        if kind == "use_roll" and page.query_selector("#hand .why:not(.ok)"):
            why = page.query_selector("#hand .why:not(.ok)").inner_text()
            assert "roll" in why or "pay" in why or "gem card" in why, why
            if not seen["why_roll"]:
                focused_shot(page, "avatar-roll", "#hand")
                phone_shot(page, "avatar-roll", "#hand")
            seen["why_roll"] += 1
        if kind == "pay":
            assert page.locator("#prompt").inner_text().startswith("You: pay for ")
            refused = page.query_selector("#hand .av-card.dim[data-refusable] .why")
            if refused is not None and not seen["refused_pay"]:
                # a gem card that would overpay: the view says why, and the engine refuses the click
                assert "overpaying" in refused.inner_text() or "could not be paid" in refused.inner_text()
                v = version(page)
                click(page, page.locator("#hand .av-card.dim[data-refusable]").first)
                page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
                assert "overpay" in page.locator("#toast").inner_text()
                assert version(page) == v
                seen["refused_pay"] += 1
                focused_shot(page, "avatar-refused", "#hand")
                page.wait_for_selector("#toast", state="hidden", timeout=WAIT)  # it covers the bottom of the page
            if not seen["pay"]:
                focused_shot(page, "avatar-pay", "#prompt")
            seen["pay"] += 1
        click_move(page, pick)
        moves += 1
        if moves == 40:
            shot(page, "avatar-mid")
    assert seen["use_ability"] >= 1, seen
    assert seen["pay"] >= 1, seen
    assert seen["why_roll"] >= 1 and seen.get("because", 0) >= 1, seen
    page.evaluate("window.scrollTo(0, 0)")
    phone_shot(page, "avatar-end")
    check_the_end(page, "avatar")
