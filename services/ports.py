"""The ports the services need; adapters implement them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Protocol

import msgspec

from domain.engine import AnyGame, Bot


class ConcurrencyConflict(Exception):
    """Another writer appended to the stream first: the expected version is stale."""

    def __init__(self, stream_id: str, expected_version: int) -> None:
        super().__init__(f"stream {stream_id} moved past version {expected_version}")
        self.stream_id = stream_id
        self.expected_version = expected_version


class DuplicateIdempotencyKey(Exception):
    """A command with this idempotency key was already appended to the stream."""

    def __init__(self, stream_id: str, key: str) -> None:
        super().__init__(f"idempotency key {key!r} already used on stream {stream_id}")
        self.stream_id = stream_id
        self.key = key


class NewEvent(msgspec.Struct, frozen=True):
    type: str
    #: The event struct encoded as JSON (bytes), tag included.
    data: bytes
    metadata: dict[str, Any] = {}
    #: The shape of `data` (services/upcasting.py reads older shapes).
    schema_version: int = 1


class StoredEvent(msgspec.Struct, frozen=True):
    global_position: int
    stream_id: str
    version: int
    type: str
    data: bytes
    metadata: dict[str, Any]
    recorded_at: datetime
    schema_version: int = 1


class GameSummary(msgspec.Struct, frozen=True):
    """The inline read model of one game's table, written in the same transaction as its events."""

    game_id: str
    game: str
    status: str
    version: int
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    awaiting: list[int]
    #: The finished game's result (scores, winners, ranking), else None.
    result: dict[str, Any] | None
    #: SHA-256 hex of each human seat's token, by seat number as a string.
    token_hashes: dict[str, str]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    #: When the scheduler must next look at the game (a turn's deadline, or when it is abandoned for
    #: want of a move): kept as the game's deadline row, in the same transaction. None: never.
    wake_at: datetime | None = None


class OutboxMessage(msgspec.Struct, frozen=True):
    """A moment of a game that webhooks may be told of (services/webhooks.py), queued in the
    transaction of the events that led to it."""

    #: `turn` or `finished`: the webhooks of the stream subscribed to it get `body`.
    event: str
    version: int
    #: The JSON POSTed (and signed), the same for every webhook of the game.
    body: bytes


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
    ) -> list[StoredEvent]:
        """Append after `expected_version` (0 for a new stream) atomically with the summary upsert
        and, for each outbox message, a pending delivery to every webhook of the stream subscribed to it.

        Raises ConcurrencyConflict when the stream is not at `expected_version`, and
        DuplicateIdempotencyKey when the key was already used on this stream (the caller then reads
        the first answer with `read_idempotent`); a used key wins over a stale version, so a late
        retry still finds its first answer. Nothing is written when either is raised.
        Raises ValueError, before writing, for no events, a negative version, or a summary of
        another stream or of a version other than `expected_version + len(events)`.
        """

    async def read(self, stream_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of one stream with version > after, ascending."""

    async def read_idempotent(self, stream_id: str, idempotency_key: str) -> list[StoredEvent]:
        """The events appended with this idempotency key on this stream (empty if none)."""

    async def summary(self, stream_id: str) -> GameSummary | None:
        """The inline read model of one game."""


class StreamTickets(Protocol):
    """Where stream tickets are kept (hashed), so that any serving process can take one."""

    async def keep(self, ticket_hash: str, game_id: str, seat: int, expires_at: datetime) -> None:
        """Keep a new ticket (and forget the long expired ones)."""

    async def spend(self, ticket_hash: str, game_id: str, now: datetime) -> int | None:
        """The seat of the ticket, spent at once: None when no unspent ticket of this game with this
        hash is still valid at `now` (never seen, expired, already spent, or another game's)."""


class Deadlines(Protocol):
    """The games' deadline rows, which appends write with their summaries (`GameSummary.wake_at`)."""

    async def claim(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        """Up to `limit` games whose deadline is due at `now`, earliest first, each claimed by pushing
        its deadline back to `now + lease`, so that no other process takes it meanwhile (the append
        that acts on it writes the next one; if this process dies first, another claims it then)."""

    async def reschedule(self, game_id: str, version: int, wake_at: datetime | None) -> None:
        """Set the game's deadline (None: remove it) unless the game was appended to after `version`."""

    async def adopt(self, now: datetime) -> int:
        """Give every game that is not over and has no deadline a deadline due `now` (how many): the
        games last appended to while abandonment was off (or before deadlines existed) have none, and
        their first wake works out the right one."""


class Clock(Protocol):
    def now(self) -> datetime: ...


class IdSource(Protocol):
    def game_id(self) -> str: ...

    def command_id(self) -> str:
        """A fresh id for one command, kept in its events' metadata."""
        ...

    def seed(self) -> int: ...

    def token(self) -> str: ...

    def salt(self) -> bytes:
        """Fresh random bytes that keep a game's seed commitment from being reversed."""
        ...


class AppendNotice(msgspec.Struct, frozen=True):
    """Something was appended to a stream, up to `version` (a hint to go and read, never the data)."""

    stream_id: str
    version: int


#: Sent in place of notices a subscriber may have missed (it fell behind, or the listener lost its
#: database connection for a while): any stream may have grown, so read whatever you follow again.
RESYNC = AppendNotice(stream_id="*", version=0)


class Notifier(Protocol):
    """Tells listeners, in this process and (on PostgreSQL) in every other, that streams grew."""

    def subscribe(self) -> AbstractAsyncContextManager[AsyncIterator[AppendNotice]]:
        """Notices of appends committed after the subscription started, until the context exits.

        The iterator yields RESYNC in place of notices that may have been lost, and ends when the
        notifier stops (the serving process shuts down).
        """


class StreamNotifier(Notifier, Protocol):
    """A Notifier that can also filter by stream, so a follower of one game is not woken by all others."""

    def subscribe_to(self, stream_id: str) -> AbstractAsyncContextManager[AsyncIterator[AppendNotice]]:
        """Like `subscribe`, for the notices of one stream only (and RESYNC)."""


class RunningNotifier(StreamNotifier, Protocol):
    """The notifier of a serving process, which it runs (listens, delivers) while it serves."""

    def running(self) -> AbstractAsyncContextManager[None]:
        """Deliver notices until the context exits; then the subscriptions end."""


# --- Read models of the catch-up projections (match history, statistics) ---------------------------


class MatchRecord(msgspec.Struct, frozen=True):
    """One game of the match history."""

    game_id: str
    game: str
    status: str
    players: int
    #: The seats taken so far, as in the table view.
    seats: list[dict[str, Any]]
    #: The finished game's result (scores, winners, ranking), else None.
    result: dict[str, Any] | None
    #: When the game was created (its first event was recorded).
    created_at: datetime
    finished_at: datetime | None


class MatchFilter(msgspec.Struct, frozen=True):
    game: str | None = None
    status: str | None = None
    player_id: str | None = None


class MatchKey(msgspec.Struct, frozen=True):
    """A place in the match history, which runs newest first: by created_at, then game_id, descending."""

    created_at: datetime
    game_id: str


class PlayerGameRecord(msgspec.Struct, frozen=True):
    """One player's finished games of one game of the catalog, and their rating in it."""

    player_id: str
    game: str
    played: int
    wins: int
    score_sum: int
    best_score: int
    #: The games that changed the rating: those with at least one other rated player.
    rated_games: int
    mu: float
    sigma: float
    #: The conservative rating mu - 3 sigma, by which leaderboards rank.
    rating: float
    #: The finished games the player left before the end (resigned).
    resigned: int = 0


class SeatRecord(msgspec.Struct, frozen=True):
    players: int
    seat: int
    games: int
    wins: int


class GameStatsRecord(msgspec.Struct, frozen=True):
    """Sums over the finished games of one game of the catalog."""

    game: str
    games: int
    #: Seats of finished games, all counted: people, anonymous seats and bots.
    player_games: int
    score_sum: int
    winning_score_sum: int
    picks: int
    #: Seats whose people resigned before the end.
    resigned_seats: int
    seats: list[SeatRecord]
    #: Seats that finished with each total.
    score_counts: dict[int, int]
    category_points: dict[str, int]
    card_picks: dict[str, int]


class ReadModels(Protocol):
    """The match history and statistics, as the catch-up projections last left them."""

    async def matches(self, where: MatchFilter, after: MatchKey | None, limit: int) -> list[MatchRecord]:
        """Games matching every given filter, newest first, from just after `after` (the start if None)."""

    async def player_games(self, player_id: str) -> list[PlayerGameRecord]:
        """The player's record in each game they finished, by game id."""

    async def game_stats(self, game: str) -> GameStatsRecord:
        """The sums over that game's finished games (zeros when there are none)."""

    async def leaderboard(self, game: str, limit: int) -> list[PlayerGameRecord]:
        """The rated players of that game, best rating first (player_id breaks ties)."""


# --- Webhooks (services/webhooks.py) --------------------------------------------------------------


class WebhookRecord(msgspec.Struct, frozen=True):
    webhook_id: str
    game_id: str
    #: The seat that registered it.
    seat: int
    url: str
    events: list[str]
    created_at: datetime


class DeliveryAttempt(msgspec.Struct, frozen=True):
    attempt: int
    attempted_at: datetime
    #: None when no answer came (refused, timed out, unreachable, not allowed).
    status_code: int | None
    latency_ms: int
    error: str | None
    #: The start of the receiver's answer.
    answer: str | None


class DeliveryRecord(msgspec.Struct, frozen=True):
    delivery_id: int
    version: int
    event: str
    status: str
    attempts: list[DeliveryAttempt]
    created_at: datetime
    next_attempt_at: datetime | None
    finished_at: datetime | None


class DueDelivery(msgspec.Struct, frozen=True):
    """A delivery a worker claimed: the oldest pending one of its webhook, due now."""

    delivery_id: int
    webhook_id: str
    url: str
    secret: str
    body: bytes
    #: Attempts made before this one.
    attempts: int
    created_at: datetime


class WebhookStore(Protocol):
    async def add(self, webhook: WebhookRecord, secret: str) -> None: ...

    async def get(self, webhook_id: str) -> WebhookRecord | None: ...

    async def of_seat(self, game_id: str, seat: int) -> list[WebhookRecord]:
        """The webhooks this seat registered in the game, oldest first."""

    async def remove(self, webhook_id: str) -> None:
        """Forget the webhook, its subscriptions, its deliveries and their attempts."""

    async def deliveries(self, webhook_id: str, after: int, limit: int) -> list[DeliveryRecord]:
        """The webhook's deliveries of versions after `after`, oldest first, with their attempts."""

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[DueDelivery]:
        """Up to `limit` deliveries due at `now`, each the oldest pending one of its webhook and
        claimed by no live worker, now claimed until `until`: no other worker takes them before."""

    async def record(
        self, delivery_id: int, attempt: DeliveryAttempt, status: str, next_attempt_at: datetime | None
    ) -> None:
        """Keep an attempt; the delivery becomes `status` (`pending` again: due at `next_attempt_at`)."""

    async def purge(self, finished_before: datetime, limit: int) -> int:
        """Forget up to `limit` deliveries (and their attempts) delivered or given up before then;
        how many were forgotten."""


class SendResult(msgspec.Struct, frozen=True):
    status_code: int | None
    latency_ms: int
    error: str | None
    answer: str | None


class WebhookSender(Protocol):
    async def refusal(self, url: str) -> str | None:
        """Why kaiten will not send to this URL (its scheme, or a host that resolves to a private
        network), else None."""

    async def send(self, url: str, body: bytes, headers: dict[str, str]) -> SendResult:
        """POST the body; never raises for what the receiver or the network did."""

    async def close(self) -> None:
        """Let go of the connections kept open."""


class BotRegistry(Protocol):
    """Bots beyond a game's own (`Game.bots`): other libraries' searches, wired in by the API."""

    def bot(self, game: AnyGame, name: str) -> Bot | None:
        """The named bot, built for one decision of this game as a game's bots are; None when this
        registry has no such bot for the game."""

    def names(self) -> Sequence[str]:
        """The bot names it knows, as a person would type them (for error messages)."""
