"""Who sits at a game: its creation with the seats taken at once, a seat taken later or given back, invitations,
the rematch of a finished game, and a player forgotten. Every write goes through the one writer
(services/writing.py)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from kaiten.domain import lobby
from kaiten.domain.catalog import get_game
from kaiten.domain.engine import RuleViolation
from kaiten.domain.lobby import Table
from kaiten.services.access import AppCaller, holds_invitation, seat_of_required, writes_as_owner, writing_app
from kaiten.services.bot_moves import BotLoad
from kaiten.services.codec import GameCodec, codec_for
from kaiten.services.commands import (
    CreateGame,
    CreateInvitation,
    CreateRematch,
    ErasePlayer,
    GetTable,
    LeaveSeat,
    NewSeat,
    RevokeInvitation,
    TakeSeat,
)
from kaiten.services.errors import ServiceError
from kaiten.services.people import Names
from kaiten.services.ports import ConcurrencyConflict, IdSource, NewEvent, People, Person, StoredEvent
from kaiten.services.quotas import QuotaCheck
from kaiten.services.reading import Reading, rematch_id_of, with_deadlines
from kaiten.services.secrets import hash_secret
from kaiten.services.seen import CreatedTable, SeenTable, stored_log_table
from kaiten.services.table_cache import CachedTable
from kaiten.services.text_rules import check_player_id, clean_name
from kaiten.services.writing import Planned, Writer, new_event, new_events

T = TypeVar("T")

#: A game's salt: what keeps its seed, and so its deal, secret until the end.
SALT_BYTES = 16
#: The token hash a seat given back holds (SeatLeft's metadata): no token's SHA-256 is empty, so
#: the token that held the seat holds nothing any more, and the next person seated there writes theirs.
NO_TOKEN = ""


@dataclass(frozen=True, slots=True)
class Seating:
    """Who takes a seat, resolved: a person (their id) or a bot."""

    person: str | None = None
    guest: bool = False
    bot: str | None = None
    #: A guest is kept among the people only once their seat is decided (a refused seat leaves no one).
    guest_name: str | None = None
    #: The seat's token, when chosen before (a game a matchmaking queue formed); else a new one.
    token: str | None = None


# A seat just taken, and its token: the API answers it as it is (no docstring: the schema would
# describe it with one).
class SeatGranted(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    #: The new seat's secret; bots have none.
    token: str | None = None


class IssuedInvitation(msgspec.Struct, frozen=True):
    """An invitation just issued: its code is shown once (kaiten keeps its hash)."""

    game_id: str
    id: str
    code: str


class Seats:
    def __init__(
        self,
        writer: Writer,
        reading: Reading,
        ids: IdSource,
        people: People,
        names: Names,
        bot_load: BotLoad,
        open_app: str | None,
        quotas: QuotaCheck | None,
    ) -> None:
        self.writer = writer
        self.reading = reading
        self.ids = ids
        #: Who sits at the tables (names and player ids, kept beside the log), and the process's copy.
        self.people = people
        self.names = names
        self.bot_load = bot_load
        #: The app a caller without an app key writes as: the built-in app on an open server (the
        #: embedded default); None where every write needs an app key (services/access.py).
        self.open_app = open_app
        #: The apps' quotas on games created and imported (None: none are checked).
        self.quotas = quotas

    async def create(self, command: CreateGame) -> CreatedTable:
        """A new game, owned by the caller's app (services/access.py)."""
        app_id = writing_app(command.caller, self.open_app)
        if self.quotas is not None:
            await self.quotas.before_create(app_id)
        if any(request.bot is not None for request in command.seats):
            await self.bot_load.before_bot_game(app_id)
        seatings = [await self.seating(app_id, request) for request in command.seats]
        return await self._create(app_id, command, seatings)

    async def create_seated(
        self, app_id: str, command: CreateGame, seatings: Sequence[Seating], game_id: str
    ) -> CreatedTable:
        """A game of the app under a chosen id with these seats taken (a game a matchmaking queue
        formed: services/matchmaking.py); a second creation of the id is a ConcurrencyConflict."""
        return await self._create(app_id, command, seatings, game_id=game_id)

    async def _create(
        self,
        app_id: str,
        command: CreateGame,
        seatings: Sequence[Seating],
        game_id: str | None = None,
        rematch_of: str | None = None,
    ) -> CreatedTable:
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
        created = [new_event(codec, events[0], {"seat": None, "app": app_id})]
        tokens: dict[str, str] = {}
        for seating in seatings:
            seat = lobby.next_seat(table)
            seated, table, token = self._seat(codec, table, seating, version=len(created))
            created.extend(seated)
            if token is not None:
                tokens[str(seat)] = token
        await self.keep_guests(app_id, seatings)
        stored, clocks = await self.writer.create(game_id, app_id, codec, table, created)
        view = stored_log_table(game, game_id, table, stored, await self.names.of_seats(table.seats))
        return _with_tokens(with_deadlines(view, game, table, clocks), tokens)

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
            granted = SeatGranted(seat=lobby.next_seat(loaded.table), token=token)
            return Planned(seated, table, lambda _stored: granted)

        # The same guest id on every attempt: a guest kept by a first attempt is the one who sits.
        guest_id = self.ids.command_id()
        return await self.writer.write(command.game_id, attempt)

    async def leave(self, command: LeaveSeat) -> None:
        """The token's seat given back before the game starts: free for anyone to take again."""

        def attempt(loaded: CachedTable) -> Planned[None]:
            seat = seat_of_required(loaded.access(command.token))
            decision = lobby.leave_seat(loaded.codec.game, loaded.table, seat)
            metadata = {"seat": seat, "token_hash": NO_TOKEN}
            left = [new_event(loaded.codec, event, metadata) for event in decision.events]
            return Planned(left, decision.table, lambda _stored: None)

        await self.writer.write(command.game_id, attempt)

    async def invite(self, command: CreateInvitation) -> IssuedInvitation:
        """An invitation to the game, issued by the token's seat; the code is shown once, kept hashed."""
        code, invitation_id = self.ids.token("inv"), str(uuid.uuid4())

        def attempt(loaded: CachedTable) -> Planned[IssuedInvitation]:
            seat = seat_of_required(loaded.access(command.token))
            issued = lobby.issue_invitation(loaded.table, seat, invitation_id, hash_secret(code))
            invitation = IssuedInvitation(game_id=loaded.game_id, id=invitation_id, code=code)
            return _lobby_event(loaded, issued, {"seat": seat}, lambda _stored: invitation)

        return await self.writer.write(command.game_id, attempt)

    async def revoke(self, command: RevokeInvitation) -> None:
        def attempt(loaded: CachedTable) -> Planned[None]:
            seat = seat_of_required(loaded.access(command.token))
            revoked = lobby.revoke_invitation(loaded.table, seat, command.invitation_id)
            return _lobby_event(loaded, revoked, {"seat": seat}, lambda _stored: None)

        await self.writer.write(command.game_id, attempt)

    async def rematch(self, command: CreateRematch) -> tuple[CreatedTable, bool]:
        """The rematch of a finished or abandoned game (and whether this request created it), with a new
        token for the token's seat: the same game, options, visibility and seats (bots included), of
        the same app."""
        old = await self.writer.tables.current(command.game_id)
        seat = seat_of_required(old.access(command.token))
        if not lobby.is_over(old.table):
            raise ServiceError("conflict", "game-not-finished", "a rematch follows a finished or abandoned game")
        rematch_id = rematch_id_of(old.game_id)
        if await self.writer.store.summary(rematch_id) is None:
            if self.quotas is not None:
                await self.quotas.before_create(old.app_id)
            if any(seat.bot is not None for seat in old.table.seats):
                await self.bot_load.before_bot_game(old.app_id)
            again = CreateGame(
                game=old.table.game,
                players=old.table.players,
                options=lobby.recorded_options(old.table),
                visibility=old.table.visibility,
            )
            seatings = [await self._seated_again(old.app_id, seat) for seat in old.table.seats]
            try:
                created = await self._create(old.app_id, again, seatings, game_id=rematch_id, rematch_of=old.game_id)
            except ConcurrencyConflict:
                pass  # someone else's request created it a moment ago: claim the seat in it
            else:
                # The other people's tokens are dropped unseen: each claims a new one by asking.
                return await self._as_seat(rematch_id, seat, created.tokens[str(seat)]), True
        new_token = self.ids.token()

        def attempt(loaded: CachedTable) -> Planned[None]:
            claimed = lobby.claim_seat(loaded.table, seat)
            metadata = {"seat": seat, "token_hash": hash_secret(new_token)}
            return _lobby_event(loaded, claimed, metadata, lambda _stored: None)

        await self.writer.write(rematch_id, attempt)
        return await self._as_seat(rematch_id, seat, new_token), False

    async def _seated_again(self, app_id: str, seat: lobby.Seat) -> Seating:
        """Who sits at a seat of a finished game sits at the same seat of its rematch."""
        if seat.bot is not None:
            return Seating(bot=seat.bot)
        if seat.person is not None:
            return Seating(person=seat.person, guest=seat.guest)
        # A log from before people were references names them: they are enrolled now.
        return await self.seating(app_id, NewSeat(name=seat.name, player_id=seat.player_id))

    async def _as_seat(self, game_id: str, seat: int, token: str) -> CreatedTable:
        return _with_tokens(await self.reading.view(GetTable(game_id, token)), {str(seat): token})

    async def erase_player(self, command: ErasePlayer) -> None:
        """The app's player forgotten: their id and name leave every answer and read model, and their
        games stay, replaying as before (the log holds only their reference)."""
        app_id = writing_app(command.caller, self.open_app)
        erased = await self.people.erase(app_id, check_player_id(command.player_id))
        if erased is None:
            raise ServiceError("not-found", "player-not-found", f"no player {command.player_id!r}")
        self.names.forget(erased.person_id)

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
        token = None if seating.bot is not None else seating.token or self.ids.token()
        decision = lobby.take_seat(
            codec.game,
            table,
            lobby.rules_chance(table, version),
            person=seating.person,
            guest=seating.guest,
            bot=seating.bot,
        )
        metadata: dict[str, Any] = {"seat": lobby.next_seat(table)}
        taken, *started = decision.events
        hashed = metadata if token is None else {**metadata, "token_hash": hash_secret(token)}
        return ([new_event(codec, taken, hashed), *new_events(codec, started, metadata)], decision.table, token)


def _lobby_event(
    loaded: CachedTable, event: Any, metadata: dict[str, Any], answer: Callable[[Sequence[StoredEvent]], T]
) -> Planned[T]:
    """A lobby event of a seat's (an invitation issued or revoked, a seat claimed), applied."""
    table = lobby.evolve_table(loaded.game, loaded.table, event)
    return Planned([new_event(loaded.codec, event, metadata)], table, answer)


def _with_tokens(view: SeenTable, tokens: Mapping[str, str]) -> CreatedTable:
    fields = {field.name: getattr(view, field.name) for field in dataclasses.fields(view)}
    return CreatedTable(**fields, tokens=tokens)
