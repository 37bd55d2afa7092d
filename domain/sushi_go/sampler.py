"""Determinizations for the search bots (`domain.mcts`): full Sushi Go! states consistent with a view.

A seat cannot see the deck, nor the hands that have not passed through its own hands this round
(`SushiGoView.known_hands` holds those that have). Every card it has not seen (not in its hand, a
known hand, a tableau, the kept puddings or the discards) is dealt uniformly among those places.

Other seats' hidden picks of the turn are not made in a sample: those seats are awaited again, so the
search treats their picks as simultaneous with the seat's own instead of drawing them at random.
"""

from __future__ import annotations

from collections.abc import Hashable

from kaiten.domain.chance import Chance
from kaiten.domain.sushi_go.cards import ALL_CARDS, KIND
from kaiten.domain.sushi_go.commands import Pick
from kaiten.domain.sushi_go.state import Cards, SushiGoState
from kaiten.domain.sushi_go.view import SushiGoView


def seat(view: SushiGoView) -> int:
    assert view.seat is not None, "a spectator has no seat to search for"
    return view.seat


def remembered(view: SushiGoView) -> tuple[tuple[Cards | None, ...], Cards]:
    """The hands the seat knows and the discard pile, which only a seat's view holds."""
    assert view.known_hands is not None and view.discard_pile is not None, "a spectator has no seat to search for"
    return view.known_hands, view.discard_pile


def unseen_cards(view: SushiGoView) -> list[int]:
    """The cards the viewer has not seen, ascending."""
    known_hands, discard_pile = remembered(view)
    seen: set[int] = set(discard_pile)
    for cards in (*view.tableaus, *view.puddings):
        seen.update(cards)
    for hand in known_hands:
        if hand is not None:
            seen.update(hand)
    return [card for card in ALL_CARDS if card not in seen]


def sample(view: SushiGoView, chance: Chance) -> SushiGoState:
    own = seat(view)
    players = view.players
    known_hands, discard_pile = remembered(view)
    unseen = unseen_cards(view)
    hidden = [other for other, hand in enumerate(known_hands) if hand is None]
    dealt = chance.sample(unseen, view.hand_size * len(hidden))
    hands = list(known_hands)
    for index, other in enumerate(hidden):
        hands[other] = tuple(dealt[index * view.hand_size : (index + 1) * view.hand_size])
    in_hands = set(dealt)
    deck = tuple([card for card in unseen if card not in in_hands])
    picks: list[Cards] = [()] * players
    picks[own] = view.pick
    awaiting = view.awaiting
    if awaiting:
        awaiting = tuple([other for other in range(players) if other != own or own in view.awaiting])
    return SushiGoState(
        players=players,
        round=view.round,
        turn=view.turn,
        deck=deck,
        hands=tuple([hand or () for hand in hands]),
        picks=tuple(picks),
        awaiting=awaiting,
        tableaus=view.tableaus,
        puddings=view.puddings,
        discards=discard_pile,
        totals=view.totals,
        scored=view.scored,
        result=view.result,
    )


def move_key(command: Pick) -> Hashable:
    """A pick is the kinds it takes, in order (two copies of a card are the same move)."""
    return tuple([KIND[card] for card in command.cards])
