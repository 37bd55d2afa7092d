"""What a table's chance is seeded with, and the commitment that hides the seed until the end."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from kaiten.domain.chance import Chance
from kaiten.domain.lobby.table import Table


def commit_to_seed(seed: int, salt: bytes) -> str:
    """A commitment that hides the seed until it is revealed (API.md, "Fair shuffles").

    The salt, fresh for each game, is what keeps a small chosen seed from being found by trying
    seeds against the commitment.
    """
    return hashlib.sha256(salt + str(seed).encode("ascii")).hexdigest()


def chance_key(table: Table[Any]) -> int | str:
    """What the game's chance is seeded with. Since the salt feeds it (`seed+salt`), the seed and the
    secret salt together: nobody can deal a chosen seed's games offline and find the deal before the
    salt is revealed at the end, while seed and salt together reproduce the game exactly. Logs
    recorded before keep the seed alone, which dealt them."""
    if table.chance_from == "seed":
        return table.seed
    return _salted_key(table.salt, table.seed)


@functools.lru_cache(maxsize=4096)
def _salted_key(salt: str, seed: int) -> str:
    # Kept per game: every command of a game asks for it again (a SHA-256 each time otherwise).
    return hashlib.sha256(b"kaiten-chance:" + bytes.fromhex(salt) + str(seed).encode("ascii")).hexdigest()


def rules_chance(table: Table[Any], version: int) -> Chance:
    """The rules' chance for what is decided after `version` events (shuffles, draws, deals)."""
    return Chance(chance_key(table), version)


def seat_chance(table: Table[Any], version: int, seat: int) -> Chance:
    """A bot's own chance for its decision after `version` events: not the rules' stream, so a bot
    learns nothing about hidden cards from its own randomness."""
    return Chance(chance_key(table), version, "bot", seat)
