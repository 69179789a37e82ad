"""GET /api/tables/{id}/cards: the table's cards with the engine's text and the player's guide, for anyone."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import new_table


def test_a_tables_cards_and_guide_are_public(client: TestClient) -> None:
    table = new_table(client, [{"kind": "person"}, {"kind": "bot", "agent": "random"}], variant="seven-o")
    r = client.get(f"/api/tables/{table['id']}/cards")  # no token: a spectator reads them too
    assert r.status_code == 200
    data = r.json()
    cards = {c["name"]: c for c in data["cards"]}
    assert data["game"] == "juno" and len(cards) == 54
    assert "swap hands" in cards["blue 7"]["text"] and cards["blue 7"]["copies"] == 3  # the variant's deck
    assert "how to play" in data["guide"] and "wild draw four" in data["guide"]
    assert client.get("/api/tables/nope/cards").status_code == 404
