"""What text the services take from clients: names and ids are printable."""

from __future__ import annotations

import re

from services.errors import ServiceError

#: No control characters: they have no place in a name or an id, and PostgreSQL refuses NUL outright.
PRINTABLE = "^[^\\x00-\\x1f\\x7f]*$"


#: The longest player_id an app may name.
MAX_PLAYER_ID = 200


def check_player_id(player_id: str) -> str:
    """A player_id as a query names one: 1..MAX_PLAYER_ID characters, none of them a control character."""
    if not 1 <= len(player_id) <= MAX_PLAYER_ID or not re.fullmatch(PRINTABLE, player_id):
        raise ServiceError(
            "invalid",
            "invalid-player-id",
            f"player_id takes 1..{MAX_PLAYER_ID} characters, none of them a control character",
        )
    return player_id
