"""Playing whole games through the REST API, the way an integrating app would."""

from __future__ import annotations

import random
from typing import Any

from litestar.testing import AsyncTestClient

#: Far more commands than any game of the catalog needs; a game still running after it is stuck.
MAX_COMMANDS = 5000


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(
    client: AsyncTestClient,  # type: ignore[type-arg]
    game: str,
    players: int,
    seats: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, **extra}
    body["seats"] = seats if seats is not None else [{"name": f"player {i}"} for i in range(players)]
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert response.headers["location"] == f"/v1/games/{created['id']}"
    return created


async def play_randomly(
    client: AsyncTestClient,  # type: ignore[type-arg]
    created: dict[str, Any],
    rng: random.Random,
) -> dict[str, Any]:
    """Send random legal commands from legal-commands for whichever seat is awaited, to the end."""
    game_id, tokens = created["id"], created["tokens"]
    table = created
    for _ in range(MAX_COMMANDS):
        if table["status"] == "finished":
            return table
        seat = rng.choice(table["awaiting"])
        headers = bearer(tokens[str(seat)])
        legal = (await client.get(f"/v1/games/{game_id}/legal-commands", headers=headers)).json()
        assert legal["seat"] == seat and legal["commands"], legal
        command = rng.choice(legal["commands"])
        sent = await client.post(f"/v1/games/{game_id}/commands", json=command, headers=headers)
        assert sent.status_code == 200, sent.text
        assert sent.json()["version"] > legal["version"]
        table = (await client.get(f"/v1/games/{game_id}", headers=headers)).json()
    raise AssertionError(f"game {game_id} did not finish within {MAX_COMMANDS} commands")


async def all_events(
    client: AsyncTestClient,  # type: ignore[type-arg]
    game_id: str,
    headers: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Every event the viewer may see, page by page (a page covers `limit` versions of the log)."""
    events: list[dict[str, Any]] = []
    after, limit = 0, 100
    while True:
        page = (await client.get(f"/v1/games/{game_id}/events?after={after}&limit={limit}", headers=headers)).json()
        events.extend(page["events"])
        after += limit
        if after >= page["last_version"]:
            return events
