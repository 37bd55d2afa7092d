"""Request and response bodies of the REST API that the services do not already define."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from services.games import SeatRequest

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
GameName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Players = Annotated[int, msgspec.Meta(ge=1, le=64)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


class CreateGameRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: GameName
    players: Players
    options: dict[str, Any] = {}
    seed: Seed | None = None
    seats: list[SeatRequest] = []


class CatalogBot(msgspec.Struct, frozen=True):
    """A bot a seat may be given (`{"bot": id}`)."""

    id: str
    name: str
    description: str


class CatalogGame(msgspec.Struct, frozen=True):
    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    bots: list[CatalogBot]


class Catalog(msgspec.Struct, frozen=True):
    games: list[CatalogGame]


class CatalogEntry(CatalogGame, frozen=True):
    option_schema: dict[str, Any]
    details: dict[str, Any]


class ScoredPlayer(msgspec.Struct, frozen=True):
    total: int
    breakdown: dict[str, int]


class ScoreResponse(msgspec.Struct, frozen=True):
    players: list[ScoredPlayer]


class Health(msgspec.Struct, frozen=True):
    status: str
