"""Rebuilding a game from its log and checking the stored table against it.

The log itself goes through the checks of an import first (services/logs.py: contiguous versions,
known types and schema versions, it folds under its rules version, and, once the game is finished,
the recorded result is the one the rules work out), on the stored rows as they are.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.services.loading import check_game_id, load_game
from kaiten.services.logs import InvalidLog, check_events
from kaiten.services.ports import EventStore
from kaiten.services.summaries import summary_of

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
    #: Why the log fails the checks of an import (`code`, first failing `version`, `message`), if it does.
    problem: dict[str, object] | None = None


async def check_stored_log(store: EventStore, game_id: str) -> dict[str, object] | None:
    """The import's checks on a stored log (None: it passes); a running game need not be finished."""
    rows = await store.read(check_game_id(game_id))
    events = [
        {
            "version": row.version,
            "type": row.type,
            "schema_version": row.schema_version,
            "data": {key: value for key, value in msgspec.json.decode(row.data).items() if key != "type"},
        }
        for row in rows
    ]
    try:
        check_events(events, finished=False)
    except InvalidLog as refused:
        return {"code": refused.code, "version": refused.version, "message": refused.message}
    return None


async def verify_game(store: EventStore, game_id: str) -> ReplayReport:
    problem = await check_stored_log(store, game_id)
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
        problem=problem,
    )


def _as_json(value: Any) -> Any:
    """The value as it reads back from JSON: the stored table went through JSON, the rebuilt one did
    not (its tuples would never equal the lists stored), and key order does not matter."""
    return msgspec.json.decode(msgspec.json.encode(value))
