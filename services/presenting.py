"""Turning tables and logs into what a viewer may see, and into the inline read model."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from domain import table as tables
from domain.engine import Game
from domain.table import Table
from services.codec import to_json_object
from services.ports import GameSummary, StoredEvent
from services.upcasting import current_version
from services.views import EventView, TableView, Viewer


def result_of(table: Table) -> dict[str, Any] | None:
    return None if table.result is None else to_json_object(table.result)


def table_view(
    game: Game,
    game_id: str,
    table: Table,
    seat: int | None,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    public: bool,
) -> TableView:
    """The table as `seat` sees it; once the game is over (`public`) the whole state is shown too."""
    finished = table.status == "finished"
    state = full_state = None
    if table.state is not None:
        state = to_json_object(game.view(table.state, seat))
        if public:
            full_state = to_json_object(table.state)
    return TableView(
        id=game_id,
        game=table.game,
        status=table.status,
        version=version,
        options=to_json_object(table.options),
        seats=list(table.seats),
        viewer=Viewer(seat=seat),
        awaiting=[] if finished else list(tables.awaiting(game, table)),
        state=state,
        result=result_of(table),
        full_state=full_state,
        created_at=created_at,
        updated_at=updated_at,
    )


def event_views(
    game: Game, table: Table, seat: int | None, stored: Sequence[StoredEvent], events: Sequence[Any]
) -> list[EventView]:
    """The events as this seat may see them now; hidden ones are left out."""
    views = []
    for item, event in zip(stored, events, strict=True):
        shown = tables.redact(game, table, event, seat)
        if shown is not None:
            views.append(
                EventView(
                    version=item.version,
                    type=item.type,
                    data=to_json_object(shown),
                    recorded_at=item.recorded_at,
                    schema_version=current_version(item.type),
                )
            )
    return views


def summary_of(
    game_id: str,
    game: Game,
    table: Table,
    version: int,
    token_hashes: dict[str, str],
    created_at: datetime,
    now: datetime,
) -> GameSummary:
    return GameSummary(
        game_id=game_id,
        game=game.id,
        status=table.status,
        version=version,
        players=table.players,
        options=to_json_object(table.options),
        seats=[msgspec.to_builtins(seat) for seat in table.seats],
        awaiting=list(tables.awaiting(game, table)),
        result=result_of(table),
        token_hashes=token_hashes,
        created_at=created_at,
        updated_at=now,
        finished_at=now if table.status == "finished" else None,
    )
