"""Players across games (issue 29 §1): player tokens, and one stream per player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from kaiten.api.auth import credential
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.allow import options_allowing
from kaiten.api.routes.history import PlayerId
from kaiten.api.routes.params import LastEventId
from kaiten.api.routes.stream import resume_point
from kaiten.services.players import (
    DEFAULT_TOKEN_SECONDS,
    MAX_TOKEN_SECONDS,
    KeepAlive,
    Players,
    PlayerToken,
    PlayerTokenRequest,
)
from kaiten.services.ports import MAX_VERSION, StoredFeedItem
from kaiten.services.stream_tickets import StreamTicket
from kaiten.services.streaming import KEEPALIVE_SECONDS
from kaiten.services.text_rules import PRINTABLE
from kaiten.services.webhooks import (
    MAX_DELIVERIES_PAGE,
    Deliveries,
    PlayerWebhook,
    PlayerWebhookEvent,
    PlayerWebhookList,
    Webhooks,
)

PlayersDep = NamedDependency[Players]
#: createPlayerToken without a body: every field at its default (a body of JSON null is refused).
NO_BODY = PlayerTokenRequest()
WebhooksDep = NamedDependency[Webhooks]
WebhookId = Annotated[str, PathParameter(description="The webhook's UUID")]


class PlayerWebhookRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: http:// or https://; its host must not resolve to a loopback, link-local or private address.
    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2000, pattern=PRINTABLE)]
    #: The items of the player's stream to be told of.
    events: Annotated[list[PlayerWebhookEvent], msgspec.Meta(min_length=1, max_length=5)]
    #: Signs every delivery (`Kaiten-Signature`); keep it secret.
    secret: Annotated[str, msgspec.Meta(min_length=16, max_length=256, pattern=PRINTABLE)]


PLAYER_WEBHOOK_DESCRIPTION = """\
The player's stream as webhooks: each item of the chosen types is POSTed to the URL as the same JSON
object the stream sends (a `PlayerItem`), signed and retried exactly as a game's webhooks are
(`createWebhook`: `Kaiten-Signature`, `X-Kaiten-Delivery`, at least once, in order, for 24 hours). A
delivery's `version` is the item's number in the player's feed (the stream's SSE id). Only the app's
key registers, lists and removes them (a player token is refused).
"""

TOKEN_DESCRIPTION = f"""\
A short-lived token for one of the app's players, for their browser to hold instead of the app's key:
`kaiten_player_...`, shown once (kaiten keeps its SHA-256), good for `expires_in` seconds ({DEFAULT_TOKEN_SECONDS}
by default, at most {MAX_TOKEN_SECONDS}). Sent as `Authorization: Bearer`, it follows that player's
stream (`streamPlayer`) and acts at every seat the app took under that player_id (commands, legal
commands, resigning, leaving, invitations, rematches, a game's stream as the seat), and nothing else:
it creates no game, seats nobody, reads no other player and registers no webhook (`403
player-token-refused`). A player the app never seated is enrolled now, so a token may come before
their first game. An erased player's tokens stop working.
"""

STREAM_DESCRIPTION = f"""\
Server-Sent Events: everything that concerns the player in the app's games, as it is committed (on any
server process): `invitation` (the app took a seat for them), `rematch-offered`, `game-started`,
`your-turn` and `game-finished`. Each event's SSE `event` is its type, its `id` the item's number in
the player's feed (1, 2, ... in the order they committed) and its `data` a `PlayerItem` as JSON. The
stream starts after item `after` (0: from the first) and never ends; resume with `Last-Event-ID`
(which browsers send on reconnection, and which wins over `after`). Idle streams get a `: keep-alive`
comment every {KEEPALIVE_SECONDS:g} seconds. A browser's EventSource, which sends no `Authorization`,
passes a ticket from `createPlayerStreamTicket` as `?ticket=`.
"""


async def _messages(items: AsyncIterator[list[StoredFeedItem] | KeepAlive]) -> AsyncIterator[ServerSentEventMessage]:
    async for batch in items:
        if isinstance(batch, KeepAlive):
            yield ServerSentEventMessage(data=None, comment="keep-alive")
            continue
        for item in batch:
            yield ServerSentEventMessage(id=item.seq, event=item.kind, data=item.body.decode())


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post(
        "/{player_id:str}/tokens",
        operation_id="createPlayerToken",
        summary="A short-lived token for the app's player's browser: their stream and their seats",
        description=TOKEN_DESCRIPTION,
        status_code=201,
    )
    async def create_player_token(
        self,
        player_service: PlayersDep,
        request: KaitenRequest,
        player_id: PlayerId,
        data: JSONBody[PlayerTokenRequest] = NO_BODY,
    ) -> PlayerToken:
        caller = credential(request)
        return await player_service.issue_token(caller, player_id, data.expires_in)

    @post(
        "/{player_id:str}/stream-tickets",
        operation_id="createPlayerStreamTicket",
        summary="A single-use ticket to follow the player's stream (for EventSource)",
        status_code=201,
    )
    async def create_player_stream_ticket(
        self, player_service: PlayersDep, request: KaitenRequest, player_id: PlayerId
    ) -> StreamTicket:
        caller = credential(request)
        return await player_service.issue_ticket(caller, player_id)

    @get(
        "/{player_id:str}/stream",
        operation_id="streamPlayer",
        summary="Everything that concerns the player across the app's games, as Server-Sent Events",
        description=STREAM_DESCRIPTION,
        media_type="text/event-stream",
    )
    async def stream_player(
        self,
        player_service: PlayersDep,
        request: KaitenRequest,
        player_id: PlayerId,
        ticket: Annotated[
            str | None,
            QueryParameter(
                description="A stream ticket (createPlayerStreamTicket): spent by this request", max_length=100
            ),
        ] = None,
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="stream the items numbered after this one")
        ] = 0,
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent:
        caller = credential(request)
        position = resume_point(last_event_id, after)
        items = await player_service.follow(caller, player_id, position, ticket)
        return ServerSentEvent(_messages(items))

    @post(
        "/{player_id:str}/webhooks",
        operation_id="createPlayerWebhook",
        summary="Be told by an HTTP POST of each item of the player's stream",
        description=PLAYER_WEBHOOK_DESCRIPTION,
        status_code=201,
    )
    async def create_player_webhook(
        self, webhooks: WebhooksDep, request: KaitenRequest, player_id: PlayerId, data: JSONBody[PlayerWebhookRequest]
    ) -> PlayerWebhook:
        caller = credential(request)
        return await webhooks.register_for_player(caller, player_id, data.url, data.events, data.secret)

    allowed_on_player_webhooks = options_allowing("GET", "POST", path="/{player_id:str}/webhooks")

    @get("/{player_id:str}/webhooks", operation_id="listPlayerWebhooks", summary="The webhooks on the player's stream")
    async def list_player_webhooks(
        self, webhooks: WebhooksDep, request: KaitenRequest, player_id: PlayerId
    ) -> PlayerWebhookList:
        caller = credential(request)
        return await webhooks.of_player(caller, player_id)

    @get(
        "/{player_id:str}/webhooks/{webhook_id:str}/deliveries",
        operation_id="listPlayerWebhookDeliveries",
        summary="A player webhook's deliveries, oldest first, with every attempt and its answer",
    )
    async def list_player_webhook_deliveries(
        self,
        webhooks: WebhooksDep,
        request: KaitenRequest,
        player_id: PlayerId,
        webhook_id: WebhookId,
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="deliveries of items after this one")
        ] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_DELIVERIES_PAGE)] = 100,
    ) -> Deliveries:
        caller = credential(request)
        return await webhooks.player_deliveries(caller, player_id, webhook_id, after, limit)

    @delete(
        "/{player_id:str}/webhooks/{webhook_id:str}",
        operation_id="deletePlayerWebhook",
        summary="Remove the player webhook and its deliveries",
    )
    async def delete_player_webhook(
        self, webhooks: WebhooksDep, request: KaitenRequest, player_id: PlayerId, webhook_id: WebhookId
    ) -> None:
        caller = credential(request)
        await webhooks.remove_for_player(caller, player_id, webhook_id)
