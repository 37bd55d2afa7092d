"""Determinizations for the search bots (`domain.mcts`): full Spin Some for Dim Sum states consistent
with a view.

Everyone sees every basket's top card and size; nobody sees a card below a top. Every card that is
neither on a menu nor on top of a basket is dealt uniformly below the tops. A card below a top was never
seen by anyone (it surfaces only when the card above it is taken), so there is nothing more to respect.
"""

from __future__ import annotations

from collections.abc import Hashable

from kaiten.domain.chance import Chance
from kaiten.domain.spin_some.cards import DECK
from kaiten.domain.spin_some.commands import Command
from kaiten.domain.spin_some.state import SpinState
from kaiten.domain.spin_some.view import SpinView


def seat(view: SpinView) -> int:
    assert view.seat is not None, "a spectator has no seat to search for"
    return view.seat


def unseen_cards(view: SpinView) -> list[int]:
    """The cards below the tops, ascending (every card not on a menu or on top of a basket)."""
    seen = {basket.top for basket in view.baskets if basket.top is not None}
    for player in view.players:
        seen.update(player.menu)
    return [card for card in DECK if card not in seen]


def sample(view: SpinView, chance: Chance) -> SpinState:
    unseen = chance.shuffled(unseen_cards(view))
    piles: list[tuple[int, ...]] = []
    at = 0
    for basket in view.baskets:
        if basket.top is None:
            piles.append(())
            continue
        below = basket.cards - 1
        piles.append((basket.top, *unseen[at : at + below]))
        at += below
    players = len(view.players)
    return SpinState(
        players=players,
        # Once the game is over nobody's turn comes again; any seat will do.
        current=view.current if view.current is not None else 0,
        rotation=view.rotation,
        piles=tuple(piles),
        depth=(0,) * len(piles),
        basket_tokens=tuple([basket.tokens for basket in view.baskets]),
        tokens=tuple([player.tokens for player in view.players]),
        menus=tuple([player.menu for player in view.players]),
        bun=view.squishy_bun,
        taken=sum([len(player.menu) for player in view.players]),
        left=sum([basket.cards for basket in view.baskets]),
    )


def move_key(command: Command) -> Hashable:
    """Commands name baskets, not cards: each is a move of its own."""
    return command
