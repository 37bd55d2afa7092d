"""Argument checks every EventStore implementation applies the same way before touching storage."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from kaiten.services.ports import Clock, GameSummary, NewEvent


def check_append(
    stream_id: str, expected_version: int, events: Sequence[NewEvent], summary: GameSummary | None
) -> None:
    """Refuse appends that are programming errors rather than races (those raise ConcurrencyConflict)."""
    if expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, not {expected_version}")
    if not events:
        raise ValueError("append needs at least one event")
    if summary is None:
        return
    if summary.game_id != stream_id:
        raise ValueError(f"summary of game {summary.game_id} appended to stream {stream_id}")
    # The summary describes the stream right after this append, or the read model would lie.
    if summary.version != expected_version + len(events):
        raise ValueError(f"summary version {summary.version} != {expected_version} + {len(events)} appended events")


def check_limit(limit: int | None) -> None:
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, not {limit}")


def recorded_now(clock: Clock | None) -> datetime:
    """The time stamped on appended events: the clock's, in UTC, else the system's."""
    now = datetime.now(UTC) if clock is None else clock.now()
    if now.tzinfo is None:
        raise ValueError(f"the clock gave a naive datetime {now!r}: it must be aware (UTC)")
    return now.astimezone(UTC)
