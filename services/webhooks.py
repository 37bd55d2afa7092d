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
from typing import Any, Literal, get_args

import msgspec

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.access import (
    Access,
    AppCaller,
    Credential,
    PlayerCaller,
    Presented,
    player_token_refused,
    seat_of_required,
    writing_app,
)
from kaiten.services.errors import ServiceError
from kaiten.services.loading import check_game_id
from kaiten.services.ports import (
    Clock,
    DeliveryRecord,
    NewEvent,
    OutboxMessage,
    People,
    WebhookRecord,
    WebhookSender,
    WebhookStore,
    feed_stream_id,
)
from kaiten.services.table_cache import Tables
from kaiten.services.text_rules import check_player_id

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


#: What a player's webhook may hear of: the items of the player's stream (services/players.py).
PlayerWebhookEvent = Literal["invitation", "rematch-offered", "game-started", "your-turn", "game-finished"]
PLAYER_WEBHOOK_EVENTS: tuple[PlayerWebhookEvent, ...] = get_args(PlayerWebhookEvent)


class PlayerWebhook(msgspec.Struct, frozen=True):
    """A webhook on a player's stream: each item of the chosen types is POSTed to it (a `PlayerItem`)."""

    id: str
    player_id: str
    url: str
    events: list[PlayerWebhookEvent]
    created_at: datetime


class PlayerWebhookList(msgspec.Struct, frozen=True):
    webhooks: list[PlayerWebhook]


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

    def __init__(
        self,
        tables: Tables,
        webhooks: WebhookStore,
        sender: WebhookSender,
        clock: Clock,
        people: People | None = None,
        open_app: str | None = None,
    ) -> None:
        #: The games' tables this process keeps (the same as the game use cases'): a seat's webhooks
        #: need its table and token hashes, not its log.
        self.tables = tables
        self.webhooks = webhooks
        self.sender = sender
        self.clock = clock
        #: The apps' players, whose streams webhooks may follow (None: no player webhooks).
        self.people = people
        self.open_app = open_app

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

    # --- a player's stream (issue 29 §1): the same webhooks and outbox, on the player's stream ---------

    async def register_for_player(
        self, caller: Credential, player_id: str, url: str, events: Sequence[PlayerWebhookEvent], secret: str
    ) -> PlayerWebhook:
        """A webhook on the app's player's stream: the appends that add to the player's feed queue a
        delivery of each item it hears of (adapters/sql_store.py), numbered as the stream's SSE ids."""
        stream = await self._player_stream(caller, player_id)
        refused = await self.sender.refusal(url)
        if refused is not None:
            raise ServiceError("invalid", "webhook-url-refused", refused)
        chosen: list[str] = [event for event in PLAYER_WEBHOOK_EVENTS if event in events]
        record = WebhookRecord(
            webhook_id=str(uuid.uuid4()), game_id=stream, seat=None, url=url, events=chosen, created_at=self.clock.now()
        )
        await self.webhooks.add(record, secret)
        return _player_shown(player_id, record)

    async def of_player(self, caller: Credential, player_id: str) -> PlayerWebhookList:
        stream = await self._player_stream(caller, player_id)
        records = await self.webhooks.of_seat(stream, None)
        return PlayerWebhookList(webhooks=[_player_shown(player_id, record) for record in records])

    async def player_deliveries(
        self, caller: Credential, player_id: str, webhook_id: str, after: int, limit: int
    ) -> Deliveries:
        if after < 0 or not 1 <= limit <= MAX_DELIVERIES_PAGE:
            raise ServiceError("invalid", "invalid-page", f"after must be ≥ 0 and limit 1..{MAX_DELIVERIES_PAGE}")
        record = await self._player_webhook(caller, player_id, webhook_id)
        return Deliveries(deliveries=await self.webhooks.deliveries(record.webhook_id, after, limit))

    async def remove_for_player(self, caller: Credential, player_id: str, webhook_id: str) -> None:
        record = await self._player_webhook(caller, player_id, webhook_id)
        await self.webhooks.remove(record.webhook_id)

    async def _player_stream(self, caller: Credential, player_id: str) -> str:
        """The stream id of the app's player (their person's): only the app's key (or, on an open
        server, nobody's) registers webhooks; another app's player and one never seen are not found."""
        if isinstance(caller, PlayerCaller):
            raise player_token_refused()
        app_id = writing_app(caller, self.open_app)
        if not isinstance(caller, AppCaller) and caller is not None:
            raise ServiceError("unauthorized", "invalid-token", "a player's webhooks take the app's key")
        person = None if self.people is None else await self.people.of_player(app_id, check_player_id(player_id))
        if person is None:
            raise ServiceError("not-found", "player-not-found", f"no player {player_id!r}")
        return feed_stream_id(person.person_id)

    async def _player_webhook(self, caller: Credential, player_id: str, webhook_id: str) -> WebhookRecord:
        stream = await self._player_stream(caller, player_id)
        try:
            record = await self.webhooks.get(str(uuid.UUID(webhook_id)))
        except ValueError:
            record = None
        if record is None or record.game_id != stream:
            raise ServiceError("not-found", "webhook-not-found", f"this player has no webhook {webhook_id!r}")
        return record


def _player_shown(player_id: str, record: WebhookRecord) -> PlayerWebhook:
    events: list[PlayerWebhookEvent] = [event for event in PLAYER_WEBHOOK_EVENTS if event in record.events]
    return PlayerWebhook(
        id=record.webhook_id, player_id=player_id, url=record.url, events=events, created_at=record.created_at
    )


def _registrant(access: Access) -> int | None:
    """Who registers webhooks: a seat (its number), or the app that owns the game (None)."""
    return None if access.owner else seat_of_required(access)


def _shown(record: WebhookRecord) -> Webhook:
    events: list[WebhookEvent] = [event for event in ("turn", "finished") if event in record.events]
    return Webhook(id=record.webhook_id, url=record.url, events=events, seat=record.seat, created_at=record.created_at)
