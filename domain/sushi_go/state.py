"""The state of a Sushi Go! game: tuples of card ids, cheap to copy with `msgspec.structs.replace`.

The 108 cards are always somewhere: `deck + hands + picks + tableaus + puddings + discards`
(a pending pick stays in its hand until the reveal, so picks are not counted twice).
"""

from __future__ import annotations

import msgspec

from kaiten.domain.engine import Result, SeatScore
from kaiten.domain.sushi_go.cards import ALL_CARDS

Cards = tuple[int, ...]


class SushiGoState(msgspec.Struct, frozen=True, gc=False):
    players: int
    #: 1..3 once dealt (0 before the first deal).
    round: int = 0
    #: 1..hand size within a round.
    turn: int = 0
    #: Undealt cards, ascending ids (the order is drawn when dealing, never stored).
    deck: Cards = ALL_CARDS
    hands: tuple[Cards, ...] = ()
    #: This turn's hidden picks, () for a seat that has not picked yet; the cards stay in the hand.
    picks: tuple[Cards, ...] = ()
    #: Seats that still have to pick this turn, ascending.
    awaiting: tuple[int, ...] = ()
    #: Cards played this round, in play order.
    tableaus: tuple[Cards, ...] = ()
    #: Puddings kept for the whole game.
    puddings: tuple[Cards, ...] = ()
    #: Cards of finished rounds (puddings excepted), reshuffled when the deck runs out.
    discards: Cards = ()
    #: Total points so far, per seat.
    totals: tuple[int, ...] = ()
    #: Every scored round (then the puddings), per seat.
    scored: tuple[tuple[SeatScore, ...], ...] = ()
    result: Result | None = None


def initial_state(players: int) -> SushiGoState:
    empty: tuple[Cards, ...] = ((),) * players
    return SushiGoState(
        players=players,
        hands=empty,
        picks=empty,
        tableaus=empty,
        puddings=empty,
        totals=(0,) * players,
    )
