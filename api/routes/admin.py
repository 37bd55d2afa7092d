"""The apps' administration over HTTP, as `kaiten apps` does it from the command line.

Only a server started with `KAITEN_ADMIN_KEY` serves it, to a caller sending that key as a Bearer
token; any other server answers 404 as for a path it does not have, and any other caller 401.
"""

from __future__ import annotations

import hmac
from datetime import timedelta
from typing import Annotated, Any

import msgspec
from litestar import Controller, get, patch, post
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.handlers.base import BaseRouteHandler
from litestar.params import JSONBody, PathParameter

from kaiten.api.principal import caller_of
from kaiten.services.apps import MAX_GRACE, AppList, Apps, AppView, IssuedKey
from kaiten.services.errors import ServiceError
from kaiten.services.ports import Quotas

AppName = Annotated[str, PathParameter(description="The app's name", max_length=64)]
AppsDep = NamedDependency[Apps]


class NewApp(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    quotas: Quotas = Quotas()


#: Quotas are kept as 32-bit integers; a larger one is as good as none (null).
Limit = Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)] | None | msgspec.UnsetType


class QuotaChanges(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The quotas to change: a number, or null for no limit; a quota left out stays as it is."""

    requests_per_minute: Limit = msgspec.UNSET
    games_per_hour: Limit = msgspec.UNSET
    open_games: Limit = msgspec.UNSET
    imports_per_hour: Limit = msgspec.UNSET
    bot_cpu_seconds_per_minute: Limit = msgspec.UNSET

    def applied_to(self, quotas: Quotas) -> Quotas:
        given = {name: getattr(self, name) for name in self.__struct_fields__}
        return msgspec.structs.replace(quotas, **{k: v for k, v in given.items() if v is not msgspec.UNSET})


class Rotation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: How long the app's other keys keep working (default a day), so that it can roll the new one out.
    grace_seconds: Annotated[int, msgspec.Meta(ge=0, le=int(MAX_GRACE.total_seconds()))] = 86400


def admin_controller(admin_key: str | None) -> type[Controller]:
    """The admin routes, open to the server's admin key (None: to nobody) sent as a Bearer token."""

    def guard(connection: ASGIConnection[Any, Any, Any, Any], _handler: BaseRouteHandler) -> None:
        if admin_key is None:
            # As for a path the server does not have: nothing tells that the admin API exists.
            raise NotFoundException()
        caller = caller_of(connection.scope)
        sent = caller.credential if isinstance(caller.credential, str) else ""
        if not hmac.compare_digest(sent.encode(), admin_key.encode()):
            raise ServiceError("unauthorized", "invalid-admin-key", "send the server's admin key as a Bearer token")

    return type("AdminController", (AdminController,), {"guards": [guard]})


class AdminController(Controller):
    path = "/v1/admin/apps"
    tags = ["admin"]

    @post("/", operation_id="createApp", summary="Create an app and its first key (shown only now)", status_code=201)
    async def create_app(self, apps: AppsDep, data: JSONBody[NewApp]) -> IssuedKey:
        return await apps.create(data.name, data.quotas)

    @get("/", operation_id="listApps", summary="Every app, with its keys' ids and quotas")
    async def list_apps(self, apps: AppsDep) -> AppList:
        return await apps.list()

    @get("/{name:str}", operation_id="getApp", summary="One app, with its keys' ids and quotas")
    async def get_app(self, apps: AppsDep, name: AppName) -> AppView:
        return await apps.get(name)

    @patch(
        "/{name:str}/quotas",
        operation_id="setAppQuotas",
        summary="Change some of the app's quotas (null: no limit; a quota left out stays as it is)",
    )
    async def set_quotas(self, apps: AppsDep, name: AppName, data: JSONBody[QuotaChanges]) -> AppView:
        return await apps.set_quotas(name, data.applied_to((await apps.get(name)).quotas))

    @post(
        "/{name:str}/rotate",
        operation_id="rotateAppKey",
        summary="A new key for the app; its other keys keep working for the grace period, then never",
        status_code=201,
    )
    async def rotate(self, apps: AppsDep, name: AppName, data: JSONBody[Rotation]) -> IssuedKey:
        return await apps.rotate(name, timedelta(seconds=data.grace_seconds))

    @post(
        "/{name:str}/revoke",
        operation_id="revokeAppKeys",
        summary="Every key of the app stops working now (on every server process within a second)",
        status_code=200,
    )
    async def revoke(self, apps: AppsDep, name: AppName) -> AppView:
        return await apps.revoke(name)
