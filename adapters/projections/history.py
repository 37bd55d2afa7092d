"""The "history" projection: one row per game (match_history) and the games of each player.

It reads the lobby events only: GameCreated opens a game's row (created_at is that event's time; its
metadata names the app that owns the game, and says whether it was imported), SeatTaken adds a seat
(and, when a player of the app sits there, the game to that player's list), SeatLeft takes it away
again (and the game from that player's list, unless they hold another seat of it), GameCreated's
visibility keeps a private game's row out of every listing but its app's own, SeatResigned and
SeatTakenOver mark a seat, GameStarted, GameFinished and GameAbandoned move its status on;
GameFinished brings the result, and it and GameAbandoned the time the game ended. Seats hold people
as their person ids: names and player ids are never copied here (services/people.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from kaiten.adapters.projections.log import LogEvent
from kaiten.adapters.projections.upserts import chunks, ignoring, replacing
from kaiten.adapters.schema import match_history, match_players
from kaiten.domain.engine import Result
from kaiten.domain.lobby import (
    GameAbandoned,
    GameCreated,
    GameFinished,
    GameStarted,
    Seat,
    SeatLeft,
    SeatResigned,
    SeatTaken,
    SeatTakenOver,
)
from kaiten.services.ports import BUILTIN_APP


class _Created(msgspec.Struct, frozen=True, tag="GameCreated", tag_field="type"):
    """What the history reads of GameCreated: fields every schema version of it has (rows are read
    as written, without the codec's upcasters, so a field added later must not be required here)."""

    game: str
    players: int
    visibility: str = "public"


class _Finished(msgspec.Struct, frozen=True, tag="GameFinished", tag_field="type"):
    result: Result


class _Abandoned(msgspec.Struct, frozen=True, tag="GameAbandoned", tag_field="type"):
    pass


class _Origin(msgspec.Struct, frozen=True):
    """What the history reads of GameCreated's metadata: the owning app (none before apps: the
    built-in app's), and whether the game was imported from a log."""

    app: str = BUILTIN_APP
    imported_from: str | msgspec.UnsetType | None = msgspec.UNSET


_lobby_event = msgspec.json.Decoder(
    _Created | SeatTaken | SeatLeft | GameStarted | _Finished | SeatResigned | SeatTakenOver | _Abandoned
)
_origin = msgspec.json.Decoder(_Origin)
HANDLED = (GameCreated, SeatTaken, SeatLeft, GameStarted, GameFinished, SeatResigned, SeatTakenOver, GameAbandoned)

#: Rows loaded per SELECT (a game touched by a batch but opened in an earlier one).
LOAD_CHUNK = 500


class HistoryProjection:
    name = "history"
    handles: frozenset[str] | None = frozenset(t.__name__ for t in HANDLED)
    tables: tuple[sa.Table, ...] = (match_history, match_players)

    def __init__(self, dialect_name: str) -> None:
        self._save = replacing(dialect_name, match_history)
        self._add_player = ignoring(dialect_name, match_players)
        self._drop_player = sa.delete(match_players).where(
            match_players.c.person_id == sa.bindparam("person"), match_players.c.game_id == sa.bindparam("game")
        )
        self._load = sa.select(match_history).where(match_history.c.game_id.in_(sa.bindparam("ids", expanding=True)))

    async def apply(self, connection: AsyncConnection, events: Sequence[LogEvent]) -> None:
        opened_here = {event.stream_id for event in events if event.type == "GameCreated"}
        rows = await self._load_rows(connection, {event.stream_id for event in events} - opened_here)
        # The players' games added and dropped, by (person, game): dropped first, then added.
        players: dict[tuple[str, str], dict[str, Any]] = {}
        dropped: list[dict[str, str]] = []
        for event in events:
            assert event.data is not None
            change = _lobby_event.decode(event.data)
            if isinstance(change, _Created):
                origin = _origin.decode(event.metadata or b"{}")
                rows[event.stream_id] = {
                    "game_id": event.stream_id,
                    "app_id": origin.app,
                    "imported": origin.imported_from is not msgspec.UNSET,
                    "game": change.game,
                    "visibility": change.visibility,
                    "status": "open",
                    "players": change.players,
                    "seats": [],
                    "result": None,
                    "created_at": event.recorded_at,
                    "finished_at": None,
                }
                continue
            row = rows.get(event.stream_id)
            if row is None:
                raise LookupError(f"{event.type} of game {event.stream_id}, which has no GameCreated before it")
            if isinstance(change, SeatTaken):
                seat = Seat(
                    seat=change.seat,
                    name=change.name,
                    player_id=change.player_id,
                    bot=change.bot,
                    person=change.person,
                    guest=change.guest,
                )
                row["seats"] = sorted([*row["seats"], msgspec.to_builtins(seat)], key=lambda taken: taken["seat"])
                if change.person is not None and not change.guest:
                    players[change.person, event.stream_id] = {
                        "person_id": change.person,
                        "game_id": event.stream_id,
                        "created_at": row["created_at"],
                    }
            elif isinstance(change, SeatLeft):
                left = [taken for taken in row["seats"] if taken["seat"] == change.seat]
                row["seats"] = [taken for taken in row["seats"] if taken["seat"] != change.seat]
                person = left[0].get("person") if left else None
                if person is not None and all(taken.get("person") != person for taken in row["seats"]):
                    players.pop((person, event.stream_id), None)
                    dropped.append({"person": person, "game": event.stream_id})
            elif isinstance(change, GameStarted):
                row["status"] = "active"
            elif isinstance(change, SeatResigned):
                row["seats"][change.seat] = {**row["seats"][change.seat], "resigned": True}
            elif isinstance(change, SeatTakenOver):
                row["seats"][change.seat] = {**row["seats"][change.seat], "taken_over_by": change.bot}
            elif isinstance(change, _Abandoned):
                row["status"] = "abandoned"
                row["finished_at"] = event.recorded_at
            else:
                row["status"] = "finished"
                row["result"] = msgspec.to_builtins(change.result)
                row["finished_at"] = event.recorded_at
        if rows:
            await connection.execute(self._save, list(rows.values()))
        if dropped:
            await connection.execute(self._drop_player, dropped)
        if players:
            await connection.execute(self._add_player, list(players.values()))

    async def _load_rows(self, connection: AsyncConnection, game_ids: set[str]) -> dict[str, dict[str, Any]]:
        rows: dict[str, dict[str, Any]] = {}
        for chunk in chunks(sorted(game_ids), LOAD_CHUNK):
            result = await connection.execute(self._load, {"ids": chunk})
            for row in result.mappings():
                rows[row["game_id"]] = dict(row)
        return rows
