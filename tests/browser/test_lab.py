"""The designers' lab (issue 35) in the browser: log in with the lab's password, edit a rune of
Runes of Zun in the form made from its schema (the loader's message while it is wrong), simulate
200 paired games and read the difference, save the variant as a card file. Screenshots at
1280x800 and at a phone's 390 px go to $CARDTABLE_SCREENSHOTS when it is set."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable import make

from .conftest import SHOTS, Server, assert_fits, shot

WAIT = 15_000
#: 400 games of Runes of Zun (200 a side) on a shared machine
RUN_WAIT = 600_000


@pytest.fixture
def lab_server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "browser.db", extra=("--lab", "--lab-password", "lab-secret", "--lab-runs",
                                               str(tmp_path / "runs"), "--lab-workers", "2"))
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_edit_a_rune_simulate_200_paired_games_and_read_the_difference(
        browser: Any, lab_server: Server, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(lab_server.url + "/lab")
    page.fill("#password", "wrong")
    page.click("#login-form button")
    page.locator("#login-error").wait_for(state="visible", timeout=WAIT)
    assert "wrong password" in page.locator("#login-error").inner_text()
    page.fill("#password", "lab-secret")
    page.click("#login-form button")
    page.wait_for_function("document.body.dataset.cards === 'iuno_avatar'", timeout=WAIT)  # the first game
    # Ivion's cards come from its content file, their form from its card schema (CardData)
    page.select_option("#game", "ivion")
    page.wait_for_function("document.body.dataset.cards === 'ivion'", timeout=WAIT)
    strike = page.locator("#cards tr[data-card='Oathstrike']")
    assert "Deal 3 damage to the target." in strike.inner_text()
    strike.locator("button").click()
    assert page.locator("#field-target option").all_inner_texts()[1:] == [
        "none", "self", "enemy", "tile", "empty_tile", "attached", "stack"]
    page.fill("#field-power", "9")
    page.wait_for_function("document.body.dataset.check === 'bad'", timeout=WAIT)
    assert "cards: card 'Oathstrike': field 'power'" in page.locator("#check").inner_text()
    page.select_option("#game", "zun")
    page.wait_for_function("document.body.dataset.cards === 'zun'", timeout=WAIT)
    attack = page.locator("#cards tr[data-card='Attack']")
    attack.wait_for(timeout=WAIT)
    assert "Target loses 1 HP" in attack.inner_text()  # the card's text, from the engine's catalogue
    attack.locator("button").click()
    assert page.locator("#editing").inner_text() == "Attack"
    # the form comes from the rune schema: `kind` is a choice of its allowed values
    assert page.locator("#field-kind option").all_inner_texts()[1:] == ["action", "reaction", "modifier"]
    page.fill("#field-copies", "-3")
    page.wait_for_function("document.body.dataset.check === 'bad'", timeout=WAIT)
    message = page.locator("#check").inner_text()
    assert "rune 'Attack': field 'copies' must be a whole number from 0 to 60" in message
    assert page.locator("#run").is_disabled()
    page.fill("#field-copies", "2")
    page.wait_for_function("document.body.dataset.check === 'ok'", timeout=WAIT)
    assert "The variant changes: Attack." in page.locator("#changes").inner_text()
    # a card added (a copy of the one edited, under a new name) is checked too, then taken back
    page.click("#add-card")
    page.locator("#cards tr[data-card='Attack 2']").wait_for(timeout=WAIT)
    page.wait_for_function("document.body.dataset.check === 'ok'", timeout=WAIT)
    assert page.locator("#editing").inner_text() == "Attack 2"
    page.click("#revert-card")
    page.locator("#cards tr[data-card='Attack 2']").wait_for(state="detached", timeout=WAIT)
    page.locator("#cards tr[data-card='Attack'] button").click()
    assert page.locator("#field-copies").input_value() == "2"
    shot_at(page, "lab-edit")

    page.fill("#games", "200")
    assert page.locator("#run").inner_text() == "Simulate 200 games"
    page.click("#run")
    page.wait_for_function("document.body.dataset.run === 'running'", timeout=WAIT)
    page.wait_for_function("document.body.dataset.run === 'done'", timeout=RUN_WAIT)
    assert page.locator("#progress").evaluate("p => p.value === p.max && p.max === 400")
    headline = page.locator("#headline").inner_text()
    assert "Attack.copies is 2 in variant, 10 in base" in headline
    # With 2 Attacks instead of 10, nobody loses HP as fast: the games are much longer.
    row = page.locator("#tables tr[data-row='mean game length (decisions)']").inner_text()
    diff, low, high = (float(x) for x in re.findall(r"[+-]\d+\.\d", row)[:3])
    assert 0 < low < diff < high, row
    # each card measure's p across all of them (the permutation max-|t|, which decides "clear"), said in the legend
    cards_table = page.locator("#tables .results-wrap").nth(3)
    assert cards_table.locator("th").all_inner_texts()[4:7] == ["clear", "p_all", "p"]
    for row in cards_table.locator("tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        p_all, p = float(cells[5]), float(cells[6])
        assert 0 <= p <= 1 and 0 <= p_all <= 1 and (cells[4] == "yes") == (p_all < 0.05), cells
    legend = cards_table.locator(".legend").inner_text()
    assert "p_all: its p-value across all" in legend and "\"clear\" is p_all below 0.05" in legend
    assert "each seed's two games swapped" in legend  # the lab's runs are paired: the seed is the unit
    assert page.locator("#plots img").count() >= 2  # the report's plots
    page.evaluate("document.getElementById('results').scrollIntoView()")  # the top of the comparison
    shot_at(page, "lab-results")

    page.fill("#save-name", "fewer-attacks")
    page.click("#save")
    page.wait_for_function("document.getElementById('saved').textContent.includes('Saved')", timeout=WAIT)
    saved = tmp_path / "runs" / "cards" / "fewer-attacks.json"
    runes = make("zun", runes=str(saved)).options.rune_set()
    assert runes.by_name("Attack").copies == 2 and json.loads(saved.read_text())["rune"][0]["name"] == "Attack"

    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#results").scroll_into_view_if_needed()
    assert_fits(page, "#results, #editor, #cards-panel")
    shot_at(page, "lab-phone")
    context.close()
    assert not errors, errors


def shot_at(page: Any, name: str) -> None:
    """The visible page and the whole page."""
    shot(page, name)
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}-full.png"), full_page=True)


def test_iunu_a_list_and_a_form_per_table_an_afterlife_card_by_its_effect(browser: Any, lab_server: Server) -> None:
    """IUNU's two tables (citizens, afterlife) each a list; an Afterlife card's form shows its
    effect's fields, another effect its own; no Citizen type is added (the nine are fixed)."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(lab_server.url + "/lab")
    page.fill("#password", "lab-secret")
    page.click("#login-form button")
    page.wait_for_function("document.body.dataset.cards === 'iuno_avatar'", timeout=WAIT)
    page.select_option("#game", "iunu")
    page.wait_for_function("document.body.dataset.cards === 'iunu'", timeout=WAIT)
    assert page.locator("#cards h3").all_inner_texts() == ["citizens (9)", "afterlife (9)"]
    assert page.locator("#cards table[data-table='citizens'] tbody tr").count() == 9
    page.locator("#cards tr[data-card='Pharaoh'] button").click()
    assert [page.locator(f"#field-{f}").count() for f in ("cards", "citizen_vp", "bread_vp")] == [1, 1, 1]
    page.click("#add-card")
    refused = page.locator("#add-refused")
    refused.wait_for(state="visible", timeout=WAIT)
    assert refused.inner_text().startswith("No citizen is added: the nine Citizen types are the rulebook's")
    assert page.locator("#cards table[data-table='citizens'] tbody tr").count() == 9

    page.locator("#cards tr[data-card='The Glory of Khufu'] button").click()
    assert page.locator("#field-effect").input_value() == "most_types"
    assert page.locator("#field-vp").input_value() == "7" and page.locator("#field-types").count() == 0
    page.select_option("#field-effect", "sets")  # `sets` takes types and vp: types is missing
    page.locator("#field-types").wait_for(timeout=WAIT)
    page.wait_for_function("document.body.dataset.check === 'bad'", timeout=WAIT)
    assert "afterlife card 'The Glory of Khufu': field 'types': Field required" in page.locator("#check").inner_text()
    page.fill("#field-types", "Scribe, Noble")
    page.wait_for_function("document.body.dataset.check === 'ok'", timeout=WAIT)
    page.select_option("#field-effect", "guardians")  # no fields of its own: vp and types go
    page.locator("#field-vp").wait_for(state="detached", timeout=WAIT)
    page.wait_for_function("document.body.dataset.check === 'ok'", timeout=WAIT)
    assert "The variant changes: The Glory of Khufu." in page.locator("#changes").inner_text()
    assert json.loads(page.locator("#cards tr[data-card='The Glory of Khufu'] code").inner_text()) == {
        "name": "The Glory of Khufu", "effect": "guardians"}
    page.select_option("#field-effect", "most_types")
    page.fill("#field-vp", "0")
    page.wait_for_function("document.getElementById('check').textContent.includes('greater than')", timeout=WAIT)
    assert page.locator("#check").inner_text().endswith(
        "afterlife card 'The Glory of Khufu': field 'vp': Input should be greater than or equal to 1 (got 0)")
    assert page.locator("#run").is_disabled()
    shot_at(page, "lab-iunu")
    assert not errors, errors
