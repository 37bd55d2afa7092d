"""What a browser needs (API.md, "Browsers"): CORS when configured, and stream tickets for EventSource."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import update

from adapters.schema import stream_tickets
from api.app import create_app
from api.settings import Settings
from services.stream_tickets import ticket_hash
from tests.e2e.play import bearer, create

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
    async with AsyncTestClient(app=app) as client:
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


async def ticket_for(client, game, seat: int) -> dict:
    answer = await client.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer(game["tokens"][str(seat)]))
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.mark.parametrize("trouble", ["unknown", "another game", "expired"])
async def test_a_ticket_that_is_not_good_now_is_a_401(client, services, trouble):
    game = await create(client, "sushi-go", 2, seed=12)
    ticket = (await ticket_for(client, game, 0))["ticket"]
    target = game["id"]
    if trouble == "unknown":
        ticket = "no-such-ticket"
    elif trouble == "another game":
        target = (await create(client, "sushi-go", 2))["id"]
    elif services.engine is not None:
        async with services.engine.begin() as connection:
            past = datetime.now(UTC) - timedelta(seconds=1)
            row = stream_tickets.c.ticket_hash == ticket_hash(ticket)
            await connection.execute(update(stream_tickets).where(row).values(expires_at=past))
    answer = await client.get(f"/v1/games/{target}/events/stream?ticket={ticket}")
    assert answer.status_code == 401 and answer.json()["code"] == "invalid-ticket"
    assert answer.headers["content-type"].startswith("application/problem+json")


async def test_a_ticket_needs_a_seat_token(client):
    game = await create(client, "sushi-go", 2, seed=12)
    missing = await client.post(f"/v1/games/{game['id']}/stream-tickets")
    assert missing.status_code == 401 and missing.json()["code"] == "missing-token"
    wrong = await client.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer("nope"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "invalid-token"
