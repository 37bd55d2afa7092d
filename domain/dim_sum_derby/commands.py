"""Commands of Dim Sum Derby (``{"type": "<kebab-case>", ...}``). Cards are referred to by id.

The scoring calculator's body (`DerbyScoreRequest`) is here too: a body a caller sends, decoded as a command is.
"""

from __future__ import annotations

import msgspec


class Rotate(msgspec.Struct, frozen=True, tag="rotate", tag_field="type"):
    """Move every cart one slot clockwise (1 action)."""


class Serve(msgspec.Struct, frozen=True, tag="serve", tag_field="type"):
    """The top card of the cart in front of you goes to the table (1 action)."""


class Cycle(msgspec.Struct, frozen=True, tag="cycle", tag_field="type"):
    """The top card of the cart in front of you goes to its bottom (1 action)."""


class Eat(msgspec.Struct, frozen=True, tag="eat", tag_field="type"):
    """Put one of your markers on the table dish ``dish`` (a dish card id) (1 action)."""

    dish: int


class DrawDerby(msgspec.Struct, frozen=True, tag="draw-derby", tag_field="type"):
    """Draw a Derby card (2 actions; hand limit 2)."""


class PlayDerby(msgspec.Struct, frozen=True, tag="play-derby", tag_field="type", omit_defaults=True):
    """Play the Derby card ``card`` (1 action). Its parameters, each required by exactly these cards:
    ``dish`` (a table dish: double-helping, send-it-back, switch-plates [from], sharp-elbows),
    ``to`` (switch-plates: the destination table dish), ``target`` (sharp-elbows: the opponent's seat),
    ``yen`` (change-of-heart: the id of one of your yen cards)."""

    card: int
    dish: int | None = None
    to: int | None = None
    target: int | None = None
    yen: int | None = None


class DiscardDerby(msgspec.Struct, frozen=True, tag="discard-derby", tag_field="type"):
    """Discard the Derby card ``card`` face up (no action)."""

    card: int


class Arrange(msgspec.Struct, frozen=True, tag="arrange", tag_field="type"):
    """After Peek in the Kitchen: the peeked cards in their new order, top first (no action)."""

    cards: tuple[int, ...]


DerbyCommand = Rotate | Serve | Cycle | Eat | DrawDerby | PlayDerby | DiscardDerby | Arrange


class DerbyScorePlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One player's tableau for the calculator.

    ``cards``: dish slugs, one entry per portion marker the player put on a dish (scored or still on the
    table: partly eaten dishes count as complete at the end). ``desserts``: more portions, same meaning
    (accepted for the family's generic shape; any dish may be listed there). ``yen``: the dish slugs of
    the player's yen cards, at most one per cart type (usually four). A portion scores only when the
    player holds that dish's yen card; other portions are discarded markers and score nothing.
    """

    cards: tuple[str, ...] = ()
    desserts: tuple[str, ...] = ()
    yen: tuple[str, ...] = ()


class DerbyScoreRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``end_of_game``: apply the -1 per unsatisfied yen card (a yen card with no portion)."""

    players: tuple[DerbyScorePlayer, ...]
    end_of_game: bool = True
