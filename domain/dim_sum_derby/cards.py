"""Dim Sum Derby's components: dishes, portions, yen cards and Derby cards; the numbers of the rules;
and the geometry of the carts around the table.

The rules seed has no card lists; the cards are **house content** (our decision, see the rules spec),
and the top of this module is the only place to change when a corrected card list arrives.

Card ids (one int per physical card):
- dish cards 0..59: ``dish * COPIES + copy`` where ``dish`` indexes ``DISHES``;
- yen cards 0..19: the yen card of a dish has the dish's index;
- Derby cards 0..15: ``kind * DERBY_COPIES + copy`` where ``kind`` indexes ``DERBY_KINDS``.
"""

from __future__ import annotations

from functools import cache
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


# --- The numbers of the rules and the geometry of the carts -----------------------------------------
#
# Positions ("slots") are counted clockwise from the first player's: slot 0 is in front of the first
# player. There are always 4 carts and 4 slots; with 4 players every slot is a seat, with 3 players one
# slot *is* the Kitchen, where the parked cart waits. A cart that leaves (or passes through) the Kitchen
# is replenished. Where the Kitchen sits is the one thing the rules versions change here (`Layout`):
# - version 1 (kaiten 0.1.0): between the last seat and the first player, on the first player's right:
#   slots are the seats in turn order (3 players: then the Kitchen, slot 3); a cart moving clockwise
#   from slot 3 to slot 0 leaves it (counter-clockwise: 3 -> 2 with 3 players, 0 -> 3 with 4).
# - version 2 (seed 004: "directly to the left of the first player"): between the first player and the
#   second (the next seat clockwise): 3 players: first player, Kitchen, second, third (slots 0-3); a
#   cart moving clockwise from slot 0 to slot 1 (4 players) or from the Kitchen, slot 1, to slot 2 (3
#   players) leaves it, and `lazy-susan` mirrors it (1 -> 0 either way).
#
# Termination (decided): the rules let a table of players stall (nobody has to eat). A game also ends
# after ROUND_LIMIT rounds: when the turn that would start is turn ROUND_LIMIT * players + 1, play stops
# exactly as if a player had announced they were full (partly eaten dishes are scored, then the normal
# final scoring). This bounds every game to ROUND_LIMIT * players turns.

MARKERS: Final = 10

ACTIONS_PER_TURN: Final = 3

TABLE_LIMIT: Final = 5

DERBY_HAND_LIMIT: Final = 2

DRAW_DERBY_COST: Final = 2

EXTRA_HUNGRY_ACTIONS: Final = 2

PEEK_DEPTH: Final = 3

SLOTS: Final = 4

ROUND_LIMIT: Final = 60

#: Face-down card placeholder in redacted events.
HIDDEN: Final = -1


def turn_limit(players: int) -> int:
    return ROUND_LIMIT * players


class Layout(NamedTuple):
    """Where the Kitchen sits among the slots."""

    #: Per slot, the seat in front of it counted from the first player (0: the first player), None
    #: for the Kitchen.
    seats: tuple[int | None, ...]
    #: The slot whose cart leaves (or passes through) the Kitchen moving clockwise, and counter-clockwise.
    exit_cw: int
    exit_ccw: int


#: Where the Kitchen sits, in words: in rules version 1, and from version 2 on.
KITCHEN_RIGHT: Final = "on the first player's right"
KITCHEN_LEFT: Final = (
    "the Kitchen sits directly to the left of the first player (seed 004), between the first and the second "
    "player; lazy-susan mirrors it"
)


@cache
def layout(players: int, kitchen_left: bool) -> Layout:
    """Version 1 puts the Kitchen on the first player's right, version 2 on their left."""
    if kitchen_left:
        if players == 3:
            return Layout(seats=(0, None, 1, 2), exit_cw=1, exit_ccw=1)
        return Layout(seats=(0, 1, 2, 3), exit_cw=0, exit_ccw=1)
    if players == 3:
        return Layout(seats=(0, 1, 2, None), exit_cw=3, exit_ccw=3)
    return Layout(seats=(0, 1, 2, 3), exit_cw=3, exit_ccw=0)


def slot_of(seat: int, first_player: int, players: int, kitchen_left: bool = False) -> int:
    return layout(players, kitchen_left).seats.index((seat - first_player) % players)


def seat_at(slot: int, first_player: int, players: int, kitchen_left: bool = False) -> int | None:
    """The seat in front of a slot, or None for the Kitchen."""
    offset = layout(players, kitchen_left).seats[slot]
    return None if offset is None else (first_player + offset) % players


def rotate_slots(slots: tuple[int, ...], steps: int) -> tuple[int, ...]:
    """Carts by slot after moving ``steps`` (+1 clockwise, -1 counter-clockwise)."""
    return slots[-1:] + slots[:-1] if steps > 0 else slots[1:] + slots[:1]


def leaving_kitchen(slots: tuple[int, ...], steps: int, players: int, kitchen_left: bool = False) -> int:
    """The cart type that leaves (or passes through) the Kitchen on this rotation."""
    where = layout(players, kitchen_left)
    return slots[where.exit_cw if steps > 0 else where.exit_ccw]
