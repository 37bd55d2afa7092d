"""The game use cases: create, seat, act, resign, wake, and the reads of one game.

Every write decides on the table this process holds (services/table_cache.py) and appends at its
version. When another writer (a request here, or another process) moved the game on, the append
conflicts; the use case then reads the events it missed and decides again (bounded), unless the client
pinned the version with If-Match, in which case the conflict is its answer. A refusal decided on a
table that may be behind is checked the same way: the missed events are read, and the command is
refused only if the game is where the table said. Writes, and the reads they make, use the primary.

Reads use the cached table: a game that is over as it is, a running game with the events after it read
from the primary. A game not cached, and the windows of events pages and replays, may come from a read
replica when its copy is fresh enough for the caller (services/replica_reads.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

import msgspec

from domain import lobby
from domain.catalog import get_game
from domain.engine import AnyGame, RuleViolation
from domain.lobby import Decision, Table
from services.access import AppCaller, Credential, holds_invitation, required_seat, writes_as_owner, writing_app
from services.bot_moves import BotLoad, ThreadThinker, owed_seats
from services.clocks import Clocks, deadlines, fold_clocked, wake_at
from services.codec import GameCodec, codec_for
from services.commands import Act, CreateGame, NewSeat, Resign, TakeSeat
from services.errors import ServiceError
from services.people import Names
from services.ports import (
    BUILTIN_APP,
    BotThinker,
    Clock,
    ConcurrencyConflict,
    DuplicateIdempotencyKey,
    EventStore,
    IdSource,
    NewEvent,
    People,
    Person,
    StoredEvent,
)
from services.presenting import event_views, summary_of, table_view
from services.quotas import QuotaCheck
from services.replica_reads import ReplicaReads
from services.secrets import hash_secret
from services.table_cache import (
    DEFAULT_CACHED_TABLES,
    CachedTable,
    Tables,
    created_table,
    is_activity,
    token_hashes_of,
)
from services.text_rules import check_player_id, clean_name
from services.views import (
    CommandOutcome,
    CreatedGame,
    EventPage,
    Invitation,
    LegalCommands,
    SeatGranted,
    SeatToken,
    TableView,
    views_of,
)
from services.webhooks import outbox_messages

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Planned(Generic[T]):
    """What one attempt at a write decided: the events to append and how to answer once stored."""

    events: list[NewEvent]
    table: Table[Any]
    answer: Callable[[Sequence[StoredEvent]], T]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who takes a seat, resolved: a person (their id) or a bot."""

    person: str | None = None
    guest: bool = False
    bot: str | None = None
    #: A guest is kept among the people only once their seat is decided (a refused seat leaves no one).
    guest_name: str | None = None


@dataclass(frozen=True, slots=True)
class Woken:
    """What looking at a game's deadline did: fired something (appended), or found nothing due at
    `version` and when to look again."""

    fired: bool
    version: int
    wake_at: datetime | None


MAX_ATTEMPTS = 8
#: A game's salt: what keeps its seed, and so its deal, secret until the end.
SALT_BYTES = 16
MAX_EVENTS_PAGE = 1000


#: The people a command's answer shows: none, for no command or resignation seats anybody (only
#: SeatTaken shows a person).
COMMANDS_SEAT_NOBODY: Mapping[str, Person] = {}

#: The metadata of a bot's move (with its seat): nobody's doing, so it does not put off abandonment
#: (services/table_cache.py `is_activity`).
BOT_MOVE: Mapping[str, Any] = {"bot": True}


class Games:
    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        ids: IdSource,
        abandon_after: timedelta | None = None,
        *,
        people: People,
        open_app: str | None = BUILTIN_APP,
        quotas: QuotaCheck | None = None,
        replica: EventStore | None = None,
        cached_tables: int = DEFAULT_CACHED_TABLES,
        bots: BotThinker | None = None,
        bot_load: BotLoad | None = None,
    ) -> None:
        self.store = store
        #: Where bots think, and what their thinking costs (services/bot_moves.py).
        self.bots: BotThinker = bots or ThreadThinker()
        self.bot_load = bot_load or BotLoad(self.bots.workers, clock.now)
        #: Told of each game that an append leaves owing a bot's move (the scheduler, to make it soon).
        self.on_bots_owed: Callable[[str], None] | None = None
        #: Who sits at the tables (names and player ids, kept beside the log), and the process's copy.
        self.people = people
        self.names = Names(people)
        #: The app a caller without an app key writes as: the built-in app on an open server (the
        #: embedded default); None where every write needs an app key (services/access.py).
        self.open_app = open_app
        #: The apps' quotas on games created and imported (None: none are checked).
        self.quotas = quotas
        #: Reads of one game, from `replica` (a copy of the store that may lag) when they allow it.
        self.reads = ReplicaReads(store, replica)
        #: The tables this process keeps, at most `cached_tables` games.
        self.tables = Tables(store, cached_tables, self.reads)
        self.clock = clock
        self.ids = ids
        #: A game nobody moved in for this long is abandoned (None: never).
        self.abandon_after = abandon_after

    # --- writes -------------------------------------------------------------------------------

    async def create(self, command: CreateGame) -> CreatedGame:
        """A new game, owned by the caller's app (services/access.py)."""
        app_id = writing_app(command.caller, self.open_app)
        if self.quotas is not None:
            await self.quotas.before_create(app_id)
        if any(request.bot is not None for request in command.seats):
            await self.bot_load.before_bot_game(app_id)
        seatings = [await self.seating(app_id, request) for request in command.seats]
        return await self._create(app_id, command, seatings)

    async def _create(
        self,
        app_id: str,
        command: CreateGame,
        seatings: Sequence[Seating],
        game_id: str | None = None,
        rematch_of: str | None = None,
    ) -> CreatedGame:
        """A new game of the app with these seats taken; `game_id` and `rematch_of` name a rematch."""
        game = get_game(command.game)
        players = command.players
        if len(seatings) > players:
            raise RuleViolation("too-many-seats", f"{len(seatings)} seats for a game of {players} players")
        if command.visibility not in ("public", "private"):
            raise RuleViolation("invalid-visibility", "a game's visibility is public or private")
        if command.salt is not None and (command.seed is None or len(command.salt) != SALT_BYTES):
            raise RuleViolation("invalid-salt", f"a chosen deal names its seed and a salt of {SALT_BYTES} bytes")
        codec = codec_for(game.id)
        game_id = game_id or self.ids.game_id()
        seed = self.ids.seed() if command.seed is None else command.seed
        salt = self.ids.salt() if command.salt is None else command.salt
        visibility: lobby.Visibility = "private" if command.visibility == "private" else "public"
        chosen = command.salt is not None
        events = lobby.create_game(game, players, command.options, seed, salt, visibility, rematch_of, chosen)
        table = lobby.replay(game, events)
        new_events = [self._new_event(codec, events[0], {"seat": None, "app": app_id})]
        tokens: dict[str, str] = {}
        for seating in seatings:
            seated, table, token = self._seat(codec, table, seating, version=len(new_events))
            new_events.extend(seated)
            if token is not None:
                tokens[str(len(table.seats) - 1)] = token
        await self.keep_guests(app_id, seatings)
        now = self.clock.now()
        clocks = self._clocks_after(codec, None, None, new_events, table, now)
        wake = wake_at(game, table, clocks, now, self.abandon_after)
        hashes = token_hashes_of(new_events)
        summary = summary_of(game_id, game, table, len(new_events), hashes, now, now, wake_at=wake, app_id=app_id)
        stored = await self.store.append(game_id, 0, new_events, summary)
        clocks = self._clocks_recorded(codec, None, None, new_events, table, stored, now, clocks)
        self.tables.remember(created_table(game_id, table, stored, clocks))
        self._owing(game_id, table)
        view = table_view(
            game,
            game_id,
            table,
            None,
            len(stored),
            created_at=stored[0].recorded_at,
            updated_at=stored[-1].recorded_at,
            public=lobby.is_over(table),
            people=await self.names.of_seats(table.seats),
        )
        view = _with_deadlines(view, game, table, clocks)
        return _with_tokens(game.id, view, tokens)

    async def take_seat(self, command: TakeSeat) -> SeatGranted:
        """A free seat, for a person or a bot: the owning app names a player_id or a bot (on an open
        server anybody does, in the built-in app's public games); an invitation seats a guest."""
        caller, request = command.caller, command.seat

        async def attempt(loaded: CachedTable) -> Planned[SeatGranted]:
            if isinstance(caller, AppCaller):
                loaded.access(caller)  # another app's key finds no game of this app
            invited = holds_invitation(loaded.table, command.invitation)
            if not writes_as_owner(loaded.app_id, loaded.table, caller, self.open_app, invited):
                if not invited:
                    loaded.access(caller)  # who may not see the game learns nothing of it
                    if command.invitation is not None:
                        raise ServiceError(
                            "forbidden", "invalid-invitation", "this invitation is unknown or was revoked"
                        )
                    if loaded.table.visibility == "private":
                        raise ServiceError(
                            "forbidden", "invitation-required", "a private game's seats need an invitation"
                        )
                    raise ServiceError(
                        "unauthorized", "app-key-required", "seats are taken with an app key or an invitation"
                    )
                if request.player_id is not None or request.bot is not None:
                    raise ServiceError(
                        "unauthorized", "app-key-required", "only the game's app names a player_id or seats a bot"
                    )
            if request.bot is not None:
                await self.bot_load.before_bot_game(loaded.app_id)
            seating = await self.seating(loaded.app_id, request, guest_id=guest_id)
            seated, table, token = self._seat(loaded.codec, loaded.table, seating, loaded.version)
            await self.keep_guests(loaded.app_id, [seating])
            granted = SeatGranted(seat=len(loaded.table.seats), token=token)
            return Planned(seated, table, lambda _stored: granted)

        # The same guest id on every attempt: a guest kept by a first attempt is the one who sits.
        guest_id = self.ids.command_id()
        return await self._write(command.game_id, attempt)

    async def act(self, command: Act) -> CommandOutcome:
        token, body, if_match, idempotency_key = command.token, command.body, command.if_match, command.idempotency_key
        if token is None:
            raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")
        request_hash = fingerprint(body)

        async def attempt(loaded: CachedTable) -> Planned[CommandOutcome]:
            seat = required_seat(loaded.access(token), token)
            retried = await self._retried(loaded, idempotency_key, seat, request_hash)
            if retried is not None:
                return retried
            if if_match is not None and if_match != loaded.version:
                raise _version_conflict(loaded.version)
            if loaded.table.seats[seat].resigned:
                raise ServiceError("conflict", "seat-resigned", f"seat {seat} resigned; a bot plays it now")
            command = loaded.codec.decode_command(body)
            chance = lobby.rules_chance(loaded.table, loaded.version)
            decision = lobby.act(loaded.game, loaded.table, seat, command, chance)
            metadata = {"seat": seat, "command_id": self.ids.command_id(), "request_hash": request_hash}
            return self._outcome(loaded, seat, decision, metadata)

        return await self._write(command.game_id, attempt, idempotency_key=idempotency_key, pinned=if_match is not None)

    async def invite(self, game_id: str, token: Credential) -> Invitation:
        """An invitation to the game, issued by the token's seat; the code is shown once, kept hashed."""
        code, invitation_id = self.ids.token("inv"), str(uuid.uuid4())

        def attempt(loaded: CachedTable) -> Planned[Invitation]:
            seat = required_seat(loaded.access(token), token)
            issued = lobby.issue_invitation(loaded.table, seat, invitation_id, hash_secret(code))
            url = f"/play#/games/{loaded.game_id}/join?invitation={code}"
            invitation = Invitation(id=invitation_id, code=code, url=url)
            return self._lobby_event(loaded, issued, seat, lambda _stored: invitation)

        return await self._write(game_id, attempt)

    async def revoke(self, game_id: str, token: Credential, invitation_id: str) -> None:
        def attempt(loaded: CachedTable) -> Planned[None]:
            seat = required_seat(loaded.access(token), token)
            revoked = lobby.revoke_invitation(loaded.table, seat, invitation_id)
            return self._lobby_event(loaded, revoked, seat, lambda _stored: None)

        await self._write(game_id, attempt)

    def _lobby_event(
        self, loaded: CachedTable, event: Any, seat: int, answer: Callable[[Sequence[StoredEvent]], T]
    ) -> Planned[T]:
        table = lobby.evolve_table(loaded.game, loaded.table, event)
        return Planned([self._new_event(loaded.codec, event, {"seat": seat})], table, answer)

    async def rematch(self, game_id: str, token: Credential) -> tuple[CreatedGame, bool]:
        """The rematch of a finished or abandoned game (and whether this request created it), with a new
        token for the token's seat: the same game, options, visibility and seats (bots included), of
        the same app."""
        old = await self.tables.current(game_id)
        seat = required_seat(old.access(token), token)
        if not lobby.is_over(old.table):
            raise ServiceError("conflict", "game-not-finished", "a rematch follows a finished or abandoned game")
        rematch_id = rematch_id_of(old.game_id)
        if await self.store.summary(rematch_id) is None:
            if self.quotas is not None:
                await self.quotas.before_create(old.app_id)
            if any(seat.bot is not None for seat in old.table.seats):
                await self.bot_load.before_bot_game(old.app_id)
            command = CreateGame(
                game=old.table.game,
                players=old.table.players,
                options=lobby.recorded_options(old.table),
                visibility=old.table.visibility,
            )
            seatings = [await self._seated_again(old.app_id, seat) for seat in old.table.seats]
            try:
                created = await self._create(old.app_id, command, seatings, game_id=rematch_id, rematch_of=old.game_id)
            except ConcurrencyConflict:
                pass  # someone else's request created it a moment ago: claim the seat in it
            else:
                # The other people's tokens are dropped unseen: each claims a new one by asking.
                return await self._as_seat(old.table.game, rematch_id, seat, created.tokens[str(seat)]), True
        new_token = self.ids.token()

        def attempt(loaded: CachedTable) -> Planned[None]:
            claimed = lobby.claim_seat(loaded.table, seat)
            metadata = {"seat": seat, "token_hash": hash_secret(new_token)}
            table = lobby.evolve_table(loaded.game, loaded.table, claimed)
            return Planned([self._new_event(loaded.codec, claimed, metadata)], table, lambda _stored: None)

        await self._write(rematch_id, attempt)
        return await self._as_seat(old.table.game, rematch_id, seat, new_token), False

    async def _seated_again(self, app_id: str, seat: lobby.Seat) -> Seating:
        """Who sits at a seat of a finished game sits at the same seat of its rematch."""
        if seat.bot is not None:
            return Seating(bot=seat.bot)
        if seat.person is not None:
            return Seating(person=seat.person, guest=seat.guest)
        # A log from before people were references names them: they are enrolled now.
        return await self.seating(app_id, NewSeat(name=seat.name, player_id=seat.player_id))

    async def erase_player(self, caller: Credential, player_id: str) -> None:
        """The app's player forgotten (an erasure request): their id and name leave every answer and
        read model, and their games stay, replaying as before (the log holds only their reference)."""
        app_id = writing_app(caller, self.open_app)
        erased = await self.people.erase(app_id, check_player_id(player_id))
        if erased is None:
            raise ServiceError("not-found", "player-not-found", f"no player {player_id!r}")
        self.names.forget(erased.person_id)

    async def _as_seat(self, game: str, game_id: str, seat: int, token: str) -> CreatedGame:
        return _with_tokens(game, await self.view(game_id, token), {str(seat): token})

    async def resign(self, command: Resign) -> CommandOutcome:
        """The token's person leaves: the seat resigns and a bot plays it to the end (or the game is
        abandoned when nobody is left)."""
        token = command.token
        if token is None:
            raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")

        idempotency_key = command.idempotency_key

        async def attempt(loaded: CachedTable) -> Planned[CommandOutcome]:
            seat = required_seat(loaded.access(token), token)
            retried = await self._retried(loaded, idempotency_key, seat, RESIGN_FINGERPRINT)
            if retried is not None:
                return retried
            decision = lobby.resign(loaded.game, loaded.table, seat)
            metadata = {"seat": seat, "command_id": self.ids.command_id(), "request_hash": RESIGN_FINGERPRINT}
            return self._outcome(loaded, seat, decision, metadata)

        return await self._write(command.game_id, attempt, idempotency_key=idempotency_key)

    async def wake(self, game_id: str) -> Woken:
        """Fire what is due in the game at the clock's time: the turns whose time ran out (each
        `TurnTimedOut` and the move made for it), abandonment after too long without a move, and the
        moves of the bot seats the game awaits (services/bot_moves.py). The append's version guard
        makes each fire once, however many processes look at the game."""
        now = self.clock.now()

        async def attempt(loaded: CachedTable) -> Planned[Woken]:
            # A timeout is appended at once; the bots it leaves owed move in an append of their own.
            events, table = self._due(loaded, now) or ([], loaded.table)
            paused = None if events else await self.bot_load.exhausted_until(loaded.app_id)
            if not events and paused is None:
                events, table = await self._bot_moves(loaded, table, loaded.version)
            if events:
                return Planned(events, table, lambda stored: Woken(True, stored[-1].version, None))
            wake = paused or wake_at(loaded.game, loaded.table, loaded.clocks, loaded.active_at, self.abandon_after)
            woken = Woken(fired=False, version=loaded.version, wake_at=wake)
            return Planned([], loaded.table, lambda _stored: woken)

        # Nothing due is answered for the game as it stands: the scheduler sets its next wake by it.
        return await self._write(game_id, attempt, current=True)

    def _due(self, loaded: CachedTable, now: datetime) -> tuple[list[NewEvent], Table[Any]] | None:
        """The events of what is due at `now` and the table after them; None when nothing is."""
        table, codec = loaded.table, loaded.codec
        if lobby.is_over(table):
            return None
        # A game that owes a bot's move waits for kaiten, not for people: it is not abandoned.
        owes_bots = lobby.next_bot_seat(loaded.game, table) is not None
        if self.abandon_after is not None and now - loaded.active_at >= self.abandon_after and not owes_bots:
            abandoned = lobby.abandon(loaded.game, table)
            return self._new_events(codec, abandoned.events, {"inactive": True}), abandoned.table
        events: list[NewEvent] = []
        for seat, due in sorted(deadlines(loaded.game, table, loaded.clocks).items()):
            if due > now or seat not in lobby.awaiting(loaded.game, table):
                continue
            at = loaded.version + len(events)
            decision = lobby.time_out(
                loaded.game,
                table,
                seat,
                rfc3339(now),
                lobby.rules_chance(table, at),
                lobby.seat_chance(table, at, seat),
            )
            events.extend(self._new_events(codec, decision.events, {"seat": seat, "timed_out": True}))
            table = decision.table
        return (events, table) if events else None

    def _outcome(
        self, loaded: CachedTable, seat: int, decision: Decision[Any], metadata: dict[str, Any]
    ) -> Planned[CommandOutcome]:
        """A seat's decision and the answer: its events as the seat sees them (the bots it leaves owed a
        move make it in appends of their own, services/bot_moves.py)."""
        new_events = self._new_events(loaded.codec, decision.events, metadata)

        def answer(stored: Sequence[StoredEvent]) -> CommandOutcome:
            views = event_views(loaded.game, decision.table, seat, stored, decision.events, COMMANDS_SEAT_NOBODY)
            outcome: CommandOutcome = views_of(loaded.game.id).outcome(version=stored[-1].version, events=views)
            return outcome

        return Planned(new_events, decision.table, answer)

    # --- reads --------------------------------------------------------------------------------

    async def view(self, game_id: str, token: Credential, seen: int | None = None) -> TableView:
        """`seen`: the newest version of this game the caller has seen, if it says (a replica may answer)."""
        loaded = await self._read(game_id, token, seen)
        access = loaded.access(token)
        view = await self._table_view(loaded, loaded.table, access.seat, loaded.version)
        view = _with_deadlines(view, loaded.game, loaded.table, loaded.clocks)
        # The rematch's summary row, written with its first events, says it exists: one row, read from
        # the replica when there is one (a finished game is read there; a rematch shows once it is).
        summaries = self.reads.replica or self.store
        if lobby.is_over(loaded.table) and await summaries.summary(rematch_id_of(loaded.game_id)):
            view = msgspec.structs.replace(view, rematch=rematch_id_of(loaded.game_id))
        return view

    async def legal_commands(self, game_id: str, token: Credential, seen: int | None = None) -> LegalCommands:
        if token is None:
            raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")
        loaded = await self._read(game_id, token, seen)
        seat = required_seat(loaded.access(token), token)
        commands: Sequence[Any] = ()
        if seat in lobby.awaiting(loaded.game, loaded.table):
            commands = loaded.game.legal_commands(loaded.table.state, seat)
        legal: LegalCommands = views_of(loaded.game.id).legal(
            version=loaded.version, seat=seat, commands=list(commands)
        )
        return legal

    async def events(
        self, game_id: str, token: Credential, after: int, limit: int, seen: int | None = None
    ) -> EventPage:
        if after < 0 or not 1 <= limit <= MAX_EVENTS_PAGE:
            raise ServiceError("invalid", "invalid-page", f"after must be ≥ 0 and limit 1..{MAX_EVENTS_PAGE}")
        # Asking for the events after a version says the caller has seen it.
        loaded, log = await self.tables.readable_log(game_id, max(after, seen or 0), token)
        seat = loaded.access(token).seat
        # Only the page is read (or cut from the log just read to load the game); it is shown as the
        # table now stands (what the seat may see now).
        count = max(0, min(limit, loaded.version - after))
        if log is not None:
            stored: Sequence[StoredEvent] = log[after : after + count]
        else:
            stored = await self.reads.window(loaded.game_id, after, count) if count else []
        events = [loaded.codec.decode_stored(item) for item in stored]
        people = await self.names.of_seats(loaded.table.seats)
        views = event_views(loaded.game, loaded.table, seat, stored, events, people)
        page: EventPage = views_of(loaded.game.id).events(events=views, last_version=loaded.version)
        return page

    async def replay(self, game_id: str, token: Credential, at: int, as_seat: int | None = None) -> TableView:
        """The table right after version `at`, as the token's seat saw it; once the game is over, as
        any seat (`as_seat`) saw it."""
        loaded = await self._read(game_id, token, at)
        seat = loaded.access(token).seat
        if not 1 <= at <= loaded.version:
            raise ServiceError("not-found", "version-out-of-range", f"this game's log has versions 1..{loaded.version}")
        if as_seat is not None and as_seat != seat:
            if not lobby.is_over(loaded.table):
                raise ServiceError("forbidden", "seat-not-yours", "another seat's view is shown once the game is over")
            if not 0 <= as_seat < loaded.table.players:
                raise ServiceError("invalid", "invalid-seat", f"seats are 0..{loaded.table.players - 1}")
            seat = as_seat
        past = await self.tables.replay(loaded, at)
        if seat is not None and seat >= len(past.table.seats):
            seat = None
        return await self._table_view(loaded, past.table, seat, at, updated_at=past.recorded_at)

    # --- helpers ------------------------------------------------------------------------------

    async def _read(self, game_id: str, token: Credential, seen: int | None) -> CachedTable:
        return await self.tables.readable(game_id, seen, token)

    async def _write(
        self,
        game_id: str,
        attempt: Callable[[CachedTable], Planned[T] | Awaitable[Planned[T]]],
        idempotency_key: str | None = None,
        pinned: bool = False,
        current: bool = False,
    ) -> T:
        """`current`: decide on the game as it stands, not on a cached table that may be behind."""
        loaded, fresh = await self.tables.known(game_id)
        if current and not fresh:
            loaded, fresh = await self.tables.refreshed(loaded), True
        for _ in range(MAX_ATTEMPTS):
            try:
                planned = attempt(loaded)
                if not isinstance(planned, Planned):
                    planned = await planned
            except (RuleViolation, ServiceError):
                # Decided on a table that may be behind: refuse only if the game is where it said.
                if fresh:
                    raise
                behind, loaded, fresh = loaded, await self.tables.refreshed(loaded), True
                if loaded.version == behind.version:
                    raise
                continue
            if not planned.events:
                return planned.answer([])
            version = loaded.version + len(planned.events)
            hashes = {**loaded.token_hashes, **token_hashes_of(planned.events)}
            now = self.clock.now()
            clocks = self._clocks_after(loaded.codec, loaded.table, loaded.clocks, planned.events, planned.table, now)
            active = now if any(is_activity(event.metadata) for event in planned.events) else loaded.active_at
            summary = summary_of(
                loaded.game_id,
                loaded.game,
                planned.table,
                version,
                hashes,
                loaded.created_at,
                now,
                wake_at=wake_at(loaded.game, planned.table, clocks, active, self.abandon_after),
                app_id=loaded.app_id,
                imported=loaded.imported,
            )
            outbox = outbox_messages(loaded.game, loaded.game_id, loaded.table, planned.table, planned.events, version)
            try:
                stored = await self.store.append(
                    loaded.game_id, loaded.version, planned.events, summary, idempotency_key, outbox
                )
            except ConcurrencyConflict:
                if pinned:
                    raise _version_conflict(None) from None
                loaded, fresh = await self.tables.refreshed(loaded), True
                continue
            except DuplicateIdempotencyKey:
                loaded, fresh = await self.tables.refreshed(loaded), True
                continue
            clocks = self._clocks_recorded(
                loaded.codec, loaded.table, loaded.clocks, planned.events, planned.table, stored, now, clocks
            )
            metadata = [event.metadata for event in planned.events]
            self.tables.remember(loaded.appended(planned.table, clocks, stored, metadata))
            self._owing(loaded.game_id, planned.table)
            return planned.answer(stored)
        raise ServiceError("unavailable", "too-much-contention", "the game changed too often; try again")

    async def seating(self, app_id: str, request: NewSeat, guest_id: str | None = None) -> Seating:
        """Who takes the seat: a bot, the app's player of that id (enrolled now, with the name given),
        or a guest (`guest_id`, or a new id; kept once the seat is decided: `keep_guests`)."""
        if request.bot is not None:
            return Seating(bot=request.bot)
        if not request.name:
            raise RuleViolation("invalid-seat", "a human seat needs a name")
        name = clean_name(request.name)
        if request.player_id is None:
            return Seating(person=guest_id or self.ids.person_id(), guest=True, guest_name=name)
        player_id = check_player_id(request.player_id)
        person_id = await self.people.enrol(app_id, self.ids.person_id(), player_id, name)
        self.names.learn(Person(person_id=person_id, app_id=app_id, player_id=player_id, name=name))
        return Seating(person=person_id)

    async def keep_guests(self, app_id: str, seatings: Sequence[Seating]) -> None:
        """The guests of seats just decided, among the people (before the events that name them)."""
        for seating in seatings:
            if seating.guest_name is not None and seating.person is not None:
                await self.people.enrol(app_id, seating.person, None, seating.guest_name)
                self.names.learn(
                    Person(person_id=seating.person, app_id=app_id, player_id=None, name=seating.guest_name)
                )

    def _seat(
        self, codec: GameCodec, table: Table[Any], seating: Seating, version: int
    ) -> tuple[list[NewEvent], Table[Any], str | None]:
        """A seat taken: its events (SeatTaken carries the token's hash), the table after, the token."""
        token = None if seating.bot is not None else self.ids.token()
        decision = lobby.take_seat(
            codec.game,
            table,
            lobby.rules_chance(table, version),
            person=seating.person,
            guest=seating.guest,
            bot=seating.bot,
        )
        metadata: dict[str, Any] = {"seat": len(table.seats)}
        taken, *started = decision.events
        hashed = metadata if token is None else {**metadata, "token_hash": hash_secret(token)}
        return (
            [self._new_event(codec, taken, hashed), *self._new_events(codec, started, metadata)],
            decision.table,
            token,
        )

    async def _bot_moves(
        self, loaded: CachedTable, table: Table[Any], version: int
    ) -> tuple[list[NewEvent], Table[Any]]:
        """The moves of the bot seats the game awaits now, each bot thinking in a worker (all at once
        in the simultaneous-pick games), and the table after them; `version`: the log's length."""
        seats = owed_seats(table)
        choices = await asyncio.gather(*(self.bots.choose(table.game, table, seat, version) for seat in seats))
        events: list[NewEvent] = []
        for seat, choice in zip(seats, choices, strict=True):
            self.bot_load.spend(loaded.app_id, choice.cpu_seconds)
            if seat not in lobby.awaiting(loaded.game, table):
                continue  # the game moved on without it (it cannot in the games of the catalog)
            chance = lobby.rules_chance(table, version + len(events))
            decision = lobby.act(loaded.game, table, seat, choice.command, chance)
            events.extend(self._new_events(loaded.codec, decision.events, {**BOT_MOVE, "seat": seat}))
            table = decision.table
        return events, table

    def _owing(self, game_id: str, table: Table[Any]) -> None:
        """Tell whom it may concern that the game owes a bot's move (the append set it due at once)."""
        if self.on_bots_owed is not None and owed_seats(table):
            self.on_bots_owed(game_id)

    @staticmethod
    def _clocks_after(
        codec: GameCodec,
        table: Table[Any] | None,
        clocks: Clocks | None,
        new_events: Sequence[NewEvent],
        after: Table[Any],
        now: datetime,
    ) -> Clocks | None:
        """The clocks once these events, which lead from `table` to `after`, are appended at `now`."""
        if after.clock is None:
            return None
        decoded = (codec.decode_event(event.type, event.schema_version, event.data) for event in new_events)
        return fold_clocked(codec.game, table, clocks, ((event, now) for event in decoded))[1]

    @classmethod
    def _clocks_recorded(
        cls,
        codec: GameCodec,
        table: Table[Any] | None,
        clocks: Clocks | None,
        new_events: Sequence[NewEvent],
        after: Table[Any],
        stored: Sequence[StoredEvent],
        now: datetime,
        at_now: Clocks | None,
    ) -> Clocks | None:
        """The clocks as a fold of the log works them out: from the time the store recorded the events
        (`at_now`, worked out at `now` for the wake time, when the store recorded them then)."""
        recorded = stored[-1].recorded_at
        if at_now is None or recorded == now:
            return at_now
        return cls._clocks_after(codec, table, clocks, new_events, after, recorded)

    @staticmethod
    def _new_event(codec: GameCodec, event: Any, metadata: dict[str, Any]) -> NewEvent:
        return NewEvent(
            type=type(event).__name__,
            data=codec.encode_event(event),
            metadata=metadata,
            schema_version=codec.schema_version(event),
        )

    def _new_events(self, codec: GameCodec, events: Sequence[Any], metadata: dict[str, Any]) -> list[NewEvent]:
        return [self._new_event(codec, event, metadata) for event in events]

    async def _retried(
        self, loaded: CachedTable, idempotency_key: str | None, seat: int, request_hash: str
    ) -> Planned[CommandOutcome] | None:
        """The first answer to a request retried with its idempotency key (nothing to append), or None
        when the key is new."""
        if idempotency_key is None:
            return None
        first = await self.store.read_idempotent(loaded.game_id, idempotency_key)
        if not first:
            return None
        # Shown as the game now stands, which is at least where the first answer left it.
        if loaded.version < first[-1].version:
            loaded = await self.tables.refreshed(loaded)
        outcome = self._first_answer(loaded, first, seat, request_hash)
        return Planned([], loaded.table, lambda _stored: outcome)

    def _first_answer(
        self, loaded: CachedTable, first: Sequence[StoredEvent], seat: int, request_hash: str
    ) -> CommandOutcome:
        if first[0].metadata.get("seat") != seat or first[0].metadata.get("request_hash") != request_hash:
            raise ServiceError(
                "conflict",
                "idempotency-key-reused",
                "this idempotency key was used for a different command",
            )
        # The first answer may have been appended after this load: decode it from what was read.
        events = [loaded.codec.decode_stored(item) for item in first]
        outcome: CommandOutcome = views_of(loaded.game.id).outcome(
            version=first[-1].version,
            events=event_views(loaded.game, loaded.table, seat, first, events, COMMANDS_SEAT_NOBODY),
        )
        return outcome

    async def _table_view(
        self,
        loaded: CachedTable,
        table: Table[Any],
        seat: int | None,
        version: int,
        updated_at: datetime | None = None,
    ) -> TableView:
        view = table_view(
            loaded.game,
            loaded.game_id,
            table,
            seat,
            version,
            created_at=loaded.created_at,
            updated_at=loaded.updated_at if updated_at is None else updated_at,
            public=lobby.is_over(loaded.table),
            people=await self.names.of_seats(table.seats),
        )
        return msgspec.structs.replace(view, imported_from=loaded.imported_from) if loaded.imported else view


def _with_tokens(game_id: str, view: TableView, tokens: dict[str, str]) -> CreatedGame:
    created: CreatedGame = views_of(game_id).created(
        **msgspec.structs.asdict(view),
        tokens=tokens,
        seat_tokens=[SeatToken(seat=int(seat), token=token) for seat, token in tokens.items()],
    )
    return created


#: Rematch ids are derived from the finished game's id: asking twice (or two people at once) finds
#: the one rematch, and the finished game finds its rematch without a record of its own.
REMATCH_NAMESPACE = uuid.UUID("5b0c3f4e-6d1a-4c8e-9a57-0f3b1d2e4a61")


def rematch_id_of(game_id: str) -> str:
    return str(uuid.uuid5(REMATCH_NAMESPACE, game_id))


def _with_deadlines(view: TableView, game: AnyGame, table: Table[Any], clocks: Clocks | None) -> TableView:
    """The view with when each awaited seat's time runs out, for a game with a clock."""
    if table.clock is None:
        return view
    until = {str(seat): due for seat, due in deadlines(game, table, clocks).items()}
    return msgspec.structs.replace(view, awaiting_until=until)


def rfc3339(moment: datetime) -> str:
    """A time as the API writes every time: RFC 3339 in UTC."""
    return msgspec.json.encode(moment.astimezone(UTC)).decode().strip('"')


def fingerprint(body: bytes) -> str:
    """What tells a retried command from another sent with the same idempotency key."""
    return hashlib.sha256(body).hexdigest()


#: A resignation has no body: every retry of one is the same request.
RESIGN_FINGERPRINT = fingerprint(b"resign")


def _version_conflict(version: int | None) -> ServiceError:
    where = "" if version is None else f" (it is at version {version})"
    return ServiceError("conflict", "version-conflict", f"the game moved on{where}; reload and retry")
