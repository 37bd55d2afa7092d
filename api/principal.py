"""Who is calling: the credential in `Authorization: Bearer ...`, worked out once per request.

An app key (`kaiten_app_...`) or a player token (`kaiten_player_...`) is checked here, where the request
comes in: the services trust the `AppCaller` or `PlayerCaller` it becomes. Any other bearer secret (a
seat token, an invitation code) is checked by the services against the game it is for. A request that
sends an app key that does not work is refused when its route asks who is calling (`credential_of`), so
that health checks never fail for it.

The rate limiter (api/rate_limit.py) counts requests by principal (`Caller.principal`): an app key
against its app, a secret that holds a seat of the game in the path against that seat, anything else
against the caller's address (so that made-up secrets cannot buy a bucket each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from kaiten.api.bootstrap import Services
from kaiten.services.access import AppCaller, Credential, PlayerCaller, seat_holding
from kaiten.services.apps import is_app_key
from kaiten.services.errors import ServiceError
from kaiten.services.players import is_player_token

MAX_CREDENTIAL_LENGTH = 256
#: Where the caller of a request is kept in its ASGI scope.
SCOPE_KEY = "kaiten.caller"


@dataclass(frozen=True, slots=True)
class Caller:
    #: What the services are told (None: nobody in particular).
    credential: Credential
    #: `address:<the client's address>`.
    address: str
    #: Why the credential sent cannot be used (an app key that does not work, a malformed header).
    refused: ServiceError | None = None

    @property
    def app_id(self) -> str | None:
        return self.credential.app_id if isinstance(self.credential, AppCaller) else None

    async def principal(self, scope: Scope, services: Services) -> str:
        """Whom the request counts against: `app:<id>`, `seat:<game>:<seat>` or `address:<address>`."""
        if isinstance(self.credential, AppCaller):
            return f"app:{self.credential.app_id}"
        if isinstance(self.credential, PlayerCaller):
            return f"player:{self.credential.person_id}"
        if isinstance(self.credential, str):
            return await _seat_principal(scope, services, self.credential) or self.address
        return self.address


def _bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, secret = header.strip().partition(" ")
    secret = secret.strip()
    if scheme.lower() != "bearer" or not secret or len(secret) > MAX_CREDENTIAL_LENGTH:
        raise ServiceError("unauthorized", "invalid-token", "expected `Authorization: Bearer <token or app key>`")
    return secret


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            decoded: str = value.decode("latin-1")
            return decoded
    return None


async def identify(scope: Scope, services: Services) -> Caller:
    client = scope.get("client")
    address = f"address:{client[0] if client else '(unknown)'}"
    try:
        secret = _bearer(_header(scope, b"authorization"))
    except ServiceError as refused:
        return Caller(credential=None, address=address, refused=refused)
    if secret is not None and is_player_token(secret):
        try:
            return Caller(credential=await services.players.authenticate(secret), address=address)
        except ServiceError as refused:
            return Caller(credential=None, address=address, refused=refused)
    if secret is None or not is_app_key(secret):
        return Caller(credential=secret, address=address)
    try:
        return Caller(credential=await services.apps.authenticate(secret), address=address)
    except ServiceError as refused:
        return Caller(credential=None, address=address, refused=refused)


async def _seat_principal(scope: Scope, services: Services, secret: str) -> str | None:
    """`seat:<game>:<seat>` when the secret holds a seat of the game in the path."""
    game_id = (scope.get("path_params") or {}).get("game_id")
    if not isinstance(game_id, str):
        return None
    try:
        cached, _ = await services.games.tables.known(game_id)
    except ServiceError:
        return None
    seat = seat_holding(cached.token_hashes, secret)
    return None if seat is None else f"seat:{cached.game_id}:{seat}"


class Identify:
    """ASGI middleware: keeps each request's `Caller` in its scope, for the limiter and the routes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP:
            services = cast(Services, scope["litestar_app"].state.services)
            scope[SCOPE_KEY] = await identify(scope, services)  # type: ignore[literal-required]
        await self.app(scope, receive, send)


def caller_of(scope: Scope) -> Caller:
    return cast(Caller, scope[SCOPE_KEY])  # type: ignore[literal-required]


def credential_of(scope: Scope) -> Credential:
    """The request's credential, refused when the one sent cannot be used."""
    caller = caller_of(scope)
    if caller.refused is not None:
        raise caller.refused
    return caller.credential
