"""What the catalog shows of Spin Some for Dim Sum: its cards, dishes and plates (`Details`)."""

from __future__ import annotations

import msgspec

from kaiten.domain.spin_some.cards import COMPOSITION, DISH_KINDS, DISH_NAMES, DISHES, FIRST_ID
from kaiten.domain.spin_some.scoring import CATEGORIES
from kaiten.domain.spin_some.state import BASKETS, MENU_SIZE, STARTING_TOKENS, TOKENS_IN_BOX


class CardKind(msgspec.Struct, frozen=True):
    slug: str
    name: str
    count: int
    scoring: str
    #: The dish the card belongs to, if any.
    dish: str | None
    #: The first and the last id of its copies.
    ids: tuple[int, int]


class Dish(msgspec.Struct, frozen=True):
    dish: str
    name: str
    #: The slugs of the dish's cards.
    cards: list[str]


class SpecialPlate(msgspec.Struct, frozen=True):
    slug: str
    name: str
    #: The dishes the plate counts as.
    dishes: list[str]


class HouseContent(msgspec.Struct, frozen=True):
    """Which parts of the game are the project's own decisions, where the rules seed is silent."""

    composition: bool
    special_plates: bool
    empty_basket_rule: bool
    note: str


class Details(msgspec.Struct, frozen=True):
    cards: list[CardKind]
    dishes: list[Dish]
    special_plates: list[SpecialPlate]
    house_content: HouseContent
    baskets: int
    menu_size: int
    chopsticks_tokens_per_player: int
    chopsticks_tokens_in_box: int
    score_categories: list[str]


def details() -> Details:
    return Details(
        cards=[
            CardKind(
                slug=kind.slug,
                name=kind.name,
                count=kind.count,
                scoring=kind.scoring,
                dish=kind.dish,
                ids=(FIRST_ID[index], FIRST_ID[index] + kind.count - 1),
            )
            for index, kind in enumerate(COMPOSITION)
        ],
        dishes=[
            Dish(dish=dish, name=DISH_NAMES[dish], cards=[COMPOSITION[kind].slug for kind in DISH_KINDS[index]])
            for index, dish in enumerate(DISHES)
        ],
        special_plates=[
            SpecialPlate(slug=kind.slug, name=kind.name, dishes=list(kind.plate)) for kind in COMPOSITION if kind.plate
        ],
        house_content=HouseContent(
            composition=True,
            special_plates=True,
            empty_basket_rule=True,
            note="The seed gives neither the per-card counts nor the plates' dishes, nor what"
            " happens at an empty basket: these are house decisions, kept in one data table.",
        ),
        baskets=BASKETS,
        menu_size=MENU_SIZE,
        chopsticks_tokens_per_player=STARTING_TOKENS,
        chopsticks_tokens_in_box=TOKENS_IN_BOX,
        score_categories=list(CATEGORIES),
    )
