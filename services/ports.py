"""The ports the services need; adapters implement them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal, Protocol

import msgspec

from kaiten.domain.engine import AnyGame, Bot

#: The app that owns everything made without an app key: every game of an open (embedded) server, and
#: every record kept before apps existed (migration 0007).
BUILTIN_APP = "00000000-0000-4000-8000-000000000000"

#: The highest version a stream can reach: stores keep versions as 32-bit integers, so a version
#: named by a caller (a page's `after`, an entity tag) beyond it names none.
MAX_VERSION = 2**31 - 1


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
    #: The app that owns the game (services/apps.py).
    app_id: str = BUILTIN_APP
    #: Stored from a log (importLog) rather than played here.
    imported: bool = False


class OutboxMessage(msgspec.Struct, frozen=True):
    """A moment of a game that webhooks may be told of (services/webhooks.py), queued in the
    transaction of the events that led to it."""

    #: `turn` or `finished`: the webhooks of the stream subscribed to it get `body`.
    event: str
    version: int
    #: The JSON POSTed (and signed), the same for every webhook of the game.
    body: bytes


class FeedItem(msgspec.Struct, frozen=True):
    """A moment of a game that concerns one person (services/players.py), added to their feed in the
    transaction of the events that led to it."""

    person_id: str
    #: `game-started`, `your-turn`, `game-finished`, `invitation` or `rematch-offered`.
    kind: str
    game_id: str
    version: int
    #: The item as JSON (its `seq` is left out: the store numbers it), as the stream and webhooks show it.
    body: bytes


class StoredFeedItem(msgspec.Struct, frozen=True):
    """A feed item as stored: numbered 1, 2... per person, in the order the appends committed."""

    seq: int
    kind: str
    game_id: str
    version: int
    body: bytes
    created_at: datetime


#: The notices of a person's feed go by this stream id (`player:<person id>`), with the newest `seq`.
def feed_stream_id(person_id: str) -> str:
    return f"player:{person_id}"


class PlayerFeeds(Protocol):
    """Each person's feed, which the event store's appends write (the SQL and in-memory stores are one)."""

    async def feed(self, person_id: str, after: int, limit: int) -> list[StoredFeedItem]:
        """The person's items numbered after `after`, in order, at most `limit`."""

    async def feed_head(self, person_id: str) -> int:
        """The number of the person's newest item (0: none)."""


class PlayerTokenRecord(msgspec.Struct, frozen=True):
    token_id: str
    app_id: str
    person_id: str
    token_hash: str
    created_at: datetime
    expires_at: datetime


class PlayerTokenStore(Protocol):
    async def add(self, record: PlayerTokenRecord) -> None:
        """Keep a new token (and forget the long expired ones)."""

    async def get(self, token_id: str) -> PlayerTokenRecord | None: ...


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        summary: GameSummary | None = None,
        idempotency_key: str | None = None,
        outbox: Sequence[OutboxMessage] = (),
        feed: Sequence[FeedItem] = (),
    ) -> list[StoredEvent]:
        """Append after `expected_version` (0 for a new stream) atomically with the summary upsert,
        for each outbox message a pending delivery to every webhook of the stream subscribed to it, and
        each feed item added to its person's feed (numbered next, and queued for the person's webhooks).

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


class TicketHolder(msgspec.Struct, frozen=True):
    """Whom a stream ticket was given to: a seat, or (None) a spectator allowed to watch the game."""

    seat: int | None


class StreamTickets(Protocol):
    """Where stream tickets are kept (hashed), so that any serving process can take one."""

    async def keep(self, ticket_hash: str, game_id: str, seat: int | None, expires_at: datetime) -> None:
        """Keep a new ticket, for a seat or (None) a spectator (and forget the long expired ones)."""

    async def spend(self, ticket_hash: str, game_id: str, now: datetime) -> TicketHolder | None:
        """Whom the ticket was given to, the ticket spent at once: None when no unspent ticket of this
        game with this hash is still valid at `now` (never seen, expired, already spent, or another
        game's)."""

    async def spend_any(self, ticket_hash: str, now: datetime) -> str | None:
        """The stream a ticket was given for (a game's id, or `player:<person id>`), the ticket spent at
        once: None when no unspent ticket with this hash is still valid at `now`."""


class Deadlines(Protocol):
    """The games' deadline rows, which appends write with their summaries (`GameSummary.wake_at`)."""

    async def claim(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        """Up to `limit` games whose deadline is due at `now` and that nobody has claimed, earliest
        first, each claimed until `now + lease`: no other process takes it meanwhile, whatever appends
        write its deadline (a person's pick makes it due again while its bot thinks). The claim lasts
        until `release`; if this process dies first, another claims the game once the lease ran out."""

    async def reschedule(self, game_id: str, version: int, wake_at: datetime | None) -> None:
        """Set the game's deadline (None: remove it) unless the game was appended to after `version`."""

    async def release(self, game_id: str, claimed_until: datetime) -> None:
        """End this process's claim (the one that runs to `claimed_until`): its wake is done, or it will
        not act on the game (it is stopping). The game is due again when its deadline, as the appends
        left it, says; a newer claim (once this one ran out) is left alone."""

    async def adopt(self, now: datetime) -> int:
        """Give every game that is not over and has no deadline a deadline due `now` (how many): the
        games last appended to while abandonment was off (or before deadlines existed) have none, and
        their first wake works out the right one."""

    async def owed(self, now: datetime) -> int:
        """How many games are due at `now` and not claimed: the work the schedulers have yet to start
        (a bot's move, mostly)."""


class BotThinker(Protocol):
    """Where bots think (services/bot_moves.py): off the event loop, at most `workers` at once."""

    workers: int

    async def choose(self, game_id: str, table: Any, seat: int, version: int) -> Any:
        """The seat's bot's `BotChoice` as the game stands after `version` events."""

    async def close(self) -> None: ...


class Clock(Protocol):
    def now(self) -> datetime: ...


class IdSource(Protocol):
    def game_id(self) -> str: ...

    def command_id(self) -> str:
        """A fresh id for one command, kept in its events' metadata."""
        ...

    def seed(self) -> int: ...

    def token(self, kind: str = "seat") -> str:
        """A fresh secret that says what it is: `kaiten_<kind>_...` (seat tokens, invitation codes,
        stream tickets), so that secret scanners can tell a leaked one."""
        ...

    def key_id(self) -> str:
        """A fresh id for an app key: the part of the key that finds it."""
        ...

    def person_id(self) -> str:
        """A fresh id for a person (services/people.py): opaque, and nothing of the person's own."""
        ...

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
#: Sent beside an append's own notice when the append queued webhook deliveries: the delivery workers
#: follow this alone, rather than look for due deliveries after every append (most queue none).
DELIVERIES_QUEUED = AppendNotice(stream_id="kaiten:webhook-deliveries", version=0)
#: Sent beside an append's own notice when the append holds an event that a catch-up projection
#: applies (a game created or ended, a seat taken...): the projections follow this alone, and read
#: past the rest of the log (a game's picks, most of it) at their next poll, not after every append.
PROJECTED_EVENTS = AppendNotice(stream_id="kaiten:projected-events", version=0)


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


# --- People: who sits at a seat, kept beside the log so that erasing them rewrites no event ---------


class Person(msgspec.Struct, frozen=True):
    person_id: str
    app_id: str
    #: The app's own id for its user; None for a guest (a person the app named no player_id for).
    player_id: str | None
    #: The name the person last sat down with.
    name: str | None


class People(Protocol):
    async def enrol(self, app_id: str, new_person_id: str, player_id: str | None, name: str | None) -> str:
        """The person id of the app's `player_id` (`new_person_id` when the app had no such player),
        their name now `name` when one is given; without a player_id, a new guest `new_person_id`
        named `name`."""

    async def persons(self, person_ids: Collection[str]) -> dict[str, Person]:
        """The people of these ids that were not erased, by id."""

    async def of_player(self, app_id: str, player_id: str) -> Person | None:
        """The app's player of this id, if it has one (and it was not erased)."""

    async def erase(self, app_id: str, player_id: str) -> Person | None:
        """Forget the app's player of this id (their id and name): the person erased, None if the app
        had no such player."""


# --- Apps: the services that integrate kaiten, their keys and their quotas ----------------------


#: A quota: how many, or None for no limit.
Limit = Annotated[int, msgspec.Meta(ge=0)] | None


class Quotas(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What an app may do, each None for no limit."""

    requests_per_minute: Limit = None
    games_per_hour: Limit = None
    #: Games not over (open or active) at one time.
    open_games: Limit = None
    imports_per_hour: Limit = None
    bot_cpu_seconds_per_minute: Limit = None


class AppRecord(msgspec.Struct, frozen=True):
    app_id: str
    name: str
    created_at: datetime
    quotas: Quotas


class KeyRecord(msgspec.Struct, frozen=True):
    key_id: str
    app_id: str
    #: SHA-256 hex of the whole key: the key itself is shown once and never kept.
    key_hash: str
    created_at: datetime
    #: A rotated key works until then (None: until it is revoked or rotated).
    expires_at: datetime | None = None
    revoked_at: datetime | None = None

    def valid_at(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)


class AppStore(Protocol):
    async def add_app(self, app: AppRecord) -> bool:
        """Keep a new app; False when an app of that name exists."""

    async def app_named(self, name: str) -> AppRecord | None: ...

    async def app(self, app_id: str) -> AppRecord | None: ...

    async def apps(self) -> list[AppRecord]:
        """Every app, oldest first."""

    async def set_quotas(self, app_id: str, quotas: Quotas) -> None: ...

    async def add_key(self, key: KeyRecord, retire_others_at: datetime | None) -> None:
        """Keep a new key of its app; with `retire_others_at`, the app's other keys stop working then
        (or earlier, if they were to stop earlier)."""

    async def key(self, key_id: str) -> KeyRecord | None: ...

    async def keys(self, app_id: str) -> list[KeyRecord]:
        """The app's keys, oldest first."""

    async def revoke_keys(self, app_id: str, at: datetime) -> int:
        """Revoke every key of the app not revoked yet; how many."""


class GameCounts(Protocol):
    """What an app's game quotas are checked against, counted where the games are kept."""

    async def created_since(self, app_id: str, since: datetime, imported: bool) -> tuple[int, datetime | None]:
        """How many of the app's games were created (or, with `imported`, imported) at or after
        `since`, and when the oldest of them was."""

    async def not_over(self, app_id: str) -> int:
        """The app's games that are open or active."""


# --- Read models of the catch-up projections (match history, statistics) ---------------------------

#: Whose records a reader sees: an app's own, private games included (`all`), or what anybody may see
#: of an app (`public`): its public games, and statistics and ratings over those alone.
Scope = Literal["public", "all"]


class Namespace(msgspec.Struct, frozen=True):
    app_id: str
    scope: Scope


class MatchRecord(msgspec.Struct, frozen=True):
    """One game of the match history."""

    game_id: str
    game: str
    status: str
    players: int
    #: The seats taken so far, as the table holds them (people as references: see `People`).
    seats: list[dict[str, Any]]
    #: The finished game's result (scores, winners, ranking), else None.
    result: dict[str, Any] | None
    #: When the game was created (its first event was recorded).
    created_at: datetime
    finished_at: datetime | None
    visibility: str = "public"
    imported: bool = False


class MatchFilter(msgspec.Struct, frozen=True):
    game: str | None = None
    status: str | None = None
    #: The games a person sat in (their person id).
    person_id: str | None = None


class MatchKey(msgspec.Struct, frozen=True):
    """A place in the match history, which runs newest first: by created_at, then game_id, descending."""

    created_at: datetime
    game_id: str


class LeaderboardKey(msgspec.Struct, frozen=True):
    """A place on a leaderboard, which runs by rating descending, then person_id ascending."""

    rating: float
    person_id: str


class PlayerGameRecord(msgspec.Struct, frozen=True):
    """One player's finished games of one game of the catalog, and their rating in it."""

    #: The player's person id (see `People`).
    person_id: str
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


class RatingHistoryRecord(msgspec.Struct, frozen=True):
    """A player's rating in one game of the catalog, moved by one finished game."""

    #: Numbers the player's rated games of that game of the catalog, 1 for the first, in log order.
    seq: int
    game_id: str
    finished_at: datetime
    rating_before: float
    rating_after: float
    mu: float
    sigma: float


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
    """The match history and statistics, as the catch-up projections last left them, by namespace."""

    async def matches(
        self, namespace: Namespace, where: MatchFilter, after: MatchKey | None, limit: int
    ) -> list[MatchRecord]:
        """Games matching every given filter, newest first, from just after `after` (the start if None)."""

    async def player_games(self, namespace: Namespace, person_id: str) -> list[PlayerGameRecord]:
        """The player's record in each game they finished, by game id."""

    async def game_stats(self, namespace: Namespace, game: str) -> GameStatsRecord:
        """The sums over that game's finished games (zeros when there are none)."""

    async def leaderboard(
        self, namespace: Namespace, game: str, after: LeaderboardKey | None, limit: int, season: str | None = None
    ) -> list[PlayerGameRecord]:
        """The rated players of that game, best rating first (person_id breaks ties), from just after
        `after` (the top if None); erased players included (the caller leaves them out). With
        `season`, their ratings in that season of the namespace's app."""

    async def rating_history(
        self, namespace: Namespace, person_id: str, game: str, before: int | None, limit: int
    ) -> list[RatingHistoryRecord]:
        """The player's rating after each game that moved it there, newest first, from just before
        the `before`th (the newest if None)."""


class SeasonRecord(msgspec.Struct, frozen=True):
    """A season an app defined (services/seasons.py)."""

    app_id: str
    season_id: str
    name: str
    starts_at: datetime
    ends_at: datetime
    created_at: datetime


class SeasonStore(Protocol):
    async def add(self, season: SeasonRecord, most: int) -> tuple[SeasonRecord, bool]:
        """Keep the season unless its app already has one of that id, or `most` seasons; the season
        kept under that id and whether it is this one. LookupError when the app has `most` already."""

    async def get(self, app_id: str, season_id: str) -> SeasonRecord | None: ...

    async def of_app(self, app_id: str) -> list[SeasonRecord]:
        """The app's seasons, latest start first."""


# --- Webhooks (services/webhooks.py) --------------------------------------------------------------


class WebhookRecord(msgspec.Struct, frozen=True):
    webhook_id: str
    game_id: str
    #: The seat that registered it; None for the app that owns the game (its key registered it).
    seat: int | None
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

    async def of_seat(self, game_id: str, seat: int | None) -> list[WebhookRecord]:
        """The webhooks this seat (None: the owning app) registered in the game, oldest first."""

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


# --- Matchmaking queues (services/matchmaking.py) ---------------------------------------------------


class AlreadyQueued(Exception):
    """The player already waits in a queue of the app (a player waits in one at a time)."""


class QueueEntryRecord(msgspec.Struct, frozen=True):
    """A player's place in a queue (one app, one game, one set of options)."""

    entry_id: str
    app_id: str
    #: The game and a digest of its options: entries of one queue key are matched together.
    queue_key: str
    game: str
    player_id: str
    name: str
    min_players: int
    max_players: int
    #: The player's rating when they joined (None: not rated yet), their window then, and how much it
    #: widens each minute they wait.
    rating: float | None
    rating_window: float
    widening: float
    #: The bot that fills the player's game once they waited `bots_after_seconds` (None: people only).
    bot: str | None
    bots_after_seconds: float | None
    joined_at: datetime
    #: `waiting`, `matched` or `left`.
    status: str = "waiting"
    #: Once matched: the game, the seat and its token.
    game_id: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    #: The join's idempotency key: the same key answers this entry again.
    idempotency_key: str | None = None


class QueueMatchRecord(msgspec.Struct, frozen=True):
    """A game a queue formed: created under `game_id` once a process took it (`created`)."""

    game_id: str
    app_id: str
    game: str
    #: The queue's options, as canonical JSON.
    options: str
    players: int
    bots: tuple[str, ...]
    created_at: datetime
    created: bool = False


class MatchedSeat(msgspec.Struct, frozen=True):
    entry_id: str
    seat: int
    token: str


class QueuePlan(msgspec.Struct, frozen=True):
    """What one matching of a queue decided: the games (each with its people's seats), and when to
    match the queue again (None: once someone joins)."""

    matches: list[tuple[QueueMatchRecord, list[MatchedSeat]]]
    next_due: datetime | None


class QueueStore(Protocol):
    async def join(self, entry: QueueEntryRecord, options: str) -> QueueEntryRecord:
        """Keep a waiting entry and make its queue due now: the entry kept, or the one the app joined
        before with the same idempotency key (nothing kept then). Raises AlreadyQueued when the player
        already waits in a queue of the app."""

    async def entry(self, app_id: str, entry_id: str) -> QueueEntryRecord | None: ...

    async def shown(self, app_id: str, entry_id: str) -> tuple[QueueEntryRecord, str, bool] | None:
        """The entry, its queue's options (canonical JSON), and whether its game waits to be created."""

    async def leave(self, app_id: str, entry_id: str) -> QueueEntryRecord | None:
        """The entry `left` if it was waiting; as it is otherwise (None: the app has no such entry)."""

    async def due_queues(self, now: datetime, limit: int) -> list[tuple[str, str]]:
        """(app_id, queue_key) of the queues due to be matched."""

    async def match(
        self,
        app_id: str,
        queue_key: str,
        now: datetime,
        lease: timedelta,
        plan: Callable[[Sequence[QueueEntryRecord]], QueuePlan],
    ) -> list[QueueMatchRecord] | None:
        """In one transaction holding the queue's lock: `plan` over its waiting entries (oldest first),
        its games written with their entries matched, claimed for `lease` by this process, which
        creates them next. None when another process holds the queue (it is matching it now)."""

    async def claim_matches(self, now: datetime, lease: timedelta, limit: int) -> list[str]:
        """The games formed and not created whose claim ran out, claimed for `lease`."""

    async def match_of(self, game_id: str) -> tuple[QueueMatchRecord, list[QueueEntryRecord]] | None:
        """A formed game and its entries, by seat."""

    async def forget(self, before: datetime) -> int:
        """Forget the entries over (left, or matched into a game that exists) that joined before
        `before`, and the formed games left without entries; how many entries."""

    async def created(self, game_id: str) -> None:
        """The formed game exists: nobody needs to claim it any more."""
