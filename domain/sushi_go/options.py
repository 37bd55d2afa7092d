"""The options a game of Sushi Go! is created with (none)."""

from __future__ import annotations

import msgspec


class SushiGoOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Sushi Go! has no options."""
