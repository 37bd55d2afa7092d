"""What a browser needs (API.md, "Browsers"): CORS when configured, and stream tickets for EventSource
(the tickets' streams themselves are in test_stream.py, served by a real server: a stream that opens
where it must not never ends, and the in-process test client would wait for its end)."""

from __future__ import annotations

import pytest

from kaiten.api.app import create_app
from kaiten.api.settings import Settings
from tests.app_client import AppClient
from tests.e2e.play import bearer, create

pytestmark = pytest.mark.one_store

ORIGIN = "http://app.example"
PREFLIGHT = {
    "Origin": ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key",
}


async def test_cors_is_off_unless_configured(client):
    game = await create(client, "sushi-go", 2)
    answer = await client.get(f"/v1/games/{game['id']}", headers={"Origin": ORIGIN})
    assert "access-control-allow-origin" not in answer.headers


async def test_configured_origins_get_preflights_and_read_the_headers_they_need(services):
    app = create_app(services, Settings(cors_origins=(ORIGIN,)))
    async with AppClient(app=app) as client:
        game = await create(client, "sushi-go", 2)
        preflight = await client.options(f"/v1/games/{game['id']}/commands", headers=PREFLIGHT)
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == ORIGIN
        allowed = {h.strip().lower() for h in preflight.headers["access-control-allow-headers"].split(",")}
        expected = {"authorization", "content-type", "if-match", "if-none-match", "idempotency-key", "last-event-id"}
        assert allowed >= expected
        assert "POST" in preflight.headers["access-control-allow-methods"]

        created = await client.post("/v1/games", json={"game": "sushi-go", "players": 2}, headers={"Origin": ORIGIN})
        exposed = {h.strip().lower() for h in created.headers["access-control-expose-headers"].split(",")}
        assert {"etag", "location"} <= exposed
        elsewhere = await client.options(
            f"/v1/games/{game['id']}/commands", headers={**PREFLIGHT, "Origin": "http://evil.example"}
        )
        assert elsewhere.headers.get("access-control-allow-origin") != "http://evil.example"


async def test_a_ticket_needs_a_seat_token(client):
    game = await create(client, "sushi-go", 2, seed=12)
    missing = await client.post(f"/v1/games/{game['id']}/stream-tickets")
    assert missing.status_code == 401 and missing.json()["code"] == "missing-token"
    wrong = await client.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer("nope"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid-token"
