"""The live event stream of one game, as Server-Sent Events."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Controller, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from kaiten.api.auth import credential, presented
from kaiten.api.conditional import version_number
from kaiten.api.contract.presenting import event_views
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.params import GameId, LastEventId
from kaiten.services.errors import ServiceError
from kaiten.services.ports import MAX_VERSION
from kaiten.services.seen import SeenEvents
from kaiten.services.stream_tickets import StreamTicket, Ticketing
from kaiten.services.streaming import KEEPALIVE_SECONDS, EventStreams, KeepAlive

_encoder = msgspec.json.Encoder()

STREAM_DESCRIPTION = f"""\
Server-Sent Events: each event of the log after the resume point, redacted for the caller exactly as
`listEvents` shows it, then each new one as it is committed (through any server process). An event's
SSE `id` is its version and its `data` the same JSON object as an item of `listEvents`; idle streams
get a `: keep-alive` comment every {KEEPALIVE_SECONDS:g} seconds. The stream ends after `GameFinished`; resuming after
that answers 204, which tells an EventSource to stop reconnecting. Resume with `Last-Event-ID`
(which browsers send on reconnection, and which wins over `after`).
"""


def resume_point(last_event_id: str | None, after: int) -> int:
    if last_event_id is None:
        return after
    version = version_number(last_event_id)
    if version is None:
        raise ServiceError("invalid", "invalid-last-event-id", "Last-Event-ID must be an event's version, like 42")
    return version


async def _messages(items: AsyncIterator[SeenEvents | KeepAlive]) -> AsyncIterator[ServerSentEventMessage]:
    async for item in items:
        if isinstance(item, KeepAlive):
            yield ServerSentEventMessage(data=None, comment="keep-alive")
            continue
        for view in event_views(item):
            yield ServerSentEventMessage(id=view.version, data=_encoder.encode(view).decode())


class StreamController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post(
        "/{game_id:str}/stream-tickets",
        operation_id="createStreamTicket",
        summary="A single-use ticket to follow the game's stream as the caller sees it (for EventSource)",
        status_code=201,
    )
    async def create_stream_ticket(
        self, tickets: NamedDependency[Ticketing], game_id: GameId, request: KaitenRequest
    ) -> StreamTicket:
        seat_caller = presented(request)
        return await tickets.issue(game_id, seat_caller)

    @get(
        "/{game_id:str}/events/stream",
        operation_id="streamEvents",
        summary="The log live, as Server-Sent Events redacted for the caller",
        description=STREAM_DESCRIPTION,
        media_type="text/event-stream",
        responses={204: ResponseSpec(None, description="The game is over and its end was already sent")},
    )
    async def stream_events(
        self,
        streams: NamedDependency[EventStreams],
        tickets: NamedDependency[Ticketing],
        game_id: GameId,
        request: KaitenRequest,
        ticket: Annotated[
            str | None,
            QueryParameter(
                description="A stream ticket (createStreamTicket): follow as its holder; spent by this request",
                max_length=100,
            ),
        ] = None,
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="stream the versions after this one")
        ] = 0,
        last_event_id: LastEventId = None,
    ) -> ServerSentEvent | Response[None]:
        caller = credential(request)
        position = resume_point(last_event_id, after)
        holder = None if ticket is None else await tickets.holder_of(game_id, ticket)
        items = await streams.follow(game_id, caller, position, holder)
        if items is None:
            return Response(None, status_code=204)
        return ServerSentEvent(_messages(items))
