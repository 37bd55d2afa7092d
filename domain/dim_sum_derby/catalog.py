"""What the catalog shows of Dim Sum Derby: its dishes, carts, yen decks, Derby cards and numbers."""

from __future__ import annotations

import msgspec

from kaiten.domain.dim_sum_derby.cards import (
    ACTIONS_PER_TURN,
    CART_DECKS,
    CART_NAMES,
    CART_SLUGS,
    CART_TYPES,
    COPIES,
    DERBY_COPIES,
    DERBY_HAND_LIMIT,
    DERBY_KINDS,
    DISHES,
    HOUSE_CONTENT,
    KITCHEN_LEFT,
    KITCHEN_RIGHT,
    MARKERS,
    ROUND_LIMIT,
    TABLE_LIMIT,
    YEN_DECKS,
)

_NOTE = (
    "House content: the rules seed has no card lists, so the dishes, portions, yen decks and Derby "
    "cards are the project's own."
)


class DishKind(msgspec.Struct, frozen=True):
    """A dish: its copies in its cart's deck and its yen card."""

    slug: str
    name: str
    count: int
    scoring: str
    #: The slug of the cart the dish comes on.
    cart: str
    portions: int
    ids: list[int]
    #: The id of the dish's yen card.
    yen_id: int
    house_content: bool


class CartDish(msgspec.Struct, frozen=True):
    slug: str
    portions: int
    copies: int


class Cart(msgspec.Struct, frozen=True):
    slug: str
    name: str
    #: Cards in the cart's deck.
    cards: int
    dishes: list[CartDish]


class YenCard(msgspec.Struct, frozen=True):
    id: int
    #: The slug of the dish the card pays for.
    dish: str


class YenDeck(msgspec.Struct, frozen=True):
    cart: str
    cards: list[YenCard]


class DerbyCardKind(msgspec.Struct, frozen=True):
    slug: str
    name: str
    count: int
    effect: str
    ids: list[int]


class Numbers(msgspec.Struct, frozen=True):
    markers: int
    actions_per_turn: int
    table_limit: int
    derby_hand_limit: int
    round_limit: int
    #: Where the Kitchen sits (rules versions differ).
    kitchen: str


class Details(msgspec.Struct, frozen=True):
    house_content: bool
    note: str
    cards: list[DishKind]
    carts: list[Cart]
    yen_decks: list[YenDeck]
    derby_cards: list[DerbyCardKind]
    rules: Numbers


def details(kitchen_left: bool) -> Details:
    return Details(
        house_content=HOUSE_CONTENT,
        note=_NOTE,
        cards=[
            DishKind(
                slug=dish.slug,
                name=dish.name,
                count=COPIES,
                scoring=(
                    f"{dish.portions} portions; each portion you eat scores 1 if you hold its yen card, "
                    "else the marker is discarded"
                ),
                cart=CART_SLUGS[dish.cart],
                portions=dish.portions,
                ids=list(range(index * COPIES, (index + 1) * COPIES)),
                yen_id=index,
                house_content=True,
            )
            for index, dish in enumerate(DISHES)
        ],
        carts=[
            Cart(
                slug=CART_SLUGS[cart],
                name=CART_NAMES[cart],
                cards=len(CART_DECKS[cart]),
                dishes=[
                    CartDish(slug=DISHES[d].slug, portions=DISHES[d].portions, copies=COPIES) for d in YEN_DECKS[cart]
                ],
            )
            for cart in range(CART_TYPES)
        ],
        yen_decks=[
            YenDeck(cart=CART_SLUGS[cart], cards=[YenCard(id=d, dish=DISHES[d].slug) for d in YEN_DECKS[cart]])
            for cart in range(CART_TYPES)
        ],
        derby_cards=[
            DerbyCardKind(
                slug=kind.slug,
                name=kind.name,
                count=DERBY_COPIES,
                effect=kind.effect,
                ids=list(range(index * DERBY_COPIES, (index + 1) * DERBY_COPIES)),
            )
            for index, kind in enumerate(DERBY_KINDS)
        ],
        rules=Numbers(
            markers=MARKERS,
            actions_per_turn=ACTIONS_PER_TURN,
            table_limit=TABLE_LIMIT,
            derby_hand_limit=DERBY_HAND_LIMIT,
            round_limit=ROUND_LIMIT,
            kitchen=KITCHEN_LEFT if kitchen_left else KITCHEN_RIGHT,
        ),
    )
