"""The caller of a route, as api/principal.py worked it out from `Authorization: Bearer ...`: an app's
checked key, a game's secret (a seat token or an invitation code), or nobody (services/access.py)."""

from __future__ import annotations

from typing import Any

from litestar import Request

from kaiten.api.principal import credential_of
from kaiten.services.access import AppCaller, Credential, Presented, SeatHolder
from kaiten.services.errors import ServiceError
from kaiten.services.games import Games


def credential(request: Request[Any, Any, Any]) -> Credential:
    """The request's caller, as the `Identify` middleware found it (None: nobody)."""
    return credential_of(request.scope)


def presented(request: Request[Any, Any, Any]) -> Presented:
    """The caller of an operation only a seat (or the game's app) may call: its absence is the first
    thing said."""
    caller = credential(request)
    if caller is None:
        raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")
    return caller


async def seat_token(games: Games, game_id: str, credential: Presented) -> SeatHolder:
    """The token of an operation only a seat may call. An app key acts for no seat: it is told so once
    the game is found to be its app's (another app's game answers as one that does not exist). A player
    token acts for the seat its player holds in the game."""
    if isinstance(credential, AppCaller):
        await games.reading.check_owned(game_id, credential)
        raise ServiceError("forbidden", "seat-token-required", "an app key acts for no seat: send the seat's token")
    return credential
