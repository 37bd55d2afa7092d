"""House content of Dim Sum Derby: dishes, portions, yen cards and Derby cards.

The rules seed has no card lists; everything in this module is **house content** (our decision, see the
rules spec). It is the only module to change when a corrected card list arrives.

Card ids (one int per physical card):
- dish cards 0..59: ``dish * COPIES + copy`` where ``dish`` indexes ``DISHES``;
- yen cards 0..19: the yen card of a dish has the dish's index;
- Derby cards 0..15: ``kind * DERBY_COPIES + copy`` where ``kind`` indexes ``DERBY_KINDS``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

HOUSE_CONTENT: Final = True

CART_SLUGS: Final = ("steam-cart", "side-dish", "main-dish", "dessert")
CART_NAMES: Final = ("Steam cart", "Side dish", "Main dish", "Dessert")
STEAM, SIDE, MAIN, DESSERT = range(4)
CART_TYPES: Final = 4


class Dish(NamedTuple):
    slug: str
    name: str
    cart: int
    portions: int


def _cart(cart: int, dishes: tuple[tuple[str, str, int], ...]) -> tuple[Dish, ...]:
    return tuple(Dish(slug, name, cart, portions) for slug, name, portions in dishes)


DISHES: Final[tuple[Dish, ...]] = (
    *_cart(
        STEAM,
        (
            ("har-gow", "Har gow", 3),
            ("siu-mai", "Siu mai", 3),
            ("char-siu-bao", "Char siu bao", 4),
            ("chicken-feet", "Chicken feet", 2),
            ("lo-mai-gai", "Lo mai gai", 3),
        ),
    ),
    *_cart(
        SIDE,
        (
            ("spring-rolls", "Spring rolls", 3),
            ("turnip-cake", "Turnip cake", 2),
            ("taro-puffs", "Taro puffs", 2),
            ("gai-lan", "Gai lan", 3),
            ("congee", "Congee", 4),
        ),
    ),
    *_cart(
        MAIN,
        (
            ("cheung-fun", "Cheung fun", 3),
            ("roast-duck", "Roast duck", 4),
            ("salt-pepper-squid", "Salt and pepper squid", 3),
            ("spare-ribs", "Spare ribs", 3),
            ("fried-rice", "Fried rice", 4),
        ),
    ),
    *_cart(
        DESSERT,
        (
            ("egg-tarts", "Egg tarts", 3),
            ("mango-pudding", "Mango pudding", 2),
            ("sesame-balls", "Sesame balls", 3),
            ("tofu-fa", "Tofu fa", 2),
            ("coconut-jelly", "Coconut jelly", 3),
        ),
    ),
)
DISHES_PER_CART: Final = 5
COPIES: Final = 3
DISH_CARDS: Final = len(DISHES) * COPIES  # 60
YEN_CARDS: Final = len(DISHES)  # 20

#: Per dish card id: its dish index, its cart type and its portion capacity.
CARD_DISH: Final[tuple[int, ...]] = tuple(card // COPIES for card in range(DISH_CARDS))
CARD_CART: Final[tuple[int, ...]] = tuple(DISHES[d].cart for d in CARD_DISH)
CARD_PORTIONS: Final[tuple[int, ...]] = tuple(DISHES[d].portions for d in CARD_DISH)
#: The cards of each cart deck and of each yen deck, by cart type.
CART_DECKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(card for card in range(DISH_CARDS) if CARD_CART[card] == cart) for cart in range(CART_TYPES)
)
YEN_DECKS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(d for d in range(YEN_CARDS) if DISHES[d].cart == cart) for cart in range(CART_TYPES)
)
DISH_BY_SLUG: Final[dict[str, int]] = {dish.slug: index for index, dish in enumerate(DISHES)}


class DerbyKind(NamedTuple):
    slug: str
    name: str
    effect: str


LAZY_SUSAN, DOUBLE_HELPING, SEND_IT_BACK, SWITCH_PLATES, PEEK, EXTRA_HUNGRY, CHANGE_OF_HEART, SHARP_ELBOWS = range(8)
DERBY_KINDS: Final[tuple[DerbyKind, ...]] = (
    DerbyKind("lazy-susan", "Lazy Susan", "rotate the carts one position counter-clockwise"),
    DerbyKind("double-helping", "Double Helping", "put two of your markers on one table dish (room permitting)"),
    DerbyKind("send-it-back", "Send It Back", "return one table dish with no markers to the bottom of its cart"),
    DerbyKind("switch-plates", "Switch Plates", "move one of your markers from one table dish to another with room"),
    DerbyKind(
        "peek-in-the-kitchen",
        "Peek in the Kitchen",
        "look at the top 3 cards of the cart in front of you and put them back in any order",
    ),
    DerbyKind("extra-hungry", "Extra Hungry", "take 2 more actions this turn"),
    DerbyKind(
        "change-of-heart",
        "Change of Heart",
        "swap one of your yen cards that has no portions with the top card of that yen deck",
    ),
    DerbyKind("sharp-elbows", "Sharp Elbows", "discard one opponent's marker from a table dish (it is lost to them)"),
)
DERBY_COPIES: Final = 2
DERBY_CARDS: Final = len(DERBY_KINDS) * DERBY_COPIES  # 16
DERBY_KIND: Final[tuple[int, ...]] = tuple(card // DERBY_COPIES for card in range(DERBY_CARDS))
