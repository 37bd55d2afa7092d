"""The inline read model: the `games` summary row written with each append, in the same transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from kaiten.domain import lobby
from kaiten.domain.engine import AnyGame
from kaiten.domain.lobby import Table
from kaiten.services.codec import to_json_object
from kaiten.services.ports import BUILTIN_APP, GameSummary


def result_of(table: Table[Any]) -> dict[str, Any] | None:
    return None if table.result is None else to_json_object(table.result)


def summary_of(
    game_id: str,
    game: AnyGame,
    table: Table[Any],
    version: int,
    token_hashes: dict[str, str],
    created_at: datetime,
    now: datetime,
    wake_at: datetime | None = None,
    app_id: str = BUILTIN_APP,
    imported: bool = False,
) -> GameSummary:
    return GameSummary(
        game_id=game_id,
        game=game.id,
        status=table.status,
        version=version,
        players=table.players,
        options={
            **to_json_object(table.options),
            **({} if table.clock is None else {"clock": to_json_object(table.clock)}),
        },
        seats=[msgspec.to_builtins(seat) for seat in table.seats],
        awaiting=list(lobby.awaiting(game, table)),
        result=result_of(table),
        token_hashes=token_hashes,
        created_at=created_at,
        updated_at=now,
        finished_at=now if lobby.is_over(table) else None,
        wake_at=wake_at,
        app_id=app_id,
        imported=imported,
    )
