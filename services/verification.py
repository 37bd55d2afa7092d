"""Rebuilding a game from its log and checking the stored table against it."""

from __future__ import annotations

from typing import Any

import msgspec

from services.loading import load_game
from services.ports import EventStore
from services.presenting import summary_of

#: The summary fields that must follow from the log alone (timestamps come from the clock).
DERIVED_FIELDS = (
    "game",
    "status",
    "version",
    "players",
    "options",
    "seats",
    "awaiting",
    "result",
    "token_hashes",
)


class ReplayReport(msgspec.Struct, frozen=True):
    game_id: str
    game: str
    status: str
    version: int
    result: dict[str, object] | None
    #: The fields in which the stored table differs from the one the log gives.
    drift: list[str]


async def verify_game(store: EventStore, game_id: str) -> ReplayReport:
    loaded = await load_game(store, game_id)
    rebuilt = summary_of(
        loaded.game_id,
        loaded.game,
        loaded.table,
        loaded.version,
        loaded.token_hashes(),
        loaded.stored[0].recorded_at,
        loaded.stored[-1].recorded_at,
    )
    stored = await store.summary(loaded.game_id)
    if stored is None:
        drift = list(DERIVED_FIELDS)
    else:
        drift = [f for f in DERIVED_FIELDS if _as_json(getattr(stored, f)) != _as_json(getattr(rebuilt, f))]
    return ReplayReport(
        game_id=loaded.game_id,
        game=rebuilt.game,
        status=rebuilt.status,
        version=rebuilt.version,
        result=rebuilt.result,
        drift=drift,
    )


def _as_json(value: Any) -> Any:
    """The value as it reads back from JSON: the stored table went through JSON, the rebuilt one did
    not (its tuples would never equal the lists stored), and key order does not matter."""
    return msgspec.json.decode(msgspec.json.encode(value))
