"""Seat tokens travel as `Authorization: Bearer <token>`; no token makes the caller a spectator."""

from __future__ import annotations

from typing import Annotated

from litestar.di import NamedDependency
from litestar.params import HeaderParameter

from services.errors import ServiceError

MAX_TOKEN_LENGTH = 256


def bearer_token(
    authorization: Annotated[
        str | None,
        HeaderParameter(name="Authorization", required=False, description="`Bearer <seat token>`"),
    ] = None,
) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_LENGTH:
        raise ServiceError("unauthorized", "invalid-token", "expected `Authorization: Bearer <token>`")
    return token


def required_bearer_token(token: NamedDependency[str | None]) -> str:
    """A seat's token, for operations only a seat may call: its absence is the first thing said."""
    if token is None:
        raise ServiceError("unauthorized", "missing-token", "send the seat's token as a Bearer token")
    return token
