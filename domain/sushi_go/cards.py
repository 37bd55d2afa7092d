"""The 108 cards of Sushi Go!: kinds, slugs, counts, and precomputed tables indexed by card id.

Every physical card has a unique id (0..107); ids are grouped by kind in the order of `CARD_TYPES`,
so `KIND[card_id]` is the card's kind and `CARD_TYPES[kind].first_id` its first id. The hot paths
(rules, scoring, bots) work on ints only.
"""

from __future__ import annotations

import msgspec

# Kinds, as small ints (indices into CARD_TYPES).
TEMPURA = 0
SASHIMI = 1
DUMPLING = 2
MAKI_1 = 3
MAKI_2 = 4
MAKI_3 = 5
SALMON_NIGIRI = 6
SQUID_NIGIRI = 7
EGG_NIGIRI = 8
PUDDING = 9
WASABI = 10
CHOPSTICKS = 11


class CardType(msgspec.Struct, frozen=True):
    kind: int
    slug: str
    name: str
    count: int
    scoring: str
    first_id: int


_MAKI = "most icons 6 points, second most 3 (ties split, rounded down; a tie for most: no second)"
_TYPES: tuple[tuple[str, str, int, str], ...] = (
    ("tempura", "Tempura", 14, "5 points per pair"),
    ("sashimi", "Sashimi", 14, "10 points per set of 3"),
    ("dumpling", "Dumpling", 14, "1/3/6/10/15 points for 1/2/3/4/5+ dumplings"),
    ("maki-1", "Maki Roll (1)", 6, f"1 maki icon; {_MAKI}"),
    ("maki-2", "Maki Roll (2)", 12, f"2 maki icons; {_MAKI}"),
    ("maki-3", "Maki Roll (3)", 8, f"3 maki icons; {_MAKI}"),
    ("salmon-nigiri", "Salmon Nigiri", 10, "2 points (6 on a wasabi)"),
    ("squid-nigiri", "Squid Nigiri", 5, "3 points (9 on a wasabi)"),
    ("egg-nigiri", "Egg Nigiri", 5, "1 point (3 on a wasabi)"),
    (
        "pudding",
        "Pudding",
        10,
        "kept until the end of the game: most puddings +6, fewest -6 (no penalty with 2 players); "
        "ties split, rounded down",
    ),
    ("wasabi", "Wasabi", 6, "triples the next nigiri played on it"),
    (
        "chopsticks",
        "Chopsticks",
        4,
        "on a later turn, take two cards from the hand; the chopsticks go back into the hand",
    ),
)


def _build() -> tuple[tuple[CardType, ...], tuple[int, ...]]:
    types: list[CardType] = []
    kinds: list[int] = []
    for kind, (slug, name, count, scoring) in enumerate(_TYPES):
        types.append(CardType(kind, slug, name, count, scoring, first_id=len(kinds)))
        kinds.extend([kind] * count)
    return tuple(types), tuple(kinds)


CARD_TYPES, KIND = _build()
DECK_SIZE = len(KIND)
assert DECK_SIZE == 108
#: Every card id, ascending: the deck before the first deal.
ALL_CARDS: tuple[int, ...] = tuple(range(DECK_SIZE))
SLUG_TO_KIND: dict[str, int] = {t.slug: t.kind for t in CARD_TYPES}

#: Maki icons by kind.
MAKI_ICONS: tuple[int, ...] = tuple({MAKI_1: 1, MAKI_2: 2, MAKI_3: 3}.get(kind, 0) for kind in range(len(CARD_TYPES)))
#: Nigiri points by kind (0 for every other kind).
NIGIRI_POINTS: tuple[int, ...] = tuple(
    {EGG_NIGIRI: 1, SALMON_NIGIRI: 2, SQUID_NIGIRI: 3}.get(kind, 0) for kind in range(len(CARD_TYPES))
)
#: Whether each card id is a pudding / a chopsticks (by id, for the hot paths).
IS_PUDDING: tuple[bool, ...] = tuple(kind == PUDDING for kind in KIND)
#: Maki icons by card id.
CARD_ICONS: tuple[int, ...] = tuple(MAKI_ICONS[kind] for kind in KIND)
IS_CHOPSTICKS: tuple[bool, ...] = tuple(kind == CHOPSTICKS for kind in KIND)
CHOPSTICKS_IDS: frozenset[int] = frozenset(card for card, kind in enumerate(KIND) if kind == CHOPSTICKS)

#: Cards dealt per player and round, by player count (6 players: rules version 2 on).
DEAL: dict[int, int] = {2: 10, 3: 9, 4: 8, 5: 7, 6: 8}
MIN_PLAYERS = min(DEAL)
MAX_PLAYERS = max(DEAL)
#: The most players of each rules version (version 1 took 2-5).
MAX_PLAYERS_BY_RULES: dict[int, int] = {1: 5, 2: 6}
ROUNDS = 3


def slug(card_id: int) -> str:
    return CARD_TYPES[KIND[card_id]].slug


def card_ids(kind: int) -> range:
    """The ids of every card of one kind."""
    card_type = CARD_TYPES[kind]
    return range(card_type.first_id, card_type.first_id + card_type.count)
