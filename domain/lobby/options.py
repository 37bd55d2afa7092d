"""A game's creation options: the game's own, and the turn clock every game takes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from kaiten.domain.clock import ClockOptions
from kaiten.domain.engine import AnyGame, RuleViolation
from kaiten.domain.lobby.table import Table

#: The key of `options` that every game takes, beside its own options (see `domain/clock.py`).
CLOCK_OPTION = "clock"


def parse_options(game: AnyGame, options: Mapping[str, Any] | None, players: int) -> Any:
    """The game's own options (the clock, which every game takes, is `parse_clock`'s)."""
    own = {key: value for key, value in (options or {}).items() if key != CLOCK_OPTION}
    try:
        parsed = msgspec.convert(own, game.options_type)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid options for {game.id}: {exc}") from None
    game.check_options(parsed, players)
    return parsed


def parse_clock(options: Mapping[str, Any] | None) -> ClockOptions | None:
    clock = (options or {}).get(CLOCK_OPTION)
    if clock is None:
        return None
    try:
        return msgspec.convert(clock, ClockOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("invalid-options", f"invalid clock: {exc}") from None


def recorded_options(table: Table[Any]) -> dict[str, Any]:
    """The options as GameCreated recorded them: the game's own and the clock."""
    clocked = {} if table.clock is None else {CLOCK_OPTION: msgspec.to_builtins(table.clock)}
    return {**msgspec.to_builtins(table.options), **clocked}
