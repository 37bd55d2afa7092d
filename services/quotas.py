"""An app's quotas on what it makes: games created per hour, games not over at one time, imports per
hour (API.md, "Apps, keys and players"). Over one, a request is refused with 429, `Retry-After`, and
the quota's name as its `code`.

They are counted where the games are kept (the `games` table), so every serving process counts the
same games: requests that race past a quota at the same moment may exceed it by as many as are in
flight, never more. Requests per minute are the rate limiter's (api/rate_limit.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from kaiten.services.apps import Apps
from kaiten.services.errors import ServiceError
from kaiten.services.ports import Clock, GameCounts

HOUR = timedelta(hours=1)
#: When a quota on games not over is full, the client may try again after this (a game may end).
OPEN_GAMES_RETRY_SECONDS = 60


class QuotaExceeded(ServiceError):
    def __init__(self, quota: str, message: str, retry_after: int) -> None:
        super().__init__("too-many", quota, message)
        self.retry_after = max(1, retry_after)


class QuotaCheck:
    def __init__(self, apps: Apps, counts: GameCounts, clock: Clock) -> None:
        self.apps = apps
        self.counts = counts
        self.clock = clock

    async def before_create(self, app_id: str) -> None:
        quotas = await self.apps.quotas_of(app_id)
        if quotas.games_per_hour is not None:
            retry_after = await self._hour_full(app_id, quotas.games_per_hour, imported=False)
            if retry_after is not None:
                raise QuotaExceeded(
                    "games-per-hour", f"this app created {quotas.games_per_hour} games in the last hour", retry_after
                )
        if quotas.open_games is not None and await self.counts.not_over(app_id) >= quotas.open_games:
            raise QuotaExceeded(
                "open-games", f"this app has {quotas.open_games} games open or active already", OPEN_GAMES_RETRY_SECONDS
            )

    async def room(self, app_id: str) -> int | None:
        """How many more games the app may create now (None: its quotas set no bound). Matchmaking
        forms no more than that: a full quota holds the app's queues, whose players wait."""
        quotas = await self.apps.quotas_of(app_id)
        rooms = []
        if quotas.games_per_hour is not None:
            count, _ = await self.counts.created_since(app_id, self.clock.now() - HOUR, imported=False)
            rooms.append(quotas.games_per_hour - count)
        if quotas.open_games is not None:
            rooms.append(quotas.open_games - await self.counts.not_over(app_id))
        return max(0, min(rooms)) if rooms else None

    async def before_import(self, app_id: str) -> None:
        quotas = await self.apps.quotas_of(app_id)
        if quotas.imports_per_hour is not None:
            retry_after = await self._hour_full(app_id, quotas.imports_per_hour, imported=True)
            if retry_after is not None:
                imported = quotas.imports_per_hour
                raise QuotaExceeded(
                    "imports-per-hour", f"this app imported {imported} games in the last hour", retry_after
                )

    async def _hour_full(self, app_id: str, limit: int, imported: bool) -> int | None:
        """Seconds until the app may make one more such game, when it made `limit` in the last hour."""
        now = self.clock.now()
        count, oldest = await self.counts.created_since(app_id, now - HOUR, imported)
        if count < limit:
            return None
        # The window frees a place when its oldest game leaves it.
        free_at: datetime = (oldest or now) + HOUR
        return int((free_at - now).total_seconds()) + 1
