"""`kaiten replay`: verify one game through the composition root."""

from __future__ import annotations

from kaiten.api.bootstrap import bootstrap
from kaiten.services.verification import ReplayReport, verify_game


async def replay_game(database_url: str, game_id: str) -> ReplayReport:
    services = bootstrap(database_url)
    try:
        return await verify_game(services.games.store, game_id)
    finally:
        await services.close()
