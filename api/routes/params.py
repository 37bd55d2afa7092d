"""What the game routes take alike: the game's id in the path, the caller's seat token, the use cases."""

from __future__ import annotations

from typing import Annotated

from litestar.di import NamedDependency, Provide
from litestar.params import PathParameter

from api.auth import bearer_token, required_bearer_token
from services.games import Games

GameId = Annotated[str, PathParameter(description="The game's UUID")]
#: The Bearer token, if the caller sent one (a spectator sends none).
Token = NamedDependency[str | None]
#: The Bearer token of a seat, for operations only a seat may call.
SeatToken = NamedDependency[str]
GamesDep = NamedDependency[Games]


def token_dependencies() -> dict[str, Provide]:
    """A controller's `dependencies` that provide `token` and `seat_token`."""
    return {
        "token": Provide(bearer_token, sync_to_thread=False),
        "seat_token": Provide(required_bearer_token, sync_to_thread=False),
    }
