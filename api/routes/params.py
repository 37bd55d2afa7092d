"""What the game routes take alike: the game's id in the path, the caller's credential, the use cases."""

from __future__ import annotations

from typing import Annotated

from litestar.di import NamedDependency, Provide
from litestar.params import PathParameter

from kaiten.api.auth import caller, seat_caller
from kaiten.services.access import Credential, Presented
from kaiten.services.games import Games

GameId = Annotated[str, PathParameter(description="The game's UUID")]
#: The caller's credential: an app's key, a game's secret (seat token, invitation code), or None.
Caller = NamedDependency[Credential]
#: The credential of an operation only a seat (or the game's app) may call: never None.
SeatCaller = NamedDependency[Presented]
GamesDep = NamedDependency[Games]


def caller_dependencies() -> dict[str, Provide]:
    """The `dependencies` that provide `caller` and `seat_caller` (registered on the app)."""
    return {
        "caller": Provide(caller, sync_to_thread=False),
        "seat_caller": Provide(seat_caller, sync_to_thread=False),
    }
