"""What a viewer may see: a seat sees its own hand and pending pick; everyone sees the tableaus, the
kept puddings, the discards, the scores, the deck size and which seats still have to pick. Nobody sees
another seat's unrevealed pick, nor a hand that has not passed through their own hands this round. A
spectator (seat None) sees only public facts.

A seat remembers the hands it passed on this round: the hand now held `d` seats to its left is the one
it held `d` turns ago, and every change made to it since was public (revealed picks, chopsticks put
back). `known_hands` hands a seat what it has legitimately seen, so that a bot, which is built afresh
for every decision and remembers nothing, knows what a person at that seat would.
"""

from __future__ import annotations

from typing import Any

import msgspec

from kaiten.domain.engine import CardIds, Result, SeatScore
from kaiten.domain.sushi_go.events import CardPicked, HandsDealt
from kaiten.domain.sushi_go.state import SushiGoState


class SushiGoView(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    #: The viewer's seat, None for a spectator.
    seat: int | None
    players: int
    round: int
    turn: int
    #: Cards in every hand (all hands have the same size).
    hand_size: int
    #: The viewer's hand, () for a spectator.
    hand: CardIds
    #: The viewer's hidden pick this turn, () when it has not picked (or for a spectator).
    pick: CardIds
    #: Seats that still have to pick this turn.
    awaiting: tuple[int, ...]
    #: Cards played this round per seat, in play order.
    tableaus: tuple[CardIds, ...]
    #: Puddings kept per seat.
    puddings: tuple[CardIds, ...]
    #: Points so far per seat.
    totals: tuple[int, ...]
    #: Every scored round so far (then the puddings), per seat with a breakdown.
    scored: tuple[tuple[SeatScore, ...], ...]
    deck_size: int
    discards: int
    result: Result | None
    # What a seat remembers, for bots and clients that keep no history. A spectator's view leaves
    # these out (None), as it always has.
    #: Per seat, its current hand if the viewer knows it (its own, and every hand that passed through
    #: the viewer's hands this round, pending picks included), else None.
    known_hands: tuple[CardIds | None, ...] | None = None
    #: The discards' card ids (every one was played face up in an earlier round).
    discard_pile: CardIds | None = None


def view(state: SushiGoState, seat: int | None) -> SushiGoView:
    own = seat is not None and 0 <= seat < state.players
    hands = state.hands
    return SushiGoView(
        seat,
        state.players,
        state.round,
        state.turn,
        len(hands[0]) if hands else 0,
        hands[seat] if own and seat is not None else (),
        state.picks[seat] if own and seat is not None else (),
        state.awaiting,
        state.tableaus,
        state.puddings,
        state.totals,
        state.scored,
        len(state.deck),
        len(state.discards),
        state.result,
        known_hands(state, seat) if own and seat is not None else None,
        state.discards if own else None,
    )


def known_hands(state: SushiGoState, seat: int) -> tuple[CardIds | None, ...]:
    """The seat's own hand and those `d` seats to its left for `d` < turn (hands pass left)."""
    players = state.players
    known: list[CardIds | None] = [None] * players
    if not state.hands:
        return tuple(known)
    for distance in range(min(state.turn, players)):
        other = (seat + distance) % players
        known[other] = state.hands[other]
    return tuple(known)


def redact(event: Any, seat: int | None) -> Any | None:
    """Hide other seats' dealt hands and unrevealed picks (None in place of their card ids)."""
    kind = type(event)
    if kind is HandsDealt:
        hands = tuple([hand if index == seat else None for index, hand in enumerate(event.hands)])
        return msgspec.structs.replace(event, hands=hands)
    if kind is CardPicked and event.seat != seat:
        return msgspec.structs.replace(event, cards=None)
    return event
