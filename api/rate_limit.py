"""Requests per principal and minute (or other period), counted with the `limits` library (a kept
library, not our counter) by each serving process.

A request counts against its principal (api/principal.py): an app key against its app, with the app's
`requests_per_minute` quota when it has one (429 `requests-per-minute`); a secret that holds a seat
against that seat, and anything else against the caller's address, with `KAITEN_RATE_LIMIT` (429
`rate-limited`). The counts live in the process's memory (a sliding window of two counters per
principal): with N serving processes a principal may make up to N times its limit, which the README
says. Probes, metrics and the API's own documentation are never limited.
"""

from __future__ import annotations

import math
import re
import time
from typing import cast

from limits import RateLimitItem, RateLimitItemPerMinute, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from kaiten.api.bootstrap import Services
from kaiten.api.principal import caller_of
from kaiten.api.settings import RateLimit
from kaiten.services.quotas import QuotaExceeded

#: Probes and metrics are asked for by the platform, not by clients.
UNLIMITED_PATHS = re.compile(r"^/(health|ready|metrics|schema)(/|$)")


class Limiter:
    """The request limits of one serving process."""

    def __init__(self, default: RateLimit | None) -> None:
        self._default = None if default is None else parse(f"{default.requests}/{default.per}")
        self._storage = MemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(self._storage)

    def principals(self) -> int:
        """How many principals the process counts requests of now."""
        # Its keys are LIMITER/<principal>/<limit>/...: a principal holds no "/".
        return len({key.split("/")[1] for key in self._storage.storage})

    def limits(self, app_quota: int | None) -> RateLimitItem | None:
        """The limit of a request: its app's quota, else the server's (None: no limit)."""
        return RateLimitItemPerMinute(app_quota) if app_quota is not None else self._default

    async def check(self, item: RateLimitItem, principal: str, app_quota: int | None) -> None:
        """Count one request of the principal; raises when it is over its limit."""
        if await self._limiter.hit(item, principal):
            return
        stats = await self._limiter.get_window_stats(item, principal)
        retry_after = max(1, math.ceil(stats.reset_time - time.time()))
        if app_quota is not None:
            raise QuotaExceeded(
                "requests-per-minute", f"this app's quota is {app_quota} requests a minute", retry_after
            )
        raise QuotaExceeded(
            "rate-limited", "too many requests from this client; retry after the seconds in Retry-After", retry_after
        )


class LimitRequests:
    """ASGI middleware: each request counted against its principal before it is served."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP and not UNLIMITED_PATHS.match(scope["path"]):
            caller = caller_of(scope)
            services = cast(Services, scope["litestar_app"].state.services)
            quota = (
                None if caller.app_id is None else (await services.apps.quotas_of(caller.app_id)).requests_per_minute
            )
            item = self.limiter.limits(quota)
            if item is not None:
                await self.limiter.check(item, await caller.principal(scope, services), quota)
        await self.app(scope, receive, send)
