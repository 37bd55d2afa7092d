"""What a viewer sees: every basket's top card and tokens, every menu, token count and the bun holder.
Nobody, spectators included, sees a card below the top of a basket until it surfaces."""

from __future__ import annotations

import msgspec

from kaiten.domain.engine import CardId, CardIds
from kaiten.domain.spin_some.cards import CARD_SLUG
from kaiten.domain.spin_some.events import BasketsFilled
from kaiten.domain.spin_some.state import BASKETS, SpinState, is_over


class BasketView(msgspec.Struct, frozen=True, gc=False):
    basket: int
    #: The visible top card, None when the basket is empty (`top_slug` repeats its slug).
    top: CardId | None
    top_slug: str | None
    #: How many cards remain in it (the top included).
    cards: int
    tokens: int
    #: The seat it faces, None when it faces nobody (fewer than 6 players).
    facing: int | None


class PlayerView(msgspec.Struct, frozen=True, gc=False):
    seat: int
    #: The basket in front of this seat.
    basket: int
    menu: CardIds
    tokens: int
    squishy_bun: bool


class SpinView(msgspec.Struct, frozen=True, gc=False):
    #: The viewer's seat, None for a spectator.
    seat: int | None
    #: Whose turn it is, None once the game is over.
    current: int | None
    #: The basket facing seat s is (s + rotation) % 6.
    rotation: int
    baskets: tuple[BasketView, ...]
    players: tuple[PlayerView, ...]
    #: The seat holding the squishy bun, None when it is in the middle.
    squishy_bun: int | None


def view(state: SpinState, seat: int | None) -> SpinView:
    players = state.players
    rotation = state.rotation
    piles = state.piles
    baskets = []
    for basket in range(BASKETS):
        facing = (basket - rotation) % BASKETS
        if piles:
            pile = piles[basket]
            depth = state.depth[basket]
            card = pile[depth] if depth < len(pile) else None
            left = len(pile) - depth
        else:
            card, left = None, 0
        baskets.append(
            BasketView(
                basket=basket,
                top=card,
                top_slug=None if card is None else CARD_SLUG[card],
                cards=left,
                tokens=state.basket_tokens[basket],
                facing=facing if facing < players else None,
            )
        )
    bun = state.bun
    return SpinView(
        seat=seat,
        current=None if is_over(state) else state.current,
        rotation=rotation,
        baskets=tuple(baskets),
        players=tuple(
            PlayerView(
                seat=s,
                basket=(s + rotation) % BASKETS,
                menu=state.menus[s],
                tokens=state.tokens[s],
                squishy_bun=bun == s,
            )
            for s in range(players)
        ),
        squishy_bun=bun,
    )


def redact(event: object, seat: int | None) -> object | None:
    """Every event is public except the piles' order below their top cards."""
    if isinstance(event, BasketsFilled) and event.piles is not None:
        return msgspec.structs.replace(event, piles=None)
    return event
