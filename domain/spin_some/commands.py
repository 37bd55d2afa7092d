"""The commands: one per turn, always ending with a card taken.

Baskets are numbered 0..5 clockwise; `steps` names the basket you want relative to yours: after the
command the basket at `front + steps` (mod 6) faces you. Positive steps are called clockwise.

The scoring calculator's body (`ScoreRequest`) is here too: a body a caller sends, decoded as a command is.
"""

from __future__ import annotations

import msgspec


class Take(msgspec.Struct, frozen=True, tag="take", tag_field="type"):
    """No rotation: take the top card (and tokens) of the basket in front of you. When that basket is
    empty and you can neither pay nor spend the squishy bun to reach a non-empty one, this is the forced
    free rotation to the nearest non-empty basket (clockwise first) followed by the take."""


class Rotate(msgspec.Struct, frozen=True, tag="rotate", tag_field="type"):
    """Rotate |steps| (1..5) either way, paying one chopsticks token into each basket that passes in
    front of you, starting with your own; then take."""

    steps: int


class ReturnBun(msgspec.Struct, frozen=True, tag="return-bun", tag_field="type"):
    """Return the squishy bun to the middle and rotate for free to the basket `steps` (1..5) clockwise
    (any basket is reachable, so one direction names them all); then take."""

    steps: int


Command = Take | Rotate | ReturnBun


class ScorePlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: The whole menu, as card slugs.
    cards: tuple[str, ...] = ()
    #: This game has no desserts; any slugs here are counted as part of the menu.
    desserts: tuple[str, ...] = ()
    chopsticks_tokens: int = 0


class ScoreRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    players: tuple[ScorePlayer, ...]
    #: Always scored as the end of the game.
    end_of_game: bool = True
    #: The seat holding the squishy bun, None when it is in the middle.
    squishy_bun: int | None = None
