"""The designers' lab over HTTP (issue 35): off unless mounted, its own password, never a file
path from the browser, runs bounded, and its numbers the CLI's on the same seeds."""

from __future__ import annotations

import json
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardtable import make
from cardtable.commands import simulate
from cardtable.games import ivion as ivion_package
from cardtable.server import create_app
from cardtable.server.lab import Lab, router
from cardtable.sim import analyze, load
from cardtable.sim.compare import compare
from cardtable.sim.lab import comparison_json

PASSWORD = "lab-secret"


def lab_client(tmp_path: Path, **kw: Any) -> TestClient:
    tmp_path.mkdir(parents=True, exist_ok=True)
    app = create_app(str(tmp_path / "lab.db"))
    settings: dict[str, Any] = {"workers": 1, "address": None, "max_games": 100, "max_seconds": 300.0, **kw}
    app.include_router(router(Lab(PASSWORD, tmp_path / "runs", **settings)))
    return TestClient(app)


def logged_in(client: TestClient) -> dict[str, str]:
    r = client.post("/api/lab/login", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    return {"authorization": f"Bearer {r.json()['token']}"}


def zun_variant(client: TestClient, auth: dict[str, str]) -> list[dict[str, Any]]:
    cards = client.post("/api/lab/cards", json={"game": "zun", "options": {}}, headers=auth).json()["cards"]
    variant = [c["data"] for c in cards]
    assert variant[0]["name"] == "Attack" and variant[0]["copies"] == 10
    variant[0] = {**variant[0], "copies": 4}
    return variant


def wait(client: TestClient, auth: dict[str, str], name: str) -> dict[str, Any]:
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"/api/lab/runs/{name}", headers=auth).json()
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError("the lab run did not end")


def test_the_lab_is_off_unless_mounted(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "lab.db"))) as client:
        assert client.get("/lab").status_code == 404
        assert client.post("/api/lab/login", json={"password": PASSWORD}).status_code == 404
    with pytest.raises(ValueError, match="password of its own"):
        Lab("", tmp_path, workers=1, address=None, max_games=10, max_seconds=10)


def test_everything_but_the_page_and_the_login_wants_the_labs_password(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        assert client.get("/lab").status_code == 200
        assert client.post("/api/lab/login", json={"password": "guess"}).status_code == 403
        assert client.get("/api/lab/games").status_code == 403
        assert client.get("/api/lab/games", headers={"authorization": "Bearer made-up"}).status_code == 403
        games = client.get("/api/lab/games", headers=logged_in(client)).json()
        assert {g["name"]: g["option"] for g in games["games"]} == {"iuno_avatar": "cards", "ivion": "cards",
                                                                    "iunu": "cards", "juno": "deck", "zun": "runes"}
        assert "runes" not in next(g for g in games["games"] if g["name"] == "zun")["options"]


def test_an_edited_card_is_checked_by_the_games_loader(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        shown = client.post("/api/lab/cards", json={"game": "zun", "options": {}}, headers=auth).json()
        kinds = {f["name"]: f for f in shown["form"]}
        assert kinds["kind"]["kind"] == "choice" and kinds["kind"]["choices"] == ["action", "reaction", "modifier"]
        assert kinds["copies"]["kind"] == "number" and kinds["charms"]["kind"] == "names"
        assert kinds["effects"]["kind"] == "json"
        cards = [c["data"] for c in shown["cards"]]
        cards[0] = {**cards[0], "copies": 99}
        said = client.post("/api/lab/check", json={"game": "zun", "options": {}, "cards": cards}, headers=auth).json()
        assert said == {"ok": False, "message": "runes: rune 'Attack': field 'copies' must be a whole number from 0 to 60 "
                                               "(got 99)"}
        cards[0] = {**cards[0], "copies": 3, "effects": [{"verb": "lose_hp", "amount": 2, "per_boost": 1}]}
        said = client.post("/api/lab/check", json={"game": "zun", "options": {}, "cards": cards}, headers=auth).json()
        assert said["ok"] and said["texts"]["Attack"].startswith("Target loses 2 HP")


def test_a_juno_deck_is_edited_card_by_card_and_its_change_named_in_the_comparison(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        options = {"players": 2, "match": False}
        shown = client.post("/api/lab/cards", json={"game": "juno", "options": options}, headers=auth).json()
        assert [f["name"] for f in shown["form"]] == ["name", "copies"]
        cards = [c["data"] for c in shown["cards"]]
        assert len(cards) == 54 and sum(c["copies"] for c in cards) == 108  # the classic deck
        wild = next(c for c in shown["cards"] if c["name"] == "wild draw four")
        assert wild["text"].startswith("You choose the color in play; the next player draws 4 cards")
        cards = [{**c, "copies": 9} if c["name"] == "wild draw four" else c for c in cards]
        said = client.post("/api/lab/check", json={"game": "juno", "options": options, "cards": cards},
                           headers=auth).json()
        assert said["ok"]
        bad = [{**c, "name": "purple 3"} if c["name"] == "red 3" else c for c in cards]
        said = client.post("/api/lab/check", json={"game": "juno", "options": options, "cards": bad}, headers=auth).json()
        assert said == {"ok": False, "message": "deck: card 'purple 3': field 'name' must be a JUNO card's name, like "
                                               "'red 7', 'blue skip', 'green draw two', 'wild' or 'wild draw four' "
                                               "(got 'purple 3')"}
        body = {"game": "juno", "options": options, "agents": ["random"], "cards": cards, "games": 6, "seed": 3}
        name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        status = wait(client, auth, name)
        assert status["state"] == "done"
        assert "The runs differ in: options.deck.cards.wild draw four is 9 in variant, 4 in base." in \
            status["comparison"]["headline"]


def test_an_ivion_card_is_edited_checked_by_ivions_loader_and_simulated_against_the_base(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        options = {"turn_limit": 12}
        shown = client.post("/api/lab/cards", json={"game": "ivion", "options": options}, headers=auth).json()
        # the form comes from Ivion's card schema (CardData): `target` a choice of its allowed values
        kinds = {f["name"]: f for f in shown["form"]}
        assert kinds["target"]["choices"] == ["none", "self", "enemy", "tile", "empty_tile", "attached", "stack"]
        assert kinds["power"]["kind"] == "number" and kinds["effects"]["kind"] == "json"
        cards = [c["data"] for c in shown["cards"]]
        content = tomllib.loads((Path(ivion_package.__file__).parent / "content.toml").read_text(encoding="utf-8"))
        assert [c["name"] for c in cards] == [c["name"] for c in content["card"]]  # content.toml's [[card]] tables
        strike = next(c for c in shown["cards"] if c["name"] == "Oathstrike")
        assert strike["text"] == "1 action · range 1 · banner: disarm. Target: an enemy. Deal 3 damage to the target."
        bad = [{**c, "power": 9} if c["name"] == "Oathstrike" else c for c in cards]
        said = client.post("/api/lab/check", json={"game": "ivion", "options": options, "cards": bad}, headers=auth).json()
        assert said == {"ok": False, "message": "cards: card 'Oathstrike': field 'power': Input should be less than or "
                                               "equal to 5 (got 9)"}
        # the content's own rules hold too: an archetype keeps its 15 Herocrafting-marked cards
        bad = [{**c, "marked": 0} if c["name"] == "Oathstrike" else c for c in cards]
        said = client.post("/api/lab/check", json={"game": "ivion", "options": options, "cards": bad}, headers=auth).json()
        assert not said["ok"] and "Herocrafting-marked cards; every archetype has exactly 15" in said["message"]
        cards = [{**c, "effects": [{**c["effects"][0], "amount": 4}]} if c["name"] == "Oathstrike" else c for c in cards]
        said = client.post("/api/lab/check", json={"game": "ivion", "options": options, "cards": cards},
                           headers=auth).json()
        assert said["ok"] and said["texts"]["Oathstrike"].endswith("Deal 4 damage to the target.")
        body = {"game": "ivion", "options": options, "agents": ["random"], "cards": cards, "games": 4, "seed": 9}
        name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        status = wait(client, auth, name)
        assert status["state"] == "done" and status["comparison"]["games"] == 4
        differ = next(h for h in status["comparison"]["headline"] if h.startswith("The runs differ in"))
        assert differ.startswith("The runs differ in: options.cards: Oathstrike.effects is ") and '"amount": 4' in differ
        assert differ.count(" in variant, ") == 1  # that card alone
        saved = client.post(f"/api/lab/runs/{name}/save", json={"file": "oathstrike-4"}, headers=auth).json()
    # the saved variant is a cards file the command line reads (`-o cards=FILE`)
    game = make("ivion", cards=str(tmp_path / "runs" / "cards" / saved["saved"]))
    assert "Deal 4 damage" in game.library.cards["Oathstrike"].text()


def test_no_file_path_from_the_browser_and_runs_are_bounded(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        asked = {"game": "zun", "options": {}, "agents": ["random"], "seed": 0}
        path = client.post("/api/lab/cards", json={"game": "zun", "options": {"runes": "/etc/passwd"}}, headers=auth)
        assert path.status_code == 400 and "card editor" in path.json()["message"]
        cards = zun_variant(client, auth)
        too_many = client.post("/api/lab/runs", json={**asked, "cards": cards, "games": 101}, headers=auth)
        assert too_many.status_code == 400 and "from 1 to 100" in too_many.json()["message"]
        as_path = client.post("/api/lab/runs", json={**asked, "cards": "runes.toml", "games": 2}, headers=auth)
        assert as_path.status_code == 400
        assert client.get("/api/lab/runs/..%2F..%2Fetc", headers=auth).status_code in (400, 404)
        name = client.post("/api/lab/runs", json={**asked, "cards": cards, "games": 2}, headers=auth).json()["name"]
        assert wait(client, auth, name)["state"] == "done"
        for bad in ("../escape", "a/b", "", ".hidden"):
            r = client.post(f"/api/lab/runs/{name}/save", json={"file": bad}, headers=auth)
            assert r.status_code == 400 and "without a folder" in r.json()["message"]
        assert not (tmp_path / "escape.json").exists()


def test_a_run_stops_when_asked_and_compares_the_seeds_both_sides_finished(tmp_path: Path) -> None:
    with lab_client(tmp_path, max_games=1000) as client:
        auth = logged_in(client)
        body = {"game": "zun", "options": {}, "agents": ["random"], "cards": zun_variant(client, auth), "games": 1000,
                "seed": 0}
        name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        busy = client.post("/api/lab/runs", json=body, headers=auth)
        assert busy.status_code == 400 and "still playing" in busy.json()["message"]
        # a block is 125 seeds a side (1000 games in 8 blocks): stop once the base has begun its first
        while client.get(f"/api/lab/runs/{name}", headers=auth).json()["done"] <= 125:
            time.sleep(0.05)
        assert client.post(f"/api/lab/runs/{name}/stop", json={}, headers=auth).json() == {"stopping": True}
        status = wait(client, auth, name)
        assert status["state"] == "stopped" and status["reason"] == "stopped from the page"
        games = status["comparison"]["games"]
        assert 0 < games < 1000
        folder = tmp_path / "runs" / name
        assert set(load(folder / "variant")["seed"]) >= set(range(games))
        assert set(load(folder / "base")["seed"]) >= set(range(games))


def test_the_labs_numbers_are_the_clis_on_the_same_seeds(tmp_path: Path) -> None:
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        body = {"game": "zun", "options": {"turn_limit": 60}, "agents": ["heuristic"],
                "cards": zun_variant(client, auth), "games": 40, "seed": 500}
        name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        status = wait(client, auth, name)
        assert status["state"] == "done"
        saved = client.post(f"/api/lab/runs/{name}/save", json={"file": "four-attacks"}, headers=auth).json()
        assert saved["saved"] == "four-attacks.json"
    card_file = tmp_path / "runs" / "cards" / "four-attacks.json"
    # the CLI, from the saved card file and the game's own cards, on the same seeds
    app = typer.Typer()
    simulate.register(app)
    common = ["--agents", "heuristic", "--games", "40", "--seed", "500", "--workers", "1", "-o", "turn_limit=60"]
    runner = CliRunner()
    for side, extra in (("variant", ["-o", f"runes={card_file}"]), ("base", [])):
        done = runner.invoke(app, ["simulate", "zun", *common, *extra, "--out", str(tmp_path / f"cli-{side}")])
        assert done.exit_code == 0, done.output
    folder = tmp_path / "runs" / name
    for side in ("variant", "base"):
        assert load(tmp_path / f"cli-{side}").equals(load(folder / side))  # the very same games
    cli = compare(analyze(load(tmp_path / "cli-variant")), analyze(load(tmp_path / "cli-base")), ("variant", "base"))
    lab = status["comparison"]
    figures = json.loads(json.dumps(comparison_json(cli), default=str))
    for table in ("agents", "seats", "overall", "cards"):
        assert lab[table] == figures[table], table
    # and the p_all are across the same family of card measures, chosen alike from the same games
    assert lab["cards_family"] == cli.family >= len(lab["cards"])
    assert lab["overall"][1]["figure"] == "mean game length (decisions)" and lab["cards"]
    # every card measure carries its p across all of them (the permutation max-|t|), which alone decides "clear"
    assert all(0 <= r["p_all"] <= 1 and r["clear"] == (r["p_all"] < 0.05) for r in lab["cards"])


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_with_a_ray_address_the_lab_plays_on_ray_and_gets_the_same_games(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    # a Ray instance of this test's own (`--ray-address` joins a real cluster the same way: the lab
    # joins it once, and each block's games are Ray tasks)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with lab_client(tmp_path / "ray", address="auto") as client:
            auth = logged_in(client)
            assert client.get("/api/lab/games", headers=auth).json()["backend"] == "ray"
            body = {"game": "zun", "options": {"turn_limit": 40}, "agents": ["random"],
                    "cards": zun_variant(client, auth), "games": 12, "seed": 70}
            name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
            assert wait(client, auth, name)["state"] == "done"
    finally:
        ray.shutdown()
    with lab_client(tmp_path / "local") as client:
        auth = logged_in(client)
        local = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        assert wait(client, auth, local)["state"] == "done"
    for side in ("variant", "base"):
        assert load(tmp_path / "ray" / "runs" / name / side).equals(load(tmp_path / "local" / "runs" / local / side))


def test_an_iunu_afterlife_card_is_edited_by_its_effects_fields_and_simulated_against_the_base(tmp_path: Path) -> None:
    """IUNU's cards are two tables keyed by name (its declaration's `tables`): a list and a form
    each; an Afterlife card's form is its effect's, the citizens fixed, and a bad value refused
    by IUNU's loader naming the card and the field."""
    with lab_client(tmp_path) as client:
        auth = logged_in(client)
        options = {"players": 2}
        shown = client.post("/api/lab/cards", json={"game": "iunu", "options": options}, headers=auth).json()
        tables = {t["name"]: t for t in shown["tables"]}
        assert list(tables) == ["citizens", "afterlife"]
        assert "the nine Citizen types are the rulebook's" in tables["citizens"]["fixed"] and not tables["afterlife"]["fixed"]
        assert [f["name"] for f in tables["citizens"]["form"]] == ["name", "cards", "citizen_vp", "bread_vp"]
        form = {f["name"]: f for f in tables["afterlife"]["form"]}
        assert form["effect"]["choices"] == ["double_majority", "sets", "guardians", "debens_per_vp", "most_fed",
                                             "most_types"]
        assert form["types"]["kind"] == "names" and form["types"]["when"] == {"field": "effect", "values": ["sets"]}
        assert "Farmer" in form["types"]["choices"]
        assert form["vp"]["when"]["values"] == ["sets", "most_fed", "most_types"]
        assert [c["table"] for c in shown["cards"]].count("citizens") == 9
        cards: dict[str, list[dict[str, Any]]] = {t: [c["data"] for c in shown["cards"] if c["table"] == t]
                                                  for t in tables}
        khufu = next(c for c in cards["afterlife"] if c["name"] == "The Glory of Khufu")
        assert khufu == {"name": "The Glory of Khufu", "effect": "most_types", "vp": 7}

        def check(edited: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
            body = {"game": "iunu", "options": options, "cards": edited}
            said: dict[str, Any] = client.post("/api/lab/check", json=body, headers=auth).json()
            return said

        def afterlife(**fields: Any) -> dict[str, list[dict[str, Any]]]:
            rows = [{"name": c["name"], **fields} if c["name"] == "The Glory of Khufu" else c for c in cards["afterlife"]]
            return {**cards, "afterlife": rows}

        assert check(afterlife(effect="most_types", vp=0)) == {
            "ok": False, "message": "cards option: afterlife card 'The Glory of Khufu': field 'vp': Input should be "
                                    "greater than or equal to 1 (got 0)"}
        said = check(afterlife(effect="sets", vp=3))
        assert said == {"ok": False, "message": "cards option: afterlife card 'The Glory of Khufu': field 'types': "
                                                "Field required"}
        said = check(afterlife(effect="guardians", vp=3))
        assert not said["ok"] and said["message"].endswith("afterlife card 'The Glory of Khufu': unknown field 'vp'")
        knight = {**cards, "citizens": [*cards["citizens"], {"name": "Knight", "cards": 3, "citizen_vp": 3, "bread_vp": 1}]}
        said = check(knight)
        assert not said["ok"] and "citizen 'Knight' is not an IUNU Citizen type" in said["message"]
        said = check({"citizens": cards["citizens"]})
        assert said == {"ok": False, "message": "cards: an object of the tables citizens, afterlife, each a list of cards"}
        variant = afterlife(effect="most_types", vp=12)
        said = check(variant)
        assert said["ok"] and "12" in said["texts"]["The Glory of Khufu"]
        body = {"game": "iunu", "options": options, "agents": ["random"], "cards": variant, "games": 4, "seed": 5}
        name = client.post("/api/lab/runs", json=body, headers=auth).json()["name"]
        status = wait(client, auth, name)
        assert status["state"] == "done" and status["comparison"]["games"] == 4
        differ = next(h for h in status["comparison"]["headline"] if h.startswith("The runs differ in"))
        assert differ == "The runs differ in: options.cards.afterlife.The Glory of Khufu.vp is 12 in variant, 7 in base."
        saved = client.post(f"/api/lab/runs/{name}/save", json={"file": "khufu-12"}, headers=auth).json()
    # the saved variant is a card file the command line reads (`-o cards=FILE`)
    game = make("iunu", cards=str(tmp_path / "runs" / "cards" / saved["saved"]))
    assert next(a for a in game.cards.afterlife if a.name == "The Glory of Khufu").vp == 12
