"""The events of Sushi Go!: chance outcomes (dealt hands) are written into them, so replay never draws.

Tags are the class names. A redacted copy (see `view.redact`) keeps the type and hides card ids with
None: another seat's dealt hand, another seat's unrevealed pick.
"""

from __future__ import annotations

import typing

import msgspec

from kaiten.domain.engine import SeatScore


class HandsDealt(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A round's hands, one per seat (None in a redacted copy: another seat's hidden hand)."""

    round: int
    hand_size: int
    hands: tuple[tuple[int, ...] | None, ...]
    #: The deck ran out while dealing: every discard (never a kept pudding) was shuffled into it.
    reshuffled: bool = False


class CardPicked(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """A seat chose its card(s) for this turn, face down (cards is None in other seats' copies)."""

    seat: int
    cards: tuple[int, ...] | None


class CardsRevealed(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """Every seat's pick goes into its tableau in the listed order, then the hands pass left."""

    round: int
    turn: int
    picks: tuple[tuple[int, ...], ...]
    #: Per seat, the chopsticks card that went back into the passed hand (None: no chopsticks used).
    chopsticks: tuple[int | None, ...]
    #: The last card of the round, placed automatically for every seat.
    auto: bool = False


class RoundScored(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The round's points per seat; then every card but the puddings is discarded."""

    round: int
    scores: tuple[SeatScore, ...]


class PuddingsScored(msgspec.Struct, frozen=True, tag=True, tag_field="type", gc=False):
    """The end of the game: puddings kept by each seat and their points."""

    puddings: tuple[int, ...]
    scores: tuple[SeatScore, ...]


#: Every event of the game, as one type.
SushiGoEvent = HandsDealt | CardPicked | CardsRevealed | RoundScored | PuddingsScored
EVENT_TYPES: tuple[type[msgspec.Struct], ...] = typing.get_args(SushiGoEvent)
