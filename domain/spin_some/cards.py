"""The house composition: every card, its count, its dish kind and the 15 special plates.

The seed gives the card kinds and their scoring but not the per-card counts nor the plates' contents;
this module is our decision, kept as the one data table so that a corrected composition is a one-file
change. Card ids are assigned in table order (0..104): an id names one physical card.
"""

from __future__ import annotations

from typing import Final

import msgspec

#: Dish kinds, as printed on special plates (both sesame ball sizes are the dish "sesame").
DISHES: Final = ("sesame", "turnip", "tart", "shumai", "shrimp", "chive", "bun")
DISH_NAMES: Final = {
    "sesame": "Sesame Ball (either size)",
    "turnip": "Turnip Cake",
    "tart": "Egg Tart",
    "shumai": "Shumai Dumpling",
    "shrimp": "Shrimp Dumpling",
    "chive": "Chive Dumpling",
    "bun": "Steamed Bun",
}


class CardKind(msgspec.Struct, frozen=True):
    slug: str
    name: str
    count: int
    #: The dish kind it counts as on special plates; None for the plates themselves.
    dish: str | None
    scoring: str
    #: For a special plate, its four dish kinds.
    plate: tuple[str, ...] = ()


_DISH_CARDS: Final = (
    CardKind("small-sesame-ball", "Small Sesame Ball", 10, "sesame", "1 point each"),
    CardKind("large-sesame-ball", "Large Sesame Ball", 6, "sesame", "2 points each"),
    CardKind("turnip-cake", "Turnip Cake", 12, "turnip", "2 points each if you have an odd number of them, else 0"),
    CardKind("egg-tart", "Egg Tart", 12, "tart", "1/2/5/9/15 points in total for 1/2/3/4/5+ tarts"),
    CardKind("shumai-dumpling", "Shumai Dumpling", 14, "shumai", "12 points per set of 4"),
    CardKind("shrimp-dumpling", "Shrimp Dumpling", 12, "shrimp", "7 points per set of 3"),
    CardKind("chive-dumpling", "Chive Dumpling", 12, "chive", "4 points per pair"),
    CardKind(
        "steamed-bun",
        "Steamed Bun",
        12,
        "bun",
        "most: +3 (a tie for most: only the squishy-bun holder among them, or all of them if none holds"
        " it); fewest (0 counts): -3 each; nobody scores if everyone has the same number."
        " Taking one also takes the squishy bun.",
    ),
)

#: The 15 special plates (decided): 15 of the 35 four-dish combinations, every dish on 8 or 9 plates,
#: every pair of dishes on 3 to 5 plates.
PLATE_DISHES: Final[tuple[tuple[str, str, str, str], ...]] = (
    ("sesame", "turnip", "tart", "chive"),
    ("sesame", "turnip", "shumai", "chive"),
    ("sesame", "turnip", "shrimp", "bun"),
    ("sesame", "turnip", "chive", "bun"),
    ("sesame", "tart", "shumai", "shrimp"),
    ("sesame", "tart", "shrimp", "bun"),
    ("sesame", "shumai", "shrimp", "chive"),
    ("sesame", "shumai", "chive", "bun"),
    ("turnip", "tart", "shumai", "shrimp"),
    ("turnip", "tart", "shumai", "bun"),
    ("turnip", "tart", "shrimp", "chive"),
    ("turnip", "shumai", "shrimp", "bun"),
    ("tart", "shumai", "chive", "bun"),
    ("tart", "shrimp", "chive", "bun"),
    ("shumai", "shrimp", "chive", "bun"),
)


def _plate(dishes: tuple[str, ...]) -> CardKind:
    return CardKind(
        slug="special-plate-" + "-".join(dishes),
        name="Special Plate: " + ", ".join(DISH_NAMES[d] for d in dishes),
        count=1,
        dish=None,
        scoring="4 points per complete set of its 4 dishes on your menu; a dish card may also count"
        " toward other plates",
        plate=dishes,
    )


#: The composition table: 8 dish cards (90 cards) and 15 one-off special plates: 105 cards.
COMPOSITION: Final[tuple[CardKind, ...]] = (*_DISH_CARDS, *(_plate(d) for d in PLATE_DISHES))

# ---- derived tables (ints for speed) -------------------------------------------------------------

KIND_COUNT: Final = len(COMPOSITION)
SLUGS: Final = tuple(kind.slug for kind in COMPOSITION)
KIND_BY_SLUG: Final = {kind.slug: index for index, kind in enumerate(COMPOSITION)}

SMALL_SESAME: Final = KIND_BY_SLUG["small-sesame-ball"]
LARGE_SESAME: Final = KIND_BY_SLUG["large-sesame-ball"]
TURNIP: Final = KIND_BY_SLUG["turnip-cake"]
EGG_TART: Final = KIND_BY_SLUG["egg-tart"]
SHUMAI: Final = KIND_BY_SLUG["shumai-dumpling"]
SHRIMP: Final = KIND_BY_SLUG["shrimp-dumpling"]
CHIVE: Final = KIND_BY_SLUG["chive-dumpling"]
STEAMED_BUN: Final = KIND_BY_SLUG["steamed-bun"]
FIRST_PLATE: Final = len(_DISH_CARDS)

#: For each dish (index in DISHES), the kinds (indices in COMPOSITION) that count as it.
DISH_KINDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, kind in enumerate(COMPOSITION) if kind.dish == dish) for dish in DISHES
)
#: For each plate kind index - FIRST_PLATE, the dish indices it needs.
PLATE_DISH_INDICES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(DISHES.index(d) for d in dishes) for dishes in PLATE_DISHES
)

#: Card id -> kind index; ids run through the composition table in order.
CARD_KIND: Final[tuple[int, ...]] = tuple(i for i, kind in enumerate(COMPOSITION) for _ in range(kind.count))
CARD_SLUG: Final[tuple[str, ...]] = tuple(SLUGS[k] for k in CARD_KIND)
DECK: Final[tuple[int, ...]] = tuple(range(len(CARD_KIND)))
#: The first card id of each kind.
FIRST_ID: Final[tuple[int, ...]] = tuple(CARD_KIND.index(k) for k in range(KIND_COUNT))

assert len(DECK) == 105
assert len(set(PLATE_DISHES)) == 15 and all(len(set(d)) == 4 for d in PLATE_DISHES)
assert all(8 <= sum(dish in d for d in PLATE_DISHES) <= 9 for dish in DISHES)
