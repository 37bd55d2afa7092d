"""The observation layouts that docs/environments.md and each `games/<game>.py` document, written
out plainly over the views: what every game's one encoder (`GameSpec.observer`) must give."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kaiten.domain.dim_sum_derby.cards import (
    CARD_DISH,
    CART_TYPES,
    DERBY_KIND,
    DERBY_KINDS,
    DISHES,
    DISHES_PER_CART,
    PEEK_DEPTH,
    SLOTS,
    TABLE_LIMIT,
    slot_of,
)
from kaiten.domain.dim_sum_derby.view import DerbyView
from kaiten.domain.spin_some.cards import CARD_KIND, KIND_COUNT
from kaiten.domain.spin_some.state import BASKETS
from kaiten.domain.spin_some.view import SpinView
from kaiten.domain.sushi_go.cards import KIND, NIGIRI_POINTS, WASABI
from kaiten.domain.sushi_go.view import SushiGoView
from kaiten.domain.sushi_go_party.cards import DESSERT_SLUGS, FACE_DOWN, SLUG, TYPES
from kaiten.domain.sushi_go_party.view import PartyView


def in_turn(seat: int, players: int) -> list[int]:
    """Every seat in turn from `seat`."""
    return [(seat + offset) % players for offset in range(players)]


def sushi_go(view: SushiGoView, seat: int, players: int) -> list[float]:
    kinds = 12
    out = [float(view.round), float(view.turn), float(view.hand_size)] + [0.0] * kinds
    for card in view.hand:
        out[3 + KIND[card]] += 1
    for other in in_turn(seat, players):
        block = [0.0] * (kinds + 3)
        uncovered = 0
        for card in view.tableaus[other] if view.tableaus else ():
            block[KIND[card]] += 1
            if KIND[card] == WASABI:
                uncovered += 1
            elif NIGIRI_POINTS[KIND[card]] and uncovered:
                uncovered -= 1
        if view.tableaus:
            block[kinds:] = [uncovered, len(view.puddings[other]), view.totals[other]]
        out += block
    return out


PARTY_SLUGS = [variant.slug for card_type in TYPES for variant in card_type.variants]
PARTY_DESSERTS = [slug for slug in PARTY_SLUGS if slug in DESSERT_SLUGS]
PARTY_PHASES = ["select", "pick", "resolve", "over"]
PARTY_PROMPTS = ["copy", "chopsticks", "spoon", "give", "menu", "flip"]


def _one_hot(size: int, index: int | None) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def _per_slug(cards: Any) -> list[float]:
    out = [0.0] * len(PARTY_SLUGS)
    for card in cards:
        out[PARTY_SLUGS.index(SLUG[card])] += 1
    return out


def sushi_go_party(view: PartyView, seat: int, players: int) -> list[float]:
    out = _one_hot(len(PARTY_PHASES), PARTY_PHASES.index(view.phase))
    out += [view.round, view.turn, view.hand_size, view.deck_size, view.dessert_pile_size, view.passing == "right"]
    menu = [0.0] * len(TYPES)
    for name in view.menu.types() if view.menu is not None else ():
        menu[[card_type.type for card_type in TYPES].index(name)] = 1.0
    out += menu + _per_slug(view.hand or ())
    prompt = view.prompt
    asked = prompt is not None and prompt.seat == seat
    out += _one_hot(len(PARTY_PROMPTS), None if prompt is None else PARTY_PROMPTS.index(prompt.kind))
    out += [float(asked), *_per_slug((prompt.options or ()) if asked and prompt is not None else ())]
    out.append(view.uramaki_next)
    for other in in_turn(seat, players):
        tableau = [0.0] * (len(PARTY_SLUGS) + 1)
        for _, slug, _ in view.tableaus[other]:
            tableau[len(PARTY_SLUGS) if slug == FACE_DOWN else PARTY_SLUGS.index(slug)] += 1
        fridge = [0.0] * len(PARTY_DESSERTS)
        for _, slug in view.fridges[other]:
            fridge[PARTY_DESSERTS.index(slug)] += 1
        out += tableau + fridge + [view.totals[other], view.uramaki_icons[other], view.uramaki_points[other]]
    return out


def spin_some(view: SpinView, seat: int, players: int) -> list[float]:
    out: list[float] = []
    here = view.players[seat].basket
    for offset in range(BASKETS):
        basket = view.baskets[(here + offset) % BASKETS]
        top = None if basket.top is None else CARD_KIND[basket.top]
        out += [*_one_hot(KIND_COUNT, top), basket.cards, basket.tokens]
    for other in in_turn(seat, players):
        player = view.players[other]
        menu = [0.0] * KIND_COUNT
        for card in player.menu:
            menu[CARD_KIND[card]] += 1
        out += [*menu, player.tokens, float(player.squishy_bun)]
    return [*out, float(view.squishy_bun is None), len(view.players[seat].menu)]


def dim_sum_derby(view: DerbyView, seat: int, players: int) -> list[float]:
    dishes = len(DISHES)
    slots: list[list[float]] = [[0.0] * (CART_TYPES + dishes + 2) for _ in range(SLOTS)]
    # The seat's own slot as the view shows it (the Kitchen's place depends on the rules version).
    mine = next((cart.slot for cart in view.carts if cart.seat == seat), slot_of(seat, view.first_player, players))
    for cart in view.carts:
        top = None if cart.top is None else CARD_DISH[cart.top]
        kitchen = float(cart.seat is None)
        slot = (cart.slot - mine) % SLOTS
        slots[slot] = [*_one_hot(CART_TYPES, cart.cart), *_one_hot(dishes, top), cart.size, kitchen]
    out = [number for slot in slots for number in slot]
    for place in range(TABLE_LIMIT):
        block = [0.0] * (1 + dishes + 1 + players)
        if place < len(view.table):
            dish = view.table[place]
            block[: 2 + dishes] = [1.0, *_one_hot(dishes, CARD_DISH[dish.card]), dish.portions - len(dish.markers)]
            for owner in dish.markers:
                block[2 + dishes + (owner - seat) % players] += 1
        out += block
    seats = {other.seat: other for other in view.seats}
    for other in in_turn(seat, players):
        shown = seats.get(other)
        if shown is None:
            out += [0.0] * (2 + CART_TYPES + CART_TYPES * (DISHES_PER_CART + 1) + 1)
            continue
        out += [shown.markers, shown.lost, *shown.portions]
        for yen in shown.yen:
            # A yen card's dish index runs through the carts' dishes in order, 5 per cart.
            out += _one_hot(DISHES_PER_CART + 1, DISHES_PER_CART if yen is None else yen % DISHES_PER_CART)
        out.append(shown.derby)
    hand = [0.0] * len(DERBY_KINDS)
    for card in view.hand:
        hand[DERBY_KIND[card]] += 1
    out += hand
    peek = [[0.0] * dishes for _ in range(PEEK_DEPTH)]
    for place, card in enumerate(view.peek):
        peek[place][CARD_DISH[card]] = 1.0
    out += [number for place in peek for number in place]
    out += [view.actions_left, view.turn, view.turn_limit, view.derby_deck]
    discarded = [0.0] * len(DERBY_KINDS)
    for card in view.derby_discard:
        discarded[DERBY_KIND[card]] += 1
    waiting = [0.0] * dishes
    for cards in view.dish_discards:
        for card in cards:
            waiting[CARD_DISH[card]] += 1
    yen_decks = list(view.yen_decks) or [0] * CART_TYPES
    return [*out, *discarded, *waiting, *yen_decks, float(view.arranging)]


#: Per game, `layout(view, seat, players)`: the view as the numbers of the seat's observation.
LAYOUTS: dict[str, Callable[[Any, int, int], list[float]]] = {
    "sushi-go": sushi_go,
    "sushi-go-party": sushi_go_party,
    "spin-some-for-dim-sum": spin_some,
    "dim-sum-derby": dim_sum_derby,
}
