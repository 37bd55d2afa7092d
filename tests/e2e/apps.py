"""Servers that need app keys, as production runs them: apps made through the services, their keys
sent as Bearer tokens."""

from __future__ import annotations

from typing import Any

from kaiten.api.bootstrap import Services
from kaiten.services.ports import Quotas
from tests.app_client import AppClient


async def new_app_key(services: Services, name: str, quotas: Quotas | None = None) -> str:
    """A new app's first key."""
    return (await services.apps.create(name, quotas)).key


def app_headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def create_as(
    client: AppClient,
    headers: dict[str, str],
    game: str,
    seats: list[dict[str, Any]],
    **extra: Any,
) -> dict[str, Any]:
    """A game created with these credentials, with these seats (as many players as seats)."""
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    response = await client.post("/v1/games", json=body, headers=headers)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created
