"""An HTTP client of a Litestar app served in the test's own event loop, its lifespan included.

Litestar's `AsyncTestClient` runs the app in a thread of its own (anyio's blocking portal), and each
request blocks the test's loop while it crosses over and back: 1.05 ms of CPU a table read against
0.61 ms through httpx's ASGI transport, in the same loop. Over tests/e2e/test_play.py,
test_party_menus.py and test_history.py that crossing was a fifth of their CPU.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

import httpx
from litestar import Litestar

from kaiten.api.app import create_app
from kaiten.api.bootstrap import Services
from kaiten.api.settings import Settings

#: As Litestar's test client names the caller and the server, which some answers repeat.
CLIENT_ADDRESS = ("testclient", 50000)
BASE_URL = "http://testserver.local"


class AppClient(httpx.AsyncClient):
    """`async with AppClient(app=...) as client`: the app's lifespan runs while the client is open, in
    a task of its own (its task groups must end in the task that began them, and a fixture's set-up
    and teardown may run in different tasks)."""

    def __init__(self, app: Litestar, base_url: str = BASE_URL, **options: Any) -> None:
        super().__init__(transport=httpx.ASGITransport(app=app, client=CLIENT_ADDRESS), base_url=base_url, **options)
        self.app = app
        self._stopping = asyncio.Event()
        self._lifespan: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        started = asyncio.get_running_loop().create_future()
        self._lifespan = asyncio.create_task(self._live(started))
        await asyncio.wait([self._lifespan, started], return_when=asyncio.FIRST_COMPLETED)
        if self._lifespan.done():
            self._lifespan.result()  # the start-up's failure
        await super().__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        try:
            await super().__aexit__(exc_type, exc_value, traceback)
        finally:
            self._stopping.set()
            if self._lifespan is not None:
                await self._lifespan

    async def _live(self, started: asyncio.Future[None]) -> None:
        async with self.app.lifespan():
            started.set_result(None)
            await self._stopping.wait()


#: Apps not serving at the moment, by the settings they were made with, for `app_client` to reuse.
_IDLE_APPS: dict[Settings, list[Litestar]] = {}


@asynccontextmanager
async def reused_app(services: Services) -> AsyncIterator[Litestar]:
    """An app over `services`, with the settings of the environment, as `create_app` reads them. The
    app is one an earlier test made with the same settings, if one is idle, with these services handed
    in: making an app (Litestar's registration of every route) was 0.13 s of CPU, most of what an
    in-process test costs. An app whose run failed is not reused."""
    settings = Settings.from_env()
    idle = _IDLE_APPS.setdefault(settings, [])
    if idle:
        app = idle.pop()
        app.state.services = services
    else:
        app = create_app(services, settings)
    yield app
    idle.append(app)


@asynccontextmanager
async def app_client(services: Services) -> AsyncIterator[AppClient]:
    """A client of a reused app over `services`, served in the test's own event loop."""
    async with reused_app(services) as app, AppClient(app=app) as client:
        yield client
