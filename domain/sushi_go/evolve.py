"""`evolve`: one event applied to the state by the handler of its type, never validated (`decide`
did that)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain, filterfalse
from operator import add, itemgetter
from typing import Any

import msgspec

from kaiten.domain.engine import Result, SeatScore, evolver, rank_scores, seat_score
from kaiten.domain.sushi_go.cards import IS_PUDDING
from kaiten.domain.sushi_go.events import CardPicked, CardsRevealed, HandsDealt, PuddingsScored, RoundScored
from kaiten.domain.sushi_go.scoring import CATEGORIES
from kaiten.domain.sushi_go.state import Cards, SushiGoState

_replace = msgspec.structs.replace
#: Every seat, by player count.
SEATS: dict[int, tuple[int, ...]] = {players: tuple(range(players)) for players in range(1, 9)}
#: No seat's pick, and every seat's empty tableau or hand, by player count.
NO_PICKS: dict[int, tuple[Cards, ...]] = {players: ((),) * players for players in range(1, 9)}


def _picked(state: SushiGoState, event: CardPicked) -> SushiGoState:
    seat = event.seat
    awaiting = state.awaiting
    picks = state.picks
    return _replace(
        state,
        # `domain.tuples.replaced` written out: a pick is the hottest event, and a call costs.
        picks=(*picks[:seat], event.cards or (), *picks[seat + 1 :]),
        awaiting=awaiting[1:] if awaiting[0] == seat else tuple([other for other in awaiting if other != seat]),
    )


def _revealed(state: SushiGoState, event: CardsRevealed) -> SushiGoState:
    picks = event.picks
    hands: list[Cards] = []
    # zip without `strict=`: equal lengths by construction, and the keyword costs a parse per call.
    for hand, pick in zip(state.hands, picks):  # noqa: B905
        if len(pick) == 1:
            at = hand.index(pick[0])
            hands.append(hand[:at] + hand[at + 1 :])
        else:
            hands.append(tuple([card for card in hand if card not in pick]))
    tableaus = list(map(add, state.tableaus, picks))
    chopsticks = event.chopsticks
    if chopsticks.count(None) != len(chopsticks):
        for seat, used in enumerate(chopsticks):
            if used is not None:
                hands[seat] += (used,)
                tableaus[seat] = tuple([card for card in tableaus[seat] if card != used])
    players = state.players
    # Seat i passes to seat i + 1: seat i receives the hand of seat i - 1.
    return _replace(
        state,
        turn=event.turn + 1,
        hands=(hands[-1], *hands[:-1]) if hands else (),
        tableaus=tuple(tableaus),
        picks=NO_PICKS[players],
        awaiting=SEATS[players] if hands and len(hands[0]) >= 2 else (),
    )


def _dealt(state: SushiGoState, event: HandsDealt) -> SushiGoState:
    hands = tuple([hand or () for hand in event.hands])
    dealt = set(chain.from_iterable(hands))
    pool: Sequence[int]
    if event.reshuffled:
        pool = sorted((*state.deck, *state.discards))
        discards: Cards = ()
    else:
        pool = state.deck
        discards = state.discards
    players = state.players
    return _replace(
        state,
        round=event.round,
        turn=1,
        # Filtered at C speed: the deck is most of the cards.
        deck=tuple(filterfalse(dealt.__contains__, pool)),
        hands=hands,
        discards=discards,
        picks=NO_PICKS[players],
        awaiting=SEATS[players] if event.hand_size else (),
    )


def _round_scored(state: SushiGoState, event: RoundScored) -> SushiGoState:
    tableaus = state.tableaus
    played = [card for tableau in tableaus for card in tableau]
    if any(map(IS_PUDDING.__getitem__, played)):
        puddings = tuple(
            [
                kept + tuple([card for card in tableau if IS_PUDDING[card]])
                for kept, tableau in zip(state.puddings, tableaus)  # noqa: B905 (equal lengths)
            ]
        )
        played = [card for card in played if not IS_PUDDING[card]]
    else:
        puddings = state.puddings
    players = state.players
    return _replace(
        state,
        totals=_added(state.totals, event.scores),
        scored=(*state.scored, event.scores),
        puddings=puddings,
        discards=(*state.discards, *played),
        tableaus=NO_PICKS[players],
        hands=NO_PICKS[players],
        awaiting=(),
    )


def _added(totals: tuple[int, ...], scores: Sequence[SeatScore]) -> tuple[int, ...]:
    """Each seat's total with its score added."""
    return tuple([total + score.total for total, score in zip(totals, scores)])  # noqa: B905 (equal lengths)


def _puddings_scored(state: SushiGoState, event: PuddingsScored) -> SushiGoState:
    scored = (*state.scored, event.scores)
    return _replace(
        state,
        totals=_added(state.totals, event.scores),
        scored=scored,
        awaiting=(),
        result=final_result(scored, event.puddings),
    )


_HANDLERS: dict[type, Callable[[SushiGoState, Any], SushiGoState]] = {
    CardPicked: _picked,
    CardsRevealed: _revealed,
    HandsDealt: _dealt,
    RoundScored: _round_scored,
    PuddingsScored: _puddings_scored,
}
evolve = evolver(_HANDLERS)


#: A breakdown's points in the order of `CATEGORIES` (KeyError when one lacks a category).
_POINTS = itemgetter(*CATEGORIES)


def final_result(scored: Sequence[Sequence[SeatScore]], puddings: Sequence[int]) -> Result:
    """Add up every scored round per seat and category; rank by total, then by puddings."""
    scores = []
    for seat in range(len(puddings)):
        rows = [stage[seat].breakdown for stage in scored]
        try:
            # Every recorded breakdown has every category: the columns are summed at C speed.
            breakdown = dict(zip(CATEGORIES, map(sum, zip(*map(_POINTS, rows)))))  # noqa: B905
        except KeyError:
            breakdown = {}
        if len(breakdown) != len(CATEGORIES):
            breakdown = {category: sum([row.get(category, 0) for row in rows]) for category in CATEGORIES}
        scores.append(seat_score(seat, breakdown))
    return rank_scores(scores, tiebreak=puddings)
