"""Webhooks: a seat registers a URL that kaiten POSTs to when it is someone's turn or the game ends."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter

from kaiten.api.auth import presented
from kaiten.api.request_body import KaitenRequest
from kaiten.api.routes.allow import options_allowing
from kaiten.api.routes.params import GameId
from kaiten.api.schemas import WebhookRequest
from kaiten.services.ports import MAX_VERSION
from kaiten.services.webhooks import MAX_DELIVERIES_PAGE, Deliveries, Webhook, WebhookList, Webhooks

WEBHOOK_DESCRIPTION = """\
kaiten POSTs `{"game_id", "version", "event", "seats"}` to the URL when one of the chosen moments
comes: `turn` (`seats`: the seats whose turn has just come) or `finished` (`seats`: the winners;
none for an abandoned game).
Each request carries `Kaiten-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256, with the secret, of
"<t>.<X-Kaiten-Delivery>.<body>">` (signed as it is sent: refuse a `t` more than 300 s from your clock),
`X-Kaiten-Delivery` (the same id on every attempt of one delivery: deduplicate on it), `X-Kaiten-Attempt`,
and API 1.0's `X-Kaiten-Signature: sha256=<hex HMAC-SHA256 of the body>`, which signs no time: move off it.
Deliveries come at least once, in version order, each until a 2xx answer (5 s timeout), retried
with exponential backoff and jitter for 24 hours. The URL is http(s) and its host must resolve to
public internet addresses only, checked again on every connection (unless the server sets
KAITEN_WEBHOOK_ALLOW_PRIVATE=1).
"""

WebhookId = Annotated[str, PathParameter(description="The webhook's UUID")]
WebhooksDep = NamedDependency[Webhooks]


class WebhooksController(Controller):
    path = "/v1/games/{game_id:str}/webhooks"
    tags = ["webhooks"]

    @post(
        "/",
        operation_id="createWebhook",
        summary="Be told by an HTTP POST when it is someone's turn or the game is over",
        description=WEBHOOK_DESCRIPTION,
        status_code=201,
    )
    async def create_webhook(
        self, webhooks: WebhooksDep, game_id: GameId, request: KaitenRequest, data: JSONBody[WebhookRequest]
    ) -> Webhook:
        seat_caller = presented(request)
        return await webhooks.register(game_id, seat_caller, data.url, data.events, data.secret)

    allowed_on_webhooks = options_allowing("GET", "POST")

    @get("/", operation_id="listWebhooks", summary="The webhooks the caller's seat registered in this game")
    async def list_webhooks(self, webhooks: WebhooksDep, game_id: GameId, request: KaitenRequest) -> WebhookList:
        seat_caller = presented(request)
        return await webhooks.of_seat(game_id, seat_caller)

    @get(
        "/{webhook_id:str}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="The webhook's deliveries, oldest first, with every attempt and its answer",
        description=(
            "A delivery that was delivered or given up is listed for `KAITEN_WEBHOOK_KEEP` (30 days by "
            "default) after that, then forgotten."
        ),
    )
    async def list_deliveries(
        self,
        webhooks: WebhooksDep,
        game_id: GameId,
        webhook_id: WebhookId,
        request: KaitenRequest,
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="deliveries of versions after this one")
        ] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_DELIVERIES_PAGE)] = 100,
    ) -> Deliveries:
        seat_caller = presented(request)
        return await webhooks.deliveries(game_id, seat_caller, webhook_id, after, limit)

    @delete("/{webhook_id:str}", operation_id="deleteWebhook", summary="Remove the webhook and its deliveries")
    async def delete_webhook(
        self, webhooks: WebhooksDep, game_id: GameId, webhook_id: WebhookId, request: KaitenRequest
    ) -> None:
        seat_caller = presented(request)
        await webhooks.remove(game_id, seat_caller, webhook_id)
