"""The caller of a route, as api/principal.py worked it out from `Authorization: Bearer ...`: an app's
checked key, a game's secret (a seat token or an invitation code), or nobody (services/access.py)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.di import NamedDependency

from api.principal import credential_of
from services.access import Credential
from services.errors import ServiceError


def caller(request: Request[Any, Any, Any]) -> Credential:
    return credential_of(request.scope)


def seat_caller(caller: NamedDependency[Credential]) -> Credential:
    """The caller of an operation only a seat (or the game's app) may call: its absence is the first
    thing said."""
    if caller is None:
        raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")
    return caller
