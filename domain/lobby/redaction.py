"""An event as a viewer may see it while the game runs."""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.domain.engine import C, E, Game, S
from kaiten.domain.lobby.events import LOBBY_EVENTS, GameCreated
from kaiten.domain.lobby.table import Table, is_over, rules_of


def redact(game: Game[S, C, E, Any], table: Table[S], event: Any, seat: int | None) -> Any | None:
    """The event as a viewer may see it; everything is public once the game is over."""
    if is_over(table):
        return event
    if isinstance(event, GameCreated):
        return msgspec.structs.replace(event, seed=None, salt=None)
    if isinstance(event, LOBBY_EVENTS):
        return event
    return rules_of(game, table).redact(event, seat)
