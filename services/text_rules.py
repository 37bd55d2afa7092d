"""What text enters a game's records from clients: one check for names and player ids, wherever they
come from (a new game's seats, a seat taken, an imported log, a rematch of an old log).

Text is kept in Unicode's composed form (NFC), so that one name typed two ways is one name, and one
player_id sent two ways is one player; it is bounded, and holds no control character (they have no
place in a name or an id, and PostgreSQL refuses NUL outright).
"""

from __future__ import annotations

import re
import unicodedata

from kaiten.services.errors import ServiceError

#: No control characters (the API's schemas state it as a pattern too).
PRINTABLE = "^[^\\x00-\\x1f\\x7f]*$"
_CONTROL = re.compile("[\\x00-\\x1f\\x7f]")

#: The longest name a seat shows, and the longest player_id an app may name.
MAX_NAME = 100
MAX_PLAYER_ID = 200


def cleaned(text: str, longest: int) -> str | None:
    """The text in composed form, if it is 1..`longest` characters with no control character."""
    composed = unicodedata.normalize("NFC", text)
    if not 1 <= len(composed) <= longest or _CONTROL.search(composed):
        return None
    return composed


def clean_name(name: str) -> str:
    clean = cleaned(name, MAX_NAME)
    if clean is None:
        raise ServiceError(
            "invalid", "invalid-name", f"a seat's name takes 1..{MAX_NAME} characters, none of them a control character"
        )
    return clean


def check_player_id(player_id: str) -> str:
    clean = cleaned(player_id, MAX_PLAYER_ID)
    if clean is None:
        raise ServiceError(
            "invalid",
            "invalid-player-id",
            f"player_id takes 1..{MAX_PLAYER_ID} characters, none of them a control character",
        )
    return clean


def has_control_character(text: str) -> bool:
    return _CONTROL.search(text) is not None
