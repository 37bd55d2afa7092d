"""Creation options of Dim Sum Derby."""

from __future__ import annotations

import msgspec

from kaiten.domain.engine import RuleViolation


class DerbyOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``first_player``: the seat that starts ("whoever ate the longest ago"); play goes clockwise."""

    first_player: int = 0


def check_options(options: DerbyOptions, players: int) -> None:
    if not 0 <= options.first_player < players:
        raise RuleViolation(
            "invalid-options", f"first_player must be a seat from 0 to {players - 1}, not {options.first_player}"
        )
