"""Older shapes of stored events, brought up to the shapes the code decodes (DESIGN.md).

Rows are never rewritten: an event keeps the `schema_version` it was written with, and reading it
runs the chain of small pure steps from that version to the current one. A new shape of an event
type is one more step here and one more in `CURRENT`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kaiten.domain.lobby import LOBBY_EVENTS

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UnknownSchemaVersion(ValueError):
    """A stored event of a shape this code does not know (written by a newer kaiten, or corrupt)."""


def _created_with_salt(data: dict[str, Any]) -> dict[str, Any]:
    """v1 committed to the seed with an unsalted hash, which is the salted formula with an empty salt."""
    upcast = {key: value for key, value in data.items() if key != "seed_hash"}
    upcast["seed_commitment"] = data["seed_hash"]
    upcast["salt"] = None if data.get("seed") is None else ""
    return upcast


def _created_with_rules_version(data: dict[str, Any]) -> dict[str, Any]:
    """v2 had no rules versions: every game created before them plays rules version 1."""
    return {**data, "rules_version": 1}


def _finished_with_salt(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "salt": ""}


#: Whose event types a step reads: the events every game's log shares (domain/lobby/), or one
#: game's, by its id. Two games may name an event type alike (`CardsRevealed`, `RoundScored`) and
#: shape it differently: a step written for one must never touch the other's.
LOBBY = "lobby"

#: (whose, event type, the schema version a step reads) → the step to the next version.
STEPS: dict[tuple[str, str, int], Upcaster] = {
    (LOBBY, "GameCreated", 1): _created_with_salt,
    (LOBBY, "GameCreated", 2): _created_with_rules_version,
    (LOBBY, "GameFinished", 1): _finished_with_salt,
}

#: The schema version the code writes, by (whose, event type); types not listed are at version 1.
CURRENT: dict[tuple[str, str], int] = {(LOBBY, "GameCreated"): 3, (LOBBY, "GameFinished"): 2}

_LOBBY_TYPES = frozenset(event_type.__name__ for event_type in LOBBY_EVENTS)


def _whose(game_id: str, event_type: str) -> str:
    return LOBBY if event_type in _LOBBY_TYPES else game_id


def current_version(game_id: str, event_type: str) -> int:
    """The shape the code writes of `event_type` in a log of the game `game_id`."""
    return CURRENT.get((_whose(game_id, event_type), event_type), 1)


def upcast(game_id: str, event_type: str, schema_version: int, data: dict[str, Any]) -> dict[str, Any]:
    """The event's data in the current shape of its type, in a log of the game `game_id`."""
    whose = _whose(game_id, event_type)
    target = CURRENT.get((whose, event_type), 1)
    if not 1 <= schema_version <= target:
        raise UnknownSchemaVersion(
            f"{event_type} has no schema version {schema_version} (this kaiten knows 1..{target})"
        )
    for version in range(schema_version, target):
        data = STEPS[whose, event_type, version](data)
    return data
