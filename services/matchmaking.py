"""Matchmaking queues (issue 29 §2): an app's players wait for a game of one game and one set of
options, each with the player counts they accept (and, once rated, a rating window that widens while
they wait), and a game starts when enough compatible players wait; an entry may ask for bots to fill
its game after a wait. Each entry lands in one game at most.

Where it lives: the queues are rows (adapters/queues.py), so any serving process matches any queue, and
a restart loses nothing. Matching a queue (`match_queue`) is one transaction that holds the queue's
lock: it reads the waiting entries, decides with the domain's pure `form_games`, and writes each game
it forms (a `queue_matches` row, under a new game id, with a seat token per person) with its entries
`matched`. The game itself is created right after, through the ordinary use case (services/seats.py,
with the tokens the matching chose), by the process that matched it; the row is claimed with the
deadlines' lease, so if that process dies first another creates the game once the lease ran out, and
creating it twice is impossible (a second creation of the same id is a concurrency conflict). A
status read of a matched entry whose game does not exist yet creates it too.

Quotas: a game a queue forms counts against its app's game quotas like one it creates (open games,
games per hour). Matching forms no more games than the app has room for; the other players wait, and
their queue is matched again on each round until the app has room (a game ended, the hour moved on).

When: a join matches its queue at once; `run_once` (each serving process, every interval, as the
scheduler does) matches the queues that fell due (a bot's wait over, a window widened) and creates
the games whose creation was left over.

Who (`acting_for`): the app's key acts for any of its players (the `player_id` in the body), a player
token for its own player only (another player's entry answers as a missing one); on an open server a
caller without either acts as the built-in app. Another app's entries answer as missing ones.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime, timedelta
from typing import Any

import msgspec

from kaiten.domain import matchmaking
from kaiten.domain.catalog import GAMES, get_game
from kaiten.domain.engine import RuleViolation
from kaiten.domain.lobby import CLOCK_OPTION, parse_clock, parse_options
from kaiten.services.access import AppCaller, Credential, PlayerCaller, player_token_refused
from kaiten.services.commands import CreateGame, NewSeat
from kaiten.services.errors import AppKeyRequired, ServiceError
from kaiten.services.failures import RepeatedFailures
from kaiten.services.ports import (
    AlreadyQueued,
    Clock,
    ConcurrencyConflict,
    IdSource,
    MatchedSeat,
    Namespace,
    People,
    QueueEntryRecord,
    QueueMatchRecord,
    QueuePlan,
    QueueStore,
    ReadModels,
)
from kaiten.services.seats import Seating, Seats
from kaiten.services.text_rules import check_player_id, clean_name

log = logging.getLogger("kaiten.matchmaking")

#: How long the process that formed a game has to create it before another process may.
DEFAULT_LEASE = timedelta(seconds=30)
#: While rated players wait, their queue is matched again this often (their windows widen).
WIDENING_CHECK = timedelta(seconds=5)
#: Queues and left-over games looked at by each round.
BATCH = 20
#: How long an entry is kept once it is over (left, or matched into a game that exists): its player
#: reads their seat's token from it meanwhile. Then it is forgotten, its token with it.
KEPT_FOR = timedelta(days=7)
#: How often a serving process forgets the entries over.
FORGET_EVERY = timedelta(hours=1)
#: The longest wait a player may ask for before bots fill their game.
MAX_BOTS_AFTER_SECONDS = 3600.0
#: The fastest a window may widen, per minute.
MAX_WIDENING = matchmaking.MAX_WINDOW


class JoinQueue(msgspec.Struct, frozen=True):
    game: str
    player_id: str
    min_players: int
    max_players: int
    name: str | None = None
    options: dict[str, Any] | None = None
    rating_window: float = matchmaking.DEFAULT_WINDOW
    rating_window_per_minute: float = matchmaking.DEFAULT_WIDENING
    bot: str | None = None
    bots_after_seconds: float | None = None
    #: A join sent again with the same key answers the entry the first one made.
    idempotency_key: str | None = None
    caller: Credential = None


class GetQueueEntry(msgspec.Struct, frozen=True):
    game: str
    entry_id: str
    caller: Credential = None


class LeaveQueue(msgspec.Struct, frozen=True):
    game: str
    entry_id: str
    caller: Credential = None


class QueueEntry(msgspec.Struct, frozen=True):
    """A player's place in a queue: `waiting`, `matched` (their game, seat and its token) or `left`."""

    id: str
    game: str
    player_id: str
    name: str
    status: str
    min_players: int
    max_players: int
    #: The options every game of this queue is created with.
    options: dict[str, Any]
    joined_at: datetime
    #: The player's rating when they joined (null: not rated yet in this game), and the window of
    #: ratings they accept now (null when unrated): it widens while they wait.
    rating: float | None = None
    rating_window: float | None = None
    #: The bot that fills the game once the player waited `bots_after_seconds` (null: people only).
    bot: str | None = None
    bots_after_seconds: float | None = None
    #: Once matched: the game, the player's seat and the seat's token (`Authorization: Bearer`).
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None


def acting_for(caller: Credential, open_app: str | None) -> tuple[str, str | None]:
    """The app a queue's caller acts for, and the one player it may act for (None: any of the app's):
    an app key acts for its app's players; a player token for its own player alone; on an open server
    a caller without either acts as the built-in app."""
    if isinstance(caller, AppCaller):
        return caller.app_id, None
    if isinstance(caller, PlayerCaller):
        return caller.app_id, caller.player_id
    if open_app is None:
        raise AppKeyRequired()
    return open_app, None


def entry_not_found(entry_id: str) -> ServiceError:
    return ServiceError("not-found", "queue-entry-not-found", f"no queue entry {entry_id[:64]!r}")


def _entry_id(entry_id: str) -> str:
    """An entry's id as given out (a UUID); anything else names no entry (and is never sent to the
    database: PostgreSQL refuses some text, a NUL, outright)."""
    try:
        if str(uuid.UUID(entry_id)) == entry_id:
            return entry_id
    except ValueError:
        pass
    raise entry_not_found(entry_id)


def canonical_options(game_id: str, options: dict[str, Any] | None, low: int, high: int) -> str:
    """The options as every game of the queue records them (checked for each player count of the
    range), as canonical JSON: equal options make one queue whatever order or defaults they were sent
    with."""
    game = get_game(game_id)
    own: Any = None
    for players in range(low, high + 1):
        own = parse_options(game, options, players)
    clock = parse_clock(options)
    recorded = {**msgspec.to_builtins(own), **({} if clock is None else {CLOCK_OPTION: msgspec.to_builtins(clock)})}
    return msgspec.json.encode(_sorted(recorded)).decode()


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


class Matchmaking:
    def __init__(
        self,
        store: QueueStore,
        seats: Seats,
        people: People,
        read_models: ReadModels | None,
        clock: Clock,
        ids: IdSource,
        open_app: str | None,
        lease: timedelta = DEFAULT_LEASE,
        interval_seconds: float = 1.0,
    ) -> None:
        self.store = store
        self.seats = seats
        self.people = people
        self.read_models = read_models
        self.clock = clock
        self.ids = ids
        self.open_app = open_app
        self.lease = lease
        self.interval_seconds = interval_seconds
        self._nudged = asyncio.Event()
        #: When this process last forgot the entries over (None: not yet).
        self._forgotten_at: datetime | None = None

    # --- the routes' use cases ---------------------------------------------------------------------

    async def join(self, command: JoinQueue) -> QueueEntry:
        app_id, only = acting_for(command.caller, self.open_app)
        game = _known(command.game)
        low, high = command.min_players, command.max_players
        if not game.min_players <= low <= high <= game.max_players:
            raise RuleViolation(
                "invalid-player-range",
                f"{game.name} takes {game.min_players}..{game.max_players} players; "
                f"min_players..max_players must lie within and not be reversed",
            )
        options = canonical_options(game.id, command.options, low, high)
        player_id = check_player_id(command.player_id)
        if only is not None and player_id != only:
            raise player_token_refused()
        name = clean_name(command.name if command.name is not None else player_id)
        if not 0 <= command.rating_window <= matchmaking.MAX_WINDOW or not (
            0 <= command.rating_window_per_minute <= MAX_WIDENING
        ):
            raise RuleViolation(
                "invalid-rating-window",
                f"rating_window and rating_window_per_minute take 0..{matchmaking.MAX_WINDOW:g}",
            )
        if (command.bot is None) != (command.bots_after_seconds is None):
            raise RuleViolation("invalid-bots", "bot and bots_after_seconds go together")
        if command.bot is not None and command.bot not in game.bots:
            raise RuleViolation(
                "unknown-bot", f"{game.name} has no bot {command.bot!r}; try one of {sorted(game.bots)}"
            )
        if command.bots_after_seconds is not None and not 0 <= command.bots_after_seconds <= MAX_BOTS_AFTER_SECONDS:
            raise RuleViolation("invalid-bots", f"bots_after_seconds takes 0..{MAX_BOTS_AFTER_SECONDS:g}")
        entry = QueueEntryRecord(
            entry_id=str(uuid.uuid4()),
            app_id=app_id,
            queue_key=f"{game.id}:{hashlib.sha256(options.encode()).hexdigest()[:32]}",
            game=game.id,
            player_id=player_id,
            name=name,
            min_players=low,
            max_players=high,
            rating=await self._rating(app_id, player_id, game.id),
            rating_window=command.rating_window,
            widening=command.rating_window_per_minute,
            bot=command.bot,
            bots_after_seconds=command.bots_after_seconds,
            joined_at=self.clock.now(),
            idempotency_key=command.idempotency_key,
        )
        try:
            kept = await self.store.join(entry, options)
        except AlreadyQueued:
            raise ServiceError(
                "conflict", "already-queued", f"player {player_id!r} already waits in a queue: leave it first"
            ) from None
        if kept.entry_id != entry.entry_id:
            if (kept.game, kept.player_id) != (entry.game, entry.player_id):
                raise ServiceError(
                    "conflict", "idempotency-key-reused", "this Idempotency-Key was sent with another join"
                )
            return await self._shown(app_id, only, kept.entry_id, game.id)
        await self.match_queue(app_id, entry.queue_key)
        return await self._shown(app_id, only, entry.entry_id, game.id)

    async def status(self, command: GetQueueEntry) -> QueueEntry:
        app_id, only = acting_for(command.caller, self.open_app)
        _known(command.game)
        return await self._shown(app_id, only, _entry_id(command.entry_id), command.game)

    async def leave(self, command: LeaveQueue) -> None:
        app_id, only = acting_for(command.caller, self.open_app)
        _known(command.game)
        found = await self.store.entry(app_id, _entry_id(command.entry_id))
        if found is None or found.game != command.game or only not in (None, found.player_id):
            raise entry_not_found(command.entry_id)
        after = await self.store.leave(app_id, command.entry_id)
        if after is not None and after.status == "matched":
            raise ServiceError(
                "conflict", "queue-entry-matched", f"this entry was matched: its game is {after.game_id}"
            )

    async def _shown(self, app_id: str, only: str | None, entry_id: str, game: str) -> QueueEntry:
        found = await self.store.shown(app_id, entry_id)
        if found is None or found[0].game != game or only not in (None, found[0].player_id):
            raise entry_not_found(entry_id)
        entry, options, pending = found
        if pending and entry.game_id is not None:
            # Its game is created now if the process that formed it has not yet (or died first).
            try:
                await self.create_game(entry.game_id)
            except (ServiceError, RuleViolation):
                log.exception("the game %s of queue entry %s could not be created", entry.game_id, entry_id)
        return self._view(entry, msgspec.json.decode(options))

    def _view(self, entry: QueueEntryRecord, options: dict[str, Any]) -> QueueEntry:
        window = None
        if entry.rating is not None:
            waited = (self.clock.now() - entry.joined_at).total_seconds() if entry.status == "waiting" else 0.0
            window = matchmaking.window_after(entry.rating_window, entry.widening, waited)
        return QueueEntry(
            id=entry.entry_id,
            game=entry.game,
            player_id=entry.player_id,
            name=entry.name,
            status=entry.status,
            min_players=entry.min_players,
            max_players=entry.max_players,
            options=options,
            joined_at=entry.joined_at,
            rating=entry.rating,
            rating_window=window,
            bot=entry.bot,
            bots_after_seconds=entry.bots_after_seconds,
            game_id=entry.game_id,
            seat=entry.seat,
            token=entry.seat_token,
        )

    async def _rating(self, app_id: str, player_id: str, game: str) -> float | None:
        """The player's rating in the game (the leaderboard's, mu - 3 sigma), once a game rated them."""
        if self.read_models is None:
            return None
        person = await self.people.of_player(app_id, player_id)
        if person is None:
            return None
        records = await self.read_models.player_games(Namespace(app_id=app_id, scope="all"), person.person_id)
        rated = [record for record in records if record.game == game and record.rated_games > 0]
        return rated[0].rating if rated else None

    # --- matching ----------------------------------------------------------------------------------

    async def match_queue(self, app_id: str, queue_key: str) -> int:
        """Match one queue now and create the games it forms; how many. A queue another process is
        matching is left to it."""
        now = self.clock.now()
        room = None if self.seats.quotas is None else await self.seats.quotas.room(app_id)
        formed = await self.store.match(
            app_id, queue_key, now, self.lease, lambda entries: self._plan(entries, now, room)
        )
        for match in formed or ():
            await self.create_game(match.game_id)
        return len(formed or ())

    def _plan(self, entries: Sequence[QueueEntryRecord], now: datetime, room: int | None) -> QueuePlan:
        """The games to form, at most `room` (None: any number): the app's game quotas count them."""
        if not entries:
            return QueuePlan(matches=[], next_due=None)
        game = get_game(entries[0].game)
        waiting = [_waiting(entry, now) for entry in entries]
        by_id = {entry.entry_id: entry for entry in entries}
        matches = []
        forming = matchmaking.form_games(waiting, game.min_players, game.max_players)
        held = room is not None and len(forming) > room
        for formed in forming[:room] if held else forming:
            game_id = self.ids.game_id()
            match = QueueMatchRecord(
                game_id=game_id,
                app_id=entries[0].app_id,
                game=game.id,
                options="",  # the queue's, as the store keeps them
                players=formed.players,
                bots=formed.bots,
                created_at=now,
            )
            seats = [
                MatchedSeat(entry_id=entry_id, seat=seat, token=self.ids.token())
                for seat, entry_id in enumerate(formed.entries)
            ]
            matches.append((match, seats))
        placed = {seat.entry_id for _, seats in matches for seat in seats}
        left = [by_id[entry.entry_id] for entry in waiting if entry.entry_id not in placed]
        # Games held back by a full quota are formed on a later round, once the app has room again.
        return QueuePlan(matches=matches, next_due=now if held else _next_due(left, now))

    async def create_game(self, game_id: str) -> bool:
        """Create a formed game if it does not exist yet; whether this call created it."""
        found = await self.store.match_of(game_id)
        if found is None or found[0].created:
            return False
        match, entries = found
        seatings: list[Seating] = []
        for entry in entries:
            seating = await self.seats.seating(match.app_id, NewSeat(name=entry.name, player_id=entry.player_id))
            seatings.append(Seating(person=seating.person, token=entry.seat_token))
        seatings += [Seating(bot=bot) for bot in match.bots]
        command = CreateGame(game=match.game, players=match.players, options=msgspec.json.decode(match.options))
        with suppress(ConcurrencyConflict):  # another process created it a moment ago
            await self.seats.create_seated(match.app_id, command, seatings, game_id)
        await self.store.created(game_id)
        return True

    async def run_once(self) -> int:
        """Match the queues that fell due and create the games left over; how many games. Once in a
        while, forget the entries over for longer than KEPT_FOR."""
        now = self.clock.now()
        if self._forgotten_at is None or now - self._forgotten_at >= FORGET_EVERY:
            await self.store.forget(now - KEPT_FOR)
            self._forgotten_at = now
        count = 0
        for app_id, queue_key in await self.store.due_queues(now, BATCH):
            count += await self.match_queue(app_id, queue_key)
        for game_id in await self.store.claim_matches(now, self.lease, BATCH):
            count += await self.create_game(game_id)
        return count

    def nudge(self) -> None:
        self._nudged.set()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        task = asyncio.create_task(self._run())
        try:
            yield
        finally:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        failures = RepeatedFailures(log, "matchmaking's round of due queues")
        while True:
            self._nudged.clear()
            try:
                await self.run_once()
            except Exception as error:
                # The database may be out of reach for a while: the queues wait in it.
                failures.failed(error)
            else:
                failures.succeeded()
            with suppress(TimeoutError):
                async with asyncio.timeout(self.interval_seconds):
                    await self._nudged.wait()


def _known(game_id: str) -> Any:
    if game_id not in GAMES:
        raise ServiceError("not-found", "unknown-game", f"no game {game_id!r}; the catalog has {sorted(GAMES)}")
    return GAMES[game_id]


def _waiting(entry: QueueEntryRecord, now: datetime) -> matchmaking.Waiting:
    waited = (now - entry.joined_at).total_seconds()
    return matchmaking.Waiting(
        entry_id=entry.entry_id,
        player=entry.player_id,
        min_players=entry.min_players,
        max_players=entry.max_players,
        rating=entry.rating,
        window=matchmaking.window_after(entry.rating_window, entry.widening, waited),
        bot=entry.bot,
        bots_due=entry.bots_after_seconds is not None and waited >= entry.bots_after_seconds,
    )


def _next_due(left: Sequence[QueueEntryRecord], now: datetime) -> datetime | None:
    """When the entries left could be matched otherwise without anyone joining: a bot's wait over, or
    (two rated players waiting) a window widened."""
    moments = [
        entry.joined_at + timedelta(seconds=entry.bots_after_seconds)
        for entry in left
        if entry.bots_after_seconds is not None
    ]
    widening = [
        entry
        for entry in left
        if entry.rating is not None and entry.widening > 0 and entry.rating_window < matchmaking.MAX_WINDOW
    ]
    if len(widening) >= 2 or (widening and len(left) >= 2):
        moments.append(now + WIDENING_CHECK)
    return max(min(moments), now) if moments else None
