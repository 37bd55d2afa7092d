"""The live event stream through a real server in this process, on SQLite and PostgreSQL.

Each stream is compared with what the events endpoint shows the same viewer at the same moment: the
stream must be that log, live.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import update

from kaiten.adapters.schema import stream_tickets
from kaiten.api.bootstrap import Services
from kaiten.services.stream_tickets import ticket_hash
from tests import plain_http
from tests.app_client import reused_app
from tests.e2e.play import all_events, bearer, create, play_randomly
from tests.e2e.sse import WAIT_SECONDS, open_stream, refused_stream


class InProcessServer(uvicorn.Server):
    """Leaves the signals to pytest: Ctrl+C (or a timeout's SIGTERM) stops the tests, not just this server."""

    def capture_signals(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


@pytest.fixture
async def client(services: Services) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of a uvicorn server on a free port, serving an app over `services`."""
    async with reused_app(services) as app:
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
        server = InProcessServer(config)
        serving = asyncio.create_task(server.serve())
        async with asyncio.timeout(WAIT_SECONDS):
            while not server.started:
                await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            async with plain_http.async_client(base_url=f"http://127.0.0.1:{port}", timeout=WAIT_SECONDS) as http:
                yield http
        finally:
            server.should_exit = True
            await serving


async def two_person_game(client: httpx.AsyncClient) -> dict[str, Any]:
    """A running 2-player Sushi Go! game of two people: each has a hand the other may not see."""
    return await create(client, "sushi-go", 2, seed=5)


async def play_first_legal(client: httpx.AsyncClient, game: dict[str, Any], seat: int) -> int:
    """Send seat's first legal command; the game's version after it."""
    headers = bearer(game["tokens"][str(seat)])
    legal = (await client.get(f"/v1/games/{game['id']}/legal-commands", headers=headers)).json()
    sent = await client.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=headers)
    assert sent.status_code == 200, sent.text
    version: int = sent.json()["version"]
    return version


async def events_after(
    client: httpx.AsyncClient, game_id: str, after: int, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    return [event for event in await all_events(client, game_id, headers) if event["version"] > after]


async def test_the_stream_catches_up_then_sends_each_new_event_as_the_events_endpoint_shows_it(client):
    game = await two_person_game(client)
    game_id, alice = game["id"], bearer(game["tokens"]["0"])
    async with open_stream(client, game_id, alice) as stream:
        assert await stream.until_version(game["version"]) == await all_events(client, game_id, alice)
        version = await play_first_legal(client, game, 0)
        version = await play_first_legal(client, game, 1)
        live = await stream.until_version(version)
    assert live == await events_after(client, game_id, game["version"], alice)


async def test_each_viewer_gets_the_log_redacted_for_it(client):
    game = await two_person_game(client)
    game_id = game["id"]
    viewers = {"alice": bearer(game["tokens"]["0"]), "bob": bearer(game["tokens"]["1"]), "spectator": None}
    async with (
        open_stream(client, game_id, viewers["alice"]) as alice,
        open_stream(client, game_id, viewers["bob"]) as bob,
        open_stream(client, game_id) as spectator,
    ):
        streams = {"alice": alice, "bob": bob, "spectator": spectator}
        for stream in streams.values():
            await stream.until_version(game["version"])
        await play_first_legal(client, game, 0)
        version = await play_first_legal(client, game, 1)
        seen = {viewer: await streams[viewer].until_version(version) for viewer in streams}
    for viewer, headers in viewers.items():
        assert seen[viewer] == await events_after(client, game_id, game["version"], headers), viewer
    # The redaction is real: the two seats picked cards the others were not shown.
    assert seen["alice"] != seen["bob"] != seen["spectator"] != seen["alice"]


async def test_a_stream_resumes_after_last_event_id_which_wins_over_after(client):
    game = await two_person_game(client)
    game_id, alice = game["id"], bearer(game["tokens"]["0"])
    await play_first_legal(client, game, 0)
    version = await play_first_legal(client, game, 1)
    for resume in (1, game["version"]):
        async with open_stream(client, game_id, {**alice, "Last-Event-ID": str(resume)}, "?after=0") as stream:
            assert await stream.until_version(version) == await events_after(client, game_id, resume, alice)
        async with open_stream(client, game_id, alice, f"?after={resume}") as stream:
            assert await stream.until_version(version) == await events_after(client, game_id, resume, alice)


async def test_the_stream_of_a_game_ends_after_game_finished_and_then_answers_204(client):
    game = await create(client, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=3)
    game_id = game["id"]
    async with open_stream(client, game_id, query=f"?after={game['version']}") as stream:
        final = await play_randomly(client, game, random.Random(3))
        live = await stream.rest()
    assert live[-1]["type"] == "GameFinished" and live[-1]["version"] == final["version"]
    versions = [event["version"] for event in live]
    assert versions == sorted(set(versions)) and versions[0] > game["version"]
    # Once the game is over the whole log is public, and a stream from the start is all of it.
    async with open_stream(client, game_id, query="?after=0") as stream:
        assert await stream.rest() == await all_events(client, game_id)
    done = await refused_stream(client, f"/v1/games/{game_id}/events/stream", {"Last-Event-ID": str(final["version"])})
    assert done.status_code == 204


async def test_an_idle_stream_sends_keep_alive_comments(client, services):
    services.streams.keepalive_seconds = 0.01
    game = await two_person_game(client)
    async with open_stream(client, game["id"], query=f"?after={game['version']}") as stream:
        message = await stream.next()
    assert message is not None and message.comment == "keep-alive" and message.data is None


async def test_streams_end_when_the_services_stop(client, services):
    game = await two_person_game(client)
    async with open_stream(client, game["id"]) as stream:
        await stream.until_version(game["version"])
        await services.stop()
        assert await stream.rest() == []


async def test_a_client_that_goes_away_leaves_no_subscription_behind(client, services):
    game = await two_person_game(client)
    before = services.notifier.subscribers
    async with open_stream(client, game["id"]) as stream:
        await stream.until_version(game["version"])
        assert services.notifier.subscribers == before + 1
    # The server learns of the disconnection asynchronously; a leaked subscription would never go.
    async with asyncio.timeout(WAIT_SECONDS):
        while services.notifier.subscribers > before:
            await asyncio.sleep(0.01)


@pytest.mark.parametrize(
    ("path", "headers", "status", "code"),
    [
        ("/v1/games/00000000-0000-0000-0000-000000000000/events/stream", {}, 404, "game-not-found"),
        ("/v1/games/not-a-uuid/events/stream", {}, 404, "game-not-found"),
        ("/v1/games/{id}/events/stream", {"Authorization": "Bearer nobody"}, 401, "invalid-token"),
        ("/v1/games/{id}/events/stream", {"Last-Event-ID": "seven"}, 422, "invalid-last-event-id"),
        ("/v1/games/{id}/events/stream", {"Last-Event-ID": "999"}, 422, "invalid-stream-position"),
        ("/v1/games/{id}/events/stream?after=999", {}, 422, "invalid-stream-position"),
        ("/v1/games/{id}/events/stream?after=-1", {}, 400, "malformed-request"),
    ],
)
async def test_a_stream_that_cannot_be_served_is_refused_with_a_problem(client, path, headers, status, code):
    game = await two_person_game(client)
    response = await refused_stream(client, path.format(id=game["id"]), headers)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code


async def ticket_for(client: httpx.AsyncClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    answer = await client.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer(game["tokens"][str(seat)]))
    assert answer.status_code == 201, answer.text
    ticket: dict[str, Any] = answer.json()
    return ticket


async def test_a_ticket_streams_its_seats_view_once(client):
    game = await create(client, "sushi-go", 2, seed=12)
    ticket = await ticket_for(client, game, 1)
    expires = datetime.fromisoformat(ticket["expires_at"])
    assert timedelta(seconds=50) < expires - datetime.now(UTC) <= timedelta(seconds=60)

    query = f"?ticket={ticket['ticket']}"
    async with open_stream(client, game["id"], query=query) as stream:
        events = await stream.until_version(game["version"])
    dealt = next(event for event in events if event["type"] == "HandsDealt")
    # Seat 1 sees its own hand and not seat 0's.
    assert dealt["data"]["hands"][1] is not None and dealt["data"]["hands"][0] is None

    again = await refused_stream(client, f"/v1/games/{game['id']}/events/stream{query}")
    assert again.status_code == 401 and again.json()["code"] == "invalid-ticket"


@pytest.mark.parametrize("trouble", ["unknown", "another game", "expired"])
async def test_a_ticket_that_is_not_good_now_is_a_401(client, services, trouble):
    game = await create(client, "sushi-go", 2, seed=12)
    ticket = (await ticket_for(client, game, 0))["ticket"]
    target = game["id"]
    if trouble == "unknown":
        ticket = "no-such-ticket"
    elif trouble == "another game":
        target = (await create(client, "sushi-go", 2))["id"]
    else:
        assert services.engine is not None, "a store whose tickets the test can age"
        async with services.engine.begin() as connection:
            past = datetime.now(UTC) - timedelta(seconds=1)
            row = stream_tickets.c.ticket_hash == ticket_hash(ticket)
            await connection.execute(update(stream_tickets).where(row).values(expires_at=past))
    answer = await refused_stream(client, f"/v1/games/{target}/events/stream?ticket={ticket}")
    assert answer.status_code == 401 and answer.json()["code"] == "invalid-ticket"
    assert answer.headers["content-type"].startswith("application/problem+json")


async def test_a_seat_token_in_the_url_is_no_credential(client):
    game = await create(client, "sushi-go", 2, seed=12)
    token = game["tokens"]["0"]
    async with open_stream(client, game["id"], query=f"?token={token}") as stream:
        events = await stream.until_version(game["version"])
    dealt = next(event for event in events if event["type"] == "HandsDealt")
    assert dealt["data"]["hands"] == [None, None]


async def test_an_invitee_follows_a_private_game_with_a_spectators_ticket(client):
    game = await create(client, "sushi-go", 2, seed=12, visibility="private")
    refused = await refused_stream(client, f"/v1/games/{game['id']}/events/stream")
    assert refused.status_code == 404, "a private game, to a caller holding nothing of it"
    invited = await client.post(f"/v1/games/{game['id']}/invitations", headers=bearer(game["tokens"]["0"]))
    code = invited.json()["code"]
    answer = await client.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer(code))
    assert answer.status_code == 201, answer.text
    async with open_stream(client, game["id"], query=f"?ticket={answer.json()['ticket']}") as stream:
        events = await stream.until_version(game["version"])
    dealt = next(event for event in events if event["type"] == "HandsDealt")
    assert dealt["data"]["hands"] == [None, None], "a spectator's view: no hand"
    nobody = await client.post(f"/v1/games/{game['id']}/stream-tickets")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "missing-token")
