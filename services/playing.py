"""Playing a game: a seat's command, a resignation, and what falls due without anybody asking (a turn
whose time ran out, abandonment, the bots' moves). Each decides on the loaded table and goes through
the one writer (services/writing.py)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.lobby import Decision, Table
from kaiten.services.access import seat_of_required
from kaiten.services.bot_moves import BotChoice, BotLoad, owed_seats
from kaiten.services.clocks import deadlines, wake_at
from kaiten.services.commands import Act, Resign
from kaiten.services.errors import ServiceError
from kaiten.services.ports import BotThinker, Clock, IdSource, NewEvent, Person, StoredEvent
from kaiten.services.seen import SeenEvents, seen_events
from kaiten.services.table_cache import CachedTable
from kaiten.services.writing import Planned, Writer, new_events, version_conflict

#: The people a command's answer shows: none, for no command or resignation seats anybody (only
#: SeatTaken shows a person).
COMMANDS_SEAT_NOBODY: Mapping[str, Person] = {}

#: The metadata of a bot's move (with its seat): nobody's doing, so it does not put off abandonment
#: (services/table_cache.py `is_activity`).
BOT_MOVE: Mapping[str, Any] = {"bot": True}


@dataclass(frozen=True, slots=True)
class Decided:
    """A bot's choice, and the table it was made at."""

    table: Table[Any]
    choice: BotChoice


@dataclass(frozen=True, slots=True)
class Woken:
    """What looking at a game's deadline did: fired something (appended), or found nothing due at
    `version` and when to look again."""

    fired: bool
    version: int
    wake_at: datetime | None


class Playing:
    def __init__(self, writer: Writer, clock: Clock, ids: IdSource, bots: BotThinker, bot_load: BotLoad) -> None:
        self.writer = writer
        self.clock = clock
        self.ids = ids
        #: Where bots think, and what their thinking costs (services/bot_moves.py).
        self.bots = bots
        self.bot_load = bot_load

    async def act(self, command: Act) -> SeenEvents:
        token, body, if_match, idempotency_key = command.token, command.body, command.if_match, command.idempotency_key
        request_hash = fingerprint(body)

        async def attempt(loaded: CachedTable) -> Planned[SeenEvents]:
            seat = seat_of_required(loaded.access(token))
            retried = await self._retried(loaded, idempotency_key, seat, request_hash)
            if retried is not None:
                return retried
            if if_match is not None and if_match != loaded.version:
                raise version_conflict(loaded.version)
            if loaded.table.seats[seat].resigned:
                raise ServiceError("conflict", "seat-resigned", f"seat {seat} resigned; a bot plays it now")
            command = loaded.codec.decode_command(body)
            chance = lobby.rules_chance(loaded.table, loaded.version)
            decision = lobby.act(loaded.game, loaded.table, seat, command, chance)
            metadata = {"seat": seat, "command_id": self.ids.command_id(), "request_hash": request_hash}
            return _outcome(loaded, seat, decision, metadata)

        return await self.writer.write(
            command.game_id, attempt, idempotency_key=idempotency_key, pinned=if_match is not None
        )

    async def resign(self, command: Resign) -> SeenEvents:
        """The token's person leaves: the seat resigns and a bot plays it to the end (or the game is
        abandoned when nobody is left)."""
        token, idempotency_key = command.token, command.idempotency_key

        async def attempt(loaded: CachedTable) -> Planned[SeenEvents]:
            seat = seat_of_required(loaded.access(token))
            retried = await self._retried(loaded, idempotency_key, seat, RESIGN_FINGERPRINT)
            if retried is not None:
                return retried
            decision = lobby.resign(loaded.game, loaded.table, seat)
            metadata = {"seat": seat, "command_id": self.ids.command_id(), "request_hash": RESIGN_FINGERPRINT}
            return _outcome(loaded, seat, decision, metadata)

        return await self.writer.write(command.game_id, attempt, idempotency_key=idempotency_key)

    async def wake(self, game_id: str) -> Woken:
        """Fire what is due in the game at the clock's time: the turns whose time ran out (each
        `TurnTimedOut` and the move made for it), abandonment after too long without a move, and the
        moves of the bot seats the game awaits (services/bot_moves.py). The append's version guard
        makes each fire once, however many processes look at the game."""
        now = self.clock.now()
        abandon_after = self.writer.abandon_after
        decided: dict[int, Decided] = {}

        async def attempt(loaded: CachedTable) -> Planned[Woken]:
            # A timeout is appended at once; the bots it leaves owed move in an append of their own.
            events, table = self._due(loaded, now) or ([], loaded.table)
            paused = None if events else await self.bot_load.exhausted_until(loaded.app_id)
            if not events and paused is None:
                events, table = await self._bot_moves(loaded, table, loaded.version, decided)
            if events:
                return Planned(events, table, lambda stored: Woken(True, stored[-1].version, None))
            wake = paused or wake_at(loaded.game, loaded.table, loaded.clocks, loaded.active_at, abandon_after)
            woken = Woken(fired=False, version=loaded.version, wake_at=wake)
            return Planned([], loaded.table, lambda _stored: woken)

        # Nothing due is answered for the game as it stands: the scheduler sets its next wake by it.
        return await self.writer.write(game_id, attempt, current=True)

    def _due(self, loaded: CachedTable, now: datetime) -> tuple[list[NewEvent], Table[Any]] | None:
        """The events of what is due at `now` and the table after them; None when nothing is."""
        table, codec, abandon_after = loaded.table, loaded.codec, self.writer.abandon_after
        if lobby.is_over(table):
            return None
        # A game that owes a bot's move waits for kaiten, not for people: it is not abandoned.
        owes_bots = lobby.next_bot_seat(loaded.game, table) is not None
        if abandon_after is not None and now - loaded.active_at >= abandon_after and not owes_bots:
            abandoned = lobby.abandon(loaded.game, table)
            return new_events(codec, abandoned.events, {"inactive": True}), abandoned.table
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
            events.extend(new_events(codec, decision.events, {"seat": seat, "timed_out": True}))
            table = decision.table
        return (events, table) if events else None

    async def _bot_moves(
        self, loaded: CachedTable, table: Table[Any], version: int, decided: dict[int, Decided]
    ) -> tuple[list[NewEvent], Table[Any]]:
        """The moves of the bot seats the game awaits now, each bot thinking in a worker (all at once
        in the simultaneous-pick games), and the table after them; `version`: the log's length.

        `decided` holds the choices of an earlier attempt whose append lost to another (a person's
        pick made while the bot thought): a choice among the very commands the seat has now still
        stands, as the bot could as well have picked first in the same step; only the others think
        again."""
        seats = owed_seats(table)
        if not seats:
            return [], table
        game = lobby.rules_of(loaded.game, table)

        def stands(seat: int) -> bool:
            earlier = decided.get(seat)
            return earlier is not None and game.legal_commands(
                lobby.state_of(earlier.table), seat
            ) == game.legal_commands(lobby.state_of(table), seat)

        thinking = [seat for seat in seats if not stands(seat)]
        choices = await asyncio.gather(*(self.bots.choose(table.game, table, seat, version) for seat in thinking))
        for seat, choice in zip(thinking, choices, strict=True):
            self.bot_load.spend(loaded.app_id, choice.cpu_seconds)
            decided[seat] = Decided(table, choice)
        events: list[NewEvent] = []
        for seat in seats:
            choice = decided[seat].choice
            if seat not in lobby.awaiting(loaded.game, table):
                continue  # the game moved on without it (it cannot in the games of the catalog)
            chance = lobby.rules_chance(table, version + len(events))
            decision = lobby.act(loaded.game, table, seat, choice.command, chance)
            events.extend(new_events(loaded.codec, decision.events, {**BOT_MOVE, "seat": seat}))
            table = decision.table
        return events, table

    async def _retried(
        self, loaded: CachedTable, idempotency_key: str | None, seat: int, request_hash: str
    ) -> Planned[SeenEvents] | None:
        """The first answer to a request retried with its idempotency key (nothing to append), or None
        when the key is new."""
        if idempotency_key is None:
            return None
        first = await self.writer.store.read_idempotent(loaded.game_id, idempotency_key)
        if not first:
            return None
        # Shown as the game now stands, which is at least where the first answer left it.
        if loaded.version < first[-1].version:
            loaded = await self.writer.tables.refreshed(loaded)
        outcome = _first_answer(loaded, first, seat, request_hash)
        return Planned([], loaded.table, lambda _stored: outcome)


def _outcome(loaded: CachedTable, seat: int, decision: Decision[Any], metadata: dict[str, Any]) -> Planned[SeenEvents]:
    """A seat's decision and the answer: its events as the seat sees them (the bots it leaves owed a
    move make it in appends of their own, services/bot_moves.py)."""

    def answer(stored: Sequence[StoredEvent]) -> SeenEvents:
        return seen_events(
            loaded.game,
            loaded.game_id,
            decision.table,
            seat,
            stored,
            decision.events,
            COMMANDS_SEAT_NOBODY,
            stored[-1].version,
        )

    return Planned(new_events(loaded.codec, decision.events, metadata), decision.table, answer)


def _first_answer(loaded: CachedTable, first: Sequence[StoredEvent], seat: int, request_hash: str) -> SeenEvents:
    if first[0].metadata.get("seat") != seat or first[0].metadata.get("request_hash") != request_hash:
        raise ServiceError(
            "conflict",
            "idempotency-key-reused",
            "this idempotency key was used for a different command",
        )
    # The first answer may have been appended after this load: decode it from what was read.
    events = [loaded.codec.decode_stored(item) for item in first]
    return seen_events(
        loaded.game, loaded.game_id, loaded.table, seat, first, events, COMMANDS_SEAT_NOBODY, first[-1].version
    )


def rfc3339(moment: datetime) -> str:
    """A time as the API writes every time: RFC 3339 in UTC."""
    return msgspec.json.encode(moment.astimezone(UTC)).decode().strip('"')


def fingerprint(body: bytes) -> str:
    """What tells a retried command from another sent with the same idempotency key."""
    return hashlib.sha256(body).hexdigest()


#: A resignation has no body: every retry of one is the same request.
RESIGN_FINGERPRINT = fingerprint(b"resign")
