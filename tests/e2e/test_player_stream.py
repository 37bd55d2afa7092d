"""Player tokens and one stream per player across games (issue 29 §1), on SQLite and PostgreSQL.

The services first (tokens, what a player's feed holds and in which order, resuming, who may follow
whom, a token acting at its player's seats), then the routes through the app in-process, and across
two sets of services on one PostgreSQL database (an item appended through one is streamed by the other).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import msgspec
import pytest

from kaiten.api.bootstrap import Services
from kaiten.api.settings import WebhookOptions
from kaiten.services.access import AppCaller, PlayerCaller
from kaiten.services.commands import Act, CreateGame, CreateRematch, GetTable, ListLegalCommands, NewSeat
from kaiten.services.errors import ServiceError
from kaiten.services.players import KeepAlive
from kaiten.services.ports import StoredFeedItem
from tests import plain_http
from tests.app_client import AppClient
from tests.e2e.apps import app_headers, new_app_key
from tests.e2e.play import bearer
from tests.e2e.servers import ServerProcess
from tests.e2e.serving import serving
from tests.e2e.sse import EventStream
from tests.e2e.test_apps_access import Answer, Call, streamed

Client = AppClient
#: Every wait of these tests is bounded by this.
WAIT_SECONDS = 10
MAX_COMMANDS = 200
CREATED = 5


def unique(name: str) -> str:
    """Apps and players are unique per test: the session's PostgreSQL database is shared."""
    return f"{name}-{uuid.uuid4().hex[:10]}"


class Feed:
    """A follower of a player's feed: the items it has read so far."""

    def __init__(self, items: AsyncIterator[list[StoredFeedItem] | KeepAlive]) -> None:
        self.items = items
        self.read: list[StoredFeedItem] = []

    async def until(self, count: int) -> list[StoredFeedItem]:
        async with asyncio.timeout(WAIT_SECONDS):
            while len(self.read) < count:
                batch = await anext(self.items)
                if not isinstance(batch, KeepAlive):
                    self.read.extend(batch)
        return self.read

    def kinds(self) -> list[str]:
        return [item.kind for item in self.read]

    async def close(self) -> None:
        await self.items.aclose()  # type: ignore[attr-defined]


def body(item: StoredFeedItem) -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.json.decode(item.body)
    return decoded


async def new_app(services: Services) -> AppCaller:
    return await services.apps.authenticate(await new_app_key(services, unique("app")))


async def two_player_game(services: Services, app: AppCaller, alice: str, bob: str) -> str:
    seats = (NewSeat(name="Alice", player_id=alice), NewSeat(name="Bob", player_id=bob))
    created = await services.games.create(CreateGame(game="sushi-go", players=2, seed=3, seats=seats, caller=app))
    # The creation's one append: GameCreated, the two seats, the start and the deal.
    assert created.version == CREATED
    return created.id


async def play_out(services: Services, game_id: str, tokens: list[PlayerCaller]) -> int:
    """Each player's token sends its first legal command until the game ends; the turns played."""
    turns = 0
    for _ in range(MAX_COMMANDS):
        table = await services.games.view(GetTable(game_id, tokens[0]))
        if table.table.status != "active":
            return turns
        for token in tokens:
            legal = await services.games.legal_commands(ListLegalCommands(game_id, token))
            if legal.commands:
                command = msgspec.json.encode(legal.commands[0])
                await services.games.act(Act(game_id, token, command))
                turns += 1
    raise AssertionError("the game did not end")


async def test_a_players_feed_holds_their_games_moments_in_order_and_resumes(services: Services) -> None:
    app = await new_app(services)
    alice, bob = unique("alice"), unique("bob")
    game_id = await two_player_game(services, app, alice, bob)
    alice_token = await services.players.issue_token(app, alice, 600)
    bob_token = await services.players.issue_token(app, bob, 600)
    assert alice_token.token.startswith("kaiten_player_") and alice_token.player_id == alice
    as_alice = await services.players.authenticate(alice_token.token)
    as_bob = await services.players.authenticate(bob_token.token)
    assert (as_alice.app_id, as_alice.player_id) == (app.app_id, alice)

    feed = Feed(await services.players.follow(as_alice, alice, 0))
    try:
        await feed.until(3)
        # Seated by the app, the game started at once (both seats taken), and both pick at once.
        assert feed.kinds() == ["invitation", "game-started", "your-turn"]
        assert [item.seq for item in feed.read] == [1, 2, 3]
        first = body(feed.read[0])
        assert first == {"type": "invitation", "game_id": game_id, "game": "sushi-go", "version": CREATED, "seat": 0}
        # The player tokens act at their players' seats: the game plays out with them alone.
        turns = await play_out(services, game_id, [as_alice, as_bob])
        table = await services.games.view(GetTable(game_id, as_alice))
        assert table.table.status == "finished" and table.seat == 0
        assert table.table.result is not None
        # Each round of picks is a turn for each (the last pick ends the game: no turn after it).
        alice_turns = turns // 2
        await feed.until(3 + alice_turns - 1 + 1)
        kinds = feed.kinds()
        assert kinds[-1] == "game-finished" and kinds.count("your-turn") == alice_turns, kinds
        finished = body(feed.read[-1])
        assert finished["status"] == "finished" and finished["winners"] == sorted(table.table.result.winners)
        assert [item.seq for item in feed.read] == list(range(1, len(feed.read) + 1))
    finally:
        await feed.close()
    # Resuming after an item gives the ones after it, the same.
    resumed = Feed(await services.players.follow(as_alice, alice, 2))
    try:
        await resumed.until(len(feed.read) - 2)
        assert resumed.read == feed.read[2:]
    finally:
        await resumed.close()
    # The app's key follows any of its players; Bob's feed is his.
    bobs = Feed(await services.players.follow(app, bob, 0))
    try:
        await bobs.until(len(feed.read))
        assert bobs.kinds() == feed.kinds()
        assert {body(item)["seat"] for item in bobs.read} == {1}
    finally:
        await bobs.close()
    with pytest.raises(ServiceError) as past:
        await services.players.follow(as_alice, alice, len(feed.read) + 1)
    assert past.value.code == "invalid-stream-position"


async def test_a_rematch_is_offered_and_a_live_follower_hears_it(services: Services) -> None:
    app = await new_app(services)
    alice, bob = unique("alice"), unique("bob")
    game_id = await two_player_game(services, app, alice, bob)
    as_alice = await services.players.authenticate((await services.players.issue_token(app, alice, 600)).token)
    as_bob = await services.players.authenticate((await services.players.issue_token(app, bob, 600)).token)
    await play_out(services, game_id, [as_alice, as_bob])
    head = await services.players.feeds.feed_head(as_bob.person_id)
    # A follower waits for the notices of its player's feed (PostgreSQL's NOTIFY, heard while running).
    async with services.notifier.running():
        feed = Feed(await services.players.follow(as_bob, bob, head))
        try:
            waiting = asyncio.create_task(feed.until(3))
            await asyncio.sleep(0.05)
            assert not waiting.done()  # nothing new yet: the follower waits
            rematch, _ = await services.games.rematch(CreateRematch(game_id, as_alice))
            await waiting
            assert feed.kinds() == ["rematch-offered", "game-started", "your-turn"]
            offered = body(feed.read[0])
            assert offered["game_id"] == rematch.id and offered["rematch_of"] == game_id and offered["seat"] == 1
        finally:
            await feed.close()


async def test_who_may_follow_whom_and_what_a_player_token_may_do(services: Services) -> None:
    app, other = await new_app(services), await new_app(services)
    alice, bob, carol = unique("alice"), unique("bob"), unique("carol")
    game_id = await two_player_game(services, app, alice, bob)
    as_alice = await services.players.authenticate((await services.players.issue_token(app, alice, 600)).token)
    # Carol has a token before any game: the app enrolls her; she holds no seat of Alice's game.
    as_carol = await services.players.authenticate((await services.players.issue_token(app, carol, 600)).token)

    async def refused(caller: Any, player_id: str) -> tuple[str, str]:
        with pytest.raises(ServiceError) as error:
            await services.players.follow(caller, player_id, 0)
        return error.value.kind, error.value.code

    not_found = ("not-found", "player-not-found")
    # Another player's token, another app's key, a player the app never saw: all alike.
    assert await refused(as_carol, alice) == not_found
    assert await refused(other, alice) == not_found
    assert await refused(app, unique("nobody")) == not_found
    assert await refused(None, alice) == ("unauthorized", "missing-token")
    # A player token acts at its player's seat only: Carol's holds none here.
    legal = await services.games.legal_commands(ListLegalCommands(game_id, as_alice))
    with pytest.raises(ServiceError) as no_seat:
        await services.games.act(Act(game_id, as_carol, msgspec.json.encode(legal.commands[0])))
    assert no_seat.value.code == "invalid-token"
    # It creates no game and names nobody.
    with pytest.raises(ServiceError) as creating:
        await services.games.create(
            CreateGame(game="sushi-go", players=2, seats=(NewSeat(bot="greedy"),), caller=as_alice)
        )
    assert creating.value.code == "player-token-refused"
    with pytest.raises(ServiceError) as minting:
        await services.players.issue_token(as_alice, carol, 600)
    assert minting.value.code == "player-token-refused"
    # Another app's player token finds no game of this app's (as a missing game).
    as_others_alice = await services.players.authenticate((await services.players.issue_token(other, alice, 600)).token)
    with pytest.raises(ServiceError) as others:
        await services.games.legal_commands(ListLegalCommands(game_id, as_others_alice))
    assert others.value.code == "invalid-token"
    assert as_others_alice.person_id != as_alice.person_id


async def test_a_player_token_expires_and_dies_with_its_player(services: Services) -> None:
    app = await new_app(services)
    alice = unique("alice")
    with pytest.raises(ServiceError) as too_long:
        await services.players.issue_token(app, alice, 10 * 24 * 3600)
    assert too_long.value.code == "invalid-expiry"
    token = (await services.players.issue_token(app, alice, 60)).token
    assert (await services.players.authenticate(token)).player_id == alice
    later = datetime.now(UTC) + timedelta(seconds=61)
    clock = services.players.clock
    services.players.clock = type("Later", (), {"now": staticmethod(lambda: later)})()  # type: ignore[assignment]
    try:
        with pytest.raises(ServiceError) as expired:
            await services.players.authenticate(token)
        assert expired.value.code == "invalid-player-token"
    finally:
        services.players.clock = clock
    for wrong in (token[:-2] + "xx", "kaiten_player_0123456789abcdef_" + "x" * 30, "kaiten_player_nope"):
        with pytest.raises(ServiceError) as unknown:
            await services.players.authenticate(wrong)
        assert unknown.value.code == "invalid-player-token"
    from kaiten.services.commands import ErasePlayer

    await services.games.erase_player(ErasePlayer(alice, app))
    with pytest.raises(ServiceError) as erased:
        await services.players.authenticate(token)
    assert erased.value.code == "invalid-player-token"


# --- the routes, through the app in-process -------------------------------------------------------


async def stream_of(client: Client, path: str, headers: Mapping[str, str], last: int, **query: Any) -> Answer:
    """The player's stream read until item number `last` (then the client goes, as a browser would)."""
    return await streamed(client, Call("streamPlayer", "GET", path, query), headers, last)


def kinds_of(answer: Answer) -> list[str]:
    return [item["type"] for item in answer.body["events"]]


async def test_the_routes_mint_tokens_stream_resume_and_take_tickets(
    closed_client: Client, closed_services: Services
) -> None:
    client = closed_client
    key = await new_app_key(closed_services, unique("app"))
    other_key = await new_app_key(closed_services, unique("other"))
    alice, bob = unique("alice"), unique("bob")
    seats = [{"name": "Alice", "player_id": alice}, {"name": "Bob", "player_id": bob}]
    game = await client.post(
        "/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats}, headers=app_headers(key)
    )
    assert game.status_code == 201, game.text
    game_id = game.json()["id"]

    # A body field named as a dependency is the client's error (`players` was a 500 while the players'
    # use cases were provided under that name: Litestar took the field's error for the dependency's).
    bad = await client.post("/v1/games", json={"game": "sushi-go", "players": {}}, headers=app_headers(key))
    assert (bad.status_code, bad.json()["code"]) == (400, "malformed-request"), bad.text
    tokens = f"/v1/players/{alice}/tokens"
    minted = await client.post(tokens, headers=app_headers(key))
    assert minted.status_code == 201, minted.text
    token = minted.json()["token"]
    assert token.startswith("kaiten_player_") and minted.json()["player_id"] == alice
    expires_at = datetime.fromisoformat(minted.json()["expires_at"])
    assert timedelta(minutes=59) < expires_at - datetime.now(UTC) <= timedelta(hours=1)
    refusals = {
        "no key": await client.post(tokens),
        "too short": await client.post(tokens, json={"expires_in": 5}, headers=app_headers(key)),
        "a player token": await client.post(tokens, headers=bearer(token)),
        "an unknown player token": await client.post(tokens, headers=bearer(token[:-3] + "abc")),
    }
    assert {what: (answer.status_code, answer.json()["code"]) for what, answer in refusals.items()} == {
        "no key": (401, "app-key-required"),
        "too short": (422, "invalid-expiry"),
        "a player token": (403, "player-token-refused"),
        "an unknown player token": (401, "invalid-player-token"),
    }

    stream = f"/v1/players/{alice}/stream"
    whole = await stream_of(client, stream, bearer(token), 3)
    assert whole.status == 200 and kinds_of(whole) == ["invitation", "game-started", "your-turn"], whole
    assert {item["game_id"] for item in whole.body["events"]} == {game_id}
    resumed = await stream_of(client, stream, {**bearer(token), "Last-Event-ID": "1"}, 3)
    assert resumed.body["events"] == whole.body["events"][1:]
    # The app's key follows its player too; another app's key and another player's token find nobody.
    assert (await stream_of(client, stream, app_headers(key), 3)).body == whole.body
    bobs_token = (await client.post(f"/v1/players/{bob}/tokens", headers=app_headers(key))).json()["token"]
    for headers in (app_headers(other_key), bearer(bobs_token)):
        answer = await stream_of(client, stream, headers, 3)
        assert (answer.status, answer.body["code"]) == (404, "player-not-found"), answer
    answer = await stream_of(client, stream, {}, 3)
    assert (answer.status, answer.body["code"]) == (401, "missing-token"), answer
    answer = await stream_of(client, stream, bearer(token), 3, after=4)
    assert (answer.status, answer.body["code"]) == (422, "invalid-stream-position"), answer

    # A ticket (for EventSource) streams once, for its player's path only.
    ticket = (await client.post(f"/v1/players/{alice}/stream-tickets", headers=bearer(token))).json()["ticket"]
    assert (await stream_of(client, stream, {}, 3, ticket=ticket)).body == whole.body
    spent = await stream_of(client, stream, {}, 3, ticket=ticket)
    assert (spent.status, spent.body["code"]) == (401, "invalid-ticket"), spent
    ticket = (await client.post(f"/v1/players/{alice}/stream-tickets", headers=bearer(token))).json()["ticket"]
    elsewhere = await stream_of(client, f"/v1/players/{bob}/stream", {}, 3, ticket=ticket)
    assert (elsewhere.status, elsewhere.body["code"]) == (401, "invalid-ticket"), elsewhere

    # The token acts at Alice's seat, and the stream goes on from where it was.
    legal = await client.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(token))
    assert legal.status_code == 200 and legal.json()["seat"] == 0, legal.text
    sent = await client.post(f"/v1/games/{game_id}/commands", json=legal.json()["commands"][0], headers=bearer(token))
    assert sent.status_code == 200, sent.text
    table = await client.get(f"/v1/games/{game_id}", headers=bearer(token))
    assert table.json()["viewer"] == {"seat": 0}
    # Bob's token cannot act for Alice (it acts for Bob, whose turn it is too).
    again = await client.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(bobs_token))
    assert again.json()["seat"] == 1


@pytest.mark.postgres
async def test_an_item_appended_through_one_process_is_streamed_by_another(postgres_url: str) -> None:
    async with serving(postgres_url) as first, serving(postgres_url) as second:
        app = await new_app(first)
        alice, bob = unique("alice"), unique("bob")
        token = (await first.players.issue_token(app, alice, 600)).token
        async with second.notifier.running():
            as_alice = await second.players.authenticate(token)
            feed = Feed(await second.players.follow(as_alice, alice, 0))
            try:
                waiting = asyncio.create_task(feed.until(3))
                await asyncio.sleep(0.05)
                assert not waiting.done()
                await two_player_game(first, app, alice, bob)
                await waiting
                assert feed.kinds() == ["invitation", "game-started", "your-turn"]
            finally:
                await feed.close()


# --- a player's stream as webhooks ------------------------------------------------------------------


async def test_a_players_webhook_is_queued_each_item_in_the_append_that_makes_it(database_url: str) -> None:
    async with serving(database_url, webhooks=WebhookOptions(allow_private=True)) as services:
        assert services.webhooks is not None and services.delivery_worker is not None
        app, other = await new_app(services), await new_app(services)
        alice, bob = unique("alice"), unique("bob")
        token = await services.players.authenticate((await services.players.issue_token(app, alice, 600)).token)
        url = "http://127.0.0.1:9/hook"
        events = ["invitation", "your-turn", "game-finished"]
        hook = await services.webhooks.register_for_player(app, alice, url, events, "s" * 20)  # type: ignore[arg-type]
        assert (hook.player_id, hook.events) == (alice, events)
        # Only the app's key: not its player's token, not another app (whose alice is nobody yet).
        for caller, code in ((token, "player-token-refused"), (other, "player-not-found")):
            with pytest.raises(ServiceError) as refused:
                await services.webhooks.register_for_player(caller, alice, url, events, "s" * 20)  # type: ignore[arg-type]
            assert refused.value.code == code
        game_id = await two_player_game(services, app, alice, bob)
        deliveries = (await services.webhooks.player_deliveries(app, alice, hook.id, 0, 100)).deliveries
        # The feed's items 1 (invitation) and 3 (your-turn); 2 (game-started) was not asked for.
        assert [(item.version, item.event, item.status) for item in deliveries] == [
            (1, "invitation", "pending"),
            (3, "your-turn", "pending"),
        ]
        feed = await services.players.feeds.feed(token.person_id, 0, 10)
        now = datetime.now(UTC)
        claimed = await services.delivery_worker.webhooks.claim(now, now + timedelta(seconds=30), 10)
        # One at a time per webhook, in order: the body is the stream's item, byte for byte.
        mine = [due for due in claimed if due.webhook_id == hook.id]
        assert [due.body for due in mine] == [feed[0].body]
        assert msgspec.json.decode(mine[0].body)["game_id"] == game_id
        listed = await services.webhooks.of_player(app, alice)
        assert [webhook.id for webhook in listed.webhooks] == [hook.id]
        await services.webhooks.remove_for_player(app, alice, hook.id)
        assert (await services.webhooks.of_player(app, alice)).webhooks == []


# --- two real servers -------------------------------------------------------------------------------


async def items_until(stream: EventStream, count: int) -> list[tuple[int, str]]:
    """(id, type) of the stream's next `count` items (keep-alive comments skipped); each read bounded."""
    items: list[tuple[int, str]] = []
    while len(items) < count:
        message = await stream.next()
        assert message is not None, f"the stream ended after {items}"
        if message.data is not None:
            items.append((int(message.id or 0), msgspec.json.decode(message.data)["type"]))
    return items


@asynccontextmanager
async def player_stream(
    client: httpx.AsyncClient, player_id: str, headers: dict[str, str]
) -> AsyncIterator[EventStream]:
    async with client.stream("GET", f"/v1/players/{player_id}/stream", headers=headers) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield EventStream(response)


async def test_two_servers_stream_what_the_other_appended_and_resume_across_them(
    servers: list[ServerProcess],
) -> None:
    alice, bob = unique("alice"), unique("bob")
    async with (
        plain_http.async_client(base_url=servers[0].url, timeout=30) as one,
        plain_http.async_client(base_url=servers[1].url, timeout=30) as other,
    ):
        # An open server: the built-in app mints tokens and names players without a key.
        tokens = {}
        for player in (alice, bob):
            minted = await one.post(f"/v1/players/{player}/tokens")
            assert minted.status_code == 201, minted.text
            tokens[player] = bearer(minted.json()["token"])
        async with player_stream(other, alice, tokens[alice]) as stream:
            seats = [{"name": "Alice", "player_id": alice}, {"name": "Bob", "player_id": bob}]
            created = await one.post("/v1/games", json={"game": "sushi-go", "players": 2, "seats": seats})
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            assert await items_until(stream, 3) == [(1, "invitation"), (2, "game-started"), (3, "your-turn")]
            # Both pick through the first server with their player tokens: the hands pass, a new turn.
            for player in (alice, bob):
                legal = await one.get(f"/v1/games/{game_id}/legal-commands", headers=tokens[player])
                assert legal.status_code == 200, legal.text
                sent = await one.post(
                    f"/v1/games/{game_id}/commands", json=legal.json()["commands"][0], headers=tokens[player]
                )
                assert sent.status_code == 200, sent.text
            assert await items_until(stream, 1) == [(4, "your-turn")]
        # A browser's reconnection, to the other server, resumes after the last id it saw.
        async with player_stream(one, alice, {**tokens[alice], "Last-Event-ID": "2"}) as resumed:
            assert await items_until(resumed, 2) == [(3, "your-turn"), (4, "your-turn")]
