"""Playing whole games through the REST API, the way an integrating app would."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from tests.app_client import AppClient

#: Far more commands than any game of the catalog needs; a game still running after it is stuck.
MAX_COMMANDS = 5000
#: How long a test waits for the bots' moves (made in the background, services/bot_moves.py).
BOTS_SECONDS = 60


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(
    client: AppClient,
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
    if not bots_owe_nothing(created):
        # The table once the bots made the moves they owe, with the tokens only creation shows (a
        # private game is read with a seat's token: it is no game at all to a caller holding nothing).
        private = extra.get("visibility") == "private" and created["tokens"]
        reader = bearer(next(iter(created["tokens"].values()))) if private else None
        settled = await until(client, created["id"], bots_owe_nothing, reader)
        return {**settled, "tokens": created["tokens"], "seat_tokens": created["seat_tokens"]}
    return created


def bots_owe_nothing(table: dict[str, Any]) -> bool:
    """Whether the table awaits no bot seat (the bots moved, or it awaits people, or it is over)."""
    return table["status"] != "active" or all(table["seats"][seat]["bot"] is None for seat in table["awaiting"])


def moved_on(version: int) -> Callable[[dict[str, Any]], bool]:
    """Whether the table is past this version."""
    return lambda table: bool(table["version"] > version)


async def until(
    client: AppClient,
    game_id: str,
    done: Callable[[dict[str, Any]], bool],
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The table, read again until `done` says so (the bots move in the background)."""
    async with asyncio.timeout(BOTS_SECONDS):
        while True:
            response = await client.get(f"/v1/games/{game_id}", headers=headers)
            assert response.status_code == 200, response.text
            table: dict[str, Any] = response.json()
            if done(table):
                return table
            await asyncio.sleep(0.01)


async def finished(
    client: AppClient,
    game_id: str,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The table once the game is over (a game of bots plays to its end in the background)."""
    return await until(client, game_id, lambda table: table["status"] in ("finished", "abandoned"), headers)


async def play_randomly(
    client: AppClient,
    created: dict[str, Any],
    rng: random.Random,
) -> dict[str, Any]:
    """Send random legal commands from legal-commands for whichever seat is awaited, to the end."""
    game_id, tokens = created["id"], created["tokens"]
    table = created
    for _ in range(MAX_COMMANDS):
        if table["status"] == "finished":
            return table
        people = [seat for seat in table["awaiting"] if str(seat) in tokens]
        if not people:
            # Read as a seat while the bots move: a private game is no game to a caller holding nothing.
            table = await until(client, game_id, moved_on(table["version"]), bearer(next(iter(tokens.values()))))
            continue
        seat = rng.choice(people)
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
    client: AppClient,
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


async def turn_came(
    client: AppClient,
    game_id: str,
    seat: int,
    version: int,
    headers: dict[str, str] | None = None,
) -> int:
    """The first version from `version` on at which the game awaits the seat (its turn came, perhaps by a
    bot's move made in the background), found by replaying the versions the game went through since."""
    table = await until(
        client, game_id, lambda table: table["status"] != "active" or seat in table["awaiting"], headers
    )
    for at in range(version, table["version"] + 1):
        replayed = (await client.get(f"/v1/games/{game_id}/replay?at={at}", headers=headers)).json()
        if seat in replayed["awaiting"]:
            return at
    return int(table["version"])


def seats_named(events: list[dict[str, Any]]) -> set[int]:
    """The seats these events name (a pick or a resignation names its seat; a reveal names none)."""
    return {event["data"]["seat"] for event in events if "seat" in event["data"]}
