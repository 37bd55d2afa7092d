"""What the services answer: plain structs the API serves as they are."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from domain.table import Seat

#: A table's seats are shown as the domain holds them.
SeatView = Seat


class Viewer(msgspec.Struct, frozen=True):
    seat: int | None


class TableView(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: str
    version: int
    options: dict[str, Any]
    seats: list[SeatView]
    viewer: Viewer
    awaiting: list[int]
    #: The game-specific view for the viewer; None until the game starts.
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    #: The complete game state, shown only once the game is over (everything is public then).
    full_state: dict[str, Any] | None = None
    #: Only for a game imported from a log (POST /v1/games/import): the id of the game it was exported
    #: from, null when the imported document named none. Absent for every game played here.
    imported_from: str | UnsetType | None = UNSET


class CreatedGame(TableView, frozen=True):
    """The new game's table view, with the tokens of the human seats filled at creation."""

    tokens: dict[str, str] = {}


class SeatGranted(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    #: The new seat's secret; bots have none.
    token: str | None = None


class EventView(msgspec.Struct, frozen=True):
    version: int
    type: str
    data: dict[str, Any]
    recorded_at: datetime
    #: The shape of `data` for its type: events are shown in their type's current shape, however old
    #: the stored row (a log without it, from kaiten 0.1.0, is in shape 1).
    schema_version: int = 1


class CommandOutcome(msgspec.Struct, frozen=True):
    version: int
    events: list[EventView]


class EventPage(msgspec.Struct, frozen=True):
    events: list[EventView]
    last_version: int


class LegalCommands(msgspec.Struct, frozen=True):
    version: int
    seat: int
    commands: list[dict[str, Any]]
