"""The options a game of Spin Some for Dim Sum is created with."""

from __future__ import annotations

import msgspec


class SpinOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: The seat that "ate dim sum most recently" and plays first.
    first_player: int = 0
