"""Two `kaiten serve` processes on one PostgreSQL database: a command sent through one reaches a
stream of the other (LISTEN/NOTIFY), and a server stops while one of its streams is open.
"""

from __future__ import annotations

import signal

import pytest

from tests import plain_http
from tests.e2e.play import bearer, create
from tests.e2e.servers import ServerProcess
from tests.e2e.sse import WAIT_SECONDS, open_stream, refused_stream

pytestmark = pytest.mark.postgres


async def test_a_command_through_one_server_reaches_a_stream_of_the_other(servers: list[ServerProcess]) -> None:
    one, two = servers
    async with (
        plain_http.async_client(base_url=one.url, timeout=WAIT_SECONDS) as through_one,
        plain_http.async_client(base_url=two.url, timeout=WAIT_SECONDS) as through_two,
    ):
        game = await create(through_one, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=1)
        alice = bearer(game["tokens"]["0"])
        async with open_stream(through_two, game["id"], alice) as stream:
            # Caught up means subscribed: what follows can only come through NOTIFY from the other server.
            await stream.until_version(game["version"])
            legal = (await through_one.get(f"/v1/games/{game['id']}/legal-commands", headers=alice)).json()
            sent = await through_one.post(f"/v1/games/{game['id']}/commands", json=legal["commands"][0], headers=alice)
            assert sent.status_code == 200, sent.text
            version = sent.json()["version"]
            live = await stream.until_version(version)
            # The command's versions (the bot's next pick follows in the background, past them).
            after, limit = game["version"], version - game["version"]
            page = await through_two.get(f"/v1/games/{game['id']}/events?after={after}&limit={limit}", headers=alice)
            assert live == page.json()["events"]
            # A stream left open does not keep its server from stopping: the exit signal ends it cleanly,
            # rather than uvicorn cancelling it with an error once the graceful period is over.
            assert two.stop() in (0, -signal.SIGTERM)
            assert "Exception in ASGI application" not in two.log.read_text()


async def test_a_ticket_from_one_server_opens_a_stream_on_the_other_once(servers: list[ServerProcess]) -> None:
    one, two = servers
    async with (
        plain_http.async_client(base_url=one.url, timeout=WAIT_SECONDS) as through_one,
        plain_http.async_client(base_url=two.url, timeout=WAIT_SECONDS) as through_two,
    ):
        game = await create(through_one, "sushi-go", 2, seats=[{"name": "Alice"}, {"bot": "greedy"}], seed=1)
        issued = await through_one.post(f"/v1/games/{game['id']}/stream-tickets", headers=bearer(game["tokens"]["0"]))
        ticket = issued.json()["ticket"]
        async with open_stream(through_two, game["id"], query=f"?ticket={ticket}") as stream:
            events = await stream.until_version(game["version"])
        dealt = next(event for event in events if event["type"] == "HandsDealt")
        assert dealt["data"]["hands"][0] is not None
        spent = await refused_stream(through_one, f"/v1/games/{game['id']}/events/stream?ticket={ticket}")
        assert spent.status_code == 401 and spent.json()["code"] == "invalid-ticket"
