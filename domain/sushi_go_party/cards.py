"""The cards of Sushi Go Party!: card types, their variants (slugs), counts, and precomputed tables.

Every physical card of the box has a unique id (0..180), grouped by type in the order of `TYPES`
and by variant inside a type, so a game refers to its cards by id whatever its menu. A card's
*slug* names its variant (`maki-3`, `fruit-wp`); its *type* names the menu item (`maki`, `fruit`).
Single-variant types have slug == type (`tempura`). In a tableau a card scores as a slug: its own,
the slug it copies (special order), or `face-down` (flipped by a takeout box: 2 points, nothing else).

Background colours: every type has its own colour group, named after the type; wasabi shares the
`nigiri` group. A face-down card has no colour.
"""

from __future__ import annotations

import msgspec

ROUNDS = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 8
FACE_DOWN = "face-down"
#: Points of a face-down card (flipped by a takeout box).
FACE_DOWN_POINTS = 2

ROLLS: tuple[str, ...] = ("maki", "temaki", "uramaki")
APPETIZERS: tuple[str, ...] = (
    "tempura",
    "sashimi",
    "dumpling",
    "eel",
    "tofu",
    "onigiri",
    "edamame",
    "miso-soup",
)
SPECIALS: tuple[str, ...] = (
    "chopsticks",
    "spoon",
    "menu",
    "takeout-box",
    "special-order",
    "tea",
    "wasabi",
    "soy-sauce",
)
DESSERTS: tuple[str, ...] = ("pudding", "green-tea-ice-cream", "fruit")


class Variant(msgspec.Struct, frozen=True):
    slug: str
    name: str
    count: int


class CardType(msgspec.Struct, frozen=True):
    type: str
    name: str
    group: str  # "nigiri" | "roll" | "appetizer" | "special" | "dessert"
    colour: str
    scoring: str
    variants: tuple[Variant, ...]


def _one(slug: str, name: str, count: int) -> tuple[Variant, ...]:
    return (Variant(slug, name, count),)


_MAKI = (
    "most maki icons 6, second most 3 (with 6-8 players: 6/4/2); ties get full points and a tie "
    "does not use up the next place; needs at least 1 icon"
)
_URAMAKI = (
    "the first to reach 10 uramaki icons this round scores 8 at once and discards their uramaki, "
    "then 5, then 2; at round end unclaimed places go to the most remaining icons"
)
_ONIGIRI = "each set of different shapes: 1/4/9/16 points for 1/2/3/4 shapes; several sets allowed"
_FRUIT = "game end: per fruit kind, 0/1/2/3/4/5+ icons score -2/0/1/3/6/10"

TYPES: tuple[CardType, ...] = (
    CardType(
        "nigiri",
        "Nigiri",
        "nigiri",
        "nigiri",
        "egg 1, salmon 2, squid 3 points; x3 on a wasabi",
        (
            Variant("egg-nigiri", "Egg Nigiri", 4),
            Variant("salmon-nigiri", "Salmon Nigiri", 5),
            Variant("squid-nigiri", "Squid Nigiri", 3),
        ),
    ),
    CardType(
        "maki",
        "Maki",
        "roll",
        "maki",
        _MAKI,
        (
            Variant("maki-1", "Maki (1 icon)", 4),
            Variant("maki-2", "Maki (2 icons)", 5),
            Variant("maki-3", "Maki (3 icons)", 3),
        ),
    ),
    CardType(
        "temaki",
        "Temaki",
        "roll",
        "temaki",
        "most temaki +4, fewest -4 (0 counts; no penalty with 2 players); ties get full points",
        _one("temaki", "Temaki", 12),
    ),
    CardType(
        "uramaki",
        "Uramaki",
        "roll",
        "uramaki",
        _URAMAKI,
        (
            Variant("uramaki-3", "Uramaki (3 icons)", 4),
            Variant("uramaki-4", "Uramaki (4 icons)", 4),
            Variant("uramaki-5", "Uramaki (5 icons)", 4),
        ),
    ),
    CardType("tempura", "Tempura", "appetizer", "tempura", "5 points per pair", _one("tempura", "Tempura", 8)),
    CardType("sashimi", "Sashimi", "appetizer", "sashimi", "10 points per set of 3", _one("sashimi", "Sashimi", 8)),
    CardType(
        "dumpling",
        "Dumpling",
        "appetizer",
        "dumpling",
        "1/3/6/10/15 points for 1/2/3/4/5+ dumplings",
        _one("dumpling", "Dumpling", 8),
    ),
    CardType("eel", "Eel", "appetizer", "eel", "1 eel -3 points; 2 or more 7 points", _one("eel", "Eel", 8)),
    CardType("tofu", "Tofu", "appetizer", "tofu", "1 tofu 2 points, 2 tofu 6, 3 or more 0", _one("tofu", "Tofu", 8)),
    CardType(
        "onigiri",
        "Onigiri",
        "appetizer",
        "onigiri",
        _ONIGIRI,
        (
            Variant("onigiri-circle", "Onigiri (circle)", 2),
            Variant("onigiri-triangle", "Onigiri (triangle)", 2),
            Variant("onigiri-square", "Onigiri (square)", 2),
            Variant("onigiri-rectangle", "Onigiri (rectangle)", 2),
        ),
    ),
    CardType(
        "edamame",
        "Edamame",
        "appetizer",
        "edamame",
        "each edamame: 1 point per opponent with any edamame, at most 4",
        _one("edamame", "Edamame", 8),
    ),
    CardType(
        "miso-soup",
        "Miso Soup",
        "appetizer",
        "miso-soup",
        "3 points, but if more than one miso soup is played in a turn (by any means) all are discarded",
        _one("miso-soup", "Miso Soup", 8),
    ),
    CardType(
        "chopsticks",
        "Chopsticks",
        "special",
        "chopsticks",
        "on a later turn call them at the reveal: after seeing every revealed card, play a second "
        "card from your hand; the chopsticks go into that hand",
        _one("chopsticks", "Chopsticks", 3),
    ),
    CardType(
        "spoon",
        "Spoon",
        "special",
        "spoon",
        "on a later turn call it at the reveal, then name a card type or variant: going left, the first "
        "player holding one gives it to you (you play it) and takes the spoon into their hand; "
        "nobody: the spoon is discarded",
        _one("spoon", "Spoon", 3),
    ),
    CardType(
        "menu",
        "Menu",
        "special",
        "menu",
        "when played: draw 4 cards from the deck, play 1 (not a menu), return the others; the menu is discarded",
        _one("menu", "Menu", 3),
    ),
    CardType(
        "takeout-box",
        "Takeout Box",
        "special",
        "takeout-box",
        "when played: flip any of your earlier cards of this round face down (2 points each, nothing "
        "else); the box is discarded",
        _one("takeout-box", "Takeout Box", 3),
    ),
    CardType(
        "special-order",
        "Special Order",
        "special",
        "special-order",
        "when played: becomes a copy of a card you played earlier this round (nothing to copy: discarded)",
        _one("special-order", "Special Order", 3),
    ),
    CardType(
        "tea",
        "Tea",
        "special",
        "tea",
        "1 point per card in your largest set of one background colour",
        _one("tea", "Tea", 3),
    ),
    CardType(
        "wasabi",
        "Wasabi",
        "special",
        "nigiri",
        "the next nigiri you play goes on it and scores x3",
        _one("wasabi", "Wasabi", 3),
    ),
    CardType(
        "soy-sauce",
        "Soy Sauce",
        "special",
        "soy-sauce",
        "4 points if you have the most (or tied most) background colours this round",
        _one("soy-sauce", "Soy Sauce", 3),
    ),
    CardType(
        "pudding",
        "Pudding",
        "dessert",
        "pudding",
        "game end: most +6, fewest -6 (no penalty with 2 players); ties get full points",
        _one("pudding", "Pudding", 15),
    ),
    CardType(
        "green-tea-ice-cream",
        "Green Tea Ice Cream",
        "dessert",
        "green-tea-ice-cream",
        "game end: 12 points per 4",
        _one("green-tea-ice-cream", "Green Tea Ice Cream", 15),
    ),
    CardType(
        "fruit",
        "Fruit",
        "dessert",
        "fruit",
        _FRUIT,
        (
            Variant("fruit-ww", "Fruit (watermelon, watermelon)", 2),
            Variant("fruit-pp", "Fruit (pineapple, pineapple)", 2),
            Variant("fruit-oo", "Fruit (orange, orange)", 2),
            Variant("fruit-wp", "Fruit (watermelon, pineapple)", 3),
            Variant("fruit-po", "Fruit (pineapple, orange)", 3),
            Variant("fruit-wo", "Fruit (watermelon, orange)", 3),
        ),
    ),
)

TYPE_BY_NAME: dict[str, CardType] = {card_type.type: card_type for card_type in TYPES}

# --- per card id ----------------------------------------------------------------------------------

_slugs: list[str] = []
_types: list[str] = []
for _card_type in TYPES:
    for _variant in _card_type.variants:
        _slugs.extend([_variant.slug] * _variant.count)
        _types.extend([_card_type.type] * _variant.count)

#: The slug of every card id.
SLUG: tuple[str, ...] = tuple(_slugs)
#: The type of every card id.
TYPE: tuple[str, ...] = tuple(_types)
CARD_COUNT = len(SLUG)

#: Card ids of each type, ascending.
TYPE_IDS: dict[str, tuple[int, ...]] = {
    card_type.type: tuple(card for card in range(CARD_COUNT) if TYPE[card] == card_type.type) for card_type in TYPES
}
#: Card ids of each slug, ascending.
SLUG_IDS: dict[str, tuple[int, ...]] = {
    variant.slug: tuple(card for card in range(CARD_COUNT) if SLUG[card] == variant.slug)
    for card_type in TYPES
    for variant in card_type.variants
}

#: Order numbers of the special cards that act in turn order (lowest first). Printed: chopsticks 1-3,
#: spoon 4-6, menu 7-9, takeout box 10-12. Special orders are unnumbered on the cards; we number
#: them 13-15 so that one copying chopsticks or a spoon resolves after every printed number.
_numbered = ("chopsticks", "spoon", "menu", "takeout-box", "special-order")
_numbers = [0] * CARD_COUNT
for _index, _name in enumerate(_numbered):
    for _offset, _card in enumerate(TYPE_IDS[_name]):
        _numbers[_card] = 3 * _index + _offset + 1
NUMBER: tuple[int, ...] = tuple(_numbers)

# --- per slug -------------------------------------------------------------------------------------

#: The type of every slug (and of `face-down`, which is its own pseudo type).
SLUG_TYPE: dict[str, str] = {variant.slug: card_type.type for card_type in TYPES for variant in card_type.variants}
SLUG_TYPE[FACE_DOWN] = FACE_DOWN
#: Background colour group of every slug; a face-down card has none.
COLOUR: dict[str, str] = {variant.slug: card_type.colour for card_type in TYPES for variant in card_type.variants}
NIGIRI_POINTS: dict[str, int] = {"egg-nigiri": 1, "salmon-nigiri": 2, "squid-nigiri": 3}
MAKI_ICONS: dict[str, int] = {"maki-1": 1, "maki-2": 2, "maki-3": 3}
URAMAKI_ICONS: dict[str, int] = {"uramaki-3": 3, "uramaki-4": 4, "uramaki-5": 5}
ONIGIRI_SHAPES: tuple[str, ...] = ("onigiri-circle", "onigiri-triangle", "onigiri-square", "onigiri-rectangle")
#: Icons of each fruit card: (watermelon, pineapple, orange).
FRUIT_ICONS: dict[str, tuple[int, int, int]] = {
    "fruit-ww": (2, 0, 0),
    "fruit-pp": (0, 2, 0),
    "fruit-oo": (0, 0, 2),
    "fruit-wp": (1, 1, 0),
    "fruit-po": (0, 1, 1),
    "fruit-wo": (1, 0, 1),
}
DESSERT_SLUGS: frozenset[str] = frozenset(variant.slug for name in DESSERTS for variant in TYPE_BY_NAME[name].variants)
#: Slugs a special order may not copy: one-shot cards that leave the tableau, and face-down cards.
NOT_COPYABLE: frozenset[str] = frozenset({"menu", "takeout-box", "special-order", FACE_DOWN})
#: Every name a spoon may ask for: a type (the giver picks which variant) or a variant.
REQUESTS: frozenset[str] = frozenset(SLUG_TYPE) - {FACE_DOWN} | frozenset(TYPE_BY_NAME)

# --- players --------------------------------------------------------------------------------------

#: Cards dealt per player, by player count.
DEAL: dict[int, int] = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}
#: Desserts shuffled into the deck before rounds 1, 2, 3, by player count.
DESSERTS_PER_ROUND: dict[int, tuple[int, int, int]] = {
    players: ((5, 3, 2) if players <= 5 else (7, 5, 3)) for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
#: Types that may not be in the menu for some player counts: type -> allowed player counts.
RESTRICTED: dict[str, tuple[int, ...]] = {
    "menu": (2, 3, 4, 5, 6),
    "special-order": (2, 3, 4, 5, 6),
    "spoon": (3, 4, 5, 6, 7, 8),
    "edamame": (3, 4, 5, 6, 7, 8),
}
#: 2-player variant: cards dealt, then one card drawn at the start of each of these turns.
TWO_PLAYER_DEAL = 5
TWO_PLAYER_DRAW_TURNS: tuple[int, ...] = (2, 3, 4, 5, 6)
#: Uramaki places: points of the first, second and third to reach 10 icons.
URAMAKI_PLACES: tuple[int, ...] = (8, 5, 2)
URAMAKI_GOAL = 10


def allowed(type_name: str, players: int) -> bool:
    """Whether a card type may be on the menu with this many players."""
    return players in RESTRICTED.get(type_name, range(MIN_PLAYERS, MAX_PLAYERS + 1))
