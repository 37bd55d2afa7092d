"""What the catalog shows of Sushi Go Party!: every card, the suggested menus, the numbers of the rules
and the decisions taken where the rules are silent (`Details`)."""

from __future__ import annotations

import msgspec

from kaiten.domain.sushi_go_party.cards import (
    DEAL,
    DESSERTS_PER_ROUND,
    FACE_DOWN_POINTS,
    FRUIT_ICONS,
    MAKI_ICONS,
    NIGIRI_POINTS,
    NUMBER,
    RESTRICTED,
    ROUNDS,
    SLUG_IDS,
    TYPES,
    URAMAKI_ICONS,
    URAMAKI_PLACES,
)
from kaiten.domain.sushi_go_party.options import MODES, SUGGESTED

#: The decisions of the rules spec, shown in the catalog.
DECISIONS: dict[str, str] = {
    "maki": "most 6, second 3; with 6-8 players 6/4/2; ties get full points and do not use up the next place",
    "temaki_and_pudding": "nobody scores when every count is equal (2 players too); no penalty with 2 players",
    "uramaki": "places during play at the end of each turn; the unclaimed ones at round end to the most "
    "remaining icons (at least 1), tied seats each using up a place",
    "special_order_colours": "a special order's copy counts with the copied card's colour for tea and soy sauce",
    "flipped_wasabi": "a wasabi flipped by a takeout box no longer triples its nigiri",
    "miso_soup": "discarded when two or more different players play miso soup in the same turn (rules "
    "version 1: when more than one is played)",
    "takeout_box": "flips any earlier face-up cards of this round, desserts included: a flipped dessert is "
    "worth 2 and is no dessert (rules version 1: no desserts)",
}


class Fruit(msgspec.Struct, frozen=True):
    watermelon: int
    pineapple: int
    orange: int


class CardKind(msgspec.Struct, frozen=True, omit_defaults=True):
    """One card of the box; the numbers it carries, where it has them."""

    slug: str
    name: str
    #: The card type it belongs to (a menu names types: `maki` holds maki-1, maki-2 and maki-3).
    type: str
    #: The menu slot of its type: roll, appetizer, special, dessert (or nigiri, always on the menu).
    group: str
    count: int
    #: The colour it counts as for tea and soy sauce.
    colour: str
    scoring: str
    ids: list[int]
    #: The numbers printed on its copies (special cards played in this order), by id.
    order: list[int] | msgspec.UnsetType = msgspec.UNSET
    #: A nigiri's points.
    points: int | msgspec.UnsetType = msgspec.UNSET
    #: A maki or uramaki card's icons.
    icons: int | msgspec.UnsetType = msgspec.UNSET
    #: A fruit card's icons.
    fruit: Fruit | msgspec.UnsetType = msgspec.UNSET


class FaceDown(msgspec.Struct, frozen=True):
    """A card flipped face down by a takeout box."""

    slug: str
    points: int
    scoring: str


class PlayerRange(msgspec.Struct, frozen=True):
    min: int
    max: int


class MenuEntry(msgspec.Struct, frozen=True):
    """A suggested menu: one roll, three appetizers, two specials and a dessert, by card type."""

    id: str
    name: str
    roll: str
    appetizers: list[str]
    specials: list[str]
    dessert: str
    players: PlayerRange
    description: str


class MenuShape(msgspec.Struct, frozen=True):
    roll: int
    appetizers: int
    specials: int
    dessert: int


class Variants(msgspec.Struct, frozen=True):
    pass_both_ways: str
    two_player_variant: str


class Details(msgspec.Struct, frozen=True):
    cards: list[CardKind]
    face_down: FaceDown
    menus: list[MenuEntry]
    menu_modes: list[str]
    menu_shape: MenuShape
    #: The card types a menu may hold only at these player counts.
    restrictions: dict[str, list[int]]
    rounds: int
    #: Cards dealt to each hand, by player count.
    deal: dict[str, int]
    #: Desserts added to the deck each round, by player count.
    desserts_per_round: dict[str, list[int]]
    uramaki_places: list[int]
    variants: Variants
    tie_break: str
    decisions: dict[str, str]


def _card_kinds() -> list[CardKind]:
    cards: list[CardKind] = []
    for card_type in TYPES:
        for variant in card_type.variants:
            slug = variant.slug
            ids = SLUG_IDS[slug]
            numbers = [NUMBER[card] for card in ids if NUMBER[card]]
            fruit = FRUIT_ICONS.get(slug)
            cards.append(
                CardKind(
                    slug=slug,
                    name=variant.name,
                    type=card_type.type,
                    group=card_type.group,
                    count=variant.count,
                    colour=card_type.colour,
                    scoring=card_type.scoring,
                    ids=list(ids),
                    order=numbers or msgspec.UNSET,
                    points=NIGIRI_POINTS.get(slug, msgspec.UNSET),
                    icons=URAMAKI_ICONS.get(slug, MAKI_ICONS.get(slug, msgspec.UNSET)),
                    fruit=msgspec.UNSET if fruit is None else Fruit(*fruit),
                )
            )
    return cards


def details() -> Details:
    return Details(
        cards=_card_kinds(),
        face_down=FaceDown(slug="face-down", points=FACE_DOWN_POINTS, scoring="a card flipped by a takeout box"),
        menus=[
            MenuEntry(
                id=menu.id,
                name=menu.name,
                roll=menu.roll,
                appetizers=list(menu.appetizers),
                specials=list(menu.specials),
                dessert=menu.dessert,
                players=PlayerRange(min=menu.min_players, max=menu.max_players),
                description=menu.description,
            )
            for menu in SUGGESTED
        ],
        menu_modes=list(MODES),
        menu_shape=MenuShape(roll=1, appetizers=3, specials=2, dessert=1),
        restrictions={name: list(players) for name, players in RESTRICTED.items()},
        rounds=ROUNDS,
        deal={str(players): size for players, size in DEAL.items()},
        desserts_per_round={str(players): list(counts) for players, counts in DESSERTS_PER_ROUND.items()},
        uramaki_places=list(URAMAKI_PLACES),
        variants=Variants(
            pass_both_ways="rounds 1 and 3 pass left, round 2 passes right",
            two_player_variant="2 players: 5 cards dealt, then 1 drawn at the start of turns 2-6, every round",
        ),
        tie_break="most dessert cards (the fridge); still tied: shared victory",
        decisions=DECISIONS,
    )
