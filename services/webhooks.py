"""Webhooks: a seat asks to be told, by an HTTP POST, when it is someone's turn or the game is over.

What a webhook hears of is decided with the events (`outbox_messages`) and written in their
transaction (the EventStore's outbox), so a process that dies after an append loses no delivery; the
delivery worker (services/webhook_delivery.py) sends them, each webhook's in version order.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

import msgspec

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.access import Access, PlayerCaller, Presented, player_token_refused, seat_of_required
from kaiten.services.errors import ServiceError
from kaiten.services.loading import check_game_id
from kaiten.services.ports import (
    Clock,
    DeliveryRecord,
    NewEvent,
    OutboxMessage,
    WebhookRecord,
    WebhookSender,
    WebhookStore,
)
from kaiten.services.table_cache import Tables

WebhookEvent = Literal["turn", "finished"]
MAX_DELIVERIES_PAGE = 500


class WebhookPayload(msgspec.Struct, frozen=True):
    """What kaiten POSTs to a webhook (signed: `Kaiten-Signature`, see `signature`)."""

    game_id: str
    #: The game's version right after the moment.
    version: int
    #: `turn`: `seats` are the seats whose turn has just come; `finished`: `seats` are the winners (none
    #: when the game was abandoned).
    event: WebhookEvent
    seats: list[int]


class Webhook(msgspec.Struct, frozen=True):
    id: str
    url: str
    events: list[WebhookEvent]
    #: The seat whose token registered it (null: the app that owns the game, with its key): only that
    #: token (or key) may read its deliveries or remove it.
    seat: int | None
    created_at: datetime


class WebhookList(msgspec.Struct, frozen=True):
    webhooks: list[Webhook]


class Deliveries(msgspec.Struct, frozen=True):
    deliveries: list[DeliveryRecord]


_encoder = msgspec.json.Encoder()


#: How far a delivery's signed time may be from a receiver's clock for the receiver to take it
#: (docs/webhook_receiver.py): each attempt is signed as it is sent, so a genuine one is seconds old,
#: and a request recorded and sent again later is refused once this has passed.
SIGNATURE_TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, delivery_id: str, body: bytes) -> str:
    """The `Kaiten-Signature` header of one attempt: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
    "<t>.<delivery id>.<body>" with the shared secret>`. The time and the delivery id are signed with
    the body, so that a receiver can refuse an old request replayed, and trust the id it deduplicates on."""
    message = f"{timestamp}.{delivery_id}.".encode() + body
    return f"t={timestamp},v1={hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()}"


def body_signature(secret: str, body: bytes) -> str:
    """The `X-Kaiten-Signature` header of API 1.0 (the body alone), kept for the receivers written
    against it; it signs neither a time nor the delivery id, so a receiver should move to `signature`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def outbox_messages(
    game: AnyGame,
    game_id: str,
    before: Table[Any],
    after: Table[Any],
    events: Sequence[NewEvent],
    version: int,
) -> list[OutboxMessage]:
    """What webhooks hear of an append that took the game from `before` to `after` at `version`.

    A turn comes for a seat that is awaited now and was not, or that moved (sent a command) in this
    append and is awaited again (a new round); a seat still awaited from before hears nothing new.
    """
    if lobby.is_over(after):
        if lobby.is_over(before):
            return []
        # An abandoned game ends too, with no winners.
        winners = [] if after.result is None else list(after.result.winners)
        return [_message(game_id, version, "finished", winners)]
    # A person's command, or a bot's move (services/bot_moves.py): its seat moved.
    moved = {event.metadata["seat"] for event in events if "command_id" in event.metadata or "bot" in event.metadata}
    waiting = set(lobby.awaiting(game, before)) - moved
    turns = [seat for seat in lobby.awaiting(game, after) if seat not in waiting]
    return [_message(game_id, version, "turn", turns)] if turns else []


def _message(game_id: str, version: int, event: WebhookEvent, seats: list[int]) -> OutboxMessage:
    payload = WebhookPayload(game_id=game_id, version=version, event=event, seats=sorted(seats))
    return OutboxMessage(event=event, version=version, body=_encoder.encode(payload))


class Webhooks:
    """Registering, listing, listing the deliveries of and removing a seat's webhooks."""

    def __init__(self, tables: Tables, webhooks: WebhookStore, sender: WebhookSender, clock: Clock) -> None:
        #: The games' tables this process keeps (the same as the game use cases'): a seat's webhooks
        #: need its table and token hashes, not its log.
        self.tables = tables
        self.webhooks = webhooks
        self.sender = sender
        self.clock = clock

    async def register(
        self, game_id: str, token: Presented, url: str, events: Sequence[WebhookEvent], secret: str
    ) -> Webhook:
        if isinstance(token, PlayerCaller):
            raise player_token_refused()
        loaded = await self.tables.current(game_id)
        seat = _registrant(loaded.access(token))
        if lobby.is_over(loaded.table):
            raise ServiceError("conflict", "game-finished", "the game is over: there is nothing left to hear of")
        refused = await self.sender.refusal(url)
        if refused is not None:
            raise ServiceError("invalid", "webhook-url-refused", refused)
        record = WebhookRecord(
            webhook_id=str(uuid.uuid4()),
            game_id=loaded.game_id,
            seat=seat,
            url=url,
            events=sorted(set(events)),
            created_at=self.clock.now(),
        )
        await self.webhooks.add(record, secret)
        return _shown(record)

    async def of_seat(self, game_id: str, token: Presented) -> WebhookList:
        """The webhooks the token's seat (or the app's key) registered in the game (another seat's
        are not shown)."""
        loaded = await self.tables.current(game_id)
        seat = _registrant(loaded.access(token))
        return WebhookList(webhooks=[_shown(record) for record in await self.webhooks.of_seat(loaded.game_id, seat)])

    async def deliveries(self, game_id: str, token: Presented, webhook_id: str, after: int, limit: int) -> Deliveries:
        if after < 0 or not 1 <= limit <= MAX_DELIVERIES_PAGE:
            raise ServiceError("invalid", "invalid-page", f"after must be ≥ 0 and limit 1..{MAX_DELIVERIES_PAGE}")
        record = await self._own(game_id, token, webhook_id)
        return Deliveries(deliveries=await self.webhooks.deliveries(record.webhook_id, after, limit))

    async def remove(self, game_id: str, token: Presented, webhook_id: str) -> None:
        record = await self._own(game_id, token, webhook_id)
        await self.webhooks.remove(record.webhook_id)

    async def _own(self, game_id: str, token: Presented, webhook_id: str) -> WebhookRecord:
        """The webhook, when the token's seat (or the app's key) registered it; another seat's is not
        found, as is any webhook of another game."""
        loaded = await self.tables.current(game_id)
        seat = _registrant(loaded.access(token))
        try:
            record = await self.webhooks.get(str(uuid.UUID(webhook_id)))
        except ValueError:
            record = None
        if record is None or record.game_id != check_game_id(game_id) or record.seat != seat:
            raise ServiceError("not-found", "webhook-not-found", f"this seat has no webhook {webhook_id!r} here")
        return record


def _registrant(access: Access) -> int | None:
    """Who registers webhooks: a seat (its number), or the app that owns the game (None)."""
    return None if access.owner else seat_of_required(access)


def _shown(record: WebhookRecord) -> Webhook:
    events: list[WebhookEvent] = [event for event in ("turn", "finished") if event in record.events]
    return Webhook(id=record.webhook_id, url=record.url, events=events, seat=record.seat, created_at=record.created_at)
