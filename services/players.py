"""Players across games (issue 29 §1): a short-lived token an app gives its player's browser, and one
feed per player of what concerns them in every game of the app.

**Tokens.** `kaiten_player_<token id>_<secret>`, 256 random bits kept as SHA-256 like every secret, good
for `DEFAULT_TOKEN_SECONDS` (at most `MAX_TOKEN_SECONDS`). A player token is a principal
(`services.access.PlayerCaller`) that follows its player's feed and acts at the seats its player holds
in its app's games, and nothing else: it creates nothing, names nobody, reads no other player.

**The feed.** What a player hears of (`game-started`, `your-turn`, `game-finished`, `invitation`,
`rematch-offered`) is decided by the writer with the events (`feed_items`, from the table before and
after the append, as webhooks' moments are) and written in their transaction, numbered per player
(services.ports.EventStore.append): an outbox, so an item is never lost nor made up whatever process
dies, and a player's numbers follow the order their appends committed, on any number of processes. The
number is the SSE id, so a stream resumes with `Last-Event-ID`.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

import msgspec

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.access import AppCaller, Credential, PlayerCaller, writing_app
from kaiten.services.errors import ServiceError
from kaiten.services.lru import Lru
from kaiten.services.people import Names
from kaiten.services.ports import (
    RESYNC,
    AppendNotice,
    Clock,
    FeedItem,
    IdSource,
    NewEvent,
    People,
    PlayerFeeds,
    PlayerTokenRecord,
    PlayerTokenStore,
    StoredFeedItem,
    StreamNotifier,
    StreamTickets,
    feed_stream_id,
)
from kaiten.services.secrets import hash_secret
from kaiten.services.stream_tickets import VALID_FOR, StreamTicket
from kaiten.services.text_rules import check_player_id

TOKEN_PREFIX = "kaiten_player_"
DEFAULT_TOKEN_SECONDS = 3600
MIN_TOKEN_SECONDS = 60
MAX_TOKEN_SECONDS = 24 * 3600
#: How long a process trusts what it read of a token (as of app keys).
TOKENS_SECONDS = 0.5
KEPT_TOKENS = 10_000
#: Items read from the store at a time.
FEED_PAGE = 200
KEEPALIVE_SECONDS = 15.0
_TOKEN = re.compile(r"^kaiten_player_([0-9a-f]{16})_[A-Za-z0-9_-]{20,100}$")

PlayerItemType = Literal["invitation", "rematch-offered", "game-started", "your-turn", "game-finished"]
_encoder = msgspec.json.Encoder()


class PlayerItem(msgspec.Struct, frozen=True, omit_defaults=True):
    """One item of a player's stream (and the body POSTed to the player's webhooks)."""

    #: `invitation`: a seat was taken for the player in a game (by the app, under their player_id);
    #: `rematch-offered`: a rematch of a game they played was made, with their seat in it;
    #: `game-started`: a game they sit in started; `your-turn`: a game awaits their move;
    #: `game-finished`: a game they sit in is over (`status` says finished or abandoned).
    type: PlayerItemType
    game_id: str
    #: The game of the catalog (`sushi-go`...).
    game: str
    #: The game's version right after the moment.
    version: int
    #: The player's seat in that game.
    seat: int
    #: `game-finished`: `finished` or `abandoned`, and the winning seats (none when abandoned).
    status: str | None = None
    winners: list[int] | None = None
    #: `rematch-offered`: the game this one is the rematch of.
    rematch_of: str | None = None


class PlayerToken(msgspec.Struct, frozen=True):
    """A player token: `token` is shown only now (kaiten keeps its hash)."""

    token: str
    player_id: str
    expires_at: datetime


class PlayerTokenRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: How long the token works, in seconds (default 3600).
    expires_in: int = msgspec.field(default=DEFAULT_TOKEN_SECONDS)


class KeepAlive(msgspec.Struct, frozen=True):
    """Nothing happened for a while."""


def is_player_token(secret: str) -> bool:
    return secret.startswith(TOKEN_PREFIX)


def feed_items(
    game: AnyGame,
    game_id: str,
    before: Table[Any] | None,
    after: Table[Any],
    events: Sequence[NewEvent],
    version: int,
) -> list[FeedItem]:
    """What the people seated at the game hear of an append that took it from `before` (None: a new
    game) to `after` at `version`. Guests (seated without a player_id) have no player token and hear
    nothing; a seat a bot took over from its person hears no turns."""
    items: list[FeedItem] = []
    people = {seat.seat: seat.person for seat in after.seats if seat.person is not None and not seat.guest}
    if not people:
        return items

    def add(kind: PlayerItemType, seat: int, **extra: Any) -> None:
        item = PlayerItem(type=kind, game_id=game_id, game=after.game, version=version, seat=seat, **extra)
        items.append(FeedItem(people[seat], kind, game_id, version, _encoder.encode(item)))

    seated_before = set() if before is None else {(seat.seat, seat.person) for seat in before.seats}
    for seat, person in people.items():
        if (seat, person) not in seated_before:
            if before is None and after.rematch_of is not None:
                add("rematch-offered", seat, rematch_of=after.rematch_of)
            else:
                add("invitation", seat)
    if (before is None or before.status == "open") and after.status != "open":
        for seat in people:
            add("game-started", seat)
    if lobby.is_over(after):
        if before is None or not lobby.is_over(before):
            winners = [] if after.result is None else sorted(after.result.winners)
            for seat in people:
                add("game-finished", seat, status=after.status, winners=winners)
        return items
    moved = {event.metadata["seat"] for event in events if "command_id" in event.metadata or "bot" in event.metadata}
    waiting = set() if before is None else set(lobby.awaiting(game, before)) - moved
    for seat in lobby.awaiting(game, after):
        seated = lobby.seated_at(after, seat)
        if seat in people and seat not in waiting and seated is not None and seated.taken_over_by is None:
            add("your-turn", seat)
    return items


class Players:
    """Player tokens, and following a player's feed."""

    def __init__(
        self,
        tokens: PlayerTokenStore,
        feeds: PlayerFeeds,
        people: People,
        names: Names,
        notifier: StreamNotifier,
        tickets: StreamTickets,
        ids: IdSource,
        clock: Clock,
        open_app: str | None,
        keepalive_seconds: float = KEEPALIVE_SECONDS,
        keep_seconds: float = TOKENS_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tokens = tokens
        self.feeds = feeds
        self.people = people
        self.names = names
        self.notifier = notifier
        self.tickets = tickets
        self.ids = ids
        self.clock = clock
        self.open_app = open_app
        self.keepalive_seconds = keepalive_seconds
        self._keep_seconds = keep_seconds
        self._now = now
        self._kept: Lru[str, tuple[float, PlayerTokenRecord | None]] = Lru(KEPT_TOKENS)

    async def issue_token(self, caller: Credential, player_id: str, expires_in: int) -> PlayerToken:
        """A token for the app's player (enrolled now if the app never seated them: a token may be
        wanted before the first game, to join a queue)."""
        app_id = writing_app(caller, self.open_app)
        player_id = check_player_id(player_id)
        if not MIN_TOKEN_SECONDS <= expires_in <= MAX_TOKEN_SECONDS:
            raise ServiceError(
                "invalid",
                "invalid-expiry",
                f"a player token lasts {MIN_TOKEN_SECONDS} to {MAX_TOKEN_SECONDS} seconds",
            )
        person_id = await self.people.enrol(app_id, self.ids.person_id(), player_id, None)
        token_id = self.ids.key_id()
        token = self.ids.token(f"player_{token_id}")  # kaiten_player_<token id>_<secret>
        now = self.clock.now()
        expires_at = now + timedelta(seconds=expires_in)
        record = PlayerTokenRecord(
            token_id=token_id,
            app_id=app_id,
            person_id=person_id,
            token_hash=hash_secret(token),
            created_at=now,
            expires_at=expires_at,
        )
        await self.tokens.add(record)
        return PlayerToken(token=token, player_id=player_id, expires_at=expires_at)

    async def authenticate(self, token: str) -> PlayerCaller:
        """The player whose token this is, if it works now (not expired, its player not erased); 401
        `invalid-player-token` otherwise."""
        match = _TOKEN.match(token)
        record = None if match is None else await self._record(match.group(1))
        expected = record.token_hash if record is not None else hash_secret("")
        matches = hmac.compare_digest(hash_secret(token), expected)
        person = None
        if record is not None and matches and record.expires_at > self.clock.now():
            person = (await self.names.of([record.person_id])).get(record.person_id)
        if record is None or person is None or person.player_id is None or person.app_id != record.app_id:
            raise ServiceError("unauthorized", "invalid-player-token", "this player token is unknown or expired")
        return PlayerCaller(app_id=record.app_id, person_id=record.person_id, player_id=person.player_id)

    async def _record(self, token_id: str) -> PlayerTokenRecord | None:
        kept = self._kept.get(token_id)
        if kept is not None and self._now() - kept[0] < self._keep_seconds:
            return kept[1]
        record = await self.tokens.get(token_id)
        self._kept.put(token_id, (self._now(), record))
        return record

    async def person_of(self, caller: Credential, player_id: str) -> str:
        """The person whose feed the caller may follow: its own player's (a player token), or any
        player of its app (the app's key; on an open server, no key reads nobody's). Another app's
        player, another player's, and a player never seen answer alike: 404 `player-not-found`."""
        player_id = check_player_id(player_id)
        if isinstance(caller, PlayerCaller):
            if caller.player_id != player_id:
                raise player_not_found(player_id)
            return caller.person_id
        if isinstance(caller, AppCaller):
            person = await self.people.of_player(caller.app_id, player_id)
            if person is None:
                raise player_not_found(player_id)
            return person.person_id
        if caller is None:
            raise ServiceError(
                "unauthorized", "missing-token", "send a player token or the app's key as a Bearer token"
            )
        raise ServiceError("unauthorized", "invalid-token", "a player's stream takes a player token or the app's key")

    async def issue_ticket(self, caller: Credential, player_id: str) -> StreamTicket:
        """A single-use ticket to follow the player's stream (for a browser's EventSource)."""
        person_id = await self.person_of(caller, player_id)
        ticket = self.ids.token("ticket")
        expires_at = self.clock.now() + VALID_FOR
        await self.tickets.keep(hash_secret(ticket), feed_stream_id(person_id), None, expires_at)
        return StreamTicket(ticket=ticket, expires_at=expires_at)

    async def follow(
        self, caller: Credential, player_id: str, after: int, ticket: str | None = None
    ) -> AsyncIterator[list[StoredFeedItem] | KeepAlive]:
        """The player's items after number `after`, then each new one as it commits (on any process).
        Refusals (no such player, a bad ticket, a position past the feed) are raised here, before
        anything is streamed."""
        if ticket is not None:
            person_id = await self._ticket_person(player_id, ticket)
        else:
            person_id = await self.person_of(caller, player_id)
        head = await self.feeds.feed_head(person_id)
        if not 0 <= after <= head:
            raise ServiceError("invalid", "invalid-stream-position", f"resume from an item in 0..{head}, not {after}")
        return self._follow(person_id, after)

    async def _ticket_person(self, player_id: str, ticket: str) -> str:
        """The person the ticket was given for, the ticket spent; the path must name their player."""
        stream = await self.tickets.spend_any(hash_secret(ticket), self.clock.now())
        person_id = stream.removeprefix("player:") if stream is not None and stream.startswith("player:") else None
        person = None if person_id is None else (await self.names.of([person_id])).get(person_id)
        if person is None or person.player_id != player_id:
            raise ServiceError(
                "unauthorized", "invalid-ticket", "this stream ticket is unknown, spent, expired or for another stream"
            )
        return person.person_id

    async def _follow(self, person_id: str, after: int) -> AsyncIterator[list[StoredFeedItem] | KeepAlive]:
        async with self.notifier.subscribe_to(feed_stream_id(person_id)) as notices:
            position = after
            while True:
                while items := await self.feeds.feed(person_id, position, FEED_PAGE):
                    position = items[-1].seq
                    yield items
                notice = await self._next_notice(notices)
                if notice is None:
                    return  # the notifier stopped: the server shuts down, the client resumes elsewhere
                if isinstance(notice, KeepAlive):
                    yield notice

    async def _next_notice(self, notices: AsyncIterator[AppendNotice]) -> AppendNotice | KeepAlive | None:
        try:
            async with asyncio.timeout(self.keepalive_seconds):
                notice = await anext(notices)
        except TimeoutError:
            return KeepAlive()
        except StopAsyncIteration:
            return None
        return notice if notice == RESYNC or isinstance(notice, AppendNotice) else None


def player_not_found(player_id: str) -> ServiceError:
    return ServiceError("not-found", "player-not-found", f"no player {player_id!r}")
